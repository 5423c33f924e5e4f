// How long a candidate is timed (tuner/timing_rule.h): a first batch, racing against the best so far, the kernel time
// to reach, the run cap, and — where asked — a median known well enough.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tuner/timing_rule.h"

namespace jitgemm {
namespace {

std::vector<double> runs_of(double ms, int count, double spread = 0.0, unsigned seed = 1) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, spread);
    std::vector<double> out;
    for (int i = 0; i < count; ++i) out.push_back(ms * (1.0 + noise(rng)));
    return out;
}

TEST(TimingRule, AFirstBatchThenRunsUntilTheKernelTimeIsReached) {
    const TimingRule rule;  // 10 runs, 20 ms, at most 200
    EXPECT_EQ(further_runs({}, 0.0, rule), 10);
    EXPECT_EQ(further_runs(runs_of(1.0, 4), 0.0, rule), 6);
    // 10 runs of 1 ms: 10 ms more of them.
    EXPECT_EQ(further_runs(runs_of(1.0, 10), 0.0, rule), 10);
    EXPECT_EQ(further_runs(runs_of(1.0, 20), 0.0, rule), 0);
    // 47 us: as many as the cap allows (20 ms would take 426).
    EXPECT_EQ(further_runs(runs_of(0.047, 10), 0.0, rule), 190);
    EXPECT_EQ(further_runs(runs_of(0.047, 200), 0.0, rule), 0);
    // Slow kernels: the first batch is enough.
    EXPECT_EQ(further_runs(runs_of(3.0, 10), 0.0, rule), 0);
}

TEST(TimingRule, AFirstBatchClearlySlowerThanTheBestEndsTheTiming) {
    const TimingRule rule;
    EXPECT_EQ(further_runs(runs_of(0.130, 10), 0.100, rule), 0);   // 1.3 times the best
    EXPECT_EQ(further_runs(runs_of(0.120, 10), 0.100, rule), 157);  // 1.2 times: timed in full
    EXPECT_EQ(further_runs(runs_of(0.130, 10), 0.0, rule), 144);    // nothing passed yet: no race
}

TEST(TimingRule, WithAPrecisionASteadyKernelStopsEarlyAndANoisyOneGoesOnInBatches) {
    TimingRule rule;
    rule.precision = 0.005;
    // 1% spread over 10 runs: the median's error is about 0.4%, within 0.5%.
    const std::vector<double> steady = runs_of(0.047, 10, 0.01, 7);
    EXPECT_LT(median_relative_error(steady), 0.005);
    EXPECT_EQ(further_runs(steady, 0.0, rule), 0);
    // 10% spread: about 4% error; another batch of 10, and so on until the error or the time is reached.
    const std::vector<double> noisy = runs_of(0.047, 10, 0.10, 7);
    EXPECT_GT(median_relative_error(noisy), 0.005);
    EXPECT_EQ(further_runs(noisy, 0.0, rule), 10);
    int total = 10;
    std::vector<double> samples = noisy;
    while (const int more = further_runs(samples, 0.0, rule)) {
        const std::vector<double> batch = runs_of(0.047, more, 0.10, static_cast<unsigned>(total));
        samples.insert(samples.end(), batch.begin(), batch.end());
        total += more;
    }
    EXPECT_LE(total, rule.max_runs);
    EXPECT_GT(total, 10);
    // Without the precision the steady kernel is timed to the cap.
    EXPECT_EQ(further_runs(steady, 0.0, TimingRule{}), 190);
}

TEST(TimingRule, TheMediansErrorFollowsTheSpreadAndTheCount) {
    EXPECT_EQ(median_relative_error({1.0, 1.0, 1.0}), 0.0);  // too few to say
    EXPECT_EQ(median_relative_error(std::vector<double>(20, 2.0)), 0.0);
    const double ten = median_relative_error(runs_of(1.0, 10, 0.05, 3));
    const double thousand = median_relative_error(runs_of(1.0, 1000, 0.05, 3));
    EXPECT_GT(ten, thousand * 4);  // about sqrt(100) = 10 times, with the sampling noise of ten runs' quartiles
    EXPECT_NEAR(thousand, 1.2533 * 0.05 / std::sqrt(1000.0), 0.0005);
}

}  // namespace
}  // namespace jitgemm
