// The tuning loop of one problem, in named stages:
//   enumerate -> prune -> rank -> compile (in parallel, likely winners first) -> verify -> time -> refine ->
//   re-time finalists alternately -> record.
// Every candidate's outcome is recorded (failures too, so they are never tried again); the winner, its cubin and
// the search's completeness go to the writable cache in one transaction. The search stops cleanly when its budget
// runs out and is then recorded as incomplete; or earlier, complete, when the cost model, calibrated by the
// measurements so far, rules out every candidate left (tuner/search_stop.h), which the log says.
#pragma once

#include <cuda.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/cache_records.h"
#include "cache/cache_stack.h"
#include "runtime/device/device_info.h"
#include "runtime/launch/loaded_kernel.h"
#include "runtime/problem/problem.h"
#include "tuner/families/registry.h"
#include "tuner/pruning.h"
#include "tuner/tune_options.h"

namespace jitgemm {

// Where a search's wall time went, in seconds: what to make faster when searches take long.
struct SearchTimes {
    double setup = 0.0;          // the tuner's operands and its verification and reference kernels
    double ranking = 0.0;        // enumerate, prune, rank
    double compile_wait = 0.0;   // the tuning thread waiting for the next compile to finish
    double draining = 0.0;       // ... after the stage stopped (the rule, the budget): compiles under way finishing
    double measuring = 0.0;      // loading, verifying and timing candidates
    double finalists = 0.0;      // re-timing the best few
    double recording = 0.0;      // the cache transaction
    double nvrtc_seconds = 0.0;  // the candidates' compiles, summed over the compile threads
    unsigned compile_threads = 0;
    // "setup 0.41 s, ranking 0.01 s, waiting for compiles 2.10 s (0.35 s after a stop), measuring 3.02 s,
    // finalists 0.01 s, recording 0.03 s; NVRTC 38.2 s over 16 threads"
    std::string describe() const;
};

struct TuneResult {
    std::optional<AnyConfig> winner;             // nullopt when no candidate passed
    std::shared_ptr<const LoadedKernel> kernel;  // the winner, loaded in the tuning context
    double winner_ms = 0.0;
    double seconds = 0.0;                        // wall time of the whole search
    bool complete = false;
    int candidates_total = 0;                    // after pruning, refinements included
    int candidates_measured = 0;                 // reached an outcome
    int compiles = 0;                            // NVRTC runs (cached cubins need none)
    int ruled_out = 0;                           // left unmeasured by the stopping rule (not in candidates_total)
    std::string stop_reason;                     // the rule's sentence when it stopped the search (search_stop.h)
    std::map<cache::CandidateOutcome, int> outcomes;
    PruneReport pruning;
    std::vector<cache::MeasurementRecord> measurements;
    bool recorded = false;                       // stored in the writable cache
    SearchTimes times;
};

// The candidates the stopping rule calibrates together (search_stop.h): a family, with its configurations whose tiles'
// partial sums meet through the workspace (split-K, stream-K) apart from the rest, since the model's error differs
// between them as between families (their extra traffic and fuller waves are estimated, not measured).
std::string calibration_group(const AnyConfig& config, const Problem& problem);

// Searches this process has run.
std::uint64_t tuning_count();

// Tunes `problem` in `context` (made current on the calling thread). Never uses the caller's data.
TuneResult tune_problem(const Problem& problem, const DeviceInfo& device, CUcontext context,
                        const TuneOptions& options, const cache::CacheStack& caches);

}  // namespace jitgemm
