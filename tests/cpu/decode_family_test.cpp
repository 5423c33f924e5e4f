// The decode family's host side without a GPU: which side it takes as small and which way it reads the large
// operand, its knob rules, its launch (grid, shared memory, the split sums' workspace), its search space and the
// untuned default that serves decode steps.
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include <variant>

#include "support/device_profiles.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

using testing::h200_profile;

// A row-major layer's decode step, y[m, n] = x[m, k] W[k, n], in the canonical column-major form: C^T = W^T x^T, so
// the canonical n is the tokens and op(A) = W^T is stored along its rows (not transposed).
Problem decode_step(std::int64_t tokens, std::int64_t features, std::int64_t k, DType type) {
    Problem p;
    p.m = features;
    p.n = tokens;
    p.k = k;
    p.lda = features;
    p.ldb = k;
    p.ldc = features;
    p.a_type = p.b_type = p.c_type = type;
    p.alpha_one = true;
    return p;
}

std::optional<PruneRule> rule_of(const DecodeConfig& c, const Problem& p) {
    const auto r = c.validate(p, h200_profile());
    return r ? std::optional<PruneRule>(r->rule) : std::nullopt;
}

DecodeConfig config(std::string_view name) {
    const auto c = DecodeConfig::parse(name);
    EXPECT_TRUE(c.has_value()) << name;
    return c.value_or(DecodeConfig{});
}

TEST(DecodeFamily, NamesRoundTrip) {
    for (const std::string_view name : {"decode_mma_w4_r1_c8_k2_u4", "decode_simt_w8_r2_c16_k64_u1"})
        EXPECT_EQ(config(name).to_string(), name);
    EXPECT_FALSE(DecodeConfig::parse("decode_tc_w4_r1_c8_k2_u4"));
    EXPECT_FALSE(DecodeConfig::parse("decode_mma_w4_r1_c8_k2"));
    EXPECT_EQ(config("decode_mma_w4_r1_c8_k2_u4_x").to_string(), "decode_mma_w4_r1_c8_k2_u4_x");
    EXPECT_TRUE(config("decode_mma_w4_r1_c8_k2_u4_x").cluster);
    EXPECT_FALSE(DecodeConfig::parse("decode_mma_w4_r1_c8_k2_u4_y"));
    // W staged (_s), alone or before the cluster's _x, never after it.
    for (const std::string_view name : {"decode_simt_w4_r1_c16_k16_u8_s", "decode_mma_w4_r1_c8_k4_u16_s_x"})
        EXPECT_EQ(config(name).to_string(), name);
    EXPECT_TRUE(config("decode_simt_w4_r1_c16_k16_u8_s").staged);
    EXPECT_FALSE(config("decode_simt_w4_r1_c16_k16_u8_s").cluster);
    EXPECT_FALSE(config("decode_simt_w4_r1_c16_k16_u8").staged);
    EXPECT_FALSE(DecodeConfig::parse("decode_simt_w4_r1_c16_k4_u8_x_s"));
    EXPECT_FALSE(DecodeConfig::parse("decode_simt_w4_r1_c16_k4_u8_s_s"));
    // Lanes along k (_l), before _s and _x; the default 4 is never written.
    for (const std::string_view name : {"decode_simt_w8_r1_c16_k16_u8_l8_s", "decode_simt_w4_r1_c4_k4_u4_l32_x"})
        EXPECT_EQ(config(name).to_string(), name);
    EXPECT_EQ(config("decode_simt_w8_r1_c16_k16_u8_l16").lanes_k, 16);
    EXPECT_EQ(config("decode_simt_w8_r1_c16_k16_u8").lanes_k, 4);
    EXPECT_FALSE(DecodeConfig::parse("decode_simt_w4_r1_c16_k4_u8_l4"));
    EXPECT_FALSE(DecodeConfig::parse("decode_simt_w4_r1_c16_k4_u8_s_l8"));
}

