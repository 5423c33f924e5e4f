// A random configuration of the search, for GPU tests that cover every family's kernels without naming them: one of
// the candidates enumerated for `searched` that can compute `computed` (validate() finds nothing against it; the two
// differ where a test runs a variant or another form of the searched problem), or nullopt when none can.
#pragma once

#include <optional>
#include <random>
#include <vector>

#include "tuner/families/registry.h"

namespace jitgemm::testing {

inline std::optional<AnyConfig> random_search_candidate(std::mt19937_64& rng, const Problem& searched,
                                                        const Problem& computed, const DeviceInfo& device) {
    std::vector<AnyConfig> candidates;
    for (const AnyConfig& candidate : enumerate_candidates(searched, device))
        if (!validate(candidate, computed, device)) candidates.push_back(candidate);
    if (candidates.empty()) return std::nullopt;
    return candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng)];
}

}  // namespace jitgemm::testing
