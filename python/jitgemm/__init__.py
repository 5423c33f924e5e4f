"""jitgemm: GEMM on NVIDIA GPUs, specialized for the exact problem at run time, tuned and cached.

    import torch, jitgemm
    c = jitgemm.matmul(a, b)          # a, b: CUDA arrays of PyTorch, CuPy, JAX, ... (float32, float16, bfloat16)

Arrays are taken as they lie in device memory: row-major, column-major and transposed views are used without a
copy; other strided layouts are refused. 3-D arrays (batch, rows, cols) multiply as batches, as torch.bmm does, with
a 2-D operand (or a batch of 1) shared by every product: ``jitgemm.matmul(x, w)`` for x of (B, M, K) and w of
(K, N). Work is enqueued on the caller's current stream (PyTorch's or CuPy's) unless ``stream=`` names another.
Errors are raised as ``jitgemm.Error`` with the library's message and a ``code``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from typing import Any, Optional

# NVRTC runs in worker processes where the package carries the worker (src/runtime/compile/compile_workers.h): a
# search then compiles its candidates side by side instead of one process's NVRTC at a time. The library reads the
# variable at its first compile; a value the caller set wins.
_COMPILE_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "jitgemm-compile-worker")
if os.access(_COMPILE_WORKER, os.X_OK):
    os.environ.setdefault("JITGEMM_COMPILE_WORKER", _COMPILE_WORKER)

from . import _jitgemm  # noqa: E402
from ._arrays import Matrix, column_major_ld, current_stream_of, empty_like_framework, matrix_of, stream_handle
from ._errors import Error

__all__ = [
    "Error",
    "gemm",
    "last_served_by",
    "matmul",
    "release_workspaces",
    "set_tuning_defaults",
    "statistics",
    "tune_manifest",
    "version",
    "wait_for_background_tuning",
]

__version__ = _jitgemm.version()

_defaults = {"tuning": "from-environment", "budget_seconds": 0.0}
_local = threading.local()


def version() -> str:
    """The version of the jitgemm library in this package, e.g. "0.1.0"."""
    return _jitgemm.version()


def set_tuning_defaults(tuning: Optional[str] = None, budget_seconds: Optional[float] = None) -> None:
    """What calls do on a problem that is neither in memory nor in the cache, unless they say otherwise:
    ``tuning`` is "now" (search within the budget, then run the winner), "background" (run the default now,
    search on a background thread), "off" (run the default, record the problem as untuned), "never" (never compile:
    a problem the cache has no kernel for raises jitgemm.Error with code "not tuned") or "from-environment"
    ($JITGEMM_TUNE, else "now"); ``budget_seconds`` is a search's wall-clock budget (0: $JITGEMM_TUNE_BUDGET, else 10).
    """
    if tuning is not None:
        if tuning not in ("now", "background", "off", "never", "from-environment"):
            raise Error(f'jitgemm: tuning="{tuning}" is not one of now, background, off, never, from-environment',
                        "invalid argument")
        _defaults["tuning"] = tuning
    if budget_seconds is not None:
        if not budget_seconds >= 0:
            raise Error(f"jitgemm: budget_seconds={budget_seconds} is not a number of seconds >= 0",
                        "invalid argument")
        _defaults["budget_seconds"] = float(budget_seconds)


def last_served_by() -> Optional[str]:
    """How this thread's last call was served: "in-memory", "cached-tuned", "nearest-tuned" (the run-time-shape
    variant of the kernel tuned for the nearest size of the layer), "freshly-tuned", "heuristic-default",
    "requested-config" or "nothing-to-do" (None before the first call)."""
    return getattr(_local, "served_by", None)


def _operand(x: Matrix, name: str, transposed: bool = False) -> tuple:
    """(transpose, leading dimension) in jitgemm's column-major terms of x, or of x^T when ``transposed``."""
    rows, cols, row_stride, col_stride = x.rows, x.cols, x.row_stride, x.col_stride
    if transposed:
        rows, cols, row_stride, col_stride = cols, rows, col_stride, row_stride
    ld = column_major_ld(rows, cols, row_stride, col_stride)
    if ld is not None:
        return False, ld
    ld = column_major_ld(cols, rows, col_stride, row_stride)
    if ld is not None:
        return True, ld  # a row-major matrix is its transpose stored column-major
    raise Error(f"jitgemm: {name} is neither row- nor column-major (strides {x.row_stride}, {x.col_stride} "
                f"elements for a {x.rows} x {x.cols} matrix); make it contiguous first, jitgemm does not copy "
                f"silently", "invalid argument")