// Lanes along k: a warp's load covers 32 / lanes rows, 16 x lanes bytes each, so a block's rows and its step along k
// follow; only the SIMT math on W stored along k has them.
TEST(DecodeFamily, LanesAlongK) {
    Problem linear = decode_step(16, 14336, 4096, DType::F32);
    linear.trans_a = Transpose::Yes;
    linear.lda = 4096;
    EXPECT_EQ(config("decode_simt_w4_r1_c16_k16_u4").rows(linear), 64);
    EXPECT_EQ(config("decode_simt_w4_r1_c16_k16_u4_l8").rows(linear), 32);
    EXPECT_EQ(config("decode_simt_w8_r2_c16_k16_u4_l16").rows(linear), 64);
    EXPECT_EQ(config("decode_simt_w8_r1_c16_k16_u4_l32").rows(linear), 16);
    EXPECT_FALSE(rule_of(config("decode_simt_w8_r1_c16_k16_u8_l8_s"), linear));
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c16_k16_u4_l2"), linear), PruneRule::Knobs);
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c16_k16_u4_l8"), decode_step(16, 14336, 4096, DType::F32)),
              PruneRule::Knobs);  // W along its rows
    Problem bf16 = linear;
    bf16.a_type = bf16.b_type = bf16.c_type = DType::BF16;
    EXPECT_EQ(rule_of(config("decode_mma_w4_r1_c16_k16_u4_l8"), bf16), PruneRule::Knobs);
    EXPECT_FALSE(rule_of(config("decode_simt_w4_r1_c16_k16_u4_l8"), bf16));
    // A split's k is a whole number of steps: 32 lanes of 4 floats step 128 k, so K = 4096 in 64 splits of 64 is
    // refused (its last split would have none) where 4 lanes (16 k a step) take it.
    EXPECT_FALSE(rule_of(config("decode_simt_w4_r1_c16_k64_u4"), linear));
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c16_k64_u4_l32"), linear), PruneRule::Knobs);
}

// W's loads in flight staged in shared memory: along k only, a ring of 2 to 16 steps, W 4-byte aligned; the ring is
// in the block's shared memory (and its bytes no longer in the estimate of registers).
TEST(DecodeFamily, StagedWRulesAndRing) {
    Problem linear = decode_step(16, 14336, 4096, DType::F32);  // y = x W^T: W along k
    linear.trans_a = Transpose::Yes;
    linear.lda = 4096;
    ASSERT_TRUE(decode_shape(linear).w_k_contiguous);
    const DecodeConfig staged = config("decode_simt_w4_r1_c16_k16_u8_s");
    EXPECT_FALSE(rule_of(staged, linear));
    EXPECT_FALSE(rule_of(config("decode_simt_w4_r1_c16_k16_u16_s"), linear));
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c16_k16_u1_s"), linear), PruneRule::Knobs);
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c16_k16_u16"), linear), PruneRule::Knobs);  // registers: up to 8
    EXPECT_EQ(rule_of(staged, decode_step(16, 14336, 4096, DType::F32)), PruneRule::Knobs);  // W along its rows
    Problem misaligned = decode_step(1, 4096, 4096, DType::BF16);
    misaligned.trans_a = Transpose::Yes;
    misaligned.lda = 4097;
    misaligned.align_a = 2;
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c1_k4_u8_s"), misaligned), PruneRule::Knobs);
    misaligned.align_a = 4;
    EXPECT_FALSE(rule_of(config("decode_simt_w4_r1_c1_k4_u8_s"), misaligned));

    // 4 warps, 1 row group, 8 steps: 8 x 2 chunks of 16 bytes per thread, after X's 16 rows of 256 floats.
    EXPECT_EQ(staged.w_ring_bytes(linear), 8 * 2 * 128 * 16);
    EXPECT_EQ(staged.shared_bytes(linear), 16 * 1024 + 8 * 2 * 128 * 16 + 64 * 17 * 4);
    DecodeConfig in_registers = staged;
    in_registers.staged = false;
    in_registers.unroll = 8;
    EXPECT_EQ(in_registers.w_ring_bytes(linear), 0);
    EXPECT_LT(staged.estimated_registers(linear), in_registers.estimated_registers(linear));
}

