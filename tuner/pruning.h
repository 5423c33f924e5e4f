// Pruning and ranking, before any compile: the Config rules against the device's limits, duplicates, wave
// quantization (against the best of the candidates that do not share tiles of C), then the cost model's ranking with a
// cut-off. How many candidates each rule removed is reported.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/device/device_ceilings.h"
#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"
#include "tuner/families/registry.h"

namespace jitgemm {

struct RankedCandidate {
    AnyConfig config;
    CostEstimate estimate;
};

struct PruneReport {
    int enumerated = 0;
    std::map<PruneRule, int> removed;  // by rule
    int survivors = 0;
    // "1164 enumerated: knobs -640, registers -90, ..., 57 left"
    std::string describe() const;
};

struct PrunedSpace {
    std::vector<RankedCandidate> ranked;  // fastest estimate first
    PruneReport report;
};

PrunedSpace prune_and_rank(const std::vector<AnyConfig>& candidates, const Problem& problem,
                           const DeviceInfo& device, const DeviceCeilings& ceilings);

}  // namespace jitgemm
