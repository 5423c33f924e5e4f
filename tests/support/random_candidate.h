// A random configuration of the search, for GPU tests that cover every family's kernels without naming them: one of
// the candidates enumerated for `searched`, or of their refinements (knobs the search reaches only so, such as C
// stored box by box), that can compute `computed` (validate() finds nothing against it; the two differ where a test
// runs a variant or another form of the searched problem), or nullopt when none can.
#pragma once

#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tuner/families/registry.h"

namespace jitgemm::testing {

inline std::optional<AnyConfig> random_search_candidate(std::mt19937_64& rng, const Problem& searched,
                                                        const Problem& computed, const DeviceInfo& device) {
    std::vector<AnyConfig> candidates;
    std::set<std::string> names;
    const auto consider = [&](const AnyConfig& c) {
        if (!validate(c, computed, device) && names.insert(to_string(c)).second) candidates.push_back(c);
    };
    for (const AnyConfig& candidate : enumerate_candidates(searched, device)) {
        consider(candidate);
        for (const AnyConfig& refinement : refinements(candidate, searched, device)) consider(refinement);
    }
    if (candidates.empty()) return std::nullopt;
    return candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng)];
}

}  // namespace jitgemm::testing