TEST(DecodeFamily, SmallSideAndLayout) {
    const Problem step = decode_step(4, 4096, 4096, DType::BF16);
    DecodeShape d = decode_shape(step);
    EXPECT_TRUE(d.small_n);
    EXPECT_EQ(d.small, 4);
    EXPECT_EQ(d.large, 4096);
    EXPECT_FALSE(d.w_k_contiguous);  // W^T stored k x n row-major: along its rows
    Problem linear = step;  // y = x W^T with W stored n x k (a linear layer's weight): A transposed, along k
    linear.trans_a = Transpose::Yes;
    linear.lda = 4096;
    EXPECT_TRUE(decode_shape(linear).w_k_contiguous);
    Problem column_major = step;  // the small side in m: W is op(B)^T
    column_major.m = 3;
    column_major.n = 5000;
    column_major.lda = 3;
    column_major.ldc = 3;
    d = decode_shape(column_major);
    EXPECT_FALSE(d.small_n);
    EXPECT_EQ(d.small, 3);
    EXPECT_EQ(d.large, 5000);
    EXPECT_TRUE(d.w_k_contiguous);  // B not transposed: op(B)(k, l) runs along k
}

TEST(DecodeFamily, Rules) {
    const Problem bf16 = decode_step(16, 4096, 4096, DType::BF16);
    EXPECT_FALSE(rule_of(config("decode_mma_w4_r1_c16_k2_u4"), bf16));
    EXPECT_FALSE(rule_of(config("decode_simt_w4_r1_c8_k2_u4"), bf16));
    const Problem f32 = decode_step(16, 4096, 4096, DType::F32);
    EXPECT_EQ(rule_of(config("decode_mma_w4_r1_c16_k2_u4"), f32), PruneRule::Dtype);
    EXPECT_FALSE(rule_of(config("decode_simt_w4_r1_c16_k2_u4"), f32));
    Problem mixed = bf16;
    mixed.b_type = DType::F16;
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c8_k2_u4"), mixed), PruneRule::Dtype);
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c8_k2_u4"), decode_step(65, 4096, 4096, DType::F32)),
              PruneRule::Knobs);  // the small side is at most 64
    EXPECT_EQ(rule_of(config("decode_mma_w4_r1_c12_k2_u4"), bf16), PruneRule::Knobs);  // eights
    EXPECT_EQ(rule_of(config("decode_mma_w4_r1_c24_k2_u4"), bf16), PruneRule::Knobs);  // more than 16 rounded up
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c17_k2_u4"), bf16), PruneRule::Knobs);
    EXPECT_EQ(rule_of(config("decode_simt_w4_r2_c8_k2_u4"), bf16), PruneRule::Knobs);  // along rows: one group
    EXPECT_EQ(rule_of(config("decode_simt_w3_r1_c8_k2_u4"), bf16), PruneRule::Knobs);
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c8_k2_u16"), bf16), PruneRule::Knobs);
    // Splits: each needs some k. Along rows the simt math steps 4 x warps = 16 k: K = 40 has three steps.
    const Problem short_k = decode_step(8, 4096, 40, DType::F32);
    EXPECT_FALSE(rule_of(config("decode_simt_w4_r1_c8_k3_u4"), short_k));
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c8_k4_u4"), short_k), PruneRule::Knobs);
    // 64 columns of simt math along rows would be 8 x 64 accumulators per thread.
    EXPECT_EQ(rule_of(config("decode_simt_w4_r1_c16_k1_u4"), decode_step(64, 4096, 4096, DType::BF16)),
              PruneRule::Registers);
}

