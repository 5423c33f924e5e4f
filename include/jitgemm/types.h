// Public value types of jitgemm: element types, transposes, storage order and the stream handle.
//
// This header deliberately includes no CUDA header: a CUDA stream is passed as `jitgemm::Stream`, which is the
// same type as the driver API's CUstream and the runtime API's cudaStream_t (both are `struct CUstream_st*`), so
// callers pass either without a cast.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "jitgemm/export.h"

struct CUstream_st;

namespace jitgemm {

// A CUstream or cudaStream_t. nullptr is the legacy default stream of the current context.
using Stream = CUstream_st*;

// Element types of the operands. Every enum here has one table (in src/api/enum_names.cpp) that drives
// to_string/parse for the API, the CLI, logs and the cache.
enum class DType {
    F32 = 0,   // IEEE binary32
    F16 = 1,   // IEEE binary16
    BF16 = 2,  // bfloat16
};

// How the multiply is computed; sums are always accumulated in fp32. F32: fp32 inputs are multiplied exactly (FFMA),
// 16-bit inputs exactly on Tensor Cores. TF32 lets fp32 inputs be rounded to TF32 for the Tensor Cores: it is
// never used unless asked for.
enum class ComputeType {
    F32,
    TF32,
};

// op(X) = X or X^T, as in BLAS.
enum class Transpose {
    No,
    Yes,
};

// Storage order of all three matrices of one call. ColumnMajor is BLAS's convention; RowMajor is C's.
enum class Order {
    ColumnMajor,
    RowMajor,
};

JITGEMM_API std::string_view to_string(DType);
JITGEMM_API std::string_view to_string(ComputeType);
JITGEMM_API std::string_view to_string(Transpose);
JITGEMM_API std::string_view to_string(Order);

// Inverse of to_string; std::nullopt for a name that is not in the table. Accepts the canonical names only
// ("f32", "f16", "bf16"; "f32", "tf32"; "n", "t"; "col", "row").
JITGEMM_API std::optional<DType> parse_dtype(std::string_view);
JITGEMM_API std::optional<ComputeType> parse_compute_type(std::string_view);
JITGEMM_API std::optional<Transpose> parse_transpose(std::string_view);
JITGEMM_API std::optional<Order> parse_order(std::string_view);

// Size of one element in bytes.
JITGEMM_API int size_of(DType);

}  // namespace jitgemm
