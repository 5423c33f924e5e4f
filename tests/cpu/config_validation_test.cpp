// Config::validate against fixed device profiles: each rule removes what it should, with the rule named, and the
// heuristic default is always a configuration the device can run.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench/bench_problem.h"
#include "tuner/families/registry.h"
#include "support/device_profiles.h"
#include "runtime/device/occupancy.h"

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

MmaSyncConfig mma(int bm, int bn, int bk, int wm, int wn, int stages = 3) {
    MmaSyncConfig c;
    c.bm = bm;
    c.bn = bn;
    c.bk = bk;
    c.wm = wm;
    c.wn = wn;
    c.stages = stages;
    return c;
}

// A 1024^3 problem of these types (fp32 by default), 16-byte aligned.
Problem typed(DType ab = DType::F32, DType c = DType::F32, ComputeType compute = ComputeType::F32,
              std::uint8_t align = 16) {
    Problem p;
    p.m = p.n = p.k = p.lda = p.ldb = p.ldc = 1024;
    p.a_type = p.b_type = ab;
    p.c_type = c;
    p.compute = compute;
    p.align_a = p.align_b = p.align_c = align;
    return p;
}

std::optional<PruneRule> rule_of(const AnyConfig& config, const DeviceInfo& device, const Problem& problem = typed()) {
    const auto rejection = validate(config, problem, device);
    if (!rejection) return std::nullopt;
    EXPECT_FALSE(rejection->reason.empty());
    return rejection->rule;
}

