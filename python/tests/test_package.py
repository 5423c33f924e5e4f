"""The Python package without a GPU: it imports and reports its version; arrays are read through
__cuda_array_interface__ and mapped to jitgemm's column-major call correctly for every layout of a, b and out
(checked element by element against the addresses the call will use), 3-D batches too (every layout of the matrices,
packed, padded, shared and side-by-side batch strides, 2-D or batch-1 operands broadcast, the row-major fold swapping
the batch strides with their operands, the allocated result's shape); what jitgemm cannot take is refused with
jitgemm.Error before anything runs (batch sizes that differ, an out that cannot hold the batch, layouts neither row-
nor column-major, and through the real binding, a batch whose results overlap); and without a driver a call says so.

Run: python -m unittest discover -s python/tests -p 'test_package.py'
"""

import ctypes
import itertools
import shutil
import subprocess
import sys
import unittest

import jitgemm
from jitgemm import _jitgemm


def driver_present() -> bool:
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


class FakeCudaArray:
    """Something with a __cuda_array_interface__ (never dereferenced here): `base` is a fake device address."""

    ITEM = {"<f4": 4, "<f2": 2, "<f8": 8}

    def __init__(self, rows, cols, base, order="C", typestr="<f4", ld=None, steps=(1, 1), shape=None):
        item = self.ITEM[typestr]
        if order == "C":
            ld = ld or cols
            strides = (ld * item * steps[0], item * steps[1])
        else:
            ld = ld or rows
            strides = (item * steps[0], ld * item * steps[1])
        self.__cuda_array_interface__ = {"shape": shape or (rows, cols), "typestr": typestr,
                                         "data": (base, False), "strides": strides, "version": 3}


def element_address(array, r, c):
    interface = array.__cuda_array_interface__
    return interface["data"][0] + r * interface["strides"][0] + c * interface["strides"][1]


class FakeStridedArray:
    """A __cuda_array_interface__ of any shape with strides given in elements (never dereferenced here)."""

    def __init__(self, shape, strides, base, typestr="<f4"):
        item = FakeCudaArray.ITEM[typestr]
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": typestr, "data": (base, False),
                                         "strides": tuple(s * item for s in strides), "version": 3}


def matrix_strides(rows, cols, order, ld=None):
    """Element strides (row, col) of a rows x cols matrix, row-major ("C") or column-major ("F")."""
    return (ld or cols, 1) if order == "C" else (1, ld or rows)


def fake_batch(batch, rows, cols, base, order="C", ld=None, batch_stride=None, typestr="<f4"):
    """A (batch, rows, cols) array of matrices laid out in `order`, `batch_stride` elements apart (default: packed,
    one matrix's extent)."""
    row_stride, col_stride = matrix_strides(rows, cols, order, ld)
    extent = (rows - 1) * row_stride + (cols - 1) * col_stride + 1
    return FakeStridedArray((batch, rows, cols), (extent if batch_stride is None else batch_stride, row_stride,
                                                  col_stride), base, typestr)


def batch_element_address(array, g, r, c):
    """The address of element (r, c) of matrix g; a 2-D array or a batch of 1 is the same matrix for every g."""
    interface = array.__cuda_array_interface__
    strides = interface["strides"]
    if len(strides) == 2:
        return element_address(array, r, c)
    if interface["shape"][0] == 1:
        g = 0
    return interface["data"][0] + g * strides[0] + r * strides[1] + c * strides[2]


class Recorder:
    """Stands in for _jitgemm.gemm_pointers and keeps the arguments of the last call."""

    def __init__(self):
        self.calls = []

    def __call__(self, *args):
        self.calls.append(args)
        return "heuristic-default"