def _tuning_options(tuning: Optional[str], budget_seconds: Optional[float]) -> tuple:
    """(tuning, budget_seconds) of a call: its own where given, else set_tuning_defaults'."""
    return (tuning if tuning is not None else _defaults["tuning"],
            float(budget_seconds if budget_seconds is not None else _defaults["budget_seconds"]))


def _batch_count(a: Matrix, b: Matrix, c: Optional[Matrix], c_name: str) -> int:
    """The number of GEMMs of a batched product: the batch of a, b (and c) that is not shared (2-D, or a batch of
    1), else 1; raises when two such batches differ."""
    count, first, first_name = 1, None, ""
    for x, name in ((a, "a"), (b, "b"), (c, c_name)):
        if x is None or x.batch is None or x.batch == 1:
            continue
        if first is None:
            count, first, first_name = x.batch, x, name
        elif x.batch != count:
            raise Error(f"jitgemm: the batches of {first_name} {first.shape_text()} and {name} {x.shape_text()} "
                        f"differ; a 2-D operand or a batch of 1 is shared by every GEMM, other batches must be equal",
                        "invalid argument")
    return count


def _batch_stride(x: Matrix, name: str, count: int) -> int:
    """x's stride between the GEMMs of a batch of `count`: 0 when x is shared by all of them."""
    if x.batch is None or x.batch == 1 or count <= 1:
        return 0
    if x.batch_stride < 0:
        raise Error(f"jitgemm: {name}'s batch stride {x.batch_stride} is negative (shape {x.shape_text()}); jitgemm "
                    f"takes batches whose matrices follow each other in memory (or one matrix, stride 0)",
                    "invalid argument")
    return x.batch_stride


def _fold(a: Matrix, b: Matrix, c: Matrix, c_name: str) -> tuple:
    """The call in jitgemm's column-major terms: (m, n, k, first, second, trans_a, lda, trans_b, ldb, ldc, swapped).
    A column-major C takes a and b as they are; a row-major C is C^T column-major, and C^T = B^T A^T, so the operands
    (and m and n) swap (swapped is then True). Per matrix: batches fold alike."""
    m, n, k = a.rows, b.cols, a.cols
    ldc = column_major_ld(c.rows, c.cols, c.row_stride, c.col_stride)
    if ldc is not None:
        trans_a, lda = _operand(a, "a")
        trans_b, ldb = _operand(b, "b")
        return m, n, k, a, b, trans_a, lda, trans_b, ldb, ldc, False
    ldc = column_major_ld(c.cols, c.rows, c.col_stride, c.row_stride)
    if ldc is None:
        _operand(c, c_name)  # raises with the layout
    trans_a, lda = _operand(b, "b", transposed=True)
    trans_b, ldb = _operand(a, "a", transposed=True)
    return n, m, k, b, a, trans_a, lda, trans_b, ldb, ldc, True


