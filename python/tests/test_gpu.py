"""The Python package on a GPU, against torch.matmul: every dtype and transpose of a and b, row- and column-major
out, batches (3-D operands against torch.bmm, a broadcast 2-D weight or batch of 1, transposed matrices, column-major
and side-by-side out, alpha and beta, an empty batch), bfloat16 through DLPack, CuPy arrays, refusal of strided views,
work ordered on a side stream, and the custom operator inside torch.compile (2-D and batched). Skips without PyTorch
or a GPU unless JITGEMM_TEST_NO_SKIP=1 (bench/gpu-run.sh), where a skip fails.

Run: python -m unittest discover -s python/tests -p 'test_gpu.py'
"""

import itertools
import os
import unittest

# jitgemm before torch, on purpose: a build of the extension with a static C++ runtime crashed in this order.
import jitgemm

try:
    import torch

    HAVE_GPU = torch.cuda.is_available()
except ImportError:
    torch = None
    HAVE_GPU = False

NO_SKIP = os.environ.get("JITGEMM_TEST_NO_SKIP") == "1"


def require(condition, reason):
    if not condition:
        if NO_SKIP:
            raise AssertionError(f"would skip ({reason}), and JITGEMM_TEST_NO_SKIP=1 says none may")
        raise unittest.SkipTest(reason)


def tolerance(dtype, k):
    if dtype == torch.float32:
        return 1e-4 * k ** 0.5
    return 2e-2 * k ** 0.5 if dtype == torch.bfloat16 else 5e-3 * k ** 0.5


