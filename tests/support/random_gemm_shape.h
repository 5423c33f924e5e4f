// The random parts of a GPU test's GEMM that do not depend on what the test is about: storage order, transposes,
// alpha and beta (beta = 0 half the time, so C is never read and may hold NaN), and leading dimensions above the
// minimum (odd pads leave 16-bit operands only 2-byte aligned). The caller draws m, n and k.
#pragma once

#include <cstdint>
#include <random>

#include "verify/gemm_workload.h"

namespace jitgemm::testing {

inline GemmShape random_gemm_shape(std::mt19937_64& rng, std::int64_t m, std::int64_t n, std::int64_t k) {
    std::uniform_int_distribution<int> coin(0, 1);
    GemmShape s;
    s.order = coin(rng) ? Order::RowMajor : Order::ColumnMajor;
    s.trans_a = coin(rng) ? Transpose::Yes : Transpose::No;
    s.trans_b = coin(rng) ? Transpose::Yes : Transpose::No;
    s.m = m;
    s.n = n;
    s.k = k;
    const float alphas[] = {1.0f, -0.75f, 2.5f};
    const float betas[] = {0.0f, 0.0f, 1.0f, -1.5f};
    s.alpha = alphas[std::uniform_int_distribution<int>(0, 2)(rng)];
    s.beta = betas[std::uniform_int_distribution<int>(0, 3)(rng)];
    s = s.with_minimum_leading_dimensions();
    std::uniform_int_distribution<std::int64_t> pad(0, 9);
    if (coin(rng)) s.lda += pad(rng);
    if (coin(rng)) s.ldb += pad(rng);
    if (coin(rng)) s.ldc += pad(rng);
    return s;
}

}  // namespace jitgemm::testing
