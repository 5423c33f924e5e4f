// Config::validate against fixed device profiles: each rule removes what it should, with the rule named, and the
// heuristic default is always a configuration the device can run.
#include <gtest/gtest.h>

#include "dispatch/heuristic_config.h"
#include "support/device_profiles.h"
#include "tuner/any_config.h"
#include "tuner/occupancy.h"

namespace jitgemm {
namespace {

using testing::a100_profile;
using testing::h200_profile;
using testing::small_gpu_profile;

RegBlockConfig regblock(int bm, int bn, int bk, int tm, int tn, int vec = 4, int stages = 2) {
    RegBlockConfig c;
    c.bm = bm;
    c.bn = bn;
    c.bk = bk;
    c.tm = tm;
    c.tn = tn;
    c.vec = vec;
    c.stages = stages;
    return c;
}

std::optional<PruneRule> rule_of(const AnyConfig& config, const DeviceInfo& device) {
    const auto rejection = validate(config, device);
    if (!rejection) return std::nullopt;
    EXPECT_FALSE(rejection->reason.empty());
    return rejection->rule;
}

TEST(ConfigValidation, DefaultsRunOnEveryProfile) {
    for (const DeviceInfo& d : {h200_profile(), a100_profile(), small_gpu_profile()}) {
        EXPECT_FALSE(rule_of(NaiveConfig{}, d)) << d.name;
        EXPECT_FALSE(rule_of(TiledConfig{}, d)) << d.name;
        EXPECT_FALSE(rule_of(RegBlockConfig{}, d)) << d.name;
    }
}

TEST(ConfigValidation, ContradictoryKnobsAreRejectedAsKnobs) {
    const DeviceInfo d = h200_profile();
    EXPECT_EQ(rule_of(regblock(128, 128, 8, 3, 8), d), PruneRule::Knobs);      // tm = 3
    EXPECT_EQ(rule_of(regblock(100, 128, 8, 8, 8), d), PruneRule::Knobs);      // tm does not divide bm
    EXPECT_EQ(rule_of(regblock(16, 16, 8, 8, 8), d), PruneRule::Knobs);        // 4 threads
    EXPECT_EQ(rule_of(regblock(128, 128, 6, 8, 8), d), PruneRule::Knobs);      // vec 4 does not divide bk = 6
    EXPECT_EQ(rule_of(regblock(128, 128, 4, 4, 4), d), PruneRule::Knobs);      // 1024 threads, 128 vectors of A
    EXPECT_EQ(rule_of(regblock(128, 128, 8, 8, 8, 3), d), PruneRule::Knobs);   // vec 3
    EXPECT_EQ(rule_of(regblock(128, 128, 8, 8, 8, 4, 3), d), PruneRule::Knobs);  // 3 stages
    NaiveConfig odd;
    odd.bm = 5;
    odd.bn = 5;
    EXPECT_EQ(rule_of(odd, d), PruneRule::Knobs);
    TiledConfig big;
    big.t = 33;
    EXPECT_EQ(rule_of(big, d), PruneRule::Knobs);
}

TEST(ConfigValidation, SharedMemoryLimitFollowsTheDevice) {
    // 2 stages x 64 x (260 + 260) x 4 B = 266240 B: above every profile's opt-in limit.
    EXPECT_EQ(rule_of(regblock(256, 256, 64, 16, 16), h200_profile()), PruneRule::SharedMemory);
    // 2 x 32 x (260 + 260) x 4 = 133120 B: fits the H200 (232448) and A100 (166912), not the small GPU (101376).
    const auto c = regblock(256, 256, 32, 16, 16);
    EXPECT_NE(rule_of(c, h200_profile()), PruneRule::SharedMemory);
    EXPECT_NE(rule_of(c, a100_profile()), PruneRule::SharedMemory);
    EXPECT_EQ(rule_of(c, small_gpu_profile()), PruneRule::SharedMemory);
}

TEST(ConfigValidation, RegisterEstimateLimitsThreadTiles) {
    // 16 x 16 accumulators + fragments + staging > 255 registers per thread.
    EXPECT_EQ(rule_of(regblock(256, 256, 16, 16, 16), h200_profile()), PruneRule::Registers);
    // 8 x 8 with 1024 threads: about 112 registers x 1024 threads > 65536 per block.
    EXPECT_EQ(rule_of(regblock(256, 256, 16, 8, 8), h200_profile()), PruneRule::Registers);
}

TEST(ConfigValidation, ThreadLimitFollowsTheDevice) {
    DeviceInfo d = small_gpu_profile();
    d.max_threads_per_block = 512;
    TiledConfig t32;
    t32.t = 32;  // 1024 threads
    EXPECT_EQ(rule_of(t32, d), PruneRule::Threads);
    EXPECT_FALSE(rule_of(t32, small_gpu_profile()));
}

TEST(Occupancy, BlocksPerSmFollowTheTighterLimit) {
    const DeviceInfo d = h200_profile();
    // 256 threads x 128 registers = 32768 per block: 2 blocks by registers; 8 by threads.
    const auto limits = blocks_per_sm(d, 256, 128, 33792);
    EXPECT_EQ(limits.by_threads, 8);
    EXPECT_EQ(limits.by_registers, 2);
    EXPECT_EQ(limits.by_shared_memory, 233472 / (33792 + 1024));
    EXPECT_EQ(limits.blocks, 2);
    // Registers round up to 8 per thread and 256 per warp: 33 -> 40 per thread.
    EXPECT_EQ(blocks_per_sm(d, 1024, 33, 0).by_registers, 65536 / (40 * 32 * 32));
    // Shared memory is the limit for a big tile.
    EXPECT_EQ(blocks_per_sm(d, 128, 32, 120000).blocks, 1);
}

TEST(HeuristicConfig, IsValidOnEveryProfileForAssortedShapes) {
    for (const DeviceInfo& d : {h200_profile(), a100_profile(), small_gpu_profile()}) {
        for (const std::int64_t size : {1, 7, 64, 130, 1000, 4096, 4097}) {
            Problem p;
            p.m = size;
            p.n = size * 2 + 1;
            p.k = 33;
            const AnyConfig c = heuristic_config(p, d);
            EXPECT_FALSE(validate(c, d)) << to_string(c) << " on " << d.name;
            EXPECT_EQ(family_of(c), Family::RegBlock);
        }
        Problem scale;
        scale.m = scale.n = 100;
        scale.k = 0;
        EXPECT_EQ(family_of(heuristic_config(scale, d)), Family::Naive);
    }
}

TEST(HeuristicConfig, LargeProblemsGetTheLargestTile) {
    Problem p;
    p.m = p.n = p.k = 4096;
    EXPECT_TRUE(heuristic_config(p, h200_profile()) == AnyConfig{RegBlockConfig{}});
}

}  // namespace
}  // namespace jitgemm