TEST(DecodeFamily, LaunchAndWorkspace) {
    Problem p = decode_step(4, 4096, 4096, DType::BF16);
    p.trans_a = Transpose::Yes;  // W along k: 16 rows per warp and row group
    p.lda = 4096;
    const DecodeConfig c = config("decode_mma_w4_r1_c8_k4_u4");
    const LaunchDescription g = c.launch(p);
    EXPECT_EQ(c.rows(p), 64);
    EXPECT_EQ(g.grid.x, 64u * 4);  // row tiles x splits
    EXPECT_EQ(g.grid.y, 1u);
    EXPECT_EQ(g.block.x, 128u);
    // X's 8 rows of a 1024-deep slice staged (2048 bytes, padded by 64 for the mma reads), then the block's sums,
    // rows padded to 9 floats.
    EXPECT_EQ(g.dynamic_shared_bytes, 8u * (1024 * 2 + 64) + 64 * 9 * 4);
    EXPECT_EQ(g.partial_sums_zeroed_bytes, 256);     // 64 counters
    EXPECT_EQ(g.partial_sums_bytes, 256 + 64 * 4 * 64 * 9 * 4);
    const LaunchDescription unsplit = config("decode_mma_w4_r1_c8_k1_u4").launch(p);
    EXPECT_EQ(unsplit.partial_sums_bytes, 0);
    // Along rows: 64 rows per warp (mma), 32 x 8 per block (simt, 16-bit); 20 columns in tiles of 8.
    const Problem rows = decode_step(20, 4096, 4096, DType::BF16);
    EXPECT_EQ(config("decode_mma_w2_r1_c8_k1_u4").rows(rows), 128);
    EXPECT_EQ(config("decode_simt_w2_r1_c8_k1_u4").rows(rows), 256);
    EXPECT_EQ(config("decode_simt_w2_r1_c8_k1_u4").launch(rows).grid.y, 3u);
}

// A batch (batched GEMV: attention's decode steps) in the grid's third dimension; its slices of K meet only in a
// cluster, since the workspace's sums are laid out for one GEMM. Searched, not yet a default.
TEST(DecodeFamily, BatchesTakeTheGridsThirdDimensionAndSplitOnlyInClusters) {
    const DeviceInfo device = h200_profile();
    Problem p = decode_step(1, 4096, 128, DType::BF16);  // one head's scores q K^T: 4096 keys, 128 deep
    p.batch = 256;                                        // heads x sequences
    const DecodeConfig whole = config("decode_simt_w4_r1_c1_k1_u4");
    EXPECT_FALSE(whole.validate(p, device));
    const LaunchDescription g = whole.launch(p);
    EXPECT_EQ(g.grid.z, 256u);
    EXPECT_EQ(whole.blocks(p), std::int64_t{g.grid.x} * g.grid.y * 256);
    const auto rule = config("decode_simt_w4_r1_c1_k2_u4").validate(p, device);
    ASSERT_TRUE(rule.has_value());
    EXPECT_EQ(rule->rule, PruneRule::Batch);
    EXPECT_FALSE(config("decode_simt_w4_r1_c1_k2_u4_x").validate(p, device));
    const auto space = DecodeConfig::enumerate(p, device);
    ASSERT_FALSE(space.empty());
    for (const DecodeConfig& c : space) EXPECT_TRUE(c.splits == 1 || c.cluster) << c.to_string();
    EXPECT_FALSE(std::holds_alternative<DecodeConfig>(heuristic_config(p, device))) << "not yet measured";
    // The cost counts every GEMM's bytes: twice the batch, about twice the time once the SMs are full.
    Problem twice = p;
    twice.batch = 512;
    const DeviceCeilings ceilings = estimate_ceilings(device);
    EXPECT_GT(whole.estimate_cost(twice, device, ceilings).seconds,
              1.5 * whole.estimate_cost(p, device, ceilings).seconds);
}

TEST(DecodeFamily, SearchSpaceIsValidAndCoversBothMaths) {
    const DeviceInfo device = h200_profile();
    for (const DType type : {DType::F32, DType::F16, DType::BF16})
        for (const std::int64_t tokens : {1, 7, 16, 64}) {
            const Problem p = decode_step(tokens, 4096, 14336, type);
            const auto space = DecodeConfig::enumerate(p, device);
            ASSERT_FALSE(space.empty());
            bool mma = false, simt = false;
            for (const auto& c : space) {
                EXPECT_FALSE(c.validate(p, device)) << c.to_string();
                (c.mma ? mma : simt) = true;
            }
            EXPECT_EQ(mma, type != DType::F32);
            EXPECT_TRUE(simt);
        }
    EXPECT_TRUE(DecodeConfig::enumerate(decode_step(65, 4096, 4096, DType::BF16), device).empty());
}

