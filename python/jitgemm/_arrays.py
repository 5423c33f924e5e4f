"""Framework arrays as jitgemm sees them: a 2-D matrix in device memory with its element strides, or a 3-D batch of
such matrices (batch, rows, cols) with the element stride from one matrix to the next.

Arrays are read through ``__cuda_array_interface__`` when they have one (CuPy, PyTorch, Numba; it has no side
effects), else through DLPack (bfloat16 tensors, JAX). Nothing is copied: a layout that is neither row- nor
column-major (a slice with a step along both dimensions, say) is refused with an error; the batch stride may be any
stride (0: the same matrix in every GEMM).
"""

from __future__ import annotations

from typing import Any, Optional

from . import _jitgemm
from ._errors import Error

_CAI_DTYPES = {"<f4": "f32", "<f2": "f16"}
_DLPACK_CUDA = 2  # kDLCUDA
_DLPACK_CUDA_MANAGED = 13  # kDLCUDAManaged
_ITEM_BYTES = {"f32": 4, "f16": 2, "bf16": 2}


def column_major_ld(rows: int, cols: int, row_stride: int, col_stride: int) -> Optional[int]:
    """The leading dimension of a rows x cols matrix with these element strides when it is column-major (elements
    of a column adjacent), else None. The row-major one is column_major_ld(cols, rows, col_stride, row_stride)."""
    if rows > 1 and row_stride != 1:
        return None
    ld = col_stride if cols > 1 else max(rows, 1)
    return ld if ld >= max(rows, 1) else None


class Matrix:
    """A rows x cols matrix at ``ptr`` whose element (i, j) lies at ptr + (i * row_stride + j * col_stride) elements;
    of a 3-D array, ``batch`` such matrices, matrix b's at ptr + b * batch_stride elements. ``batch`` is None for a
    2-D array (no batch dimension, which a batched call shares among its GEMMs); a 3-D array's batch may be 1 (then
    shared as well) or 0.

    A plain class with slots: three are made per call, and a frozen dataclass cost ~1 us each (per-call cost is
    what small products are made of)."""

    __slots__ = ("ptr", "rows", "cols", "row_stride", "col_stride", "dtype", "owner", "batch", "batch_stride")

    def __init__(self, ptr: int, rows: int, cols: int, row_stride: int, col_stride: int, dtype: str, owner: Any,
                 batch: Optional[int] = None, batch_stride: int = 0):
        self.ptr = ptr
        self.rows = rows
        self.cols = cols
        self.row_stride = row_stride
        self.col_stride = col_stride
        self.dtype = dtype
        self.owner = owner  # the array, kept alive while the call uses its memory
        self.batch = batch
        self.batch_stride = batch_stride

    def transposed(self) -> "Matrix":
        """Every matrix transposed (the batch as it is)."""
        return Matrix(self.ptr, self.cols, self.rows, self.col_stride, self.row_stride, self.dtype, self.owner,
                      self.batch, self.batch_stride)

    def shape_text(self) -> str:
        """The shape as the framework prints it: "(rows, cols)" or "(batch, rows, cols)"."""
        if self.batch is None:
            return f"({self.rows}, {self.cols})"
        return f"({self.batch}, {self.rows}, {self.cols})"


def _dimensions_error(name: str, ndim: int) -> Error:
    return Error(f"jitgemm: {name} has {ndim} dimensions; jitgemm multiplies 2-D matrices and 3-D batches of them "
                 f"(batch, rows, cols)", "unsupported")


def _from_cuda_array_interface(array: Any, interface: dict, name: str) -> Matrix:
    typestr = interface["typestr"]
    if typestr not in _CAI_DTYPES:
        raise Error(f"jitgemm: {name} has element type {typestr!r}; jitgemm takes float32, float16 and bfloat16",
                    "unsupported")
    dtype = _CAI_DTYPES[typestr]
    shape = tuple(interface["shape"])
    if len(shape) not in (2, 3):
        raise _dimensions_error(name, len(shape))
    item = _ITEM_BYTES[dtype]
    strides = interface.get("strides")
    if strides is not None and any(s % item for s in strides):
        raise Error(f"jitgemm: {name}'s strides {tuple(strides)} are not whole elements", "invalid argument")
    if len(shape) == 2:
        if strides is None:
            row_stride, col_stride = shape[1], 1  # C order
        else:
            row_stride, col_stride = strides[0] // item, strides[1] // item
        return Matrix(int(interface["data"][0]), shape[0], shape[1], row_stride, col_stride, dtype, array)
    if strides is None:
        batch_stride, row_stride, col_stride = shape[1] * shape[2], shape[2], 1  # C order
    else:
        batch_stride, row_stride, col_stride = strides[0] // item, strides[1] // item, strides[2] // item
    return Matrix(int(interface["data"][0]), shape[1], shape[2], row_stride, col_stride, dtype, array, shape[0],
                  batch_stride)