class LayoutMapping(unittest.TestCase):
    def setUp(self):
        self.real = _jitgemm.gemm_pointers
        self.recorder = Recorder()
        _jitgemm.gemm_pointers = self.recorder

    def tearDown(self):
        _jitgemm.gemm_pointers = self.real

    def check_call(self, a, b, out, m, n, k):
        """The recorded column-major call reads op(A)(i, p) and op(B)(p, j) and writes C(i, j) at addresses that are
        either out[i][j] = a[i][:] b[:][j] or, transposed, out[j][i] = b[:][i] a[j][:]."""
        (order, ta, tb, cm, cn, ck, _alpha, pa, _at, lda, pb, _bt, ldb, _beta, pc, ct, ldc,
         _stream, _tf32, _config, _tuning, _budget, _deterministic) = self.recorder.calls[-1]
        self.assertEqual(order, "col")
        item = 4 if ct == "f32" else 2
        c_at = lambda i, j: pc + (i + j * ldc) * item
        a_at = lambda i, p: pa + ((p + i * lda) if ta else (i + p * lda)) * item
        b_at = lambda p, j: pb + ((j + p * ldb) if tb else (p + j * ldb)) * item
        straight = (cm, cn, ck) == (m, n, k)
        self.assertEqual((cm, cn, ck), (m, n, k) if straight else (n, m, k))
        for i, j in itertools.product(range(cm), range(cn)):
            if straight:
                self.assertEqual(c_at(i, j), element_address(out, i, j))
            else:
                self.assertEqual(c_at(i, j), element_address(out, j, i))
        for i, p in itertools.product(range(cm), range(ck)):
            expected = element_address(a, i, p) if straight else element_address(b, p, i)
            self.assertEqual(a_at(i, p), expected)
        for p, j in itertools.product(range(ck), range(cn)):
            expected = element_address(b, p, j) if straight else element_address(a, j, p)
            self.assertEqual(b_at(p, j), expected)

    def test_every_layout_of_a_b_and_out_maps_to_the_right_elements(self):
        m, n, k = 5, 3, 4
        for a_order, b_order, c_order in itertools.product("CF", repeat=3):
            for padded in (False, True):
                a = FakeCudaArray(m, k, 0x10000, a_order, ld=(9 if padded else None))
                b = FakeCudaArray(k, n, 0x20000, b_order, ld=(11 if padded else None))
                out = FakeCudaArray(m, n, 0x30000, c_order, ld=(7 if padded else None))
                with self.subTest(a=a_order, b=b_order, out=c_order, padded=padded):
                    jitgemm.matmul(a, b, out, stream=0)
                    self.check_call(a, b, out, m, n, k)

    def test_blas_style_transposes_map_to_the_transposed_operands(self):
        m, n, k = 4, 6, 3
        at = FakeCudaArray(k, m, 0x10000, "C")  # a stored as its transpose
        bt = FakeCudaArray(n, k, 0x20000, "F")
        out = FakeCudaArray(m, n, 0x30000, "C")
        jitgemm.gemm(at, bt, out, trans_a=True, trans_b=True, stream=0)

        class Transposed:  # the views op(a) and op(b), for the address check
            def __init__(self, x):
                i = x.__cuda_array_interface__
                self.__cuda_array_interface__ = dict(i, shape=i["shape"][::-1], strides=i["strides"][::-1])

        self.check_call(Transposed(at), Transposed(bt), out, m, n, k)

    def test_deterministic_reaches_the_library_and_is_off_by_default(self):
        a, b, out = FakeCudaArray(4, 3, 0x1000), FakeCudaArray(3, 5, 0x2000), FakeCudaArray(4, 5, 0x3000)
        jitgemm.matmul(a, b, out, stream=0)
        self.assertIs(self.recorder.calls[-1][-1], False)
        jitgemm.matmul(a, b, out, stream=0, deterministic=True)
        self.assertIs(self.recorder.calls[-1][-1], True)
        jitgemm.gemm(a, b, out, stream=0, deterministic=True)
        self.assertIs(self.recorder.calls[-1][-1], True)

    def test_vectors_and_single_rows_map_too(self):
        for m, n, k in ((1, 8, 5), (8, 1, 5), (6, 7, 1), (1, 1, 9)):
            a, b, out = FakeCudaArray(m, k, 0x1000, "C"), FakeCudaArray(k, n, 0x9000, "F"), FakeCudaArray(m, n, 0x20000, "C")
            with self.subTest(m=m, n=n, k=k):
                jitgemm.matmul(a, b, out, stream=0)
                self.check_call(a, b, out, m, n, k)