class AgainstTorch(unittest.TestCase):
    def setUp(self):
        require(HAVE_GPU, "no PyTorch with CUDA here")
        jitgemm.set_tuning_defaults(tuning="off")
        self.gen = torch.Generator(device="cuda").manual_seed(1234)

    def rand(self, rows, cols, dtype):
        return torch.randn(rows, cols, device="cuda", dtype=dtype, generator=self.gen)

    def test_every_dtype_and_transpose_matches_torch(self):
        m, n, k = 131, 77, 45
        for dtype, ta, tb, out_order in itertools.product((torch.float32, torch.float16, torch.bfloat16),
                                                          (False, True), (False, True), "CF"):
            a = self.rand(k, m, dtype).t() if ta else self.rand(m, k, dtype)
            b = self.rand(n, k, dtype).t() if tb else self.rand(k, n, dtype)
            out = torch.empty(m, n, device="cuda", dtype=dtype) if out_order == "C" else \
                torch.empty(n, m, device="cuda", dtype=dtype).t()
            with self.subTest(dtype=dtype, ta=ta, tb=tb, out=out_order):
                jitgemm.matmul(a, b, out)
                expected = (a.double() @ b.double())
                error = (out.double() - expected).abs().max().item()
                self.assertLess(error, tolerance(dtype, k) * max(1.0, expected.abs().max().item() / 10))

    def assert_matches(self, out, expected, k):
        error = (out.double() - expected).abs().max().item()
        self.assertLess(error, tolerance(out.dtype, k) * max(1.0, expected.abs().max().item() / 10))

    def test_batches_match_torch_bmm_and_a_broadcast_weight(self):
        batch, m, n, k = 5, 67, 45, 33
        for dtype in (torch.float32, torch.float16, torch.bfloat16):
            a = torch.randn(batch, m, k, device="cuda", dtype=dtype, generator=self.gen)
            b = torch.randn(batch, k, n, device="cuda", dtype=dtype, generator=self.gen)
            w = self.rand(k, n, dtype)
            with self.subTest(dtype=dtype, case="(B, M, K) @ (B, K, N), allocated"):
                out = jitgemm.matmul(a, b)
                self.assertEqual((out.shape, out.dtype), ((batch, m, n), dtype))
                self.assertTrue(out.is_contiguous())
                self.assert_matches(out, torch.bmm(a.double(), b.double()), k)
            with self.subTest(dtype=dtype, case="transposed matrices into a column-major out"):
                at = a.transpose(1, 2).contiguous().transpose(1, 2)  # each matrix column-major
                bt = b.transpose(1, 2).contiguous().transpose(1, 2)
                out = torch.empty(batch, n, m, device="cuda", dtype=dtype).transpose(1, 2)
                jitgemm.matmul(at, bt, out)
                self.assert_matches(out, torch.bmm(a.double(), b.double()), k)
            with self.subTest(dtype=dtype, case="a 2-D weight shared, row- and column-major"):
                for weight in (w, w.t().contiguous().t()):
                    out = jitgemm.matmul(a, weight)
                    self.assertEqual(out.shape, (batch, m, n))
                    self.assert_matches(out, a.double() @ w.double(), k)
            with self.subTest(dtype=dtype, case="a 2-D left operand, a batch of 1 and an expanded view"):
                left = a[0]
                self.assert_matches(jitgemm.matmul(left, b), left.double() @ b.double(), k)
                self.assert_matches(jitgemm.matmul(a[:1], b), a[:1].double() @ b.double(), k)
                expanded = w.expand(batch, k, n)  # batch stride 0
                self.assert_matches(jitgemm.matmul(a, expanded), a.double() @ w.double(), k)
            with self.subTest(dtype=dtype, case="out side by side within a wide matrix, alpha and beta"):
                wide = torch.randn(m, batch * n, device="cuda", dtype=dtype, generator=self.gen)
                c = wide.view(m, batch, n).permute(1, 0, 2)  # batch stride n, rows batch * n apart
                expected = 0.5 * torch.bmm(a.double(), b.double()) - c.double()
                jitgemm.matmul(a, b, c, alpha=0.5, beta=-1.0)
                self.assert_matches(c, expected, k)
            with self.subTest(dtype=dtype, case="gemm, transposed operands"):
                c = torch.empty(batch, m, n, device="cuda", dtype=dtype)
                jitgemm.gemm(a.transpose(1, 2).contiguous(), w.t().contiguous(), c, trans_a=True, trans_b=True)
                self.assert_matches(c, a.double() @ w.double(), k)
        empty = jitgemm.matmul(torch.empty(0, m, k, device="cuda"), torch.empty(0, k, n, device="cuda"))
        self.assertEqual(empty.shape, (0, m, n))
        self.assertEqual(jitgemm.last_served_by(), "nothing-to-do")
        with self.assertRaises(jitgemm.Error) as caught:
            jitgemm.matmul(a, torch.randn(batch - 1, k, n, device="cuda", dtype=torch.bfloat16))
        self.assertEqual(caught.exception.code, "invalid argument")
        self.assertIn(f"({batch}, {m}, {k})", str(caught.exception))

    def test_alpha_beta_and_allocated_output(self):
        a, b = self.rand(64, 32, torch.float32), self.rand(32, 48, torch.float32)
        c = self.rand(64, 48, torch.float32)
        expected = 0.5 * (a @ b) - 2.0 * c
        jitgemm.matmul(a, b, c, alpha=0.5, beta=-2.0)
        torch.testing.assert_close(c, expected, rtol=1e-4, atol=1e-4)
        out = jitgemm.matmul(a, b)
        self.assertEqual(out.shape, (64, 48))
        self.assertEqual(out.dtype, torch.float32)
        torch.testing.assert_close(out, a @ b, rtol=1e-4, atol=1e-4)
        self.assertIn(jitgemm.last_served_by(), ("in-memory", "heuristic-default", "cached-tuned", "nearest-tuned"))

    def test_strided_views_are_refused_not_copied(self):
        a = self.rand(64, 64, torch.float32)[::2, ::2]
        with self.assertRaises(jitgemm.Error) as caught:
            jitgemm.matmul(a, self.rand(32, 8, torch.float32))
        self.assertIn("neither row- nor column-major", str(caught.exception))

    def test_work_is_ordered_on_a_side_stream(self):
        side = torch.cuda.Stream()
        a, b = self.rand(1024, 1024, torch.float16), self.rand(1024, 1024, torch.float16)
        with torch.cuda.stream(side):
            b2 = b * 2  # enqueued on the side stream
            out = jitgemm.matmul(a, b2)  # the current stream is the side stream: runs after b2 is ready
            expected = a.float() @ b2.float()
        side.synchronize()
        self.assertLess((out.float() - expected).abs().max().item(), 0.5)

    def test_tf32_is_used_only_when_asked(self):
        a, b = self.rand(256, 256, torch.float32), self.rand(256, 256, torch.float32)
        exact = jitgemm.matmul(a, b)
        tf32 = jitgemm.matmul(a, b, tf32=True)
        reference = (a.double() @ b.double()).float()
        self.assertLess((exact - reference).abs().max().item(), 1e-3)
        self.assertLess((tf32 - reference).abs().max().item(), 0.5)

    def test_custom_operator_inside_torch_compile(self):
        import jitgemm.torch  # registers torch.ops.jitgemm.matmul

        model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 32)).cuda()
        x = self.rand(16, 64, torch.float32)
        with torch.no_grad():
            expected = model(x)
            self.assertEqual(jitgemm.torch.use_for_linear_layers(model), 2)
            eager = model(x)
            compiled = torch.compile(model, fullgraph=True)(x)  # fullgraph: a graph break would raise
        torch.testing.assert_close(eager, expected, rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(compiled, expected, rtol=1e-4, atol=1e-4)

        # Batches through the operator: its fake implementation gives torch.compile the batched shape.
        x, w = torch.randn(3, 16, 64, device="cuda", generator=self.gen), self.rand(64, 32, torch.float32)
        product = torch.compile(lambda x, w: torch.ops.jitgemm.matmul(x, w) * 2, fullgraph=True)
        for left, right in ((x, w), (x, x.transpose(1, 2)), (x[:1], x.transpose(1, 2))):
            torch.testing.assert_close(torch.ops.jitgemm.matmul(left, right), left @ right, rtol=1e-4, atol=1e-4)
            torch.testing.assert_close(product(left, right), 2 * (left @ right), rtol=1e-4, atol=1e-4)


class ReadmeExample(unittest.TestCase):
    def test_the_readme_s_python_example_runs(self):
        require(HAVE_GPU, "no PyTorch with CUDA here")
        import re

        readme = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")
        with open(readme) as f:
            found = re.search(r"<!-- python-example:begin -->\s*```python\n(.*?)```\s*<!-- python-example:end -->",
                              f.read(), re.S)
        self.assertIsNotNone(found, "README.md has no python example block")
        namespace = {}
        exec(compile(found.group(1), "README.md", "exec"), namespace)
        a, b, c = namespace["a"], namespace["b"], namespace["c"]
        expected = 2 * (a.float() @ b.float()) - (a.float() @ b.float())
        self.assertLess((c.float() - expected).abs().max().item() / expected.abs().max().item(), 2e-2)


class CuPyArrays(unittest.TestCase):
    def test_cupy_arrays_and_stream(self):
        try:
            import cupy
        except ImportError:
            cupy = None
        require(cupy is not None and HAVE_GPU, "no CuPy with a GPU here")
        jitgemm.set_tuning_defaults(tuning="off")
        a = cupy.random.standard_normal((100, 60), dtype=cupy.float32)
        b = cupy.asfortranarray(cupy.random.standard_normal((60, 70), dtype=cupy.float32))
        stream = cupy.cuda.Stream(non_blocking=True)
        with stream:
            out = jitgemm.matmul(a, b)
        stream.synchronize()
        self.assertIsInstance(out, cupy.ndarray)
        self.assertLess(float(cupy.abs(out - a @ b).max()), 1e-3)


if __name__ == "__main__":
    unittest.main()