def _from_dlpack(array: Any, name: str) -> Matrix:
    try:
        ptr, shape, strides, dtype, device_type, _device_id = _jitgemm.dlpack_view(array)
    except TypeError as e:
        raise Error(f"jitgemm: {name} is not an array that jitgemm can read (neither __cuda_array_interface__ nor "
                    f"DLPack): {type(array).__name__}", "invalid argument") from e
    if device_type not in (_DLPACK_CUDA, _DLPACK_CUDA_MANAGED):
        raise Error(f"jitgemm: {name} is not in CUDA device memory (DLPack device type {device_type})",
                    "invalid argument")
    if dtype not in _ITEM_BYTES:
        raise Error(f"jitgemm: {name} has element type {dtype}; jitgemm takes float32, float16 and bfloat16",
                    "unsupported")
    if len(shape) == 2:
        return Matrix(int(ptr), shape[0], shape[1], strides[0], strides[1], dtype, array)
    if len(shape) == 3:
        return Matrix(int(ptr), shape[1], shape[2], strides[1], strides[2], dtype, array, shape[0], strides[0])
    raise _dimensions_error(name, len(shape))


_TORCH_DTYPES = {}  # torch.dtype -> name, filled on the first PyTorch tensor


def _from_torch(tensor: Any, name: str) -> Matrix:
    """PyTorch tensors directly: reading __cuda_array_interface__ costs several microseconds a call, this a few
    attribute reads (the per-call cost is what small products are made of)."""
    if not _TORCH_DTYPES:
        import torch

        _TORCH_DTYPES.update({torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"})
    if not tensor.is_cuda:
        raise Error(f"jitgemm: {name} is on {tensor.device}, not a CUDA device", "invalid argument")
    dtype = _TORCH_DTYPES.get(tensor.dtype)
    if dtype is None:
        raise Error(f"jitgemm: {name} has element type {tensor.dtype}; jitgemm takes float32, float16 and bfloat16",
                    "unsupported")
    ndim = tensor.dim()
    if ndim == 2:
        rows, cols = tensor.shape
        row_stride, col_stride = tensor.stride()
        return Matrix(tensor.data_ptr(), rows, cols, row_stride, col_stride, dtype, tensor)
    if ndim == 3:
        batch, rows, cols = tensor.shape
        batch_stride, row_stride, col_stride = tensor.stride()
        return Matrix(tensor.data_ptr(), rows, cols, row_stride, col_stride, dtype, tensor, batch, batch_stride)
    raise _dimensions_error(name, ndim)


def matrix_of(array: Any, name: str) -> Matrix:
    """The Matrix of a CUDA array of any framework; raises jitgemm.Error for what jitgemm cannot take."""
    if type(array).__module__.startswith("torch"):
        return _from_torch(array, name)
    try:
        interface = array.__cuda_array_interface__
    except (AttributeError, TypeError, ValueError, RuntimeError):
        # No interface, or one the framework cannot give (PyTorch has no typestr for bfloat16): try DLPack.
        interface = None
    if interface is not None:
        return _from_cuda_array_interface(array, interface, name)
    return _from_dlpack(array, name)


def framework_of(array: Any) -> str:
    module = type(array).__module__.split(".")[0]
    return {"torch": "torch", "cupy": "cupy", "jax": "jax", "jaxlib": "jax"}.get(module, module)


def current_stream_of(array: Any) -> int:
    """The stream the array's framework would run on now: PyTorch's or CuPy's current stream, else the legacy
    default stream (0)."""
    framework = framework_of(array)
    if framework == "torch":
        import torch

        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        if raw is not None:  # the handle itself: torch.cuda.current_stream builds a Stream object (microseconds)
            return int(raw(array.get_device()))
        return int(torch.cuda.current_stream(array.device).cuda_stream)
    if framework == "cupy":
        import cupy

        return int(cupy.cuda.get_current_stream().ptr)
    return 0


def stream_handle(stream: Any) -> int:
    """A CUDA stream handle from what a caller may pass: an int, a torch.cuda.Stream, a cupy.cuda.Stream, or any
    object with a ``cuda_stream`` or ``ptr`` attribute, or with ``__cuda_stream__`` (the CUDA Python protocol)."""
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    for attribute in ("cuda_stream", "ptr", "handle"):
        if hasattr(stream, attribute):
            return int(getattr(stream, attribute))
    raise Error(f"jitgemm: stream={stream!r} is not a CUDA stream (an int handle, torch.cuda.Stream or "
                f"cupy.cuda.Stream)", "invalid argument")


def empty_like_framework(array: Any, shape: tuple, dtype: str) -> Any:
    """A new C-contiguous array of `shape` ((rows, cols): row-major; (batch, rows, cols): a row-major matrix after
    the other) and `dtype` from the framework of `array`, on its device."""
    framework = framework_of(array)
    if framework == "torch":
        import torch

        torch_dtype = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[dtype]
        return torch.empty(shape, dtype=torch_dtype, device=array.device)
    if framework == "cupy":
        import cupy

        if dtype == "bf16":
            raise Error("jitgemm: CuPy has no bfloat16 arrays; pass out=", "unsupported")
        with array.device:
            return cupy.empty(shape, dtype={"f32": cupy.float32, "f16": cupy.float16}[dtype])
    raise Error(f"jitgemm: cannot allocate the result for {type(array).__name__} arrays; pass out=",
                "invalid argument")
