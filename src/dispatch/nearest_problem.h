// Which tuned problems may lend their kernel to a problem that has none: those of the same layer — equal in every
// field but one size (m, or n) and the leading dimensions — ordered nearest first. The run-time-shape variant of
// such a problem's winner (Problem::runtime_dim) computes the new problem without a compile of its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/problem/problem.h"

namespace jitgemm {

struct NearbyProblem {
    Problem tuned;               // the tuned problem, as its key reads
    std::uint8_t runtime_dim;    // the size they differ in: 1 (m) or 2 (n)
    double distance;             // |log2(tuned size / wanted size)|
};

// The problems among `tuned_keys` (Problem::key() texts; others are skipped) that differ from `wanted` only in m, or
// only in n, and in lda, ldb and ldc, nearest first (log distance of the differing size; of two equally near, the
// larger first, since a kernel tuned for more rows or columns is the safer guess for the throughput a size needs).
// A problem equal to `wanted` but for its leading dimensions comes first, read as differing in m. Batched problems
// qualify only with the same batch count; run-time-shape keys and `wanted` itself never do.
std::vector<NearbyProblem> nearest_problems(const Problem& wanted, const std::vector<std::string>& tuned_keys);

}  // namespace jitgemm