// A winner is refined to twice and half its row groups where W is read along k (each lane's X values from shared
// memory then serve twice or half the rows): four row groups, which the enumeration does not list, are reached so.
// A winner whose blocks leave their last wave part empty is refined to the split (between half and twice its own)
// that fills the waves most evenly at the model's residency: on the H200 the fp32 16-token winner of 16 x 14336 x 4096, 8 splits, ran 896
// blocks on 528 slots (its second wave 70% full) at 56% of DRAM's rate.
TEST(DecodeFamily, RefinementsTryTheSplitThatFillsTheWavesMostEvenly) {
    const DeviceInfo device = h200_profile();
    const Problem p = decode_step(16, 14336, 4096, DType::F32);
    const DecodeConfig winner = config("decode_simt_w4_r1_c16_k8_u2");
    ASSERT_FALSE(rule_of(winner, p));
    ASSERT_LT(winner.wave_efficiency(p, device), 0.9);
    double evenest = 0.0;
    std::set<std::string> names;
    for (const DecodeConfig& r : winner.refinements(p, device)) {
        EXPECT_TRUE(names.insert(r.to_string()).second) << "twice: " << r.to_string();
        if (r.splits != winner.splits && r.warps == winner.warps && r.unroll == winner.unroll)
            evenest = std::max(evenest, r.wave_efficiency(p, device));
    }
    EXPECT_GE(evenest, 0.98);  // twice, half and 1.5 times the splits reach 0.97 at best here
}

TEST(DecodeFamily, RefinementsTryOtherRowGroupsWhereWIsReadAlongK) {
    const DeviceInfo device = h200_profile();
    Problem along_k = decode_step(16, 14336, 4096, DType::F32);
    along_k.trans_a = Transpose::Yes;  // W = op(A) stored k-contiguous: y = x W^T
    along_k.lda = 4096;
    const auto row_groups = [&](const DecodeConfig& from, const Problem& p) {
        std::vector<int> out;
        for (const DecodeConfig& r : from.refinements(p, device))
            if (r.rg != from.rg) out.push_back(r.rg);
        return out;
    };
    EXPECT_EQ(row_groups(config("decode_simt_w4_r2_c8_k8_u2"), along_k), (std::vector<int>{4, 1}));
    EXPECT_EQ(row_groups(config("decode_simt_w4_r1_c8_k8_u2"), along_k), (std::vector<int>{2}));
    EXPECT_EQ(row_groups(config("decode_simt_w4_r4_c8_k8_u2"), along_k), (std::vector<int>{2}));
    // Sixteen columns at four row groups hold more registers than a thread has (estimated_registers): not tried.
    EXPECT_EQ(row_groups(config("decode_simt_w4_r2_c16_k8_u2"), along_k), (std::vector<int>{1}));
    // W stored along its rows (l-contiguous) takes one row group only.
    EXPECT_TRUE(row_groups(config("decode_simt_w4_r1_c16_k8_u2"), decode_step(16, 14336, 4096, DType::F32)).empty());
}

TEST(DecodeFamily, CostPrefersEnoughBlocksToDrawOnDram) {
    const DeviceInfo device = h200_profile();
    const DeviceCeilings ceilings = estimate_ceilings(device);
    // 4096 x 4096 in bf16 along k: 64 rows a block leave 64 blocks unsplit, half the SMs idle; 8 splits give every SM
    // four blocks, 64 KB of loads in flight.
    Problem p = decode_step(1, 4096, 4096, DType::BF16);
    p.trans_a = Transpose::Yes;
    p.lda = 4096;
    const double unsplit = config("decode_simt_w4_r1_c1_k1_u4").estimate_cost(p, device, ceilings).seconds;
    const double split = config("decode_simt_w4_r1_c1_k8_u4").estimate_cost(p, device, ceilings).seconds;
    EXPECT_LT(split, unsplit);
    const double dram = 4096.0 * 4096 * 2 / ceilings.dram_bytes_per_s;
    EXPECT_GT(split, dram);
    EXPECT_LT(split, 1.3 * (dram + cost::kLaunchSeconds));
}

