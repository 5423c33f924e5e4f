// The choice of the tuned problem that lends its run-time-shape variant to a problem without a tuned entry: only
// problems of the same layer (one size and the leading dimensions may differ), nearest size first, the larger of two
// equally near, and never a key that is not a call's problem.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dispatch/nearest_problem.h"
#include "dispatch/runtime_shape_variant.h"
#include "support/device_profiles.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

// A row-major bf16 layer folded to column-major: C^T (n x m) = W^T X^T, so the caller's tokens are the problem's n.
Problem layer(std::int64_t tokens) {
    Problem p;
    p.a_type = p.b_type = p.c_type = DType::BF16;
    p.trans_a = Transpose::Yes;
    p.m = 4096;
    p.n = tokens;
    p.k = 4096;
    p.lda = p.ldb = 4096;
    p.ldc = 4096;
    return p;
}

std::vector<std::string> keys_of(const std::vector<Problem>& problems) {
    std::vector<std::string> keys;
    for (const Problem& p : problems) keys.push_back(p.key());
    return keys;
}

TEST(NearestProblem, SameLayerNearestFirstLargerOnATie) {
    const auto nearby = nearest_problems(layer(24), keys_of({layer(1), layer(16), layer(64), layer(256), layer(32)}));
    ASSERT_EQ(nearby.size(), 5u);
    // log2 distances from 24: 32 -> 0.415, 16 -> 0.585, 64 -> 1.415, 1 -> 4.585, 256 -> 3.415.
    EXPECT_EQ(nearby[0].tuned.n, 32);
    EXPECT_EQ(nearby[1].tuned.n, 16);
    EXPECT_EQ(nearby[2].tuned.n, 64);
    EXPECT_EQ(nearby[3].tuned.n, 256);
    EXPECT_EQ(nearby[4].tuned.n, 1);
    for (const auto& near : nearby) EXPECT_EQ(near.runtime_dim, 2);
    EXPECT_NEAR(nearby[0].distance, 0.415, 1e-3);

    // 8 lies as far from 4 as from 16: the larger one first.
    const auto tie = nearest_problems(layer(8), keys_of({layer(4), layer(16)}));
    ASSERT_EQ(tie.size(), 2u);
    EXPECT_EQ(tie[0].tuned.n, 16);
}

TEST(NearestProblem, OnlyOneSizeAndTheLeadingDimensionsMayDiffer) {
    const Problem wanted = layer(100);
    std::vector<Problem> others;
    Problem k = layer(128);
    k.k = 2048;
    others.push_back(k);
    Problem both = layer(128);
    both.m = 2048;
    others.push_back(both);
    Problem dtype = layer(128);
    dtype.c_type = DType::F32;
    others.push_back(dtype);
    Problem trans = layer(128);
    trans.trans_b = Transpose::Yes;
    others.push_back(trans);
    Problem beta = layer(128);
    beta.beta_mode = BetaMode::General;
    others.push_back(beta);
    Problem aligned = layer(128);
    aligned.align_c = 2;
    others.push_back(aligned);
    Problem batched = layer(128);
    batched.batch = 4;
    others.push_back(batched);
    Problem variant = layer(128);
    variant.runtime_dim = 2;
    others.push_back(variant);
    others.push_back(wanted);  // itself: not a neighbour
    std::vector<std::string> keys = keys_of(others);
    keys.push_back("not a key");
    keys.push_back("v1_f32.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b0_al16.16.16");
    EXPECT_TRUE(nearest_problems(wanted, keys).empty());

    // Along m, with other leading dimensions (a column-major caller's lda and ldc follow its m).
    Problem column = layer(100);
    column.m = 300;
    column.lda = column.ldc = 300;
    Problem tuned_rows = column;
    tuned_rows.m = tuned_rows.lda = tuned_rows.ldc = 256;
    const auto along_m = nearest_problems(column, keys_of({tuned_rows}));
    ASSERT_EQ(along_m.size(), 1u);
    EXPECT_EQ(along_m[0].runtime_dim, 1);
    EXPECT_EQ(along_m[0].tuned, tuned_rows);

    // Equal but for the leading dimensions: first of all, read along m.
    Problem padded = layer(100);
    padded.ldc = 4160;
    const auto same = nearest_problems(layer(100), keys_of({layer(128), padded}));
    ASSERT_EQ(same.size(), 2u);
    EXPECT_EQ(same[0].tuned, padded);
    EXPECT_EQ(same[0].distance, 0.0);
    EXPECT_EQ(same[0].runtime_dim, 1);
}

