// The measurements' say in a search: which candidate to measure next (most_promising) and when the search is done.
//
// When a search is done before its budget: the cost model's estimate of the best candidate left, taken at the most
// favourable ratio of measured to estimated time any measured candidate has shown, is slower than the best measured
// time by more than the timing noise — to win, that candidate would have to beat its estimate by more than any
// measured candidate did, and then some. The model's absolute times are rough and its error differs from family to
// family, so the rule trusts only what the measurements say of it, and leans towards measuring on: where the model
// sees the candidates left as no slower than the winner (flat estimates), the search goes on to its budget.
//
// The launch: every candidate's estimate holds the same fixed part (the model's launch time), which the ratio does not
// scale: a candidate's time is predicted as that part plus its estimate beyond it at the ratio of measured to
// estimated time beyond it. Where the launch is most of every estimate (a 7x7x7 problem: about 3 of 3.4 us), scaling
// whole estimates by the most favourable ratio made them all alike: an H100 search of that problem measured 147
// candidates and ruled out 2, in 7.8 s. Beyond the launch, the estimates still say which candidates do more work. On
// problems of milliseconds the fixed part is a rounding error and the rule is as it was.
//
// Per calibration group (a family, its configurations that split K apart from the rest: tuner.cpp): each group's best
// candidate left is judged at its own group's most favourable ratio. A group none of whose candidates has passed yet
// is judged at the most favourable ratio of any group divided by a margin (4): the model's error between groups is
// larger than within one (on TF32 4096^3 it ranked the wgmma family's candidates, 2.8x faster when measured, behind
// every mma.sync candidate, and one ratio for all stopped the search before any was measured).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jitgemm {

struct StopRule {
    int min_passed = 4;      // measured candidates that passed, before the rule may stop a search
    double noise = 0.03;     // the share of the best time within which a candidate left is still measured
    double unmeasured_group_margin = 4.0;  // how much better than any measured group an unmeasured one may be
    double fixed_seconds = 0.0;  // the part of every estimate that the ratio does not scale (the tuner: the launch)
};

// One candidate that passed: what the cost model estimated for it and what it measured, and its calibration group.
struct Calibration {
    double estimated_seconds = 0.0;
    double measured_ms = 0.0;
    std::string group;
};

// The smallest estimate among a group's candidates not yet measured.
struct BestLeft {
    std::string group;
    double estimated_seconds = 0.0;
};

// Which of the candidates not yet started to compile and measure next: the position in `pending` (indices into
// `estimates` and `groups`, in rank order) of the one the measurements so far make fastest — its estimate scaled by
// its group's most favourable ratio of measured to estimated time, or, for a group none of whose candidates has
// passed, by the most favourable ratio of any group divided by the rule's margin, as search_done() judges them. Before
// any measurement that is the model's own ranking; ties go to the earlier. So a group the model ranks too low (or too
// high) is measured early and then ordered by what it showed, instead of waiting behind the other groups' candidates.
// A group whose candidates have failed twice or more (`failures`: spilled, incorrect, ...) with none passed loses that
// head start: it is judged at the best ratio of any group, so a family that cannot run here is not tried first.
std::size_t most_promising(const std::vector<std::size_t>& pending, const std::vector<double>& estimates,
                           const std::vector<std::string>& groups, const std::vector<Calibration>& passed,
                           const std::map<std::string, int>& failures = {}, const StopRule& rule = {});

// Why the search may stop now (a sentence for the log), or nullopt while a candidate left might still win.
std::optional<std::string> search_done(const std::vector<Calibration>& passed, double best_ms,
                                       const std::vector<BestLeft>& left, const StopRule& rule = {});
// One group's candidates left (the calibrations' group "" when they name none).
inline std::optional<std::string> search_done(const std::vector<Calibration>& passed, double best_ms,
                                              double best_left_seconds, const StopRule& rule = {}) {
    return search_done(passed, best_ms, std::vector<BestLeft>{{"", best_left_seconds}}, rule);
}

}  // namespace jitgemm
