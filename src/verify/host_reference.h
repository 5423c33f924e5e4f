// The float64 host reference for checking a GEMM result element by element, in the caller's own order and
// transposes, with the rounding-error bound an fp32 result must meet.
#pragma once

#include <cstdint>
#include <vector>

#include "jitgemm/types.h"

namespace jitgemm {

// A GEMM on host copies of its operands, described as the caller described it.
struct HostGemm {
    Order order = Order::ColumnMajor;
    Transpose trans_a = Transpose::No, trans_b = Transpose::No;
    std::int64_t m = 0, n = 0, k = 0;
    double alpha = 1.0, beta = 0.0;
    const float* a = nullptr;
    std::int64_t lda = 1;
    const float* b = nullptr;
    std::int64_t ldb = 1;
    const float* c_before = nullptr;  // C as it was before the call (unused when beta == 0)
    std::int64_t ldc = 1;
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

struct CheckSummary {
    std::int64_t checked = 0;
    std::int64_t failures = 0;
    double max_error_over_bound = 0.0;  // worst |result - reference| / bound (<= 1 passes)
    std::int64_t first_bad_i = -1, first_bad_j = -1;
    double first_bad_value = 0.0, first_bad_reference = 0.0;
};

// Checks C(i, j) for the listed (i, j) pairs (all of them when `elements` is empty) against the reference.
// `c_after` is the host copy of C after the call. NaN or Inf where the reference is finite counts as a failure.
CheckSummary check_against_reference(const HostGemm& gemm, const float* c_after,
                                     const std::vector<std::pair<std::int64_t, std::int64_t>>& elements = {});

}  // namespace jitgemm