def _run_batched(a: Matrix, b: Matrix, c: Matrix, alpha: float, beta: float, stream: int, tf32: bool, config: str,
                 tuning: Optional[str], budget_seconds: Optional[float], deterministic: bool, c_name: str) -> str:
    """_run when an operand is 3-D: one GEMM per matrix of the batch, through gemm_strided_batched."""
    if a.cols != b.rows or c.rows != a.rows or c.cols != b.cols:
        raise Error(f"jitgemm: shapes do not chain: {a.shape_text()} @ {b.shape_text()} into {c_name} "
                    f"{c.shape_text()}", "invalid argument")
    count = _batch_count(a, b, c, c_name)
    if count != 1 and c.batch != count:
        raise Error(f"jitgemm: {c_name} {c.shape_text()} cannot hold the {count} products of a {a.shape_text()} and "
                    f"b {b.shape_text()}: it must have shape ({count}, {c.rows}, {c.cols})", "invalid argument")
    stride_a, stride_b = _batch_stride(a, "a", count), _batch_stride(b, "b", count)
    stride_c = _batch_stride(c, c_name, count)
    # Each matrix of the batch is laid out alike: the fold of _run, with the batch strides following their operands.
    m, n, k, first, second, trans_a, lda, trans_b, ldb, ldc, swapped = _fold(a, b, c, c_name)
    if swapped:
        stride_a, stride_b = stride_b, stride_a
    served = _jitgemm.gemm_strided_batched_pointers(
        "col", trans_a, trans_b, m, n, k, float(alpha), first.ptr, first.dtype, lda, stride_a, second.ptr,
        second.dtype, ldb, stride_b, float(beta), c.ptr, c.dtype, ldc, stride_c, count, stream, bool(tf32), config,
        *_tuning_options(tuning, budget_seconds), bool(deterministic))
    _local.served_by = served
    return served


def _run(a: Matrix, b: Matrix, c: Matrix, alpha: float, beta: float, stream: int, tf32: bool, config: str,
         tuning: Optional[str], budget_seconds: Optional[float], deterministic: bool = False,
         c_name: str = "out") -> str:
    if a.batch is not None or b.batch is not None or c.batch is not None:
        return _run_batched(a, b, c, alpha, beta, stream, tf32, config, tuning, budget_seconds, deterministic,
                            c_name)
    if a.cols != b.rows or c.rows != a.rows or c.cols != b.cols:
        raise Error(f"jitgemm: shapes do not chain: ({a.rows} x {a.cols}) @ ({b.rows} x {b.cols}) into "
                    f"({c.rows} x {c.cols})", "invalid argument")
    m, n, k, first, second, trans_a, lda, trans_b, ldb, ldc, _ = _fold(a, b, c, c_name)
    served = _jitgemm.gemm_pointers(
        "col", trans_a, trans_b, m, n, k, float(alpha), first.ptr, first.dtype, lda, second.ptr, second.dtype, ldb,
        float(beta), c.ptr, c.dtype, ldc, stream, bool(tf32), config,
        *_tuning_options(tuning, budget_seconds), bool(deterministic))
    _local.served_by = served
    return served


def matmul(a: Any, b: Any, out: Any = None, *, alpha: float = 1.0, beta: float = 0.0, tf32: bool = False,
           stream: Any = None, config: str = "", tuning: Optional[str] = None,
           budget_seconds: Optional[float] = None, deterministic: bool = False) -> Any:
    """out = alpha * a @ b + beta * out, for 2-D CUDA arrays or 3-D batches of them; returns out.

    Batches, as torch.bmm and torch.matmul take them: a (B, M, K) @ b (B, K, N) -> out (B, M, N), one GEMM per
    matrix. A 2-D operand, or a 3-D one with a batch of 1, is shared by every GEMM (a weight: x (B, M, K) @ w (K, N));
    other batch sizes must be equal. Each matrix of a batch is row- or column-major as a 2-D array must be; from one
    matrix to the next, any stride (0 included: an expanded view) is taken. out (B, M, N) must not have its matrices
    overlap.

    Without ``out``, a row-major result of a's dtype is allocated by a's framework (PyTorch or CuPy; beta must then
    be 0): (M, N), or (B, M, N) contiguous when a or b is 3-D. ``tf32=True`` lets float32 inputs be multiplied in
    TF32 on the Tensor Cores. ``stream``: an int handle or a stream object; by default PyTorch's or CuPy's current
    stream. ``config`` names a kernel configuration (empty: jitgemm's choice); ``tuning`` and ``budget_seconds``
    override set_tuning_defaults for this call. ``deterministic=True`` asks for bitwise-reproducible results: the
    kernel the problem's first deterministic call chose serves all its deterministic calls in this process (no
    background swap); see GemmOptions::deterministic in the C++ header for what it costs.
    """
    A, B = matrix_of(a, "a"), matrix_of(b, "b")
    if out is None:
        if beta != 0:
            raise Error("jitgemm: beta != 0 needs out= (the C it scales)", "invalid argument")
        if A.batch is None and B.batch is None:
            out = empty_like_framework(a, (A.rows, B.cols), A.dtype)
        else:
            out = empty_like_framework(a, (_batch_count(A, B, None, "out"), A.rows, B.cols), A.dtype)
    C = matrix_of(out, "out")
    handle = stream_handle(stream) if stream is not None else current_stream_of(a)
    _run(A, B, C, alpha, beta, handle, tf32, config, tuning, budget_seconds, deterministic)
    return out