TEST(ConfigValidation, DefaultsRunOnEveryProfile) {
    for (const DeviceInfo& d : {h200_profile(), a100_profile(), small_gpu_profile()}) {
        EXPECT_FALSE(rule_of(NaiveConfig{}, d)) << d.name;
        EXPECT_FALSE(rule_of(TiledConfig{}, d)) << d.name;
        EXPECT_FALSE(rule_of(RegBlockConfig{}, d)) << d.name;
        EXPECT_FALSE(rule_of(MmaSyncConfig{}, d, typed(DType::BF16, DType::BF16))) << d.name;
        EXPECT_FALSE(rule_of(MmaSyncConfig{}, d, typed(DType::F32, DType::F32, ComputeType::TF32))) << d.name;
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

TEST(ConfigValidation, EachFamilyTakesOnlyTheTypesItComputes) {
    const DeviceInfo d = h200_profile();
    const Problem bf16 = typed(DType::BF16, DType::BF16), f16_to_f32 = typed(DType::F16, DType::F32);
    const Problem f32 = typed(), tf32 = typed(DType::F32, DType::F32, ComputeType::TF32);
    EXPECT_FALSE(rule_of(MmaSyncConfig{}, d, bf16));
    EXPECT_FALSE(rule_of(MmaSyncConfig{}, d, f16_to_f32));
    EXPECT_FALSE(rule_of(MmaSyncConfig{}, d, tf32));
    EXPECT_EQ(rule_of(MmaSyncConfig{}, d, f32), PruneRule::Dtype);  // exact fp32 never goes to the Tensor Cores
    EXPECT_EQ(rule_of(RegBlockConfig{}, d, bf16), PruneRule::Dtype);
    EXPECT_EQ(rule_of(TiledConfig{}, d, f16_to_f32), PruneRule::Dtype);
    EXPECT_FALSE(rule_of(RegBlockConfig{}, d, tf32));  // TF32 is a permission: exact fp32 still computes it
    EXPECT_FALSE(rule_of(NaiveConfig{}, d, bf16));     // the reference takes every type
    DeviceInfo turing = d;
    turing.cc_major = 7;
    turing.cc_minor = 5;
    EXPECT_EQ(rule_of(MmaSyncConfig{}, turing, bf16), PruneRule::Dtype);
}

TEST(ConfigValidation, TensorCoreKnobsAreRejectedAsKnobs) {
    const DeviceInfo d = h200_profile();
    const Problem bf16 = typed(DType::BF16, DType::BF16), tf32 = typed(DType::F32, DType::F32, ComputeType::TF32);
    EXPECT_EQ(rule_of(mma(96, 128, 32, 2, 4), d, bf16), PruneRule::Knobs);   // 192-byte rows of m-contiguous A
    EXPECT_EQ(rule_of(mma(136, 128, 32, 1, 4), d, bf16), PruneRule::Knobs);  // bm not a multiple of 16
    EXPECT_EQ(rule_of(mma(128, 272, 32, 2, 1), d, bf16), PruneRule::Knobs);  // bn past 256
    EXPECT_EQ(rule_of(mma(128, 128, 8, 2, 4), d, bf16), PruneRule::Knobs);   // bk below one k step of 16
    EXPECT_EQ(rule_of(mma(128, 128, 64, 2, 4), d, tf32), PruneRule::Knobs);  // 256-byte TF32 rows
    EXPECT_EQ(rule_of(mma(32, 128, 32, 4, 2), d, bf16), PruneRule::Knobs);   // warp tile of 8 in m
    EXPECT_EQ(rule_of(mma(128, 128, 32, 3, 4), d, bf16), PruneRule::Knobs);  // 3 warps along m
    EXPECT_EQ(rule_of(mma(128, 128, 32, 2, 4, 1), d, bf16), PruneRule::Knobs);  // one stage: no pipeline
    EXPECT_EQ(rule_of(mma(128, 128, 32, 2, 4, 6), d, bf16), PruneRule::Knobs);
    EXPECT_FALSE(rule_of(mma(32, 32, 16, 1, 1, 2), d, bf16));
    EXPECT_FALSE(rule_of(mma(256, 128, 32, 4, 2, 4), d, bf16));
}

// Tiles that fit the problem rather than a power of two (7 x 112 = 784 covers n = 777 where 13 x 64 = 832 does): any
// multiple of 16 along an operand stored k-contiguous, whose shared-tile rows run along k; along an operand stored m-
// or n-contiguous only rows of 16, 32 or 64 bytes or whole 128-byte lines, which the swizzle lays out.
TEST(ConfigValidation, FittedTilesNeedTheirOperandKContiguousOrWholeLines) {
    const DeviceInfo d = h200_profile();
    Problem bf16 = typed(DType::BF16, DType::BF16);  // A m-contiguous, B k-contiguous
    EXPECT_FALSE(rule_of(mma(64, 112, 64, 4, 1, 4), d, bf16));
    EXPECT_FALSE(rule_of(mma(192, 80, 32, 4, 1), d, bf16));  // 384-byte rows: three whole lines
    const auto rejection = validate(AnyConfig{mma(112, 64, 32, 1, 2)}, bf16, d);
    ASSERT_TRUE(rejection);
    EXPECT_EQ(rejection->rule, PruneRule::Knobs);
    EXPECT_NE(rejection->reason.find("bm = 112"), std::string::npos) << rejection->reason;
    EXPECT_NE(rejection->reason.find("k-contiguous"), std::string::npos) << rejection->reason;

    bf16.trans_a = Transpose::Yes;  // A k-contiguous: bm = 112 lays out
    EXPECT_FALSE(rule_of(mma(112, 64, 32, 1, 2), d, bf16));
    bf16.trans_b = Transpose::Yes;  // B n-contiguous: bn = 112 makes 224-byte rows
    EXPECT_EQ(rule_of(mma(64, 112, 64, 4, 1, 4), d, bf16), PruneRule::Knobs);
    EXPECT_FALSE(rule_of(mma(64, 192, 32, 2, 2), d, bf16));

    // TF32: 4-byte elements, so whole lines are multiples of 32.
    Problem tf32 = typed(DType::F32, DType::F32, ComputeType::TF32);
    tf32.trans_b = Transpose::Yes;
    EXPECT_FALSE(rule_of(mma(64, 96, 32, 2, 2), d, tf32));
    EXPECT_EQ(rule_of(mma(64, 80, 32, 2, 1), d, tf32), PruneRule::Knobs);
}

TEST(ConfigValidation, TensorCoreSharedMemoryCountsTheElementSize) {
    const DeviceInfo d = h200_profile();
    const Problem bf16 = typed(DType::BF16, DType::BF16), tf32 = typed(DType::F32, DType::F32, ComputeType::TF32);
    // 4 stages x (256 + 128) x 32 x 2 B = 98304 B for bf16; twice that, 196608 B, for TF32: both fit the H200.
    const MmaSyncConfig c = mma(256, 128, 32, 4, 2, 4);
    EXPECT_EQ(c.shared_bytes(bf16), 98304);
    EXPECT_EQ(c.shared_bytes(tf32), 196608);
    EXPECT_FALSE(rule_of(c, d, tf32));
    EXPECT_EQ(rule_of(c, small_gpu_profile(), tf32), PruneRule::SharedMemory);  // 101376 B opt-in
    EXPECT_FALSE(rule_of(c, small_gpu_profile(), bf16));
    // 5 stages x 512 x 64 x 2 B = 327680 B: above every profile.
    EXPECT_EQ(rule_of(mma(256, 256, 64, 2, 4, 5), d, bf16), PruneRule::SharedMemory);
}

TEST(ConfigValidation, TensorCoreRegistersGrowWithTheWarpTileAndTheRegisterPath) {
    const DeviceInfo d = h200_profile();
    const Problem aligned = typed(DType::BF16, DType::BF16), odd = typed(DType::BF16, DType::BF16, ComputeType::F32, 2);
    // A 256 x 128 warp tile: 1024 accumulators per thread.
    EXPECT_EQ(rule_of(mma(256, 128, 32, 1, 1), d, aligned), PruneRule::Registers);
    // 128 x 128 with 2 x 4 warps: 64 accumulators, two k steps of fragments; 2-byte aligned operands stage two
    // chunks each per stage.
    EXPECT_EQ(MmaSyncConfig{}.estimated_registers(aligned), 64 + 2 * (8 + 16) + 40);
    EXPECT_EQ(MmaSyncConfig{}.estimated_registers(odd), 64 + 2 * (8 + 16) + 40 + 4 * 2 + 4 * 2);
}

TEST(ConfigValidation, PackedOperandsAreAlignedCopiesForTheKernel) {
    // Row-major 4097^3 bf16 in canonical form: A is m x k with lda 4097 (2-byte aligned), B k x n with ldb 4097.
    Problem p = typed(DType::BF16, DType::BF16, ComputeType::F32, 2);
    p.m = p.n = p.k = p.lda = p.ldb = p.ldc = 4097;
    p.trans_b = Transpose::Yes;  // B stored n x k
    MmaSyncConfig c;
    c.pack = 3;
    const Problem kernel = c.kernel_problem(p);
    EXPECT_EQ(kernel.lda, 4160);  // rows rounded up to 64 elements: each column starts on a 128-byte line
    EXPECT_EQ(kernel.ldb, 4160);
    EXPECT_EQ(kernel.align_a, 16);
    EXPECT_EQ(kernel.align_b, 16);
    EXPECT_EQ(kernel.align_c, 2);  // C is written in place
    const LaunchDescription g = c.launch(p);
    ASSERT_EQ(g.packs.size(), 2u);
    EXPECT_EQ(g.packs[0].rows, 4097);
    EXPECT_EQ(g.packs[0].cols, 4097);
    EXPECT_EQ(g.packs[0].ld_from, 4097);
    EXPECT_EQ(g.packs[0].bytes(), 4097 * 4160 * 2);
    EXPECT_EQ(g.packs[1].operand, 1);
    // Packing removes the register path's staging from the register estimate.
    MmaSyncConfig unpacked;
    EXPECT_LT(c.estimated_registers(p), unpacked.estimated_registers(p));
    c.pack = 4;
    EXPECT_EQ(rule_of(c, h200_profile(), p), PruneRule::Knobs);
    // A TF32 operand packs in 4-byte elements: 128 bytes are 32 of them.
    Problem t = typed(DType::F32, DType::F32, ComputeType::TF32, 4);
    t.m = 1001;
    c.pack = 1;
    EXPECT_EQ(c.kernel_problem(t).lda, 1024);
}

// 777 x 1111 x 3333 bf16, column-major: 7 x 9 tiles of 128 x 128, 105 k tiles of 32 each.
Problem odd_777x1111x3333() {
    Problem p = typed(DType::BF16, DType::BF16);
    p.m = p.lda = p.ldc = 777;
    p.n = 1111;
    p.k = p.ldb = 3333;
    return p;
}

TEST(ConfigValidation, BulkCopiesTakeHopperAndBothOperandsPackedTileByTile) {
    // 777 x 1111 x 3333 bf16 as the bench runs it (row-major): canonical m = 1111, n = 777, A m-contiguous (lda 1111),
    // B k-contiguous (ldb 3333), both 2-byte aligned.
    Problem p = typed(DType::BF16, DType::BF16, ComputeType::F32, 2);
    p.m = p.lda = p.ldc = 1111;
    p.n = 777;
    p.k = p.ldb = 3333;
    const auto c = MmaSyncConfig::parse("mma_sync_128x64x64_w2x2_s4_g8_k2_p3_bulk");
    ASSERT_TRUE(c.has_value());
    EXPECT_FALSE(rule_of(*c, h200_profile(), p));
    EXPECT_EQ(c->shared_bytes(p), 4 * (128 + 64) * 64 * 2 + 4 * 8);  // the stages, then a barrier per stage
    const LaunchDescription g = c->launch(p);
    ASSERT_EQ(g.packs.size(), 2u);
    // A: columns are k (3333, padded to 53 k tiles of 64 = 3392), each 1111 long (padded to 9 tiles of 128 = 1152).
    const OperandPack& a = g.packs[0];
    EXPECT_TRUE(a.tiled);
    EXPECT_EQ(a.ld_to, 1152);
    EXPECT_EQ(a.cols_to, 3392);
    EXPECT_EQ(a.bytes(), 3392 * 1152 * 2);
    // B: columns are n (777, padded to 13 tiles of 64 = 832), each 3333 long (padded to 3392).
    const OperandPack& b = g.packs[1];
    EXPECT_TRUE(b.tiled);
    EXPECT_EQ(b.ld_to, 3392);
    EXPECT_EQ(b.cols_to, 832);
    // The column layout of the same configuration without bulk copies is not tiled.
    MmaSyncConfig plain = *c;
    plain.bulk = false;
    EXPECT_FALSE(plain.launch(p).packs[0].tiled);
    EXPECT_EQ(plain.launch(p).packs[0].cols_to, 3333);

    // Hopper only, 16-bit inputs only, both operands packed, no stream-K.
    EXPECT_EQ(rule_of(*c, a100_profile(), p), PruneRule::Knobs);
    MmaSyncConfig one = *c;
    one.pack = 1;
    EXPECT_EQ(rule_of(one, h200_profile(), p), PruneRule::Knobs);
    MmaSyncConfig stream = *c;
    stream.splits = 1;
    stream.stream_blocks = 132;
    EXPECT_EQ(rule_of(stream, h200_profile(), p), PruneRule::Knobs);
    Problem t = typed(DType::F32, DType::F32, ComputeType::TF32, 4);
    MmaSyncConfig tf32 = *c;
    tf32.bk = 32;
    EXPECT_EQ(rule_of(tf32, h200_profile(), t), PruneRule::Knobs);
}

TEST(ConfigValidation, SplitKNeedsAKTileForEverySplitAndSizesItsScratch) {
    Problem p = odd_777x1111x3333();
    MmaSyncConfig c;
    c.splits = 2;
    EXPECT_FALSE(rule_of(c, h200_profile(), p));
    const LaunchDescription g = c.launch(p);
    EXPECT_EQ(g.grid.x, 63u * 2u);                   // the splits of a tile are blocks of their own
    EXPECT_EQ(g.partial_sums_zeroed_bytes, 256);        // 63 counters, padded to 256 bytes
    EXPECT_EQ(g.partial_sums_bytes, 256 + 63 * 2 * 128 * 128 * 4);  // then every split's fp32 tile
    EXPECT_EQ(c.k_tiles_per_split(p), 53);         // 105 k tiles dealt as 53 + 52
    EXPECT_EQ(MmaSyncConfig{}.launch(p).partial_sums_bytes, 0);  // no split, no scratch

    c.splits = 16;
    p.k = 15 * 32;  // 15 k tiles for 16 splits: one would have none
    EXPECT_EQ(rule_of(c, h200_profile(), p), PruneRule::Knobs);
    p.k = 15 * 32 + 1;  // 16 k tiles, the last of one element
    EXPECT_FALSE(rule_of(c, h200_profile(), p));
    for (const int bad : {0, 17}) {
        c.splits = bad;
        EXPECT_EQ(rule_of(c, h200_profile(), p), PruneRule::Knobs);
    }
}

// regblock's split-K: runs of four rows (tm a multiple of 4), a k tile per split, no batches, and the workspace laid
// out as the kernel reads it (common/jg_split_k.cuh: counters per tile, then a bm x bn slot per split).
TEST(ConfigValidation, RegBlockSplitKSizesItsScratchAsTheKernelLaysItOut) {
    Problem p = typed(DType::F32, DType::F32);
    p.m = p.lda = p.ldc = 300;
    p.n = 200;
    p.k = p.ldb = 4000;
    RegBlockConfig c;  // 128 x 128 x 8: 3 x 2 tiles, 500 k tiles
    c.splits = 8;
    EXPECT_FALSE(rule_of(c, h200_profile(), p));
    const LaunchDescription g = c.launch(p);
    EXPECT_EQ(g.grid.x, 6u * 8u);
    EXPECT_EQ(g.partial_sums_zeroed_bytes, 256);
    EXPECT_EQ(g.partial_sums_bytes, 256 + 6 * 8 * 128 * 128 * 4);
    EXPECT_EQ(RegBlockConfig{}.launch(p).partial_sums_bytes, 0);
    RegBlockConfig narrow = c;
    narrow.tm = 2;
    narrow.bm = 32;
    EXPECT_EQ(rule_of(narrow, h200_profile(), p), PruneRule::Knobs);
    p.k = 7 * 8;  // 7 k tiles for 8 splits
    EXPECT_EQ(rule_of(c, h200_profile(), p), PruneRule::Knobs);
    p.k = 4000;
    p.batch = 3;
    EXPECT_EQ(rule_of(c, h200_profile(), p), PruneRule::Batch);
    p.batch = 1;
    for (const int bad : {0, 17}) {
        c.splits = bad;
        EXPECT_EQ(rule_of(c, h200_profile(), p), PruneRule::Knobs);
    }
}

TEST(ConfigValidation, StreamKExcludesSplitKAndSizesItsScratchByTheTilesABlockReaches) {
    const Problem p = odd_777x1111x3333();  // 63 tiles x 105 k tiles: 6615 in all
    MmaSyncConfig c;
    c.stream_blocks = 264;
    EXPECT_FALSE(rule_of(c, h200_profile(), p));
    const LaunchDescription g = c.launch(p);
    EXPECT_EQ(g.grid.x, 264u);                  // the blocks, not the tiles
    EXPECT_EQ(c.k_tiles_per_block(p), 26);    // 6615 k tiles dealt out as runs of 25 or 26
    EXPECT_EQ(c.stream_segments(p), 2);       // a run shorter than a tile's 105 reaches into two tiles at most
    EXPECT_EQ(g.partial_sums_zeroed_bytes, 256);   // 63 counters, padded to 256 bytes
    EXPECT_EQ(g.partial_sums_bytes, 256 + 264 * 2 * 128 * 128 * 4);
    c.stream_blocks = 6615;  // one k tile each
    EXPECT_FALSE(rule_of(c, h200_profile(), p));
    EXPECT_EQ(c.stream_segments(p), 2);
    for (const int bad : {-1, 6616}) {  // a block with no k tile, and a negative count, are refused
        c.stream_blocks = bad;
        EXPECT_EQ(rule_of(c, h200_profile(), p), PruneRule::Knobs) << bad;
    }
    c.stream_blocks = 132;
    c.splits = 2;  // one or the other
    EXPECT_EQ(rule_of(c, h200_profile(), p), PruneRule::Knobs);
}

TEST(ConfigValidation, HeuristicSplitsKOnlyWhereTilesLeaveSmsIdle) {
    const DeviceInfo d = h200_profile();
    Problem few_tiles = typed(DType::BF16, DType::BF16);  // 128 x 128 x 8192: 16 tiles even of 32 x 32
    few_tiles.m = few_tiles.lda = few_tiles.ldc = 128;
    few_tiles.n = 128;
    few_tiles.k = few_tiles.ldb = 8192;
    const AnyConfig for_few = heuristic_config(few_tiles, d);
    const auto* split = std::get_if<MmaSyncConfig>(&for_few);
    ASSERT_NE(split, nullptr);
    EXPECT_GT(split->splits, 1);
    const std::int64_t tiles = (128 / split->bm) * (128 / split->bn);
    EXPECT_LE(tiles * split->splits, d.sm_count);
    EXPECT_FALSE(split->validate(few_tiles, d));

    // 1024^3: 64 tiles of 128 x 128; on Hopper 128 of the wgmma family's one-consumer 128 x 64 tiles, whole (session
    // 34: 0.94-0.98x cuBLAS where the mma.sync default's 64 x 64 tiles ran 0.51x).
    Problem many_tiles = typed(DType::BF16, DType::BF16);
    EXPECT_EQ(to_string(heuristic_config(many_tiles, d)), "wgmma_128x64x64_c1_s8_g8");
}

// 128 tokens through a 4096-wide layer: the mma.sync ladder would shrink to 32 x 32 tiles (46.9 and 150.6 us on the
// H100 for K 4096 and 14336) and its 128 x 64 tiles with K in four ran 25.4 and 60.5 (session 30); on Hopper the wgmma
// family's one-consumer 64 x 64 tiles fill the SMs unsplit: 16.6-17.3 and 46.4 us (session 34). 130 tokens (192
// such tiles, more than a wave): one instruction 144 wide across the tokens, turned (_m), K split across a cluster of
// two, 18.4-18.7 us (session 36) where 64 x 192 tiles so split ran 24.7-25.4 and the mma.sync pick 45.8. A
// 14336-wide layer nearly fills the SMs with 128 x 128 tiles (112), whose k blocks stream-K dealt out: 53.3-53.5 us
// (session 32); one-consumer tiles 112 wide (128 of them) run it whole in 45.6-46.1 (sessions 38, 39: 1.00x cuBLAS).
// 16384 features give 128 tiles either way: stream-K stays.
TEST(ConfigValidation, HeuristicSplitsWideTilesWhereEvenSmallOnesLeaveSmsIdle) {
    const DeviceInfo d = h200_profile();
    const auto layer = [](std::int64_t features, std::int64_t tokens, std::int64_t k) {
        Problem p = typed(DType::BF16, DType::BF16);  // column-major y^T = W^T x^T: W's features are m
        p.m = p.lda = p.ldc = features;
        p.n = tokens;
        p.k = p.ldb = k;
        return p;
    };
    for (const std::int64_t k : {4096, 14336})
        EXPECT_EQ(to_string(heuristic_config(layer(4096, 128, k), d)), "wgmma_64x64x64_c1_s8_g8") << k;
    EXPECT_EQ(to_string(heuristic_config(layer(14336, 128, 4096), d)),
              WgmmaConfig::kDefaultsToWaveFittedWidths ? "wgmma_112x128x64_c1_s6_g8"
                                                       : "wgmma_128x128x64_c2_s6_g8_q132_sk_ts");
    EXPECT_EQ(to_string(heuristic_config(layer(16384, 128, 16384), d)), "wgmma_128x128x64_c2_s6_g8_q132_sk_ts");
    EXPECT_EQ(to_string(heuristic_config(layer(4096, 130, 4096), d)), "wgmma_64x144x64_c1_s8_g8_m_k2");
    // A run-time-shape variant keeps the mma.sync default: these tiles' variants have not run on a GPU.
    EXPECT_EQ(family_name(heuristic_config(layer(4096, 128, 4096).with_runtime_dim(2), d)), "mma_sync");
}

// Large shapes whose whole 256 x 128 tiles leave a last turn at most a quarter full deal that turn's k blocks out among
// the persistent grid's clusters (stream-K, in pairs where the tiles pair); a last turn fuller than that, too few k
// blocks per cluster, or too little idle time in the turn (sparse_last_turn in wgmma_search.cpp), keeps whole tiles.
TEST(ConfigValidation, HeuristicDealsOutASparseLastTurn) {
    const DeviceInfo d = h200_profile();
    const auto large = [](std::int64_t m, std::int64_t n, std::int64_t k, Transpose ta, Transpose tb) {
        return bench_problem(m, n, k, ta, tb, DType::BF16, ComputeType::F32);
    };
    constexpr Transpose N = Transpose::No, T = Transpose::Yes;
    const bool on = WgmmaConfig::kDealsOutASparseLastTurn;
    // Where three consumers' 192 x 192 tiles take fewer turns of work, they come first (the test below).
    const bool three = WgmmaConfig::kDefaultsToThreeConsumers;
    // 6144 x 1528: 144 units of two tiles (op(B) off 128-byte lines) on 66 pairs, 12 left, 96 k blocks each.
    EXPECT_EQ(to_string(heuristic_config(large(6144, 1528, 6144, T, T), d)),
              three ? (WgmmaConfig::kPairsAlongMOverOffLinesB ? "wgmma_192x192x64_c3_s3_g8_y2_q132_tb"
                                                              : "wgmma_192x192x64_c3_s3_g8_x2_q132_tb")
              : on  ? "wgmma_256x128x64_c2_s4_g8_x2_q132_sk_tb"
                    : "wgmma_256x128x64_c2_s4_g8_x2_q132_tb");
    // 7168 x 3072: 672 tiles on 132 blocks, 12 left, 80 k blocks each (ahead of 5 turns of 192 x 192: 11 parts a
    // dealt unit, each worth ~221 k of its instructions, come to half a turn: 5.57 turns of work against 5.63).
    EXPECT_EQ(to_string(heuristic_config(large(7168, 3072, 5120, T, N), d)),
              on ? "wgmma_256x128x64_c2_s4_g8_q132_sk_tb" : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    // 3584 x 1280 x 4416 (K 4352 below): 133 tiles of 192 x 192, two turns as 256 x 128's 140.
    // UntunedDefault.HopperPicksMatchTheReference's cases: 140 tiles (8 left, 69 k blocks), and 70 pairs (4 left).
    // Where turned tiles pay, 126 of 256 x 144 take one turn (the test below).
    const bool turned = WgmmaConfig::kDefaultsToTurnedTiles;
    EXPECT_EQ(to_string(heuristic_config(large(3584, 1280, 4416, N, N), d)),
              turned ? "wgmma_256x144x64_c2_s4_g8_m_q132_tb"
              : on   ? "wgmma_256x128x64_c2_s4_g8_q132_sk_tb"
                     : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    // 1792 x 2552: 100 tiles of 192 x 256 (one turn, three quarters of the SMs and more) against two of 256 x 128; its
    // pairs along m, sharing op(B), which alone is off 128-byte lines (ldb 2552). With the narrower deep tiles, 120 of
    // 160 x 256 (60 pairs, one turn), where 144 x 256's 13 tiles along m would pair into two turns.
    const std::string deep = std::string("wgmma_") + (WgmmaConfig::kDefaultsToNarrowDeepTiles ? "160" : "192") +
                             "x256x64_c2_s4_g8_" + (WgmmaConfig::kPairsAlongMOverOffLinesB ? "y2" : "x2") + "_q132";
    EXPECT_EQ(to_string(heuristic_config(large(1792, 2552, 4416, T, T), d)),
              WgmmaConfig::kDefaultsToDeepTiles ? deep
              : on                              ? "wgmma_256x128x64_c2_s4_g8_x2_q132_sk_tb"
                                                : "wgmma_256x128x64_c2_s4_g8_x2_q132_tb");
    // One k block fewer: the idle part of the last turn (124 of 132 blocks) then holds under 64 k blocks' time.
    EXPECT_EQ(to_string(heuristic_config(large(3584, 1280, 4352, N, N), d)),
              turned ? "wgmma_256x144x64_c2_s4_g8_m_q132_tb" : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    // 4200 x 6000 x 3504 in pairs (12 of 66 left, 55 k blocks): measured slower dealt out (0.287 ms against 0.280),
    // and faster still in 192 x 256 tiles (4 turns against 7; below).
    EXPECT_EQ(to_string(heuristic_config(large(4200, 6000, 3504, N, N), d)),
              WgmmaConfig::kDefaultsToDeepTiles ? "wgmma_192x256x64_c2_s4_g8_x2_q132"
                                                : "wgmma_256x128x64_c2_s4_g8_x2_q132_tb");
    // The same with K 2048: 12 x 32 k blocks are under four a block.
    EXPECT_EQ(to_string(heuristic_config(large(7168, 3072, 2048, T, N), d)),
              three ? "wgmma_192x192x64_c3_s3_g8_q132_tb" : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    // 4096^3: 512 tiles, 116 left (a last turn 88% full); 3000 x 5000 (pairs): 240 units, 42 left on 66.
    EXPECT_EQ(to_string(heuristic_config(large(4096, 4096, 4096, N, N), d)), "wgmma_256x128x64_c2_s4_g8_q132_tb");
    EXPECT_EQ(to_string(heuristic_config(large(3000, 5000, 2000, T, N), d)),
              turned ? "wgmma_256x160x64_c2_s4_g8_m_x2_q132_tb" : "wgmma_256x128x64_c2_s4_g8_x2_q132_tb");
}

// 192 x 256 tiles (192 accumulators a consumer thread, C from the registers) where they take the persistent grid fewer
// turns of work than 256 x 128 by more than 5%: 2048 x 3072 in one turn of 132 tiles against two of 192; not where
// the turns' work is equal (6144^3: 6 of 768 tiles against 9 of 1152) or larger (4096^3), nor over packed operands
// or a C the TMA cannot write, nor with K under 2048, nor for TF32.
TEST(ConfigValidation, HeuristicTakesDeepTilesWhereTheyTakeFewerTurnsOfWork) {
    const DeviceInfo d = h200_profile();
    const auto large = [](std::int64_t m, std::int64_t n, std::int64_t k, DType type) {
        return bench_problem(m, n, k, Transpose::No, Transpose::No, type, ComputeType::F32);
    };
    const bool on = WgmmaConfig::kDefaultsToDeepTiles;
    EXPECT_EQ(to_string(heuristic_config(large(2048, 3072, 4096, DType::BF16), d)),
              on ? "wgmma_192x256x64_c2_s4_g8_q132" : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    EXPECT_EQ(to_string(heuristic_config(large(6144, 6144, 6144, DType::F16), d)), "wgmma_256x128x64_c2_s4_g8_q132_tb");
    EXPECT_EQ(to_string(heuristic_config(large(4096, 4096, 4096, DType::BF16), d)),
              "wgmma_256x128x64_c2_s4_g8_q132_tb");
    Problem fp32_c = large(2048, 3072, 4096, DType::BF16);
    fp32_c.c_type = DType::F32;
    EXPECT_EQ(to_string(heuristic_config(fp32_c, d)),
              on ? "wgmma_192x256x64_c2_s4_g8_q132" : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    // 2047 rows of bf16: C off 16 bytes, op(A) packed first.
    EXPECT_EQ(to_string(heuristic_config(large(2047, 3072, 4096, DType::BF16), d)).find("192x256"), std::string::npos);
    // Nor with K under 2048 (as measured), nor for TF32. (With K 1024, 2048 x 3072 takes one turn of 256 x 192 turned
    // tiles, C through the TMA round by round, where 256 x 128 takes two.)
    EXPECT_EQ(to_string(heuristic_config(large(2048, 3072, 1024, DType::BF16), d)),
              WgmmaConfig::kDefaultsToTurnedTiles ? "wgmma_256x192x64_c2_s3_g8_m_q132_tb"
                                                  : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    const Problem tf32 = bench_problem(2048, 3072, 4096, Transpose::No, Transpose::No, DType::F32, ComputeType::TF32);
    EXPECT_EQ(to_string(heuristic_config(tf32, d)).find("192x256"), std::string::npos);
}

// 192 x 192 tiles of three consumers (one instruction row each) where they take the persistent grid fewer turns of
// work than 256 x 128, by more than they lose a turn, and than 192 x 256: 6144 x 1528 (2 turns against 3), 3072^2
// (2 against 3), 3072 x 1536 (128 tiles: one turn against two; 192 x 256's 96 tiles are under three quarters of the
// SMs), and 96 x 192 for 1536^2; not 4096^3 (4 turns of each), nor 2048 x 3072 (192 x 256: one turn of 132 tiles), nor
// with K under 1024, nor for TF32 or a batch. A 16-bit C goes box by box (_tb: three boxes a consumer), as 256 x
// 128's; an fp32 C too.
TEST(ConfigValidation, HeuristicTakesThreeConsumersWhereTheirTilesTakeFewerTurnsOfWork) {
    const DeviceInfo d = h200_profile();
    const auto large = [](std::int64_t m, std::int64_t n, std::int64_t k, DType type) {
        return bench_problem(m, n, k, Transpose::No, Transpose::No, type, ComputeType::F32);
    };
    const bool on = WgmmaConfig::kDefaultsToThreeConsumers;
    const std::string three = "wgmma_192x192x64_c3_s3_g8_q132_tb";
    EXPECT_EQ(to_string(heuristic_config(large(3072, 3072, 4096, DType::BF16), d)),
              on ? three : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    EXPECT_EQ(to_string(heuristic_config(large(3072, 1536, 4096, DType::F16), d)),
              on ? three : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    Problem fp32_c = large(3072, 3072, 4096, DType::BF16);
    fp32_c.c_type = DType::F32;
    EXPECT_EQ(to_string(heuristic_config(fp32_c, d)), on ? three : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    EXPECT_EQ(to_string(heuristic_config(large(4096, 4096, 4096, DType::BF16), d)),
              "wgmma_256x128x64_c2_s4_g8_q132_tb");
    EXPECT_EQ(to_string(heuristic_config(large(2048, 3072, 4096, DType::BF16), d)),
              WgmmaConfig::kDefaultsToDeepTiles ? "wgmma_192x256x64_c2_s4_g8_q132"
                                                : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    // 1536^2 x 1024: one turn of 128 tiles of 96 x 192 (at 1.2 times the rate a unit of area) against two of 128 x 128.
    EXPECT_EQ(to_string(heuristic_config(large(1536, 1536, 1024, DType::BF16), d)),
              on ? "wgmma_96x192x64_c3_s5_g8_q132" : "wgmma_128x128x64_c2_s6_g8_q132_ts");
    EXPECT_EQ(to_string(heuristic_config(large(3072, 3072, 512, DType::BF16), d)).find("_c3_"), std::string::npos);
    const Problem tf32 = bench_problem(3072, 3072, 4096, Transpose::No, Transpose::No, DType::F32, ComputeType::TF32);
    EXPECT_EQ(to_string(heuristic_config(tf32, d)).find("_c3_"), std::string::npos);
    Problem batch = large(3072, 3072, 4096, DType::BF16);
    batch.batch = 2;
    EXPECT_EQ(to_string(heuristic_config(batch, d)).find("_c3_"), std::string::npos);
}

// The turns of work the default weighs are its persistent grid's as the tiles pair: where an operand off 128-byte
// lines pairs them, an odd count of tiles along the pair's side leaves each row's last pair half empty. 2552 x 1792 x
// 4416 nn (lda 2552): 130 turned 256 x 144 tiles take one turn alone but two in 70 pairs along n; 120 of 256 x 160 make
// 60 pairs, one turn. Over a sweep of such shapes the default's pairs never take more turns than its tiles alone.
TEST(ConfigValidation, HeuristicWeighsTheTurnsItsPairsTake) {
    const DeviceInfo d = h200_profile();
    constexpr Transpose N = Transpose::No, T = Transpose::Yes;
    const Problem off_a = bench_problem(2552, 1792, 4416, N, N, DType::BF16, ComputeType::F32);
    EXPECT_EQ(to_string(heuristic_config(off_a, d)),
              WgmmaConfig::kDefaultsToTurnedTiles ? "wgmma_256x160x64_c2_s4_g8_m_x2_q132_tb"
                                                  : "wgmma_192x256x64_c2_s4_g8_x2_q132");
    const auto turns = [&](const WgmmaConfig& c, const Problem& p) {
        const std::int64_t clusters = d.sm_count / c.cluster;
        return (c.units(c.kernel_problem(p)) + clusters - 1) / clusters;
    };
    for (const std::int64_t m : {1784, 1800, 2552, 3000, 4200})
        for (const std::int64_t n : {1528, 1792, 2552})
            for (const Transpose ta : {N, T})
                for (const Transpose tb : {N, T}) {
                    const Problem p = bench_problem(m, n, 4416, ta, tb, DType::BF16, ComputeType::F32);
                    const std::optional<WgmmaConfig> c = WgmmaConfig::parse(to_string(heuristic_config(p, d)));
                    if (!c || c->cluster == 1 || c->grid == 0 || c->stream_k) continue;
                    WgmmaConfig alone = *c;
                    alone.cluster = 1;
                    alone.pairs_m = false;
                    EXPECT_LE(turns(*c, p), turns(alone, p)) << to_string(*c) << " on " << m << " x " << n;
                }
}

// 256 x W turned tiles (_m, W 144-192 along n, C through the TMA round by round) where their turns of work, at 1.05 the
// cost a unit of area, fall under the ladder's: a 4096-wide layer of 2330 tokens in 2 turns of 256 x 160 against 3 of
// 256 x 128 (the M sweep's layer, column-major 4096 x M, op(B) k-major); not 8192^3 (256 x 144 would save 1.6%), not
// where op(B) is stored n-contiguous (its boxes of 64 n would load 160 as 192), not with K under 1024, nor for TF32,
// batches or a C the TMA cannot write.
TEST(ConfigValidation, HeuristicTakesTurnedTilesWhereTheySaveTurnsOfWork) {
    const DeviceInfo d = h200_profile();
    const auto layer = [](std::int64_t tokens, std::int64_t k, Transpose tb) {
        return bench_problem(4096, tokens, k, Transpose::Yes, tb, DType::BF16, ComputeType::F32);
    };
    const bool on = WgmmaConfig::kDefaultsToTurnedTiles;
    const auto turned = [](const Problem& p, const DeviceInfo& device) {
        return to_string(heuristic_config(p, device)).find("_m_") != std::string::npos;
    };
    EXPECT_EQ(to_string(heuristic_config(layer(2330, 4096, Transpose::No), d)),
              on ? "wgmma_256x160x64_c2_s4_g8_m_q132_tb" : "wgmma_256x128x64_c2_s4_g8_q132_tb");
    Problem fp32_c = layer(2330, 4096, Transpose::No);
    fp32_c.c_type = DType::F32;
    fp32_c.align_c = alignment_class(nullptr, fp32_c.ldc, 4);
    EXPECT_EQ(turned(fp32_c, d), on);
    EXPECT_FALSE(turned(layer(2330, 4096, Transpose::Yes), d));  // op(B) n-contiguous
    EXPECT_FALSE(turned(layer(2330, 512, Transpose::No), d));    // K under 1024
    EXPECT_FALSE(turned(bench_problem(8192, 8192, 8192, Transpose::No, Transpose::No, DType::BF16, ComputeType::F32),
                        d));
    Problem batch = layer(2330, 4096, Transpose::No);
    batch.batch = 2;
    EXPECT_FALSE(turned(batch, d));
    EXPECT_FALSE(turned(bench_problem(4096, 2330, 4096, Transpose::Yes, Transpose::No, DType::F32, ComputeType::TF32),
                        d));
    Problem odd_c = layer(2330, 4096, Transpose::No);
    odd_c.m = 4095;  // C's columns end inside 16-byte chunks
    odd_c.lda = odd_c.k;
    odd_c.ldc = 4095;
    odd_c.align_c = alignment_class(nullptr, odd_c.ldc, 2);
    EXPECT_FALSE(turned(odd_c, d));
}

// The fp32 counterpart: 64 tokens through a 4096-wide layer (64 tiles of 64 x 64) split K in four rather than take
// 32 x 32 tiles (session 29 on the H100: 73.5 us; 32 x 32 tiles, tuned, 178 on the H200 before regblock split K).
TEST(ConfigValidation, RegBlockHeuristicSplitsWhereEvenSmallTilesLeaveSmsIdle) {
    const DeviceInfo d = h200_profile();
    const auto layer = [](std::int64_t features, std::int64_t tokens, std::int64_t k) {
        Problem p;  // fp32, column-major y^T = W^T x^T
        p.m = p.lda = p.ldc = features;
        p.n = tokens;
        p.k = p.ldb = k;
        return p;
    };
    EXPECT_EQ(to_string(heuristic_config(layer(4096, 64, 4096), d)), "regblock_64x64x16_t4x4_v4_s2_g8_k4");
    EXPECT_EQ(to_string(heuristic_config(layer(4096, 128, 4096), d)), "regblock_64x64x16_t4x4_v4_s2_g8_k2");
    // 64 x 64 tiles that fill the SMs, and a K too short for splits of 32 k tiles, keep the ladder's pick.
    EXPECT_EQ(to_string(heuristic_config(layer(4096, 256, 4096), d)), "regblock_64x64x16_t4x4_v4_s2_g8");
    EXPECT_EQ(to_string(heuristic_config(layer(512, 512, 512), d)), "regblock_32x32x16_t4x4_v4_s2_g8");
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
            EXPECT_FALSE(validate(c, p, d)) << to_string(c) << " on " << d.name;
            // A small side of at most 16 is a decode step: one pass over the large operand, by the decode family in
            // fp32 (16-bit steps go to a Tensor Core family, their weights being 16-byte aligned here).
            const bool decode_step = std::min(p.m, p.n) <= 16;
            EXPECT_EQ(family_name(c), decode_step ? DecodeConfig::kName : RegBlockConfig::kName);
            for (const DType ab : {DType::F16, DType::BF16}) {
                Problem half = p;
                half.a_type = half.b_type = half.c_type = ab;
                half.align_a = 2;  // the register path
                const AnyConfig h = heuristic_config(half, d);
                EXPECT_FALSE(validate(h, half, d)) << to_string(h) << " on " << d.name;
                // A Tensor Core family: mma.sync, or on Hopper the wgmma family (which packs the operands first).
                EXPECT_TRUE(family_name(h) == MmaSyncConfig::kName ||
                            (family_name(h) == WgmmaConfig::kName && d.cc_major == 9))
                    << to_string(h) << " on " << d.name;
            }
            for (const Transpose trans_a : {Transpose::No, Transpose::Yes}) {
                Problem tf32 = p;  // k-contiguous A or not: the wgmma family copies it transposed first
                tf32.compute = ComputeType::TF32;
                tf32.k = 512;  // deep enough for the wgmma family's default on the large sizes
                tf32.ldb = tf32.k;
                tf32.trans_a = trans_a;
                tf32.lda = trans_a == Transpose::Yes ? tf32.k : tf32.m;
                const AnyConfig t = heuristic_config(tf32, d);
                EXPECT_FALSE(validate(t, tf32, d)) << to_string(t) << " on " << d.name;
                EXPECT_TRUE(family_name(t) == MmaSyncConfig::kName ||
                            (family_name(t) == WgmmaConfig::kName && d.cc_major == 9) ||
                            (family_name(t) == DecodeConfig::kName && decode_step))
                    << to_string(t) << " on " << d.name;
            }
        }
        Problem scale;
        scale.m = scale.n = 100;
        scale.k = 0;
        EXPECT_EQ(family_name(heuristic_config(scale, d)), NaiveConfig::kName);
    }
}

TEST(HeuristicConfig, LargeProblemsGetTheLargestTile) {
    Problem p;
    p.m = p.n = p.k = 4096;
    p.lda = p.ldb = p.ldc = 4096;
    EXPECT_TRUE(heuristic_config(p, h200_profile()) == AnyConfig{RegBlockConfig{}});
    p.a_type = p.b_type = p.c_type = DType::BF16;
    EXPECT_TRUE(heuristic_config(p, a100_profile()) == AnyConfig{mma(128, 128, 32, 2, 4)});
    // On Hopper the wgmma family: its widest tile, persistent, C through the TMA box by box (four boxes) and the
    // deepest ring that fits beside the two box buffers: four stages, where the whole tile staged leaves three.
    const auto hopper = WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_q132_tb");
    ASSERT_TRUE(hopper.has_value());
    EXPECT_EQ(to_string(heuristic_config(p, h200_profile())), hopper->to_string());
    // A batch stages C whole (box by box it has not yet run batched on a GPU).
    Problem batch = p;
    batch.batch = 4;
    const AnyConfig batched = heuristic_config(batch, h200_profile());
    ASSERT_TRUE(std::holds_alternative<WgmmaConfig>(batched)) << to_string(batched);
    EXPECT_FALSE(std::get<WgmmaConfig>(batched).store_by_box) << to_string(batched);
    // A tile of two boxes (128 rows) stages C whole: box by box would free nothing.
    p.m = 2048;  // 72 tiles of 256 x 128, 144 of 128 x 128
    p.n = 1152;
    p.k = 512;  // (from K 1024 one turn of 96 x 192 of three consumers takes over: the test above)
    const AnyConfig narrow = heuristic_config(p, h200_profile());
    ASSERT_TRUE(std::holds_alternative<WgmmaConfig>(narrow)) << to_string(narrow);
    EXPECT_EQ(std::get<WgmmaConfig>(narrow).bm, 128) << to_string(narrow);
    EXPECT_TRUE(std::get<WgmmaConfig>(narrow).tma_store) << to_string(narrow);
    EXPECT_FALSE(std::get<WgmmaConfig>(narrow).store_by_box) << to_string(narrow);
}

}  // namespace
}  // namespace jitgemm
