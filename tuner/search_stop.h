// When a search is done before its budget: the cost model's estimate of the best candidate left, taken at the most
// favourable ratio of measured to estimated time any measured candidate has shown, is slower than the best measured
// time by more than the timing noise — to win, that candidate would have to beat its estimate by more than any
// measured candidate did, and then some. The model's absolute times are rough and its error differs from family to
// family, so the rule trusts only what the measurements say of it, and leans towards measuring on: where the model
// sees the candidates left as no slower than the winner (flat estimates), the search goes on to its budget.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace jitgemm {

struct StopRule {
    int min_passed = 4;      // measured candidates that passed, before the rule may stop a search
    double noise = 0.03;     // the share of the best time within which a candidate left is still measured
};

// One candidate that passed: what the cost model estimated for it and what it measured.
struct Calibration {
    double estimated_seconds = 0.0;
    double measured_ms = 0.0;
};

// Why the search may stop now (a sentence for the log), or nullopt while a candidate left might still win.
// `best_left_seconds`: the smallest estimate among the candidates not yet measured.
std::optional<std::string> search_done(const std::vector<Calibration>& passed, double best_ms, double best_left_seconds,
                                       const StopRule& rule = {});

}  // namespace jitgemm
