// What a search measures when earlier searches of its problem (same device and provenance) left measurements: a
// search that ran out of budget, or was killed, is resumed rather than redone.
//
// Failures are never retried. Candidates that passed are not measured again either, except the best few (the
// finalists' number), which are, so that the final choice compares times taken in one process; those best few are
// measured again even where this search would not enumerate them — a refinement or a twin that the earlier search
// found around its best. Without that, a resumed search whose earlier best were all such variants had every candidate
// it enumerated settled, nothing to measure and no finalist, and ended with no winner although the earlier one had
// found and recorded one (most likely the killed-tuner test's failure in session 29).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "cache/cache_records.h"
#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"
#include "tuner/families/registry.h"

namespace jitgemm {

struct ResumePlan {
    std::vector<AnyConfig> to_measure;  // the candidates given that are not settled, in their order, then the
                                        // earlier best few that were not among them
    std::set<std::string> settled;      // the names not measured again
    int settled_candidates = 0;         // how many of the candidates given are settled (on record as measured)
};

// `candidates`: this search's, in the order it would measure them. `earlier`: the measurements on record for the
// problem. `finalists`: how many of the best earlier ones are measured again.
ResumePlan plan_resumed_search(const std::vector<AnyConfig>& candidates,
                               const std::vector<cache::MeasurementRecord>& earlier, int finalists,
                               const Problem& problem, const DeviceInfo& device);

}  // namespace jitgemm
