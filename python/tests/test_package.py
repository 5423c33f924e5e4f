"""The Python package without a GPU: it imports and reports its version; arrays are read through
__cuda_array_interface__ and mapped to jitgemm's column-major call correctly for every layout of a, b and out
(checked element by element against the addresses the call will use); what jitgemm cannot take is refused with
jitgemm.Error before anything runs; and without a driver a call says so.

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
         _stream, _tf32, _config, _tuning, _budget) = self.recorder.calls[-1]
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
        self.assert_refused("unsupported", "2-D",
                            lambda: jitgemm.matmul(FakeCudaArray(4, 4, 0x1000, shape=(2, 2, 4)), b, out, stream=0))
        self.assert_refused("invalid argument", "not an array", lambda: jitgemm.matmul(object(), b, out, stream=0))
        self.assert_refused("invalid argument", "beta != 0 needs out=", lambda: jitgemm.matmul(a, b, beta=1.0))
        self.assert_refused("invalid argument", "not a CUDA stream", lambda: jitgemm.matmul(a, b, out, stream="s"))
        self.assert_refused("invalid argument", "tuning=", lambda: jitgemm.set_tuning_defaults(tuning="sometimes"))

    def test_mixed_dtypes_are_the_library_s_to_refuse(self):
        a = FakeCudaArray(4, 4, 0x1000, typestr="<f2")
        b = FakeCudaArray(4, 4, 0x2000, typestr="<f4")
        self.assert_refused("unsupported", "", lambda: jitgemm.matmul(a, b, FakeCudaArray(4, 4, 0x3000), stream=0))


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