def gemm(a: Any, b: Any, c: Any, *, trans_a: bool = False, trans_b: bool = False, alpha: float = 1.0,
         beta: float = 0.0, tf32: bool = False, stream: Any = None, config: str = "",
         tuning: Optional[str] = None, budget_seconds: Optional[float] = None, deterministic: bool = False) -> str:
    """BLAS-like: c = alpha * op(a) @ op(b) + beta * c in place, op(x) = x.T where trans_x (of every matrix, for a 3-D
    x); returns how the call was served (see last_served_by).

    Batches as in matmul: 3-D a, b and c (batch, rows, cols), one GEMM per matrix of c; a 2-D a or b, or one with a
    batch of 1, is shared by every GEMM, other batch sizes must be equal. A 2-D c takes only a batch of 1."""
    A, B = matrix_of(a, "a"), matrix_of(b, "b")
    if trans_a:
        A = A.transposed()
    if trans_b:
        B = B.transposed()
    handle = stream_handle(stream) if stream is not None else current_stream_of(c)
    return _run(A, B, matrix_of(c, "c"), alpha, beta, handle, tf32, config, tuning, budget_seconds, deterministic,
                "c")


def gemm_pointers(*args: Any, **kwargs: Any) -> str:
    """jitgemm::gemm on raw device pointers (ints), with the C++ argument order; for callers that manage memory
    themselves. Prefer matmul and gemm."""
    return _jitgemm.gemm_pointers(*args, **kwargs)


def gemm_strided_batched_pointers(*args: Any, **kwargs: Any) -> str:
    """jitgemm::gemm_strided_batched on raw device pointers (ints), with the C++ argument order (strides in
    elements); for callers that manage memory themselves. Prefer matmul and gemm."""
    return _jitgemm.gemm_strided_batched_pointers(*args, **kwargs)


def statistics() -> dict:
    """{"nvrtc_compiles": ..., "tunings": ...} of this process: a deployment that ships a tuned cache checks that
    both stay 0."""
    return _jitgemm.statistics()


def wait_for_background_tuning() -> None:
    """Waits until every background search started so far has finished and been swapped in."""
    _jitgemm.wait_for_background_tuning()


def release_workspaces() -> None:
    """Frees the scratch memory jitgemm keeps per stream (after waiting for the work on it)."""
    _jitgemm.release_workspaces()


def _command() -> str:
    """The jitgemm command installed with this package (or found on PATH)."""
    beside = os.path.join(sysconfig.get_path("scripts"), "jitgemm")
    if os.path.exists(beside):
        return beside
    found = shutil.which("jitgemm")
    if found is None:
        raise Error("jitgemm: the jitgemm command is not installed (it is built with the package when "
                    "Boost.Program_options is available)", "unsupported")
    return found


def tune_manifest(manifest: str, budget_seconds: float = 10.0, cache: Optional[str] = None,
                  extra_args: Optional[list] = None) -> subprocess.CompletedProcess:
    """Pre-warms the tuning cache for every problem of a shape manifest (CSV or JSON) by running
    ``jitgemm tune --manifest ...``; raises jitgemm.Error when the command fails."""
    args = [_command(), "tune", "--manifest", manifest, "--budget", str(budget_seconds)]
    if cache is not None:
        args += ["--cache", cache]
    args += list(extra_args or [])
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise Error(f"jitgemm: {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}",
                    {2: "invalid argument", 3: "no CUDA driver"}.get(done.returncode, "CUDA error"))
    sys.stderr.write(done.stderr)
    return done
