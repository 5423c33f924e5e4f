// The stopping rule of a search: it stops only when even the most favourable calibration of the cost model seen so
// far leaves the best candidate not yet measured behind the winner by more than the noise.
#include <gtest/gtest.h>

#include "tuner/search_stop.h"
#include "tuner/tuner.h"

namespace jitgemm {
namespace {

TEST(SearchStop, StopsWhenNoCandidateLeftCanWinByMoreThanTheNoise) {
    // The model estimated 1, 2, 3 and 4 us; they measured 0.002, 0.005, 0.006, 0.010 ms: 2 ms per estimated second
    // at best. A candidate left estimated at 5 us would take 0.010 ms at that ratio: no threat to 0.002 ms.
    const std::vector<Calibration> passed = {
        {1e-6, 0.002, ""}, {2e-6, 0.005, ""}, {3e-6, 0.006, ""}, {4e-6, 0.010, ""}};
    const auto reason = search_done(passed, 0.002, 5e-6);
    ASSERT_TRUE(reason.has_value());
    EXPECT_NE(reason->find("0.0100 ms"), std::string::npos) << *reason;
    EXPECT_NE(reason->find("4 passed"), std::string::npos) << *reason;
}

TEST(SearchStop, GoesOnWhileACandidateLeftMightWin) {
    const std::vector<Calibration> passed = {
        {1e-6, 0.002, ""}, {2e-6, 0.005, ""}, {3e-6, 0.006, ""}, {4e-6, 0.010, ""}};
    // Estimated like the winner: at the winner's own ratio it would tie, and ties are measured (flat estimates).
    EXPECT_FALSE(search_done(passed, 0.002, 1e-6));
    // 2% behind the winner: within the noise, measured.
    EXPECT_FALSE(search_done(passed, 0.002, 1.02e-6));
    // 4% behind: done.
    EXPECT_TRUE(search_done(passed, 0.002, 1.04e-6));
}

TEST(SearchStop, TrustsTheMostFavourableRatioNotTheWinners) {
    // The winner measured 4000 ms per estimated second, another candidate 1500: a candidate left estimated at 2 us
    // might run at 1500, 0.003 ms, ahead of the winner's 0.004 ms; one estimated at 3 us would take 0.0045 ms at
    // best, 12% behind.
    const std::vector<Calibration> passed = {
        {1e-6, 0.004, ""}, {3e-6, 0.0045, ""}, {4e-6, 0.008, ""}, {5e-6, 0.009, ""}};
    EXPECT_FALSE(search_done(passed, 0.004, 2e-6));
    EXPECT_TRUE(search_done(passed, 0.004, 3e-6));
}

TEST(SearchStop, NeedsEnoughMeasurements) {
    const std::vector<Calibration> three = {{1e-6, 0.002, ""}, {2e-6, 0.005, ""}, {3e-6, 0.006, ""}};
    EXPECT_FALSE(search_done(three, 0.002, 1e-3));  // fewer than min_passed
    StopRule rule;
    rule.min_passed = 3;
    EXPECT_TRUE(search_done(three, 0.002, 1e-3, rule));
    EXPECT_FALSE(search_done({}, 0.0, 1e-3));
    EXPECT_FALSE(search_done(three, 0.002, 0.0, rule));  // nothing left to judge
}

// The tuner's rule: a 3 us launch in every estimate, which the ratio does not scale.
StopRule beyond_launch() {
    StopRule rule;
    rule.fixed_seconds = 3e-6;
    return rule;
}

TEST(SearchStop, ScalesOnlyWhatTheEstimatesHoldBeyondTheLaunch) {
    // A 7x7x7 problem: every estimate is the 3 us launch and a little work (0.40 to 0.85 us); they all measure about
    // 4 us. Beyond the launch, the best calibration is 1 us measured for 0.61 us estimated: a candidate left with
    // 0.70 us of work would take 3 + 0.70 * 1/0.61 = 4.15 us, more than 3% behind 4.0 us.
    const std::vector<Calibration> passed = {
        {3.40e-6, 0.0040, ""}, {3.42e-6, 0.0041, ""}, {3.61e-6, 0.0040, ""}, {3.64e-6, 0.0042, ""}};
    const StopRule launch = beyond_launch();
    EXPECT_TRUE(search_done(passed, 0.0040, 3.70e-6, launch));
    // Whole estimates scaled alike (no fixed part) put it at 3.70 * 4.0/3.61 = 4.10 us: within the noise, measured.
    EXPECT_FALSE(search_done(passed, 0.0040, 3.70e-6));
    // One with less work than those measured might still win, and is measured.
    EXPECT_FALSE(search_done(passed, 0.0040, 3.50e-6, launch));
    // The order: beyond the launch, less work first, as the estimates say.
    EXPECT_EQ(most_promising({0, 1}, {3.70e-6, 3.50e-6}, {"", ""}, passed, {}, launch), 1u);
}

TEST(SearchStop, ScalesWholeEstimatesWhereAKernelRanFasterThanTheFixedPart) {
    // A candidate ran in 2.8 us, less than the model's 3 us launch: the launch is cheaper on this device, and the
    // rule judges as with no fixed part. A candidate left estimated at 3.45 us would take 3.45 * 2.8/3.4 = 2.84 us
    // (within the noise: measured); beyond a launch of 3 us it would have been predicted at 3 us (ruled out).
    const std::vector<Calibration> passed = {
        {3.4e-6, 0.0028, ""}, {3.5e-6, 0.0029, ""}, {3.6e-6, 0.0029, ""}, {3.7e-6, 0.0030, ""}};
    const StopRule launch = beyond_launch();
    EXPECT_FALSE(search_done(passed, 0.0028, 3.45e-6, launch));
    EXPECT_EQ(search_done(passed, 0.0028, 3.6e-6, launch).has_value(), search_done(passed, 0.0028, 3.6e-6).has_value());
}

TEST(SearchStop, JudgesEachGroupAtItsOwnRatioAndAnUnmeasuredOneWithAMargin) {
    // mma_sync measured at 2000 ms per estimated second at best (0.002 ms for 1 us).
    const std::vector<Calibration> passed = {
        {1e-6, 0.002, "mma_sync"}, {2e-6, 0.005, "mma_sync"}, {3e-6, 0.006, "mma_sync"}, {4e-6, 0.010, "mma_sync"}};
    // Another mma_sync candidate estimated at 2 us: 0.004 ms at best, far behind.
    EXPECT_TRUE(search_done(passed, 0.002, {{"mma_sync", 2e-6}}));
    // A wgmma candidate estimated at 2 us has no calibration of its own: at a quarter of mma_sync's best ratio it
    // might take 0.001 ms and win, so it is measured.
    EXPECT_FALSE(search_done(passed, 0.002, {{"mma_sync", 2e-6}, {"wgmma", 2e-6}}));
    // Estimated at 8 us, even a quarter of the ratio leaves it at 0.004 ms: done.
    EXPECT_TRUE(search_done(passed, 0.002, {{"mma_sync", 2e-6}, {"wgmma", 8e-6}}));
    // Once wgmma has its own calibration, its candidates are judged by it.
    std::vector<Calibration> both = passed;
    both.push_back({2e-6, 0.002, "wgmma"});  // 1000 ms per estimated second
    EXPECT_FALSE(search_done(both, 0.002, {{"wgmma", 2.05e-6}}));
    EXPECT_TRUE(search_done(both, 0.002, {{"wgmma", 2.2e-6}}));
}

// The groups the tuner calibrates by: a family, its configurations that split K apart, whatever their count.
TEST(SearchStop, SplitKConfigurationsCalibrateApartFromTheirFamily) {
    Problem p;
    p.m = 64;
    p.n = 4096;
    p.k = 4096;
    p.lda = p.m;
    p.ldb = p.k;
    p.ldc = p.m;
    RegBlockConfig whole;
    RegBlockConfig split = whole;
    split.splits = 2;
    RegBlockConfig more = whole;
    more.splits = 6;
    EXPECT_EQ(calibration_group(whole, p), "regblock");
    EXPECT_EQ(calibration_group(split, p), "regblock shared-k");
    EXPECT_EQ(calibration_group(more, p), calibration_group(split, p));
    EXPECT_EQ(calibration_group(NaiveConfig{}, p), "naive");
    const auto stream = MmaSyncConfig::parse("mma_sync_128x64x64_w2x2_s4_g8_sk264");
    ASSERT_TRUE(stream.has_value());
    p.a_type = p.b_type = p.c_type = DType::BF16;
    EXPECT_EQ(calibration_group(*stream, p), "mma_sync shared-k");
    EXPECT_EQ(calibration_group(MmaSyncConfig{}, p), "mma_sync");
}

// The order of the candidates left follows the measurements: the model's ranking until one passes, then each
// estimate scaled by its group's best ratio (a group not yet measured by a quarter of the best of any).
TEST(SearchOrder, RecalibratesTheRankingByWhatEachGroupMeasured) {
    // Ranked by the model: three mma_sync candidates, then two wgmma ones estimated slower.
    const std::vector<double> estimates = {1e-6, 1.1e-6, 1.2e-6, 2e-6, 2.1e-6};
    const std::vector<std::string> groups = {"mma_sync", "mma_sync", "mma_sync", "wgmma", "wgmma"};
    // Nothing measured: the ranking itself.
    EXPECT_EQ(most_promising({1, 2, 3, 4}, estimates, groups, {}), 0u);
    // mma_sync measured at 2 ms per estimated second: its next candidate would take 0.0022 ms; wgmma, unmeasured, is
    // judged at a quarter of that ratio, 0.001 ms: it goes next, ahead of its rank.
    const std::vector<Calibration> one = {{1e-6, 0.002, "mma_sync"}};
    EXPECT_EQ(most_promising({1, 2, 3, 4}, estimates, groups, one), 2u);  // position of index 3
    // wgmma measured slower than it was estimated (0.008 ms for 2 us: 4 ms per second): mma_sync's next is first.
    const std::vector<Calibration> both = {{1e-6, 0.002, "mma_sync"}, {2e-6, 0.008, "wgmma"}};
    EXPECT_EQ(most_promising({1, 2, 4}, estimates, groups, both), 0u);
    // And faster (0.0016 ms for 2 us, below mma_sync's 0.0022): wgmma's next is first.
    const std::vector<Calibration> faster = {{1e-6, 0.002, "mma_sync"}, {2e-6, 0.0016, "wgmma"}};
    EXPECT_EQ(most_promising({1, 2, 4}, estimates, groups, faster), 2u);
    // A group that has only failed (twice or more) gets no head start: mma_sync's next is first again.
    EXPECT_EQ(most_promising({1, 2, 3, 4}, estimates, groups, one, {{"wgmma", 2}}), 0u);
    EXPECT_EQ(most_promising({1, 2, 3, 4}, estimates, groups, one, {{"wgmma", 1}}), 2u);  // once may be bad luck
    // Ties go to the earlier in rank.
    EXPECT_EQ(most_promising({3, 4}, {0, 0, 0, 1e-6, 1e-6}, groups, {}), 0u);
}

}  // namespace
}  // namespace jitgemm
