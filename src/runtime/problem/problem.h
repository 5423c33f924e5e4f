// Problem: one GEMM as a kernel sees it — canonical column-major form, everything that becomes a compile-time
// constant of the specialized kernel, and nothing else. Two calls with equal Problems run the same kernel, so
// Problem is the key of the in-memory kernel map and (with the device fingerprint) of the tuning cache.
//
// Row-major calls are folded in: C = op(A) op(B) in row-major is C^T = op(B)^T op(A)^T in column-major, which is
// the same Problem with A and B (and m and n) swapped. The degenerate calls (k = 0 or alpha = 0) are all the
// same "C = beta * C" Problem with k = 0, whatever A and B were.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jitgemm/types.h"

namespace jitgemm {

// How beta enters the epilogue. Zero is special in BLAS: C is not read at all.
enum class BetaMode : std::uint8_t { Zero = 0, One = 1, General = 2 };

// Every field is a row of kProblemFields (problem_fields.h), which drives the key, equality, the hash and the kernel's
// -D constants: a field is added there, not to each of them.
struct Problem {
    std::int64_t m = 0, n = 0, k = 0;
    std::int64_t lda = 1, ldb = 1, ldc = 1;  // in elements, column-major
    // Independent GEMMs of this shape in one call (strided batched: the distances between their operands are run-time
    // arguments, KernelArgs::batch_stride_*, and only their alignment is part of the problem, in align_*).
    std::int64_t batch = 1;
    Transpose trans_a = Transpose::No;
    Transpose trans_b = Transpose::No;
    DType a_type = DType::F32, b_type = DType::F32, c_type = DType::F32;
    ComputeType compute = ComputeType::F32;
    bool alpha_one = false;  // alpha == 1: the epilogue skips the multiply
    BetaMode beta_mode = BetaMode::Zero;
    // Alignment classes in bytes (a power of two, at most 16): the pointer and every column start (of every GEMM of a
    // batch) are aligned to this, which decides how wide the kernel's vector accesses to that operand may be.
    std::uint8_t align_a = 16, align_b = 16, align_c = 16;
    // 0: a kernel for exactly this problem. 1 (m) or 2 (n): the run-time-shape variant, whose kernel takes that size
    // and lda, ldb, ldc at run time (the -D constants of those four are 0, so one binary serves every value); the
    // fields still hold this call's values, for the family's checks and its launch. Never set on a call's problem.
    std::uint8_t runtime_dim = 0;

    // This problem as the run-time-shape variant along `dim` sees it (0: the exact kernel's problem again).
    Problem with_runtime_dim(std::uint8_t dim) const {
        Problem p = *this;
        p.runtime_dim = dim;
        return p;
    }

    // True when some offset of the kernel, with the slack of one tile past each edge, does not fit in int32.
    bool needs_index64() const;

    // Canonical text of every field after a version token, e.g.
    // "v2_f32.f32.f32.f32_nt_m4096.n4096.k4096_ld4096.4096.4096_a1.b0_al16.16.16". It is stored in the tuning cache,
    // so the text of one version never changes; a new layout is a new version (problem_fields.h).
    std::string key() const;
    // The inverse of key(); nullopt for text that is not a canonical key of the current version.
    static std::optional<Problem> parse_key(std::string_view key);

    // The kernel's -D constants: one per field (its integer value; enums by their codes), then JG_INDEX64.
    std::vector<std::pair<std::string, long long>> defines() const;
    // defines() of a kernel that takes every size from the launch (JG_SIZES_AT_RUN_TIME): m, n, k and the leading
    // dimensions compile as 0, so one binary serves every size; the index width is still this problem's.
    std::vector<std::pair<std::string, long long>> defines_with_sizes_at_run_time() const;

    friend bool operator==(const Problem& x, const Problem& y);
    friend bool operator!=(const Problem& x, const Problem& y) { return !(x == y); }
};

struct ProblemHash {
    std::size_t operator()(const Problem& p) const noexcept;
};

// Largest power of two, at most 16, that divides the address, the byte stride between columns and (for a batched
// operand) the byte stride between GEMMs (0: the same operand for all, no constraint).
std::uint8_t alignment_class(const void* pointer, std::int64_t leading_dimension, int element_bytes,
                             std::int64_t batch_stride = 0);

}  // namespace jitgemm
