// The tuner's candidate check, for a kernel that no search verified: run once on the tuner's own operands of a
// problem (never the caller's) and compared, element by element, with the reference family's output. A run-time-shape
// variant is checked so before its binary is kept, since it is a new binary that no search measured.
#pragma once

#include <cstdint>
#include <string>

#include "cache/cache_stack.h"
#include "runtime/launch/loaded_kernel.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

// The number of elements of `kernel`'s output for `problem` that differ from the reference beyond the tuner's
// tolerance (or are not finite); 0 when it computes the problem. Synchronous, on a stream of its own in the current
// context. The reference and verification kernels come from `caches`, compiled (and kept) where they are missing.
// Throws Error when a launch fails.
std::uint64_t mismatches_against_reference(const LoadedKernel& kernel, const Problem& problem,
                                           const std::string& arch, const cache::CacheStack& caches);

}  // namespace jitgemm
