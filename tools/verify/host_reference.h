// The float64 host reference for checking a GEMM result element by element, in the caller's own order and
// transposes, with the rounding-error bound a result must meet: fp32 accumulation always, plus the rounding of fp32
// inputs to TF32 when the call asked for it, plus the rounding of a 16-bit C.
#pragma once

#include <cstdint>
#include <vector>

#include "jitgemm/types.h"
#include "runtime/problem/gemm_call.h"

namespace jitgemm {

// A GEMM on host copies of its operands, described as the caller described it. The host copies hold values exact in
// the description's types; with compute TF32 the device may round fp32 A and B further, which the bound allows for
// (the reference uses the values as stored).
struct HostGemm : GemmDescription {
    const float* a = nullptr;
    const float* b = nullptr;
    const float* c_before = nullptr;  // C as it was before the call (unused when beta == 0)
};

// Offset of element (row, col) of a stored matrix with leading dimension ld.
inline std::int64_t element_offset(Order order, std::int64_t row, std::int64_t col, std::int64_t ld) {
    return order == Order::ColumnMajor ? row + col * ld : row * ld + col;
}

struct ReferenceValue {
    double value = 0.0;      // alpha * sum op(A)(i,p) op(B)(p,j) + beta * C(i,j), in float64
    double magnitude = 0.0;  // |alpha| * sum |op(A)(i,p) op(B)(p,j)| + |beta C(i,j)|: scales the error bound
};

ReferenceValue reference_element(const HostGemm& gemm, std::int64_t i, std::int64_t j);

// The largest error an fp32 GEMM with fp32 accumulation may show on an element of this magnitude, whatever its
// summation order: gamma_(k+2) * magnitude (Higham), with the unit roundoff of fp32.
double fp32_error_bound(std::int64_t k, double magnitude);

// The largest error allowed on an element of C for this call's types: fp32_error_bound; plus, for TF32 compute on
// fp32 inputs, (2 e + e^2) * magnitude with e = 2^-10, TF32's spacing relative to a value (both factors of every
// product shortened to TF32: rounded to nearest they are off by half of it, as mma.sync's inputs are; truncated by
// all of it, as wgmma's are, which read the fp32 bits and ignore the 13 low ones); plus, for a
// 16-bit C, its rounding u_out * (|reference| + the bound so far) with u_out = 2^-8 (bf16) or 2^-11 (f16), and for
// f16 an absolute 2^-24 for results in its subnormal range.
double element_error_bound(const HostGemm& gemm, const ReferenceValue& reference);

struct CheckSummary {
    std::int64_t checked = 0;
    std::int64_t failures = 0;
    double max_error_over_bound = 0.0;  // worst |result - reference| / bound (<= 1 passes)
    std::int64_t first_bad_i = -1, first_bad_j = -1;
    double first_bad_value = 0.0, first_bad_reference = 0.0;
    // Sums of squares over the checked elements, for the relative error.
    double squared_error = 0.0, squared_reference = 0.0;
    bool non_finite = false;  // some checked element was NaN or Inf

    // ||C - reference||_2 / ||reference||_2 over the checked elements; infinite when one of them is not finite.
    double relative_error() const;
};

// Checks C(i, j) for the listed (i, j) pairs (all of them when `elements` is empty) against the reference.
// `c_after` is the host copy of C after the call (as floats, whatever C's type). NaN or Inf where the reference is
// finite counts as a failure.
CheckSummary check_against_reference(const HostGemm& gemm, const float* c_after,
                                     const std::vector<std::pair<std::int64_t, std::int64_t>>& elements = {});

}  // namespace jitgemm