class Refusals(unittest.TestCase):
    def assert_refused(self, code, words, call):
        with self.assertRaises(jitgemm.Error) as caught:
            call()
        self.assertEqual(caught.exception.code, code)
        self.assertIn(words, str(caught.exception))

    def test_what_jitgemm_cannot_take_is_refused_before_anything_runs(self):
        a, b = FakeCudaArray(4, 4, 0x1000), FakeCudaArray(4, 4, 0x2000)
        out = FakeCudaArray(4, 4, 0x3000)
        self.assert_refused("invalid argument", "neither row- nor column-major",
                            lambda: jitgemm.matmul(FakeCudaArray(4, 4, 0x1000, ld=8, steps=(2, 2)), b, out, stream=0))
        self.assert_refused("invalid argument", "do not chain",
                            lambda: jitgemm.matmul(a, FakeCudaArray(5, 4, 0x2000), out, stream=0))
        self.assert_refused("unsupported", "float32, float16 and bfloat16",
                            lambda: jitgemm.matmul(FakeCudaArray(4, 4, 0x1000, typestr="<f8"), b, out, stream=0))
        self.assert_refused("unsupported", "2-D matrices and 3-D batches",
                            lambda: jitgemm.matmul(FakeCudaArray(4, 4, 0x1000, shape=(2, 2, 2, 2)), b, out, stream=0))
        self.assert_refused("invalid argument", "not an array", lambda: jitgemm.matmul(object(), b, out, stream=0))
        self.assert_refused("invalid argument", "beta != 0 needs out=", lambda: jitgemm.matmul(a, b, beta=1.0))
        self.assert_refused("invalid argument", "not a CUDA stream", lambda: jitgemm.matmul(a, b, out, stream="s"))
        self.assert_refused("invalid argument", "tuning=", lambda: jitgemm.set_tuning_defaults(tuning="sometimes"))

    def test_mixed_dtypes_are_the_library_s_to_refuse(self):
        a = FakeCudaArray(4, 4, 0x1000, typestr="<f2")
        b = FakeCudaArray(4, 4, 0x2000, typestr="<f4")
        self.assert_refused("unsupported", "", lambda: jitgemm.matmul(a, b, FakeCudaArray(4, 4, 0x3000), stream=0))


class BatchedCalls:
    """Records both bindings and the result's allocation; check_call verifies that 3-D operands went through
    gemm_strided_batched_pointers and that GEMM g of the recorded call reads and writes the elements of matrix g of
    each array (matrix 0 of a shared one)."""

    def setUp(self):
        self.real = (_jitgemm.gemm_pointers, _jitgemm.gemm_strided_batched_pointers, jitgemm.empty_like_framework)
        self.plain, self.batched = Recorder(), Recorder()
        _jitgemm.gemm_pointers = self.plain
        _jitgemm.gemm_strided_batched_pointers = self.batched
        self.allocated = []

        def allocate(array, shape, dtype):  # stands in for the framework: a C-contiguous array of `shape`
            strides = (shape[-2] * shape[-1], shape[-1], 1)[-len(shape):]
            made = FakeStridedArray(shape, strides, 0x900000, {"f32": "<f4", "f16": "<f2"}[dtype])
            self.allocated.append((shape, dtype))
            return made

        jitgemm.empty_like_framework = allocate

    def tearDown(self):
        _jitgemm.gemm_pointers, _jitgemm.gemm_strided_batched_pointers, jitgemm.empty_like_framework = self.real

    def recorded(self):
        self.assertEqual(self.plain.calls, [], "a batched product went through gemm_pointers")
        self.assertEqual(len(self.batched.calls), 1)
        (order, ta, tb, m, n, k, _alpha, pa, _at, lda, sa, pb, _bt, ldb, sb, _beta, pc, ct, ldc, sc, count,
         _stream, _tf32, _config, _tuning, _budget, _deterministic) = self.batched.calls.pop()
        self.assertEqual(order, "col")
        return dict(ta=ta, tb=tb, m=m, n=n, k=k, pa=pa, lda=lda, sa=sa, pb=pb, ldb=ldb, sb=sb, pc=pc, ldc=ldc, sc=sc,
                    count=count, item=4 if ct == "f32" else 2)

    def check_call(self, a, b, out, batch, m, n, k):
        """As LayoutMapping.check_call, for every GEMM g of the batch: out[g][i][j] = a[g][i][:] b[g][:][j], written
        either straight or transposed (out[g]^T = b[g]^T a[g]^T)."""
        call = self.recorded()
        item = call["item"]
        self.assertEqual(call["count"], batch)
        straight = (call["m"], call["n"], call["k"]) == (m, n, k)
        self.assertEqual((call["m"], call["n"], call["k"]), (m, n, k) if straight else (n, m, k))
        for stride in ("sa", "sb", "sc"):
            self.assertGreaterEqual(call[stride], 0)
        cm, cn, ck = call["m"], call["n"], call["k"]
        lda, ldb, ldc = call["lda"], call["ldb"], call["ldc"]
        for g in range(batch):
            c_at = lambda i, j: call["pc"] + (g * call["sc"] + i + j * ldc) * item
            a_at = lambda i, p: call["pa"] + (g * call["sa"] + ((p + i * lda) if call["ta"] else (i + p * lda))) * item
            b_at = lambda p, j: call["pb"] + (g * call["sb"] + ((j + p * ldb) if call["tb"] else (p + j * ldb))) * item
            for i, j in itertools.product(range(cm), range(cn)):
                expected = batch_element_address(out, g, i, j) if straight else batch_element_address(out, g, j, i)
                self.assertEqual(c_at(i, j), expected)
            for i, p in itertools.product(range(cm), range(ck)):
                expected = batch_element_address(a, g, i, p) if straight else batch_element_address(b, g, p, i)
                self.assertEqual(a_at(i, p), expected)
            for p, j in itertools.product(range(ck), range(cn)):
                expected = batch_element_address(b, g, p, j) if straight else batch_element_address(a, g, j, p)
                self.assertEqual(b_at(p, j), expected)
        return call