// Of the winners nearby problems lend, the one expected fastest at the wanted size serves: each one's measured time
// scaled by the cost model from its size to the wanted one. In the H200 sweep of 4096 x 4096 bf16 (session 22), the
// 64-token winner (tiles 64 tokens wide) served 65-125 tokens at 0.028 ms, twice its 0.017 ms at 63, while the
// 256-token winner (ping-pong tiles 64 tokens wide too, but 128 rows deep: half the blocks) ran 128 tokens in 0.018 ms.
TEST(NearestProblem, TheWinnerExpectedFastestAtTheSizeServesFirst) {
    // With its clocks and bus (`jitgemm info` there), for ceilings like the device's own: 4.3 TB/s of DRAM.
    DeviceInfo d = testing::h200_profile();
    d.sm_clock_khz = 1980000;
    d.memory_clock_khz = 3201000;
    d.memory_bus_bits = 6016;
    const auto config = [](const char* name) { return *parse_config(name); };
    const auto lend = [&](const char* name, std::int64_t tokens, double ms, Problem wanted) {
        return Lender{config(name), nearest_problems(wanted, {layer(tokens).key()}).front(), ms, true};
    };
    const char* small = "mma_sync_64x64x64_w2x2_s4_g8_k4";
    const char* large = "wgmma_128x64x64_c2_s7_g8_x2_q132_pp_ts";
    for (const std::int64_t tokens : {65, 94, 125}) {
        const Problem wanted = layer(tokens);
        // Nearest first: 64 tokens is nearer than 256 to all three.
        const auto order = fastest_first({lend(small, 64, 0.0167, wanted), lend(large, 256, 0.0195, wanted)}, wanted, d);
        ASSERT_EQ(order.size(), 2u);
        EXPECT_EQ(to_string(order[0].config), large) << tokens << " tokens";
    }
    // Within the small winner's tiles it stays first (it is measured faster, and the model scales both alike).
    const Problem fits = layer(48);
    const auto order = fastest_first({lend(small, 64, 0.0167, fits), lend(large, 256, 0.0195, fits)}, fits, d);
    EXPECT_EQ(to_string(order[0].config), small);
    // A winner without a measured time goes after those with one, whatever its nearness.
    const auto unknown_last = fastest_first({lend(small, 64, 0.0, fits), lend(large, 256, 0.0195, fits)}, fits, d);
    EXPECT_EQ(to_string(unknown_last[0].config), large);
    EXPECT_EQ(to_string(unknown_last[1].config), small);
}


// What `jitgemm tune` stores beside a winner's variant: for sizes around the tuned one, the measured candidate
// expected fastest there. At 1024 tokens the 256 x 128 winner's tiles fill the SMs once; at 683 and 1536 a 192 x 128
// tile runs in fewer waves than it (the H200 sweep: 1058-1450 tokens at 0.75 of exact tuning, which picked 192 x 128).
TEST(NearestProblem, NeighbourVariantsAreTheCandidatesExpectedFastestAroundTheTunedSize) {
    const DeviceInfo d = testing::h200_profile();
    const Problem tuned = layer(1024);
    const AnyConfig winner = *parse_config("wgmma_256x128x64_c2_s4_g1_q132");
    const auto measured = [](const char* config, double ms, cache::CandidateOutcome outcome) {
        cache::MeasurementRecord m;
        m.config = config;
        m.time_ms = ms;
        m.outcome = outcome;
        return m;
    };
    using cache::CandidateOutcome;
    const std::vector<cache::MeasurementRecord> search = {
        measured("wgmma_256x128x64_c2_s4_g1_q132", 0.047, CandidateOutcome::Passed),  // the winner itself
        measured("wgmma_192x128x64_c2_s4_g8_x2_q132_ts", 0.070, CandidateOutcome::Passed),
        measured("wgmma_192x128x64_c2_s4_g8_x2_q132_ts", 0.070, CandidateOutcome::Passed),  // measured twice
        measured("wgmma_128x64x64_c2_s7_g8_x2_q132_pp_ts", 0.0, CandidateOutcome::Incorrect),
        // Stream-K is laid out by the problem when compiled: no variant, however fast.
        measured("wgmma_256x128x64_c2_s4_g8_q132_sk", 0.001, CandidateOutcome::Passed)};
    const std::vector<AnyConfig> picks = neighbour_variants(tuned, 2, winner, 0.047, search, d);
    ASSERT_EQ(picks.size(), 1u);
    EXPECT_EQ(to_string(picks[0]), "wgmma_192x128x64_c2_s4_g8_x2_q132_ts");
    // Where the winner is expected fastest at every size around, nothing more is stored.
    const std::vector<cache::MeasurementRecord> slow = {
        measured("wgmma_192x128x64_c2_s4_g8_x2_q132_ts", 0.5, CandidateOutcome::Passed)};
    EXPECT_TRUE(neighbour_variants(tuned, 2, winner, 0.047, slow, d).empty());
}
// The untuned default's variant serves the other sizes of a layer only in the family of the exact default: fp32 decode
// steps through two weights (4096 and 14336 rows, 16 tokens) look like one layer whose m varies, and along m the
// default is regblock's, 3-6x slower than the decode default (session 30); along the tokens it is the decode one.
TEST(NearestProblem, TheDefaultsVariantKeepsTheExactDefaultsFamily) {
    const DeviceInfo d = testing::h200_profile();
    Problem step;  // row-major x (16 x 4096) times W (4096 x 4096), folded: W's rows are m, the tokens n
    step.a_type = step.b_type = step.c_type = DType::F32;
    step.m = 4096;
    step.n = 16;
    step.k = 4096;
    step.lda = step.ldb = step.ldc = 4096;
    ASSERT_TRUE(std::holds_alternative<DecodeConfig>(heuristic_config(step, d)));
    const auto along_tokens = default_variant_config(step, 2, d);
    ASSERT_TRUE(along_tokens.has_value());
    EXPECT_TRUE(std::holds_alternative<DecodeConfig>(*along_tokens)) << to_string(*along_tokens);
    EXPECT_FALSE(default_variant_config(step, 1, d).has_value());
    // A large 16-bit layer keeps its family along the tokens (the configuration may differ: no C through the TMA).
    const auto large = default_variant_config(layer(1024), 2, d);
    ASSERT_TRUE(large.has_value());
    EXPECT_EQ(large->index(), heuristic_config(layer(1024), d).index()) << to_string(*large);
}

}  // namespace
}  // namespace jitgemm
