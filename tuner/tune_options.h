// The knobs of one tuning run, with the defaults jitgemm::gemm uses.
#pragma once

#include <functional>
#include <string>

#include "tuner/timing_rule.h"

namespace jitgemm {

// Where a search stands, after each candidate.
struct TuneProgress {
    int measured = 0;  // candidates with an outcome
    int total = 0;     // candidates after pruning, refinements included as they are added
    double best_ms = 0.0;
    std::string best_config;
    double elapsed_seconds = 0.0;
    double budget_seconds = 0.0;
};

// Candidates the cost model cannot tell apart (twins: tuner/pruning.h): All measures each in the main pass; Later
// measures the first, and the others only as refinements of the best few. Later is the default: on the H100
// (session 24, bench/shapes/search_targets.csv against a 60 s search) it took the median 10 s search from 5.9 s to
// 3.7 s, with 9 of 12 winners within 3% of the 60 s search's (8 of 12 with All). $JITGEMM_SEARCH_TWINS=all chooses
// All (bench/gpu-run.sh searchcmp measures both).
enum class Twins { All, Later };

struct TuneOptions {
    // Wall time for the whole search, setup and final re-timing included; exceeded only as far as it takes one
    // candidate to pass (a search always ends with a verified winner when any candidate works).
    double budget_seconds = 10.0;
    // How long each candidate is timed (tuner/timing_rule.h): the runs, kernel time and cap of TimingRule, and its
    // precision at kDefaultTimingPrecision ($JITGEMM_SEARCH_PRECISION sets it; 0: the time rule alone).
    TimingRule timing = search_timing_rule();
    int finalists = 3;             // re-timed alternately before the choice, and refined (their neighbours measured)
    // Also refined: the other candidates within this fraction of the best, up to kMostRefined in all. 0 (the default):
    // the finalists alone. A trial ($JITGEMM_SEARCH_REFINE_WITHIN): on 8192^3 f16 (H100, session 45) the 10 s search
    // measured 192 x 128 ping-pong only in a pair, 3.3% behind its best, and never the unpaired tile that a 60 s search
    // found 3-6% ahead of it.
    double refine_within = 0.0;
    static constexpr int kMostRefined = 8;
    int final_rounds = 10;         // alternating rounds of the finalists
    unsigned compile_threads = 0;  // 0: one per hardware thread
    Twins twins = Twins::Later;
    bool verbose = false;          // stage-by-stage log on stderr (also with JITGEMM_LOG=debug)
    std::function<void(const TuneProgress&)> on_progress;  // called on the tuning thread; may be empty
};

}  // namespace jitgemm