// The default: this family for fp32 decode steps of up to 16 tokens (fewest splits that fill every SM twice); the
// mma.sync family's skinny tile for 16-bit steps, but for weights along K off 16-byte alignment with up to 2 tokens.
TEST(DecodeFamily, DefaultServesDecodeStepsOnly) {
    const DeviceInfo device = h200_profile();
    for (const DType type : {DType::F32, DType::F16, DType::BF16})
        for (const std::int64_t tokens : {1, 2, 5, 16}) {
            for (const bool along_k : {false, true}) {
                Problem p = decode_step(tokens, 14336, 4096, type);
                if (along_k) {
                    p.trans_a = Transpose::Yes;
                    p.lda = 4096;
                }
                const AnyConfig chosen = heuristic_config(p, device);
                EXPECT_FALSE(validate(chosen, p, device)) << to_string(chosen);
                if (type != DType::F32) {
                    ASSERT_TRUE(std::holds_alternative<MmaSyncConfig>(chosen)) << to_string(chosen);
                    const auto& m = std::get<MmaSyncConfig>(chosen);
                    EXPECT_EQ(m.bm, 64);  // along the weights
                    EXPECT_EQ(m.bn, 32);  // along the tokens
                    EXPECT_EQ(m.splits, 2) << to_string(chosen);  // 224 tiles: twice the SMs with 2 splits
                    continue;
                }
                ASSERT_TRUE(std::holds_alternative<DecodeConfig>(chosen)) << to_string(chosen);
                const auto& c = std::get<DecodeConfig>(chosen);
                EXPECT_FALSE(c.mma);
                EXPECT_GE(c.blocks(p), 2 * device.sm_count) << c.to_string();
                // Tiles of weights along K of more than one column: X's staged slice at most 16 KB a block.
                const bool staging_capped = along_k && c.columns > 1;
                const std::int64_t most_staged = 16 * 1024;
                if (staging_capped) {
                    EXPECT_LE(c.staged_x_bytes(p), most_staged) << c.to_string();
                }
                DecodeConfig fewer = c;  // the fewest splits that do
                fewer.splits = c.splits / 2;
                fewer.cluster = fewer.cluster && fewer.splits >= 2;
                if (fewer.splits >= 1 && !fewer.validate(p, device)) {
                    EXPECT_TRUE(fewer.blocks(p) < 2 * device.sm_count ||
                                (staging_capped && fewer.staged_x_bytes(p) > most_staged))
                        << c.to_string();
                }
                // Narrow tiles of weights along K meet in a cluster where one can hold their splits (sm_90, 2 to 8);
                // the others in the workspace.
                EXPECT_EQ(c.cluster, along_k && c.columns <= 4 && c.splits >= 2 && c.splits <= 8) << c.to_string();
            }
        }
    EXPECT_FALSE(std::holds_alternative<DecodeConfig>(heuristic_config(decode_step(17, 4096, 4096, DType::F32),
                                                                       device)));
    EXPECT_FALSE(std::holds_alternative<DecodeConfig>(heuristic_config(decode_step(4096, 4096, 4096, DType::F32),
                                                                       device)));
    // 4096 weights: 64 tiles of 64, split in four (256 blocks), as the tuned winner was.
    const AnyConfig small = heuristic_config(decode_step(16, 4096, 4096, DType::BF16), device);
    ASSERT_TRUE(std::holds_alternative<MmaSyncConfig>(small)) << to_string(small);
    EXPECT_EQ(std::get<MmaSyncConfig>(small).splits, 4) << to_string(small);
    // 16 fp32 tokens, weights along l: two tiles of 8 columns where 16 columns' K slices are short (c8_k8 ran 34.0 us
    // on the H100, c16_k16 45.8); where they are long, one of 16 (8 columns lost 9-12% there); weights along K keep 16.
    EXPECT_EQ(to_string(heuristic_config(decode_step(16, 4096, 4096, DType::F32), device)),
              "decode_simt_w4_r1_c8_k8_u4");
    EXPECT_EQ(to_string(heuristic_config(decode_step(16, 4096, 14336, DType::F32), device)),
              "decode_simt_w4_r1_c16_k16_u4");
    EXPECT_EQ(to_string(heuristic_config(decode_step(16, 14336, 4096, DType::F32), device)),
              "decode_simt_w4_r1_c16_k4_u4");
    Problem along_k_16 = decode_step(16, 4096, 4096, DType::F32);
    along_k_16.trans_a = Transpose::Yes;
    along_k_16.lda = 4096;
    const AnyConfig wide_k = heuristic_config(along_k_16, device);
    ASSERT_TRUE(std::holds_alternative<DecodeConfig>(wide_k)) << to_string(wide_k);
    EXPECT_EQ(std::get<DecodeConfig>(wide_k).columns, 16) << to_string(wide_k);
    // ... split until X's staged slice takes at most 16 KB a block (H100, session 32: 16 x 14336 x 4096 c16_k2,
    // 128 KB, 214 us; c16_k8 122; session 36: c16_k16 115.4; 16 x 4096 x 14336 c16_k8, 112 KB, 198 us; c16_k32, 28 KB,
    // 134; c16_k64 123.8; session 33: 4 x 14336 x 4096 c4_k2_x, 32 KB, 133 us; c4_k4_x 99; 4 x 4096 x 14336
    // c4_k8_x, 28 KB, 157 us; c4_k16 100), where the splits may outgrow a cluster's.
    struct AlongK {
        std::int64_t tokens, l, k;
        const char* expected;
    };
    for (const AlongK& step : {AlongK{16, 14336, 4096, "decode_simt_w4_r1_c16_k16_u4"},
                               AlongK{16, 4096, 14336, "decode_simt_w4_r1_c16_k64_u4"},
                               AlongK{16, 4096, 4096, "decode_simt_w4_r1_c16_k16_u4"},
                               AlongK{4, 14336, 4096, "decode_simt_w4_r1_c4_k4_u4_x"},
                               AlongK{4, 4096, 14336, "decode_simt_w4_r1_c4_k16_u4"},
                               AlongK{4, 4096, 4096, "decode_simt_w4_r1_c4_k8_u4_x"}}) {
        Problem p = decode_step(step.tokens, step.l, step.k, DType::F32);
        p.trans_a = Transpose::Yes;
        p.lda = step.k;
        EXPECT_EQ(to_string(heuristic_config(p, device)), step.expected) << step.tokens << " x " << step.l;
    }
    // One fp32 token with weights along K on sm_90: eight splits meeting in a cluster (the default's cluster twin
    // ran 19.1 us against 21.1 on the H100 with 16-bit weights, session 27); before Hopper, the same splits meet in
    // the workspace.
    Problem linear = decode_step(1, 4096, 4096, DType::F32);
    linear.trans_a = Transpose::Yes;
    linear.lda = 4096;
    EXPECT_EQ(to_string(heuristic_config(linear, device)), "decode_simt_w4_r1_c1_k8_u4_x");
    DeviceInfo ampere = device;
    ampere.cc_major = 8;
    ampere.cc_minor = 0;
    EXPECT_EQ(to_string(heuristic_config(linear, ampere)), "decode_simt_w4_r1_c1_k8_u4");
    // One 16-bit token with weights along K: the mma.sync family's skinny tile, as with weights along n (the H100's
    // tuned kernel of that family ran it in 16.5 us where this family's default took 19.2, session 29).
    Problem linear_16 = linear;
    linear_16.a_type = linear_16.b_type = linear_16.c_type = DType::BF16;
    EXPECT_EQ(to_string(heuristic_config(linear_16, device)), "mma_sync_64x32x64_w2x2_s4_g8_k4");
    // Such weights off 16-byte alignment stay with this family, which reads them at any alignment.
    Problem odd_16 = linear_16;
    odd_16.align_a = 2;
    EXPECT_EQ(to_string(heuristic_config(odd_16, device)), "decode_simt_w4_r1_c1_k8_u4_x");
    // One 16-bit token with weights along n: the kernel the 3 s search found for that row (1.00x cuBLAS, session 16).
    EXPECT_EQ(to_string(heuristic_config(decode_step(1, 4096, 4096, DType::BF16), device)),
              "mma_sync_64x32x64_w2x2_s4_g8_k4");
}

}  // namespace
}  // namespace jitgemm
