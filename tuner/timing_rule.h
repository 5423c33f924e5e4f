// How long a candidate is timed: the runs a median needs before the search may rank the candidate by it.
//
// A first batch of min_runs; then none more when that batch's median is already clearly slower than the best so far
// (racing: the runs would only confirm a loser), else more until the runs add up to min_milliseconds of kernel time
// (at most max_runs in all). With `precision` set, the runs also stop, in batches of min_runs, as soon as the median
// is known that well: its standard error, taken from the samples' spread (the interquartile range over 1.349 for
// sigma, and 1.2533 sigma / sqrt(n) for the median's error), within `precision` of the median. A kernel of 47 us
// with a 1% spread is then timed by 10 runs instead of the 200 that 20 ms of kernel time asks for; the finalists are
// re-timed side by side before the choice either way (tuner.cpp).
#pragma once

#include <vector>

namespace jitgemm {

struct TimingRule {
    int min_runs = 10;
    double min_milliseconds = 20.0;
    int max_runs = 200;
    double clearly_slower = 1.25;  // over this times the best so far after the first batch: no more runs
    double precision = 0.0;        // the median's relative standard error that suffices; 0: the time rule alone
};

// The precision a search times with unless told otherwise. With 0.005 (session 27, H100, search_targets, two runs)
// the median 10 s search took 0.43 / 0.54 s against 0.61-1.23 s without, and all 12 winners were within 3% of the
// 60 s search's (7 and 9 of 12 without).
inline constexpr double kDefaultTimingPrecision = 0.005;

// A search's rule: the time rule's defaults with kDefaultTimingPrecision.
inline TimingRule search_timing_rule() {
    TimingRule rule;
    rule.precision = kDefaultTimingPrecision;
    return rule;
}

// How many runs to add to `samples` (every run so far, ms), against `best_ms` (0: nothing has passed yet); 0 when
// the timing is done.
int further_runs(const std::vector<double>& samples, double best_ms, const TimingRule& rule);

// The relative standard error of the samples' median, from their interquartile range (0 for fewer than 4 samples).
double median_relative_error(const std::vector<double>& samples);

}  // namespace jitgemm
