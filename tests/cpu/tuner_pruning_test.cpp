// Pruning and ranking against fixed device profiles: the counts each rule removes (a change to the search space,
// the rules or the model shows up here first), the bookkeeping of the report, and that what survives can run.
#include <gtest/gtest.h>

#include <algorithm>

#include <map>
#include <set>

#include "support/device_profiles.h"
#include "runtime/device/roofline.h"
#include "tuner/families/registry.h"
#include "tuner/pruning.h"

namespace jitgemm {
namespace {

Problem column_major(std::int64_t m, std::int64_t n, std::int64_t k, std::uint8_t align) {
    Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.lda = m;
    p.ldb = k;
    p.ldc = m;
    p.align_a = p.align_b = p.align_c = align;
    return p;
}

struct Expected {
    const char* device;
    DeviceInfo (*profile)();
    std::int64_t size;
    std::uint8_t align;
    int enumerated;  // regblock's split-K counts grow it where the tiles are fewer than the SMs
    std::map<PruneRule, int> removed;
    int survivors;
    const char* first;
};

class PruningCounts : public ::testing::TestWithParam<Expected> {};

TEST_P(PruningCounts, MatchTheRecordedCounts) {
    const Expected& e = GetParam();
    const DeviceInfo device = e.profile();
    const Problem p = column_major(e.size, e.size, e.size, e.align);
    const PrunedSpace space = prune_and_rank(enumerate_candidates(p, device), p, device, estimate_ceilings(device));
    EXPECT_EQ(space.report.enumerated, e.enumerated);
    EXPECT_EQ(space.report.removed, e.removed) << space.report.describe();
    EXPECT_EQ(space.report.survivors, e.survivors) << space.report.describe();
    ASSERT_FALSE(space.ranked.empty());
    EXPECT_EQ(to_string(space.ranked.front().config), e.first);
}

using R = PruneRule;
INSTANTIATE_TEST_SUITE_P(
    Profiles, PruningCounts,
    ::testing::Values(
        Expected{"h200", testing::h200_profile, 4096, 16, 294, {{R::Knobs, 102}, {R::Registers, 34}, {R::Model, 25}},
                 133, "regblock_128x128x8_t8x8_v4_s2_g8"},
        Expected{"h200", testing::h200_profile, 4097, 4, 294, {{R::Knobs, 102}, {R::Registers, 34}, {R::Model, 49}},
                 109, "regblock_64x64x16_t4x8_v4_s2_g8"},
        Expected{"h200", testing::h200_profile, 1024, 16, 762,
                 {{R::Knobs, 306}, {R::Registers, 108}, {R::Waves, 108}, {R::Model, 123}}, 117,
                 "regblock_64x128x32_t4x8_v4_s2_g8_k2"},
        Expected{"a100", testing::a100_profile, 4096, 16, 294, {{R::Knobs, 102}, {R::Registers, 34}, {R::Model, 30}},
                 128, "regblock_128x128x8_t8x8_v4_s2_g8"},
        Expected{"a100", testing::a100_profile, 1024, 16, 612,
                 {{R::Knobs, 248}, {R::Registers, 90}, {R::Waves, 88}, {R::Model, 83}}, 103,
                 "regblock_128x128x8_t8x8_v4_s2_g8_k3"},
        Expected{"small", testing::small_gpu_profile, 4096, 16, 294,
                 {{R::Knobs, 102}, {R::SharedMemory, 3}, {R::Registers, 31}, {R::Model, 68}}, 90,
                 "regblock_128x128x8_t8x8_v4_s2_g8"},
        Expected{"small", testing::small_gpu_profile, 1024, 16, 312,
                 {{R::Knobs, 112}, {R::SharedMemory, 6}, {R::Registers, 36}, {R::Model, 69}}, 89,
                 "regblock_128x128x8_t8x8_v4_s2_g8"}),
    [](const auto& info) {
        return std::string(info.param.device) + "_" + std::to_string(info.param.size) + "_align" +
               std::to_string(info.param.align);
    });

TEST(Pruning, ReportAddsUpAndSurvivorsRunAndAreRanked) {
    for (const DeviceInfo& device : {testing::h200_profile(), testing::a100_profile(), testing::small_gpu_profile()})
        for (const std::int64_t size : {1, 100, 777, 4096}) {
            const Problem p = column_major(size, size * 2, size, 4);
            const PrunedSpace space = prune_and_rank(enumerate_candidates(p, device), p, device, estimate_ceilings(device));
            int removed = 0;
            for (const auto& [rule, count] : space.report.removed) removed += count;
            EXPECT_EQ(removed + space.report.survivors, space.report.enumerated);
            EXPECT_EQ(space.report.survivors, static_cast<int>(space.ranked.size()));
            for (std::size_t i = 0; i < space.ranked.size(); ++i) {
                EXPECT_FALSE(validate(space.ranked[i].config, p, device)) << to_string(space.ranked[i].config);
                if (i > 0) {
                    EXPECT_LE(space.ranked[i - 1].estimate.seconds, space.ranked[i].estimate.seconds);
                }
            }
        }
}

// Twins (Twins::Later): the candidates the model cannot tell apart wait behind the first of them, in a map the
// refinement reads; together with the ranked ones they are exactly the candidates of Twins::All, and each waits
// behind one that its estimate matches in every term.
TEST(Pruning, TwinsWaitBehindTheFirstCandidateTheyMatchInEveryTerm) {
    const DeviceInfo device = testing::h200_profile();
    for (const auto& [m, n, k] : {std::tuple{7, 7, 7}, {4096, 16, 4096}, {4096, 4096, 4096}}) {
        Problem p = column_major(m, n, k, 16);
        p.a_type = p.b_type = p.c_type = DType::BF16;
        const auto candidates = enumerate_candidates(p, device);
        const PrunedSpace all = prune_and_rank(candidates, p, device, estimate_ceilings(device));
        const PrunedSpace later = prune_and_rank(candidates, p, device, estimate_ceilings(device), Twins::Later);
        EXPECT_TRUE(all.twins.empty());
        EXPECT_EQ(all.report.deferred_twins, 0);
        ASSERT_FALSE(later.twins.empty()) << p.key();
        std::map<std::string, CostEstimate> ranked;
        for (const auto& r : later.ranked) ranked.emplace(to_string(r.config), r.estimate);
        std::set<std::string> together;
        for (const auto& [name, estimate] : ranked) together.insert(name);
        int deferred = 0;
        for (const auto& [first, twins] : later.twins) {
            ASSERT_TRUE(ranked.count(first)) << first;
            const CostEstimate& e = ranked.at(first);
            for (const AnyConfig& twin : twins) {
                const CostEstimate t = estimate_cost(twin, p, device, estimate_ceilings(device));
                EXPECT_NEAR(t.seconds, e.seconds, 1e-12) << to_string(twin) << " behind " << first;
                EXPECT_NEAR(t.compute_seconds, e.compute_seconds, 1e-12) << to_string(twin);
                EXPECT_NEAR(t.traffic_seconds, e.traffic_seconds, 1e-12) << to_string(twin);
                EXPECT_EQ(family_name(twin), family_name(*parse_config(first))) << to_string(twin);
                EXPECT_TRUE(together.insert(to_string(twin)).second) << to_string(twin) << " twice";
                ++deferred;
            }
        }
        EXPECT_EQ(deferred, later.report.deferred_twins);
        EXPECT_EQ(later.report.survivors + deferred, all.report.survivors) << p.key();
        std::set<std::string> every;
        for (const auto& r : all.ranked) every.insert(to_string(r.config));
        EXPECT_EQ(together, every) << p.key();
        EXPECT_NE(later.report.describe().find("twins for the refinement"), std::string::npos);
    }
}

// (And the decode family, on problems whose small side is at most 64: there the large operand's one pass decides.)
TEST(Pruning, HalfPrecisionAndTf32ProblemsSearchOnlyTheTensorCoreFamily) {
    for (const DeviceInfo& device : {testing::h200_profile(), testing::a100_profile(), testing::small_gpu_profile()})
        for (const auto& [ab, c, compute] : {std::tuple{DType::BF16, DType::BF16, ComputeType::F32},
                                             {DType::F16, DType::F32, ComputeType::F32},
                                             {DType::F32, DType::F32, ComputeType::TF32}})
            for (const std::int64_t size : {1, 777, 4096, 4097}) {
                Problem p = column_major(size, size, size, size % 2 == 0 ? 16 : 2);
                p.a_type = p.b_type = ab;
                p.c_type = c;
                p.compute = compute;
                if (ab == DType::F32) p.align_a = p.align_b = p.align_c = 4;
                const PrunedSpace space =
                    prune_and_rank(enumerate_candidates(p, device), p, device, estimate_ceilings(device));
                ASSERT_FALSE(space.ranked.empty()) << p.key() << " on " << device.name;
                bool wgmma = false;
                for (const auto& r : space.ranked) {
                    const bool is_wgmma = family_name(r.config) == WgmmaConfig::kName;
                    wgmma = wgmma || is_wgmma;
                    const bool is_decode = family_name(r.config) == DecodeConfig::kName;
                    EXPECT_TRUE(family_name(r.config) == MmaSyncConfig::kName || is_wgmma || (is_decode && size <= 64))
                        << to_string(r.config);
                    EXPECT_FALSE(validate(r.config, p, device)) << to_string(r.config);
                }
                // The wgmma family only where it computes, 16-bit and TF32 inputs on Hopper, and there on large
                // problems (on 1 x 1 x 1 the cost model prunes it).
                const bool hopper = device.cc_major == 9;
                if (wgmma || (hopper && size == 4096)) {
                    EXPECT_TRUE(wgmma && hopper) << p.key() << " on " << device.name;
                }
            }
}

TEST(CostModel, TensorCoreTilesThatShareMoreOfTheirOperandsRankFirstOnBigProblems) {
    const DeviceInfo device = testing::h200_profile();
    const DeviceCeilings ceilings = estimate_ceilings(device);
    Problem big = column_major(4096, 4096, 4096, 16);
    big.a_type = big.b_type = big.c_type = DType::BF16;
    MmaSyncConfig wide, narrow;  // 64 x 64 warp tiles against 32 x 32: half the shared-memory bytes per FLOP
    wide.bm = wide.bn = 128;
    wide.wm = wide.wn = 2;
    narrow.bm = narrow.bn = 64;
    narrow.wm = narrow.wn = 2;
    EXPECT_LT(estimate_cost(wide, big, device, ceilings).seconds, estimate_cost(narrow, big, device, ceilings).seconds);
    // The roofline of a bf16 problem uses the Tensor Core rate and 2-byte elements.
    EXPECT_NEAR(roofline_floor_seconds(big, ceilings), 2.0 * 4096.0 * 4096 * 4096 / ceilings.bf16_mma_flops, 1e-9);
    EXPECT_NEAR(arithmetic_intensity(big), 2.0 * 4096 / 6.0, 1.0);
}

TEST(Pruning, MisalignedOperandsCollapseVectorWidthsIntoDuplicates) {
    const DeviceInfo device = testing::h200_profile();
    std::vector<AnyConfig> candidates;
    for (const int vec : {4, 2, 1}) {
        RegBlockConfig c;
        c.vec = vec;
        candidates.emplace_back(c);
    }
    const Problem aligned = column_major(4096, 4096, 4096, 16), odd = column_major(4097, 4097, 4097, 4);
    EXPECT_EQ(prune_and_rank(candidates, aligned, device, estimate_ceilings(device)).report.survivors, 3);
    const PrunedSpace collapsed = prune_and_rank(candidates, odd, device, estimate_ceilings(device));
    EXPECT_EQ(collapsed.report.survivors, 1);
    EXPECT_EQ(collapsed.report.removed.at(PruneRule::Duplicate), 2);
}

TEST(CostModel, FollowsTheRooflineAndWaveQuantization) {
    const DeviceInfo device = testing::h200_profile();
    const DeviceCeilings ceilings = estimate_ceilings(device);
    const Problem big = column_major(4096, 4096, 4096, 16);
    // Seed 004: 2n^3 FLOPs over 3 n^2 * 4 bytes: ~683 FLOP/byte for n = 4096, far above the fp32 ridge.
    EXPECT_NEAR(arithmetic_intensity(big), 2.0 * 4096 / 12.0, 1.0);
    EXPECT_GT(arithmetic_intensity(big), ceilings.fp32_ridge());
    EXPECT_NEAR(roofline_floor_seconds(big, ceilings), 2.0 * 4096.0 * 4096 * 4096 / ceilings.fp32_flops, 1e-9);
    // Bigger tiles re-read less (traffic 8n^3/t): a 128 x 128 tile beats 32 x 32 on a big problem.
    RegBlockConfig large, small;
    small.bm = small.bn = 32;
    small.bk = 16;
    small.tm = small.tn = 4;
    EXPECT_LT(estimate_cost(large, big, device, ceilings).seconds, estimate_cost(small, big, device, ceilings).seconds);
    // 132 SMs: 133 tiles of 128 x 128 need two waves with the second nearly empty.
    const Problem ragged = column_major(128 * 133, 128, 4096, 16);
    EXPECT_LT(estimate_cost(large, ragged, device, ceilings).wave_efficiency, 0.6);
    EXPECT_GT(estimate_cost(large, big, device, ceilings).wave_efficiency, 0.9);
}

TEST(SearchSpace, SplitKIsTriedWhereTilesAreFewAndKIsLong) {
    Problem few_tiles = column_major(777, 1111, 3333, 2);  // 63 tiles of 128 x 128 for 132 SMs
    few_tiles.a_type = few_tiles.b_type = few_tiles.c_type = DType::BF16;
    Problem short_k = column_major(4096, 4096, 64, 16);  // K too short to share out
    short_k.a_type = short_k.b_type = short_k.c_type = DType::BF16;
    const DeviceInfo device = testing::h200_profile();
    const auto splits_of = [&](const Problem& p) {
        std::set<int> splits;
        for (const AnyConfig& c : enumerate_candidates(p, device))
            if (const auto* m = std::get_if<MmaSyncConfig>(&c)) splits.insert(m->splits);
        return splits;
    };
    EXPECT_EQ(splits_of(few_tiles), (std::set<int>{1, 2, 3, 4, 6, 8}));
    EXPECT_EQ(splits_of(short_k), (std::set<int>{1}));
    // A split winner's refinements try the neighbouring counts too, and stream-K over the same tiles: as many
    // blocks as the SMs hold at once (two of these 128 x 64 x 64 blocks, 96 KB of shared memory each), and one per
    // SM.
    MmaSyncConfig split;
    split.bn = 64;
    split.bk = 64;
    split.wn = 2;
    split.stages = 4;
    split.splits = 4;
    std::set<int> neighbours, stream_blocks;
    for (const AnyConfig& v : refinements(split, few_tiles, device)) {
        const auto& m = std::get<MmaSyncConfig>(v);
        if (m.stream_blocks == 0) neighbours.insert(m.splits);
        else stream_blocks.insert(m.stream_blocks);
        EXPECT_TRUE(m.stream_blocks == 0 || m.splits == 1) << to_string(v);
        EXPECT_EQ(m.bm, split.bm);
    }
    EXPECT_EQ(neighbours, (std::set<int>{3, 4, 5}));
    EXPECT_EQ(stream_blocks, (std::set<int>{2 * device.sm_count, device.sm_count}));
}

TEST(SearchSpace, RegblockSplitsKOnlyWhereItsTilesAreFewerThanTheSms) {
    const DeviceInfo device = testing::h200_profile();  // 132 SMs
    const auto splits_by_tile = [&](const Problem& p) {
        std::map<std::pair<int, int>, std::set<int>> out;
        for (const AnyConfig& c : enumerate_candidates(p, device))
            if (const auto* r = std::get_if<RegBlockConfig>(&c)) out[{r->bm, r->bn}].insert(r->splits);
        return out;
    };
    // 64 x 4096 x 4096 fp32: 64 tiles of 64 x 64 may split up to 4 ways (256 blocks, two per SM); 16 tiles of
    // 256 x 256 up to 8 ways while K keeps each split 8 k tiles deep.
    const auto skinny = splits_by_tile(column_major(64, 4096, 4096, 16));
    EXPECT_EQ(skinny.at({64, 64}), (std::set<int>{1, 2, 3, 4}));
    EXPECT_EQ(skinny.at({256, 256}), (std::set<int>{1, 2, 3, 4, 6, 8}));
    EXPECT_EQ(skinny.at({32, 32}), (std::set<int>{1}));  // 256 tiles already fill the SMs
    // K = 128 in tiles of 8 is 16 deep: two splits of 8 at most.
    EXPECT_EQ(splits_by_tile(column_major(64, 4096, 128, 16)).at({256, 256}), (std::set<int>{1, 2}));
    for (const auto& [tile, splits] : splits_by_tile(column_major(4096, 4096, 4096, 16)))
        EXPECT_EQ(splits, (std::set<int>{1})) << tile.first << "x" << tile.second;
    Problem batched = column_major(64, 4096, 4096, 16);
    batched.batch = 4;
    for (const auto& [tile, splits] : splits_by_tile(batched)) EXPECT_EQ(splits, (std::set<int>{1}));

    // A split winner's refinements try its neighbouring counts; validate() keeps what K can feed.
    RegBlockConfig split;
    split.bm = split.bn = 64;
    split.tm = 4;
    split.tn = 8;
    split.splits = 4;
    std::set<int> neighbours;
    for (const AnyConfig& v : refinements(split, column_major(64, 4096, 4096, 16), device))
        neighbours.insert(std::get<RegBlockConfig>(v).splits);
    EXPECT_EQ(neighbours, (std::set<int>{3, 4, 5}));
}

// Split-K fills the waves by design: an unsplit tile shape is judged against the best wave efficiency of the others
// that own their tiles, or every one of them would leave before a measurement could say whether splitting pays.
TEST(Pruning, WaveRuleDoesNotMeasureUnsplitTilesAgainstSplitOnes) {
    const DeviceInfo device = testing::h200_profile();
    const Problem deep = column_major(128, 128, 8192, 16);  // 4 tiles of 64 x 64
    RegBlockConfig whole;
    whole.bm = whole.bn = 64;
    whole.bk = 32;
    whole.tm = whole.tn = 4;
    RegBlockConfig split = whole;
    split.splits = 8;
    const DeviceCeilings ceilings = estimate_ceilings(device);
    ASSERT_LT(estimate_cost(whole, deep, device, ceilings).wave_efficiency,
              0.5 * estimate_cost(split, deep, device, ceilings).wave_efficiency);
    const PrunedSpace space = prune_and_rank({AnyConfig{whole}, AnyConfig{split}}, deep, device, ceilings);
    EXPECT_EQ(space.report.removed.count(PruneRule::Waves), 0u) << space.report.describe();
}

TEST(CostModel, RegblockSplitKShareOutItsTilesWorkAndPaysForThePartialSums) {
    const DeviceInfo device = testing::h200_profile();
    const DeviceCeilings ceilings = estimate_ceilings(device);
    const Problem skinny = column_major(64, 4096, 4096, 16);  // 64 tiles of 64 x 64 for 132 SMs
    RegBlockConfig whole;
    whole.bm = whole.bn = 64;
    whole.bk = 16;
    whole.tm = 4;
    whole.tn = 8;
    RegBlockConfig halves = whole;
    halves.splits = 2;
    const CostEstimate one = estimate_cost(whole, skinny, device, ceilings);
    const CostEstimate two = estimate_cost(halves, skinny, device, ceilings);
    // Both fit one wave; each split block does half the k tiles.
    EXPECT_NEAR(two.compute_seconds, one.compute_seconds / 2, one.compute_seconds * 0.01);
    EXPECT_GT(two.wave_efficiency, one.wave_efficiency);
    // The partial sums cross L2 twice: the split costs more than half, and less than the whole.
    EXPECT_GT(two.seconds, std::max(two.compute_seconds, two.traffic_seconds) + cost::kLaunchSeconds);
    EXPECT_LT(two.seconds, one.seconds);
    // The tile's last block holds its accumulators and every split's float4 runs of one column at once.
    RegBlockConfig eight = whole;
    eight.tm = 8;
    eight.splits = 8;
    EXPECT_GE(eight.estimated_registers(), 8 * 8 + 8 * 8);
    EXPECT_EQ(halves.estimated_registers(), whole.estimated_registers());  // the main loop needs more
}

TEST(SearchSpace, BothOperandsPackedTakeBulkCopiesOnHopperOnly) {
    Problem odd = column_major(777, 1111, 3333, 2);  // both 16-bit operands 2-byte aligned: packed as pack 3
    odd.a_type = odd.b_type = odd.c_type = DType::BF16;
    const auto count = [&](const DeviceInfo& device) {
        int packed = 0, bulk = 0;
        for (const AnyConfig& c : enumerate_candidates(odd, device)) {
            if (!std::holds_alternative<MmaSyncConfig>(c)) continue;  // the wgmma family packs column by column
            const auto& m = std::get<MmaSyncConfig>(c);
            packed += m.pack == 3;
            bulk += m.bulk;
            EXPECT_TRUE(!m.bulk || m.pack == 3) << to_string(c);
        }
        return std::pair{packed, bulk};
    };
    const auto [hopper_packed, hopper_bulk] = count(testing::h200_profile());
    EXPECT_GT(hopper_packed, 0);
    EXPECT_EQ(hopper_bulk, hopper_packed);  // every packed candidate, and nothing else
    EXPECT_EQ(count(testing::a100_profile()).second, 0);
    Problem tf32 = odd;
    tf32.a_type = tf32.b_type = tf32.c_type = DType::F32;
    tf32.compute = ComputeType::TF32;
    for (const AnyConfig& c : enumerate_candidates(tf32, testing::h200_profile()))
        if (const auto* m = std::get_if<MmaSyncConfig>(&c)) {
            EXPECT_FALSE(m->bulk) << to_string(c);
        }

    // A bulk winner's refinements include its cp.async twin; its stream-K variants are fed by cp.async.
    const auto winner = MmaSyncConfig::parse("mma_sync_128x64x64_w2x2_s4_g8_k2_p3_bulk");
    ASSERT_TRUE(winner.has_value());
    bool twin = false;
    for (const AnyConfig& v : refinements(*winner, odd, testing::h200_profile())) {
        const auto& m = std::get<MmaSyncConfig>(v);
        MmaSyncConfig same = *winner;
        same.bulk = false;
        twin = twin || m == same;
        EXPECT_TRUE(m.stream_blocks == 0 || !m.bulk) << to_string(v);
    }
    EXPECT_TRUE(twin);
}

TEST(CostModel, SplitKRanksFirstWhereTheTilesLeaveSmsIdle) {
    const DeviceInfo device = testing::h200_profile();
    DeviceCeilings ceilings = estimate_ceilings(device);
    ceilings.dram_bytes_per_s = 3.9e12;  // as measured on the H200 (the profile has no memory clock)
    ceilings.l2_bytes_per_s = 2.5 * ceilings.dram_bytes_per_s;
    // Decode: 1 x 4096 x 14336 bf16 is 32 tiles of 128 columns; each block would stream 14336 rows of B alone.
    Problem decode = column_major(4096, 1, 14336, 16);
    decode.a_type = decode.b_type = decode.c_type = DType::BF16;
    const PrunedSpace space = prune_and_rank(enumerate_candidates(decode, device), decode, device, ceilings);
    // The mma.sync family's best-ranked candidate (the decode family's may rank above it).
    const auto first_mma = std::find_if(space.ranked.begin(), space.ranked.end(), [](const auto& r) {
        return std::holds_alternative<MmaSyncConfig>(r.config);
    });
    ASSERT_NE(first_mma, space.ranked.end());
    EXPECT_GT(std::get<MmaSyncConfig>(first_mma->config).splits, 1) << to_string(first_mma->config);
    // The split's cost: the busiest SM runs half the k tiles, plus a write and a read of the partial sums.
    MmaSyncConfig whole;
    whole.bm = 128;
    whole.bn = 32;
    whole.wm = 4;
    whole.wn = 1;
    MmaSyncConfig halves = whole;
    halves.splits = 2;
    const CostEstimate one = estimate_cost(whole, decode, device, ceilings);
    const CostEstimate two = estimate_cost(halves, decode, device, ceilings);
    EXPECT_NEAR(two.compute_seconds, one.compute_seconds / 2, one.compute_seconds * 0.02);
    EXPECT_LT(two.seconds, one.seconds);
}

TEST(SearchSpace, RefinementsVaryGroupsStagesAndVectorWidthOnly) {
    const RegBlockConfig winner;
    const DeviceInfo device = testing::h200_profile();
    Problem square = column_major(4096, 4096, 4096, 16);
    const auto variants = refinements(winner, square, device);
    EXPECT_EQ(variants.size(), 5u);
    for (const auto& v : variants) {
        const auto& r = std::get<RegBlockConfig>(v);
        EXPECT_EQ(r.bm, winner.bm);
        EXPECT_EQ(r.bn, winner.bn);
        EXPECT_EQ(r.bk, winner.bk);
        EXPECT_FALSE(v == AnyConfig{winner});
    }
    EXPECT_TRUE(refinements(NaiveConfig{}, square, device).empty());
    square.a_type = square.b_type = square.c_type = DType::BF16;
    const MmaSyncConfig mma;  // 3 stages, group 8: groups 1, 4, 16 and stages 2, 4; no split, so no stream-K either
    const auto mma_variants = refinements(mma, square, device);
    EXPECT_EQ(mma_variants.size(), 5u);
    for (const auto& v : mma_variants) {
        const auto& m = std::get<MmaSyncConfig>(v);
        EXPECT_EQ(m.bm, mma.bm);
        EXPECT_EQ(m.wm, mma.wm);
        EXPECT_FALSE(v == AnyConfig{mma});
    }
}

// The group sizes a refinement tries for a winner, in the order they come.
template <typename Config>
std::vector<int> refined_groups(const Config& winner, const Problem& p, const DeviceInfo& device) {
    std::vector<int> groups;
    for (const AnyConfig& v : refinements(winner, p, device))
        if (const int g = std::get<Config>(v).group; g != winner.group) groups.push_back(g);
    return groups;
}

TEST(SearchSpace, RefinementsSkipGroupSizesThatLeaveTheTileOrderAsItIs) {
    const DeviceInfo device = testing::h200_profile();
    RegBlockConfig regblock;  // 128 x 128 tiles, group 8
    MmaSyncConfig mma;
    mma.bm = mma.bn = 64;
    WgmmaConfig wgmma;
    wgmma.bm = 128;
    wgmma.bn = 128;
    for (const DType t : {DType::F32, DType::BF16}) {
        const auto groups = [&](std::int64_t m, std::int64_t n) {
            Problem p = column_major(m, n, 4096, 16);
            p.a_type = p.b_type = p.c_type = t;
            if (t == DType::F32) return refined_groups(regblock, p, device);
            std::vector<int> all = refined_groups(mma, p, device);
            const std::vector<int> w = refined_groups(wgmma, p, device);
            EXPECT_EQ(all, w) << m << " x " << n << ": mma.sync and wgmma tiles of one size differ";
            return all;
        };
        // Many tile rows and columns: every size orders the blocks differently.
        EXPECT_EQ(groups(4096, 4096), (std::vector<int>{1, 4, 16})) << to_string(t);
        // One tile row (a decode step) or one tile column: every size orders them alike.
        EXPECT_TRUE(groups(16, 4096).empty()) << to_string(t);
        EXPECT_TRUE(groups(4096, 16).empty()) << to_string(t);
        EXPECT_TRUE(groups(7, 7).empty()) << to_string(t);
        // Three tile rows: groups of 4, 8 and 16 all take the three at once; 1 walks n first.
        const std::int64_t three_rows = t == DType::F32 ? 3 * 128 : 3 * 64;
        EXPECT_EQ(groups(three_rows, 4096), (std::vector<int>{1})) << to_string(t);
    }
}

}  // namespace
}  // namespace jitgemm
