// GemmCall: the caller's arguments exactly as given, checked and turned into a canonical Problem plus the device
// pointers and scalars to launch with. All argument checking of the public API lives in make_canonical_call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "jitgemm/types.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

// One GEMM as its caller states it, in BLAS terms, without its data: what the API's arguments, the tools' workloads
// (tools/verify/gemm_workload.h) and the host reference (tools/verify/host_reference.h) all describe, each adding its
// operands. make_canonical_call turns it, with device pointers, into the canonical Problem; a new field of a call is
// one member here.
struct GemmDescription {
    Order order = Order::ColumnMajor;
    Transpose trans_a = Transpose::No, trans_b = Transpose::No;
    std::int64_t m = 0, n = 0, k = 0;
    std::int64_t lda = 1, ldb = 1, ldc = 1;  // in elements, in `order`
    float alpha = 1.0f, beta = 0.0f;
    DType a_type = DType::F32, b_type = DType::F32, c_type = DType::F32;
    ComputeType compute = ComputeType::F32;
    // Strided batched calls: `batch` GEMMs of this shape, GEMM i on A + i * stride_a, B + i * stride_b and
    // C + i * stride_c (in elements). A stride of A or B may be 0 (every GEMM reads the same operand); C's GEMMs must
    // not overlap. The strides are ignored when batch is 1.
    std::int64_t batch = 1;
    std::int64_t stride_a = 0, stride_b = 0, stride_c = 0;
};

// The API's call: the description and the device operands.
struct GemmCall : GemmDescription {
    const void* a = nullptr;
    const void* b = nullptr;
    void* c = nullptr;
};

// What the kernel is launched with: the canonical problem and its operands (A and B already swapped for
// row-major calls).
struct CanonicalCall {
    Problem problem;
    const void* a = nullptr;
    const void* b = nullptr;
    void* c = nullptr;
    float alpha = 1.0f;
    float beta = 0.0f;
    // Elements between consecutive GEMMs' operands of a batched call (A and B as the problem sees them); 0 when the
    // problem is one GEMM.
    std::int64_t stride_a = 0, stride_b = 0, stride_c = 0;
    // Nothing to launch: m = 0, n = 0 or batch = 0, or C = 1 * C (k = 0 or alpha = 0 with beta = 1).
    bool no_work = false;
};

// A stored matrix holding an operand that is rows x cols after op(): how many elements one leading-dimension
// stride must cover (the minimum of ld, before max(1, .)) and how many strides it spans.
struct StoredShape {
    std::int64_t ld_extent = 0;
    std::int64_t strides = 0;
};
StoredShape stored_shape(Order order, Transpose trans, std::int64_t rows, std::int64_t cols);

// Why this combination of element types and compute type is not supported, or nullopt when it is. Supported:
// f32 x f32 -> f32 with compute f32 or tf32; f16 x f16 and bf16 x bf16 -> f16, bf16 or f32 with compute f32.
std::optional<std::string> unsupported_dtypes(DType a, DType b, DType c, ComputeType compute);

// Checks every argument and throws Error(InvalidArgument) or Error(Unsupported) naming the argument, its value
// and the rule it breaks. Reads no memory.
CanonicalCall make_canonical_call(const GemmCall& call);

// The checks of make_canonical_call that need no operands: sizes, element types, leading dimensions, the batch and
// its strides (C's GEMMs must not overlap), and that every operand's byte extent (over the whole batch) fits 64-bit
// addressing. Throws as make_canonical_call does. Tools call it before they
// allocate anything for a call.
void check_description(const GemmDescription& description);

}  // namespace jitgemm
