// The tuner's candidate check, for a kernel that no search verified: run once on the tuner's own operands of a
// problem (never the caller's) and compared, element by element, with the reference family's output. A run-time-shape
// variant is checked so before its binary is kept, since it is a new binary that no search measured.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "cache/cache_stack.h"
#include "runtime/launch/loaded_kernel.h"
#include "runtime/problem/problem.h"
#include "tuner/tuning_operands.h"

namespace jitgemm {

// The tuner's operand fill and comparison kernels (support/jg_verify.cuh) for `arch`, from `caches` or compiled and
// kept.
std::unique_ptr<VerificationKernels> obtain_verification_kernels(const std::string& arch,
                                                                 const cache::CacheStack& caches);

// The reference family's kernel for `problem` (reference_program: one binary for every size of its types and layout),
// from `caches` or compiled and kept.
std::shared_ptr<const LoadedKernel> obtain_reference_kernel(const Problem& problem, const std::string& arch,
                                                           const cache::CacheStack& caches);

// The number of elements of `kernel`'s output for `problem` that differ from the reference beyond the tuner's
// tolerance (or are not finite); 0 when it computes the problem. Synchronous, on a stream of its own in the current
// context. The reference and verification kernels come from `caches`, compiled (and kept) where they are missing.
// Throws Error when a launch fails.
std::uint64_t mismatches_against_reference(const LoadedKernel& kernel, const Problem& problem,
                                           const std::string& arch, const cache::CacheStack& caches);

}  // namespace jitgemm