class BatchedLayoutMapping(BatchedCalls, unittest.TestCase):
    def test_every_layout_and_batch_stride_maps_to_the_right_elements(self):
        batch, m, n, k = 3, 5, 3, 4
        gaps = {"packed": lambda rows, cols, ld: None, "padded": lambda rows, cols, ld: (ld or max(rows, cols)) * 9 + 5}
        for a_order, b_order, c_order in itertools.product("CF", repeat=3):
            for padded, gap in itertools.product((False, True), gaps):
                a_ld, b_ld, c_ld = (9, 11, 7) if padded else (None, None, None)
                a = fake_batch(batch, m, k, 0x10000, a_order, a_ld, gaps[gap](m, k, a_ld))
                b = fake_batch(batch, k, n, 0x20000, b_order, b_ld, gaps[gap](k, n, b_ld))
                out = fake_batch(batch, m, n, 0x30000, c_order, c_ld, gaps[gap](m, n, c_ld))
                with self.subTest(a=a_order, b=b_order, out=c_order, padded=padded, batch_stride=gap):
                    jitgemm.matmul(a, b, out, stream=0)
                    self.check_call(a, b, out, batch, m, n, k)

    def test_row_major_fold_swaps_the_batch_strides_with_their_operands(self):
        batch, m, n, k = 2, 4, 6, 3
        a = fake_batch(batch, m, k, 0x10000, "C", batch_stride=100)
        b = fake_batch(batch, k, n, 0x20000, "C", batch_stride=300)
        out = fake_batch(batch, m, n, 0x30000, "C", batch_stride=500)
        jitgemm.matmul(a, b, out, stream=0)
        call = self.check_call(a, b, out, batch, m, n, k)
        # C^T = B^T A^T: the call's first operand is b, with b's stride.
        self.assertEqual((call["m"], call["n"], call["pa"], call["sa"], call["pb"], call["sb"], call["sc"]),
                         (n, m, 0x20000, 300, 0x10000, 100, 500))
        out = fake_batch(batch, m, n, 0x30000, "F", batch_stride=500)
        jitgemm.matmul(a, b, out, stream=0)
        call = self.check_call(a, b, out, batch, m, n, k)
        self.assertEqual((call["m"], call["n"], call["pa"], call["sa"], call["pb"], call["sb"]),
                         (m, n, 0x10000, 100, 0x20000, 300))

    def test_a_2d_operand_or_a_batch_of_one_is_shared_by_every_gemm(self):
        batch, m, n, k = 4, 3, 5, 2

        def shared(rows, cols, base):
            return (("2-D", FakeCudaArray(rows, cols, base, "F")),
                    ("batch of 1", fake_batch(1, rows, cols, base, "C", batch_stride=77)),
                    ("expanded (stride 0)", fake_batch(batch, rows, cols, base, "F", batch_stride=0)))

        for c_order in "CF":
            out = fake_batch(batch, m, n, 0x30000, c_order)
            x = fake_batch(batch, m, k, 0x10000, "C")
            for name, w in shared(k, n, 0x20000):  # x @ w: a weight
                with self.subTest(b=name, out=c_order):
                    jitgemm.matmul(x, w, out, stream=0)
                    call = self.check_call(x, w, out, batch, m, n, k)
                    # b is the call's second operand, or its first when a row-major out is folded.
                    self.assertEqual(call["sb" if c_order == "F" else "sa"], 0)
            y = fake_batch(batch, k, n, 0x20000, "F", batch_stride=k * n + 3)
            for name, w in shared(m, k, 0x10000):  # w @ y
                with self.subTest(a=name, out=c_order):
                    jitgemm.matmul(w, y, out, stream=0)
                    call = self.check_call(w, y, out, batch, m, n, k)
                    self.assertEqual(call["sa" if c_order == "F" else "sb"], 0)
                    self.assertEqual(call["sb" if c_order == "F" else "sa"], k * n + 3)

    def test_out_side_by_side_within_a_row_as_a_slice_of_one_wide_matrix(self):
        # out[g] = wide[:, g * n:(g + 1) * n] of a row-major m x (batch * n) matrix: batch stride n, row stride
        # batch * n (what torch's wide.view(m, batch, n).permute(1, 0, 2) is).
        batch, m, n, k = 3, 4, 5, 6
        a, b = fake_batch(batch, m, k, 0x10000, "C"), fake_batch(batch, k, n, 0x20000, "F")
        out = FakeStridedArray((batch, m, n), (n, batch * n, 1), 0x30000)
        jitgemm.matmul(a, b, out, stream=0)
        call = self.check_call(a, b, out, batch, m, n, k)
        self.assertEqual((call["ldc"], call["sc"]), (batch * n, n))

    def test_blas_style_transposes_apply_to_every_matrix(self):
        batch, m, n, k = 2, 4, 6, 3
        at = fake_batch(batch, k, m, 0x10000, "C", batch_stride=40)  # a stored as its transposes
        bt = fake_batch(batch, n, k, 0x20000, "F", batch_stride=50)
        out = fake_batch(batch, m, n, 0x30000, "C")
        jitgemm.gemm(at, bt, out, trans_a=True, trans_b=True, stream=0)

        def transposed(x):  # the views op(a) and op(b), for the address check
            i = x.__cuda_array_interface__
            return FakeStridedArray((i["shape"][0], i["shape"][2], i["shape"][1]),
                                    (i["strides"][0] // 4, i["strides"][2] // 4, i["strides"][1] // 4), i["data"][0])

        self.check_call(transposed(at), transposed(bt), out, batch, m, n, k)

    def test_gemm_broadcasts_a_2d_product_into_every_matrix_of_c(self):
        m, n, k = 3, 4, 5
        a, b = FakeCudaArray(m, k, 0x10000, "C"), FakeCudaArray(k, n, 0x20000, "C")
        c = fake_batch(3, m, n, 0x30000, "C")
        jitgemm.gemm(a, b, c, beta=1.0, stream=0)
        call = self.check_call(a, b, c, 3, m, n, k)
        self.assertEqual((call["sa"], call["sb"], call["sc"]), (0, 0, m * n))

    def test_the_result_is_allocated_with_the_batch(self):
        m, n, k = 3, 4, 5
        cases = (
            (fake_batch(6, m, k, 0x10000), FakeCudaArray(k, n, 0x20000), (6, m, n)),
            (FakeCudaArray(m, k, 0x10000), fake_batch(6, k, n, 0x20000, "F"), (6, m, n)),
            (fake_batch(1, m, k, 0x10000), fake_batch(6, k, n, 0x20000), (6, m, n)),
            (fake_batch(1, m, k, 0x10000), FakeCudaArray(k, n, 0x20000), (1, m, n)),
            (fake_batch(0, m, k, 0x10000), fake_batch(1, k, n, 0x20000), (0, m, n)),
        )
        for a, b, shape in cases:
            with self.subTest(shape=shape):
                out = jitgemm.matmul(a, b, stream=0)
                self.assertEqual(self.allocated.pop(), (shape, "f32"))
                self.assertEqual(out.__cuda_array_interface__["shape"], shape)
                self.check_call(a, b, out, shape[0], m, n, k)
        out = jitgemm.matmul(FakeCudaArray(m, k, 0x10000), FakeCudaArray(k, n, 0x20000), stream=0)
        self.assertEqual(self.allocated.pop(), ((m, n), "f32"))
        self.assertEqual(len(self.plain.calls), 1, "a 2-D product goes through gemm_pointers")
        self.assertEqual(self.batched.calls, [])

    def test_batch_of_one_and_empty_batches_are_passed_on(self):
        m, n, k = 2, 3, 4
        jitgemm.matmul(fake_batch(1, m, k, 0x10000), fake_batch(1, k, n, 0x20000), FakeCudaArray(m, n, 0x30000),
                       stream=0)
        call = self.recorded()
        self.assertEqual((call["count"], call["sa"], call["sb"], call["sc"]), (1, 0, 0, 0))
        jitgemm.matmul(fake_batch(0, m, k, 0x10000), fake_batch(0, k, n, 0x20000), fake_batch(0, m, n, 0x30000),
                       stream=0)
        self.assertEqual(self.recorded()["count"], 0)


class FakeTorchTensor:
    """Read as a PyTorch tensor is (its type's module is torch's): shape, stride(), data_ptr(), of `twin`'s layout."""

    def __init__(self, twin, dtype):
        interface = twin.__cuda_array_interface__
        item = FakeCudaArray.ITEM[interface["typestr"]]
        self.shape, self.dtype, self.is_cuda, self.device = interface["shape"], dtype, True, "cuda:0"
        self._strides = tuple(s // item for s in interface["strides"])
        self._ptr = interface["data"][0]

    def dim(self):
        return len(self.shape)

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr


FakeTorchTensor.__module__ = "torch.fake"


class FakeDLPackArray:
    """No __cuda_array_interface__: read through DLPack (the binding's dlpack_view, replaced in the test)."""

    def __init__(self, twin, dtype):
        interface = twin.__cuda_array_interface__
        item = FakeCudaArray.ITEM[interface["typestr"]]
        self.view = (interface["data"][0], list(interface["shape"]), [s // item for s in interface["strides"]], dtype,
                     2, 0)


class BatchedFromEveryReader(BatchedCalls, unittest.TestCase):
    """Batches read through PyTorch's attributes and through DLPack (bfloat16) map as those through the interface."""

    def setUp(self):
        super().setUp()
        self.real_dlpack = _jitgemm.dlpack_view
        _jitgemm.dlpack_view = lambda array: array.view
        jitgemm._arrays._TORCH_DTYPES.update({"fake-f32": "f32", "fake-bf16": "bf16"})  # no torch imported

    def tearDown(self):
        super().tearDown()
        _jitgemm.dlpack_view = self.real_dlpack
        jitgemm._arrays._TORCH_DTYPES.clear()  # filled again by the first real tensor

    def test_batches_through_torch_and_dlpack(self):
        batch, m, n, k = 3, 4, 5, 2
        for reader, dtype, typestr in ((FakeTorchTensor, "fake-f32", "<f4"), (FakeDLPackArray, "bf16", "<f2")):
            a = fake_batch(batch, m, k, 0x10000, "F", batch_stride=m * k + 4, typestr=typestr)
            for b in (fake_batch(1, k, n, 0x20000, "C", typestr=typestr), FakeCudaArray(k, n, 0x20000, "C", typestr)):
                for out in (fake_batch(batch, m, n, 0x30000, "C", typestr=typestr),
                            fake_batch(batch, m, n, 0x30000, "F", batch_stride=m * n + 8, typestr=typestr)):
                    with self.subTest(reader=reader.__name__, b=b.__cuda_array_interface__["shape"],
                                      out=out.__cuda_array_interface__["strides"]):
                        jitgemm.matmul(reader(a, dtype), reader(b, dtype), reader(out, dtype), stream=0)
                        self.check_call(a, b, out, batch, m, n, k)
            with self.subTest(reader=reader.__name__, shape="4-D"):
                four = FakeStridedArray((1, 2, 4, 4), (32, 16, 4, 1), 0x10000, typestr)
                with self.assertRaises(jitgemm.Error) as caught:
                    jitgemm.matmul(reader(four, dtype), reader(b, dtype), reader(out, dtype), stream=0)
                self.assertEqual(caught.exception.code, "unsupported")
                self.assertIn("4 dimensions", str(caught.exception))


class BatchedRefusals(unittest.TestCase):
    def setUp(self):
        self.real = (_jitgemm.gemm_pointers, _jitgemm.gemm_strided_batched_pointers)
        _jitgemm.gemm_pointers = _jitgemm.gemm_strided_batched_pointers = self.fail_if_called

    def tearDown(self):
        _jitgemm.gemm_pointers, _jitgemm.gemm_strided_batched_pointers = self.real

    def fail_if_called(self, *args):
        self.fail(f"refused arguments reached the binding: {args}")

    def assert_refused(self, code, words, call):
        with self.assertRaises(jitgemm.Error) as caught:
            call()
        self.assertEqual(caught.exception.code, code)
        for word in words:
            self.assertIn(word, str(caught.exception))

    def test_batches_that_differ_are_refused_naming_both_shapes(self):
        a, b = fake_batch(3, 5, 4, 0x10000), fake_batch(2, 4, 6, 0x20000)
        self.assert_refused("invalid argument", ("batches", "a (3, 5, 4)", "b (2, 4, 6)"),
                            lambda: jitgemm.matmul(a, b, fake_batch(3, 5, 6, 0x30000), stream=0))
        self.assert_refused("invalid argument", ("batches", "a (3, 5, 4)", "b (2, 4, 6)"),
                            lambda: jitgemm.matmul(a, b, stream=0))  # before allocating
        self.assert_refused("invalid argument", ("batches", "b (0, 4, 6)", "c (2, 5, 6)"),
                            lambda: jitgemm.gemm(FakeCudaArray(5, 4, 0x10000), fake_batch(0, 4, 6, 0x20000),
                                                 fake_batch(2, 5, 6, 0x30000), stream=0))

    def test_an_out_that_cannot_hold_the_batch_is_refused(self):
        a, b = fake_batch(3, 5, 4, 0x10000), FakeCudaArray(4, 6, 0x20000)
        for out in (FakeCudaArray(5, 6, 0x30000), fake_batch(1, 5, 6, 0x30000)):
            shape = out.__cuda_array_interface__["shape"]
            with self.subTest(out=shape):
                self.assert_refused("invalid argument", ("cannot hold the 3 products", "(3, 5, 6)"),
                                    lambda: jitgemm.matmul(a, b, out, stream=0))
        self.assert_refused("invalid argument", ("do not chain", "(3, 5, 4) @ (4, 6) into out (3, 6, 5)"),
                            lambda: jitgemm.matmul(a, b, fake_batch(3, 6, 5, 0x30000), stream=0))

    def test_layouts_jitgemm_cannot_take_are_refused(self):
        b, out = fake_batch(2, 4, 4, 0x20000), fake_batch(2, 4, 4, 0x30000)
        strided = FakeStridedArray((2, 4, 4), (64, 8, 2), 0x10000)  # each matrix a slice with steps both ways
        self.assert_refused("invalid argument", ("a is neither row- nor column-major",),
                            lambda: jitgemm.matmul(strided, b, out, stream=0))
        backwards = FakeStridedArray((2, 4, 4), (-16, 4, 1), 0x10000)  # a[::-1] of CuPy
        self.assert_refused("invalid argument", ("a's batch stride -16 is negative",),
                            lambda: jitgemm.matmul(backwards, b, out, stream=0))
        self.assert_refused("invalid argument", ("out's batch stride -16 is negative",),
                            lambda: jitgemm.matmul(b, b, FakeStridedArray((2, 4, 4), (-16, 4, 1), 0x10000), stream=0))
        self.assert_refused("unsupported", ("4 dimensions", "3-D batches"),
                            lambda: jitgemm.matmul(FakeStridedArray((1, 2, 4, 4), (32, 16, 4, 1), 0x10000), b, out,
                                                   stream=0))

    def test_the_library_refuses_a_batch_whose_results_overlap(self):
        # Through the real binding (its checks come before any driver call): out's matrices all at one address.
        _jitgemm.gemm_strided_batched_pointers = self.real[1]
        a, b = fake_batch(2, 4, 4, 0x10000), fake_batch(2, 4, 4, 0x20000)
        self.assert_refused("invalid argument", ("stride_c = 0", "overlapping"),
                            lambda: jitgemm.matmul(a, b, fake_batch(2, 4, 4, 0x30000, batch_stride=0), stream=0))
        self.assert_refused("invalid argument", ("stride_c = 8", "overlapping"),  # 8 < one 4 x 4 matrix
                            lambda: jitgemm.matmul(a, b, fake_batch(2, 4, 4, 0x30000, batch_stride=8), stream=0))
        # The binding's own argument order: a plain 2 x (4 x 4) call refused for its dtypes before anything runs.
        self.assert_refused("unsupported", ("a=f16", "b=f32"), lambda: _jitgemm.gemm_strided_batched_pointers(
            "col", False, False, 4, 4, 4, 1.0, 0x10000, "f16", 4, 16, 0x20000, "f32", 4, 16, 0.0, 0x30000, "f32", 4,
            16, 2, 0, False, "", "off", 0.0))


class Package(unittest.TestCase):
    def test_version_is_the_library_s(self):
        self.assertEqual(jitgemm.__version__, jitgemm.version())
        self.assertRegex(jitgemm.version(), r"^\d+\.\d+\.\d+$")
        # In a process of its own: the GPU tests, run in this one, compile.
        fresh = subprocess.run([sys.executable, "-c", "import jitgemm; print(sorted(jitgemm.statistics().items()))"],
                               capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(fresh, "[('nvrtc_compiles', 0), ('tunings', 0)]")

    @unittest.skipIf(driver_present(), "a CUDA driver is present: the fake pointers would be launched")
    def test_without_a_driver_a_call_says_so(self):
        a, b, out = FakeCudaArray(4, 4, 0x1000), FakeCudaArray(4, 4, 0x2000), FakeCudaArray(4, 4, 0x3000)
        with self.assertRaises(jitgemm.Error) as caught:
            jitgemm.matmul(a, b, out, stream=0)
        self.assertEqual(caught.exception.code, "no CUDA driver")
        self.assertIn("libcuda.so.1", str(caught.exception))
        with self.assertRaises(jitgemm.Error) as caught:  # a batch, through gemm_strided_batched_pointers
            jitgemm.matmul(fake_batch(2, 4, 4, 0x1000), FakeCudaArray(4, 4, 0x2000), fake_batch(2, 4, 4, 0x3000),
                           stream=0)
        self.assertEqual(caught.exception.code, "no CUDA driver")

    @unittest.skipUnless(sys.platform.startswith("linux") and shutil.which("nm"), "reads the ELF exports with nm")
    def test_the_extension_exports_only_its_init_function(self):
        # It once exported thousands of C++ standard library symbols, and `import jitgemm` then `import torch`
        # crashed in torch's import where the toolchain had linked libstdc++ statically (python/CMakeLists.txt).
        listed = subprocess.run(["nm", "-D", "--defined-only", _jitgemm.__file__], capture_output=True, text=True,
                                check=True).stdout.split()
        exported = {name for name in listed[2::3]}
        self.assertEqual(exported, {"PyInit__jitgemm"})

if __name__ == "__main__":
    unittest.main()
