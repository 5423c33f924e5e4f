// The random parts of a GPU test's GEMM that do not depend on what the test is about: storage order, transposes,
// alpha and beta (beta = 0 half the time, so C is never read and may hold NaN), and leading dimensions above the
// minimum (odd pads leave 16-bit operands only 2-byte aligned), and pointers off their 16-byte boundaries. The caller
// draws m, n and k.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "tools/verify/gemm_workload.h"

namespace jitgemm::testing {

// Leading dimensions for the shape's order and transposes: the minimum, each padded by 0 to 9 half the time (odd
// pads leave 16-bit operands only 2-byte aligned). Whatever they were before is replaced.
inline void pad_leading_dimensions(std::mt19937_64& rng, GemmShape& s) {
    std::uniform_int_distribution<int> coin(0, 1);
    s.lda = s.ldb = s.ldc = 0;
    s = s.with_minimum_leading_dimensions();
    std::uniform_int_distribution<std::int64_t> pad(0, 9);
    if (coin(rng)) s.lda += pad(rng);
    if (coin(rng)) s.ldb += pad(rng);
    if (coin(rng)) s.ldc += pad(rng);
}

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
    pad_leading_dimensions(rng, s);
    return s;
}

// Moves the three operands off their 16-byte boundaries half the time (GemmShape::alignment), by as little as their
// element types allow: 2 bytes when A, B and C are all 16-bit, else 4 or 8. Call it once the types are set: the
// pack's and the vector paths' handling of a misaligned first and last column is what it reaches.
inline void maybe_misalign_pointers(std::mt19937_64& rng, GemmShape& s) {
    if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) return;
    const int widest = std::max(size_of(s.a_type), size_of(s.c_type));
    const int choices[] = {2, 4, 8};
    int pick = 0;
    do pick = choices[std::uniform_int_distribution<int>(0, 2)(rng)];
    while (pick < widest);
    s.alignment = pick;
}

}  // namespace jitgemm::testing
