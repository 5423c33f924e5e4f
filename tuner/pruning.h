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
#include "tuner/tune_options.h"

namespace jitgemm {

struct RankedCandidate {
    AnyConfig config;
    CostEstimate estimate;
};

struct PruneReport {
    int enumerated = 0;
    std::map<PruneRule, int> removed;  // by rule
    int survivors = 0;
    int deferred_twins = 0;  // survivors' twins, left to the refinement (Twins::Later)
    // "1164 enumerated: knobs -640, registers -90, ..., 57 left" (", and 30 twins for the refinement")
    std::string describe() const;
};

// Candidates of one family whose estimates agree in every term (time, compute, traffic, wave efficiency, blocks
// per SM) and that meet their tiles' partial sums the same way: the model has nothing to tell them apart (warp
// layouts and tile orders of one block tile on a memory-bound problem; most candidates of a launch-bound one). All:
// each is measured in the main pass. Later: the first in rank order is, and its twins are measured by the
// refinement if it is among the best few (tuner.cpp), so that the main pass spends its measurements on candidates
// the model does tell apart. (Twins: tune_options.h.)

struct PrunedSpace {
    std::vector<RankedCandidate> ranked;  // fastest estimate first
    PruneReport report;
    std::map<std::string, std::vector<AnyConfig>> twins;  // by the name of the ranked candidate they follow
};

PrunedSpace prune_and_rank(const std::vector<AnyConfig>& candidates, const Problem& problem,
                           const DeviceInfo& device, const DeviceCeilings& ceilings, Twins twins = Twins::All);

}  // namespace jitgemm
