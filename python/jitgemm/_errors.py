"""jitgemm.Error: what the library raises, with the code of the C++ jitgemm::Error."""


class Error(RuntimeError):
    """A failure reported by jitgemm. ``code`` names its kind: "invalid argument", "unsupported", "no CUDA driver",
    "no CUDA device", "CUDA error", "compile error", "cache error", "internal error" or "not tuned" (under the
    "never" policy, a problem the cache has no kernel for); the message is a sentence
    saying what was wrong and, where there is one, the rule."""

    def __init__(self, message: str, code: str = "invalid argument"):
        super().__init__(message, code)
        self.code = code

    def __str__(self) -> str:
        return str(self.args[0])
