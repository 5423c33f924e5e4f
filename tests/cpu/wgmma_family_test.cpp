// The wgmma family's host side without a GPU: what it computes (types, device, alignment, TF32's k-contiguous
// operands), its knob rules, its launch (grid, block, shared memory, packs, the tensor-map preparation), the search
// space, the cost of packing and the untuned default.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "support/device_profiles.h"
#include "tuner/families/registry.h"
#include "tuner/families/wgmma/wgmma_tensor_maps.h"

namespace jitgemm {
namespace {

using testing::a100_profile;
using testing::h200_profile;

Problem half(std::int64_t m, std::int64_t n, std::int64_t k, DType type = DType::BF16) {
    Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.lda = m;
    p.ldb = k;
    p.ldc = m;
    p.a_type = p.b_type = type;
    p.c_type = type;
    p.alpha_one = true;
    return p;
}

// fp32 inputs and output multiplied in TF32, column-major; trans_a / trans_b as given (the canonical problem's).
Problem tf32(std::int64_t m, std::int64_t n, std::int64_t k, Transpose trans_a, Transpose trans_b) {
    Problem p = half(m, n, k, DType::F32);
    p.compute = ComputeType::TF32;
    p.trans_a = trans_a;
    p.trans_b = trans_b;
    p.lda = trans_a == Transpose::Yes ? k : m;
    p.ldb = trans_b == Transpose::Yes ? n : k;
    return p;
}

// The default tile at TF32's depth: 32 fp32 are one 128-byte row, as 64 16-bit elements are.
WgmmaConfig tf32_config(int pack = 0) {
    WgmmaConfig c;
    c.bk = 32;
    c.pack = pack;
    return c;
}

// Whether the configuration's -D defines set `knob` to `value`.
bool defines_knob(const WgmmaConfig& c, const std::string& knob, long long value) {
    const KnobDefines defines = c.defines();
    return std::find(defines.begin(), defines.end(), std::pair<std::string, long long>{knob, value}) != defines.end();
}

std::optional<PruneRule> rule_of(const WgmmaConfig& c, const Problem& p, const DeviceInfo& d = h200_profile()) {
    const auto r = c.validate(p, d);
    return r ? std::optional<PruneRule>(r->rule) : std::nullopt;
}

// The wave-fitted tile (the untuned default's widest tile where kDefaultsToWaveFittedTiles): the fewest turns of
// work for 132 persistent blocks, the narrower tiles 5% dearer a unit of area.
TEST(WgmmaFamily, WaveFittedTileTakesTheFewestTurnsOfWork) {
    using Tile = std::pair<int, int>;
    const DeviceInfo& h200 = h200_profile();  // 132 SMs, as the H100
    EXPECT_EQ(WgmmaConfig::wave_fitted_tile(half(4096, 4096, 4096), h200), Tile(256, 128));  // 4 turns, 6 of 192
    EXPECT_EQ(WgmmaConfig::wave_fitted_tile(half(8192, 8192, 8192), h200), Tile(256, 128));
    EXPECT_EQ(WgmmaConfig::wave_fitted_tile(half(4000, 4000, 4000), h200), Tile(256, 128));
    // 288 tiles of 256 x 128 take 3 turns, the last 18% full; 384 of 192 x 128 take 3 of three quarters the work.
    EXPECT_EQ(WgmmaConfig::wave_fitted_tile(half(6144, 1528, 6144), h200), Tile(192, 128));
    // 4097^3: 561 tiles (5 turns) against 726 of 192 x 128 (6 turns of 3/4: 4.5).
    EXPECT_EQ(WgmmaConfig::wave_fitted_tile(half(4097, 4097, 4097), h200), Tile(192, 128));
    // 4200 x 6000: 17 x 47 = 799 tiles of 256 x 128 (7 turns) against 33 x 24 = 792 of 128 x 256 (6).
    EXPECT_EQ(WgmmaConfig::wave_fitted_tile(half(4200, 6000, 3504), h200), Tile(128, 256));
    // 5120^3: 800 tiles (7 turns) against 1080 of 192 x 128 (9 of 3/4: 6.75, and 5% dearer: 7.09): 256 x 128 stays.
    EXPECT_EQ(WgmmaConfig::wave_fitted_tile(half(5120, 5120, 5120), h200), Tile(256, 128));
}

TEST(WgmmaFamily, TakesHalfPrecisionAndTf32OnSm90Only) {
    const Problem bf16 = half(4096, 4096, 4096), f16 = half(4096, 4096, 4096, DType::F16);
    EXPECT_FALSE(rule_of(WgmmaConfig{}, bf16));
    EXPECT_FALSE(rule_of(WgmmaConfig{}, f16));
    Problem f32 = half(4096, 4096, 4096, DType::F32);  // exact fp32: not for Tensor Cores
    EXPECT_EQ(rule_of(tf32_config(1), f32), PruneRule::Dtype);
    const Problem tn = tf32(4096, 4096, 4096, Transpose::Yes, Transpose::No);  // both operands k-contiguous
    EXPECT_FALSE(rule_of(tf32_config(), tn));
    const auto on_a100 = tf32_config().validate(tn, a100_profile());
    ASSERT_TRUE(on_a100.has_value());
    EXPECT_EQ(on_a100->rule, PruneRule::Dtype);
    EXPECT_NE(on_a100->reason.find("TF32"), std::string::npos) << on_a100->reason;
    EXPECT_NE(on_a100->reason.find("sm_90a"), std::string::npos) << on_a100->reason;
    Problem tf32_to_bf16 = tn;  // TF32 writes fp32, as the mma.sync family's does
    tf32_to_bf16.c_type = DType::BF16;
    EXPECT_EQ(rule_of(tf32_config(), tf32_to_bf16), PruneRule::Dtype);
    EXPECT_EQ(rule_of(WgmmaConfig{}, bf16, a100_profile()), PruneRule::Dtype);
    Problem to_f32 = bf16;  // any output type
    to_f32.c_type = DType::F32;
    EXPECT_FALSE(rule_of(WgmmaConfig{}, to_f32));
}

// A stage's k depth is one or two 128-byte rows of each tile: 64 or 128 16-bit elements, 32 or 64 fp32 ones; an fp32
// stage of the same depth in bytes takes the same shared memory.
TEST(WgmmaFamily, Tf32DepthsAreWholeRowsOfFp32) {
    const Problem tn = tf32(4096, 4096, 4096, Transpose::Yes, Transpose::No);
    WgmmaConfig c = tf32_config();
    EXPECT_EQ(c.shared_bytes(tn), WgmmaConfig{}.shared_bytes(half(4096, 4096, 4096)));
    c.bk = 64;
    c.stages = 2;  // 2 x 96 KiB
    EXPECT_FALSE(rule_of(c, tn));
    c.stages = 3;
    EXPECT_EQ(rule_of(c, tn), PruneRule::SharedMemory);
    for (const int bk : {16, 128}) {
        c.bk = bk;
        c.stages = 2;
        EXPECT_EQ(rule_of(c, tn), PruneRule::Knobs) << bk;
    }
    c = WgmmaConfig{};
    c.bk = 32;  // half a row of 16-bit elements
    EXPECT_EQ(rule_of(c, half(4096, 4096, 4096)), PruneRule::Knobs);
}

// TF32's instruction has no transpose: an operand stored m- or n-contiguous is read through registers, or copied
// k-contiguous first, and the kernel then computes the problem with that operand transposed, on the copy. One of the
// two must be read k-contiguous from shared memory: where both are stored across k, one is packed at least. Where the
// operand read through registers is A, the instruction's rows run along m.
TEST(WgmmaFamily, Tf32OperandsStoredAcrossKAreReadThroughRegistersOrPackedTransposed) {
    const DeviceInfo d = h200_profile();
    struct Layout {
        Transpose a, b;
        int across;  // operands stored m- or n-contiguous
    };
    for (const Layout& l : {Layout{Transpose::Yes, Transpose::No, 0}, {Transpose::No, Transpose::No, 1},
                            {Transpose::Yes, Transpose::Yes, 2}, {Transpose::No, Transpose::Yes, 3}}) {
        const Problem p = tf32(1000, 600, 300, l.a, l.b);
        SCOPED_TRACE(p.key());
        EXPECT_EQ(WgmmaConfig::transposable_operands(p), l.across);
        EXPECT_EQ(WgmmaConfig::operands_to_pack(p), l.across == 3 ? 1 : 0);
        for (int pack = 0; pack < 4; ++pack) {
            const auto refusal = tf32_config(pack).validate(p, d);
            const int left_across = l.across & ~pack;
            if (left_across == 3) {
                ASSERT_TRUE(refusal.has_value()) << pack;
                EXPECT_EQ(refusal->rule, PruneRule::Knobs);
                EXPECT_NE(refusal->reason.find("transpose"), std::string::npos) << refusal->reason;
                EXPECT_NE(refusal->reason.find("_p1 or _p2"), std::string::npos) << refusal->reason;
                continue;
            }
            EXPECT_FALSE(refusal) << pack << ": " << refusal->reason;
            const Problem seen = tf32_config(pack).kernel_problem(p);
            EXPECT_EQ(seen.trans_a, (pack & 1) ? Transpose::Yes : p.trans_a);
            EXPECT_EQ(seen.trans_b, (pack & 2) ? Transpose::No : p.trans_b);
            EXPECT_EQ(WgmmaConfig::transposable_operands(seen), left_across);
            EXPECT_EQ(WgmmaConfig::forced_rows_along_m(seen), (left_across & 1) != 0);
            // The copies' columns: k rounded up to 32 fp32 (128 bytes).
            EXPECT_EQ(seen.lda, (pack & 1) ? 320 : p.lda);
            EXPECT_EQ(seen.ldb, (pack & 2) ? 320 : p.ldb);
            const LaunchDescription launch = tf32_config(pack).launch(p);
            ASSERT_EQ(launch.packs.size(), static_cast<std::size_t>((pack & 1) + (pack >> 1)));
            for (const OperandPack& op : launch.packs) {
                const bool across = (l.across >> op.operand) & 1;
                EXPECT_EQ(op.transposed, across) << op.operand;
                EXPECT_EQ(op.element_bytes, 4);
                EXPECT_EQ(op.ld_to, 320);
                EXPECT_EQ(op.cols, across ? 300 : (op.operand == 0 ? 1000 : 600));  // the stored columns
                EXPECT_EQ(op.cols_to, op.operand == 0 ? 1000 : 600);               // the copy's: m or n of k each
                EXPECT_EQ(op.bytes(), 320 * (op.operand == 0 ? 1000 : 600) * 4);
                EXPECT_FALSE(op.tiled);
            }
        }
    }
}

// Where op(A) is read through registers the instruction's width is BN and the consumers split BM: the tile rules turn
// with it, and C is stored from the registers.
TEST(WgmmaFamily, Tf32RowsAlongMTurnTheTileRules) {
    const Problem nn = tf32(4096, 4096, 4096, Transpose::No, Transpose::No);
    const Problem tt = tf32(4096, 4096, 4096, Transpose::Yes, Transpose::Yes);
    ASSERT_TRUE(WgmmaConfig::forced_rows_along_m(nn));
    ASSERT_FALSE(WgmmaConfig::forced_rows_along_m(tt));
    WgmmaConfig c = tf32_config();
    c.bm = 128;
    c.bn = 256;
    EXPECT_EQ(c.instruction_width(nn), 256);
    EXPECT_EQ(c.consumer_rows(nn), 64);
    EXPECT_EQ(c.accumulators(nn), 128);
    EXPECT_FALSE(rule_of(c, nn));
    EXPECT_EQ(c.instruction_width(tt), 128);
    EXPECT_EQ(c.consumer_rows(tt), 128);
    EXPECT_EQ(c.accumulators(tt), 128);
    EXPECT_FALSE(rule_of(c, tt));
    c.bm = 192;  // 96 rows per consumer: not whole 64-row instruction blocks along m
    c.bn = 128;
    const auto refusal = c.validate(nn, h200_profile());
    ASSERT_TRUE(refusal.has_value());
    EXPECT_EQ(refusal->rule, PruneRule::Knobs);
    EXPECT_NE(refusal->reason.find("split bm"), std::string::npos) << refusal->reason;
    EXPECT_FALSE(rule_of(c, tt));  // 64 columns per consumer, 192 wide
    c = tf32_config();
    c.bm = 128;
    c.tma_store = true;
    c.stages = 3;
    EXPECT_EQ(rule_of(c, nn), PruneRule::Knobs);
    EXPECT_FALSE(rule_of(c, tt));
    c.pack = 1;  // op(A) copied k-contiguous: the rows run along n again
    EXPECT_FALSE(rule_of(c, nn));
}

// A k-contiguous operand that the TMA cannot read (misaligned) is copied as it is, alone (the other read through
// registers) or beside a transposed copy of the other: both through the transposing kernel's launch, each job saying
// whether it transposes.
TEST(WgmmaFamily, Tf32MisalignedOperandIsPackedBesideATransposedOne) {
    Problem p = tf32(1000, 600, 301, Transpose::No, Transpose::No);  // A m-contiguous, B k-contiguous with ld 301
    p.ldb = 301;
    p.align_b = 4;
    EXPECT_EQ(WgmmaConfig::operands_to_pack(p), 2);            // A may be read through registers
    EXPECT_EQ(rule_of(tf32_config(1), p), PruneRule::Knobs);  // B still misaligned
    EXPECT_FALSE(rule_of(tf32_config(2), p));
    EXPECT_FALSE(tf32_config(2).launch(p).packs[0].transposed);
    EXPECT_FALSE(rule_of(tf32_config(3), p));
    const LaunchDescription launch = tf32_config(3).launch(p);
    ASSERT_EQ(launch.packs.size(), 2u);
    EXPECT_TRUE(launch.packs[0].transposed);
    EXPECT_FALSE(launch.packs[1].transposed);
    EXPECT_EQ(launch.packs[1].ld_from, 301);
    EXPECT_EQ(launch.packs[1].ld_to, 320);
    EXPECT_EQ(launch.packs[1].rows, 301);
}

TEST(WgmmaFamily, KnobRules) {
    const Problem p = half(4096, 4096, 4096);
    WgmmaConfig c;
    for (const int width : {8, 72, 272}) {  // not an instruction width the family writes (multiples of 16 to 256)
        c.bm = width;
        EXPECT_EQ(rule_of(c, p), PruneRule::Knobs) << width;
    }
    c = WgmmaConfig{};
    c.bn = 80;  // the instruction's rows come 64 at a time
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    c = WgmmaConfig{};
    c.bn = 192;  // 96 columns per consumer: not whole 64-row instruction blocks
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    c = WgmmaConfig{};
    c.bk = 32;
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    c = WgmmaConfig{};
    c.bn = 256;  // two instruction blocks of 128 accumulators per consumer thread
    EXPECT_EQ(c.accumulators(p), 256);
    EXPECT_EQ(rule_of(c, p), PruneRule::Registers);
    c = WgmmaConfig{};
    c.stages = 5;  // 5 x 48 KiB: past the 227 KiB a block may opt in to
    EXPECT_EQ(rule_of(c, p), PruneRule::SharedMemory);
    c.stages = 1;
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    c = WgmmaConfig{};
    c.consumers = 3;
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    Problem empty = p;
    empty.k = 0;
    EXPECT_EQ(rule_of(WgmmaConfig{}, empty), PruneRule::Knobs);
}

// Instruction widths fitted to whole waves of a persistent grid (as cuBLAS's kernels are: 256 x 160 tiles for 8192 x
// 2552): the widths whose turns of work are no more than 128's, 192's and 256's, in the search's candidates with up
// to 192 accumulators a consumer thread (two instruction rows of 144).
TEST(WgmmaFamily, WaveFittedWidthsTakeNoMoreTurnsOfWorkAndAreSearched) {
    EXPECT_EQ(WgmmaConfig::wave_fitted_widths(6144, 6, 132), (std::vector<int>{144, 96}));  // 258 tiles: 2 turns
    EXPECT_EQ(WgmmaConfig::wave_fitted_widths(1536, 12, 132), (std::vector<int>{144, 160}));  // 132 tiles: one turn
    EXPECT_TRUE(WgmmaConfig::wave_fitted_widths(4096, 16, 132).empty());  // 256's 16 x 16 tiles: 2 turns
    EXPECT_TRUE(WgmmaConfig::wave_fitted_widths(100, 1, 132).size() <= 2);
    const Problem tall = half(6144, 1528, 6144);
    const WgmmaConfig fitted = *WgmmaConfig::parse("wgmma_144x256x64_c2_s3_g8_x2_q132");
    EXPECT_FALSE(rule_of(fitted, tall)) << fitted.validate(tall, h200_profile())->reason;
    EXPECT_EQ(fitted.accumulators(fitted.kernel_problem(tall)), 144);
    const std::vector<WgmmaConfig> all = WgmmaConfig::enumerate(tall, h200_profile());
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](const WgmmaConfig& c) {
        return c.bm == 144 && c.bn == 256 && c.consumers == 2 && c.grid == 132 && !c.rows_m;
    }));
    // Three instruction rows' worth of accumulators (192 wide, 256 rows of one consumer) stay out.
    EXPECT_EQ(rule_of(*WgmmaConfig::parse("wgmma_192x256x64_c1_s3_g8_q132"), tall), PruneRule::Registers);
}

// Instruction widths fitted to a narrow side: the multiples of 16 that pad it less than 64's do, and the turned
// instructions (_m) that run such a width along n. The tiles' shared memory counts an operand stored across k in whole
// 128-byte boxes.
TEST(WgmmaFamily, FittedWidthsPadANarrowSideLessAndTurnAlongN) {
    EXPECT_EQ(WgmmaConfig::fitted_widths(130), (std::vector<int>{144, 48, 80}));  // 14, 14 and 30 rows past 130
    EXPECT_EQ(WgmmaConfig::fitted_widths(777), (std::vector<int>{112, 160, 80}));
    EXPECT_TRUE(WgmmaConfig::fitted_widths(4096).empty());
    EXPECT_TRUE(WgmmaConfig::fitted_widths(64).empty());
    const Problem narrow_n = half(4096, 130, 4096);
    const WgmmaConfig turned = *WgmmaConfig::parse("wgmma_64x144x64_c1_s8_g8_m_k2");
    EXPECT_TRUE(turned.rows_m);
    EXPECT_EQ(turned.to_string(), "wgmma_64x144x64_c1_s8_g8_m_k2");
    EXPECT_FALSE(WgmmaConfig::parse("wgmma_64x144x64_c1_s8_g8_k2_m"));  // the fields' order is fixed
    EXPECT_FALSE(rule_of(turned, narrow_n)) << turned.validate(narrow_n, h200_profile())->reason;
    EXPECT_EQ(turned.instruction_width(turned.kernel_problem(narrow_n)), 144);
    EXPECT_EQ(turned.accumulators(turned.kernel_problem(narrow_n)), 72);
    EXPECT_TRUE(defines_knob(turned, "WGMMA_ROWS_M", 1));
    EXPECT_TRUE(defines_knob(WgmmaConfig{}, "WGMMA_ROWS_M", 0));
    // op(B) k-contiguous: 144 rows a stage; stored n-contiguous: three whole 64-wide boxes, 192.
    EXPECT_EQ(turned.tile_rows(narrow_n, 1), 144);
    Problem nt = half(4096, 136, 4096);
    nt.trans_b = Transpose::Yes;
    nt.ldb = 136;
    EXPECT_EQ(turned.tile_rows(nt, 1), 192);
    EXPECT_EQ(turned.ring_bytes(nt), 8 * (64 + 192) * 64 * 2);
    // What the turned instructions cannot take: C through the TMA, TF32 (turned only where op(A) is stored
    // m-contiguous), a width that is not a multiple of 16, rows that are not 64's, a split past the width's pairs.
    const auto rejected = [&](auto change) {
        WgmmaConfig x = turned;
        change(x);
        return rule_of(x, narrow_n) == PruneRule::Knobs;
    };
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.tma_store = true; }));
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.bn = 136; }));
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.bm = 80; }));
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.bn = 16, x.ksplit = 2; }));
    WgmmaConfig tf32_turned = turned;
    tf32_turned.bk = 32;
    EXPECT_EQ(rule_of(tf32_turned, tf32(4096, 130, 4096, Transpose::Yes, Transpose::No)), PruneRule::Knobs);
    // A fitted width along m: op(A) stored m-contiguous in whole boxes, C through the TMA only in whole boxes of C.
    const Problem narrow_m = half(136, 4096, 4096);
    WgmmaConfig fitted = *WgmmaConfig::parse("wgmma_144x64x64_c1_s7_g8_k2");
    EXPECT_FALSE(rule_of(fitted, narrow_m)) << fitted.validate(narrow_m, h200_profile())->reason;
    EXPECT_EQ(fitted.tile_rows(narrow_m, 0), 192);
    fitted.start_store(fitted.kernel_problem(narrow_m));
    EXPECT_FALSE(fitted.tma_store);  // 144 is not a whole number of C's 64-wide boxes
    fitted.ksplit = 1;
    fitted.tma_store = true;
    EXPECT_EQ(rule_of(fitted, narrow_m), PruneRule::Knobs);
}

// The untuned default across a narrow side that no multiple of 64 fits: one fitted tile, split in two, where the
// whole tiles' last one is mostly empty or the operand along that side is not stored along it (its 64-wide boxes
// would pad the fitted tile's reads as much); else the whole tiles. As measured on the H100 (session 36).
TEST(WgmmaFamily, DefaultTakesAFittedTileWhereWholeTilesWouldLeaveTheirLastMostlyEmpty) {
    const DeviceInfo d = h200_profile();
    const auto layout = [](std::int64_t m, std::int64_t n, Transpose ta, Transpose tb) {
        Problem p = half(m, n, 4096);
        p.trans_a = ta;
        p.trans_b = tb;
        p.lda = ta == Transpose::Yes ? p.k : m;
        p.ldb = tb == Transpose::Yes ? n : p.k;
        p.align_a = alignment_class(nullptr, p.lda, 2);
        p.align_b = alignment_class(nullptr, p.ldb, 2);
        p.align_c = alignment_class(nullptr, p.ldc, 2);
        return p;
    };
    const auto pick = [&](std::int64_t m, std::int64_t n, Transpose ta, Transpose tb) {
        const auto c = WgmmaConfig::heuristic_default(layout(m, n, ta, tb), d);
        return c ? c->to_string() : std::string("none");
    };
    constexpr Transpose N = Transpose::No, T = Transpose::Yes;
    // A narrow n: turned instructions across it (1.00-1.05x cuBLAS where whole tiles ran 0.66-0.81x).
    EXPECT_EQ(pick(4096, 130, N, N), "wgmma_64x144x64_c1_s8_g8_m_k2");
    EXPECT_EQ(pick(4096, 130, T, N), "wgmma_64x144x64_c1_s8_g8_m_k2");
    EXPECT_EQ(pick(4096, 200, N, N), "wgmma_64x208x64_c1_s6_g8_m_k2");
    EXPECT_EQ(pick(4096, 96, N, N), "wgmma_64x96x64_c1_s8_g8_m_k2");
    // A narrow m read k-contiguous (2.1x against 1.18x), or m-contiguous where whole tiles leave 2 of 130 rows in
    // their last (op(A) 130 rows apart: packed first).
    EXPECT_EQ(pick(130, 4096, T, N), "wgmma_144x64x64_c1_s8_g8_k2");
    EXPECT_EQ(pick(130, 4096, N, N), "wgmma_144x64x64_c1_s7_g8_k2_p1");
    // m-contiguous with the last whole tile at least half full: whole tiles (200: 38.4 us against 40.1 fitted). op(A)'s
    // columns, 400 and 192 bytes apart, start off 128-byte lines: 128 x 64 tiles go in cluster pairs where the rule
    // pairs them (26.6-27.0 us against 38.1, session 38), 64 x 64 ones alone (pairs ran 21.1 against 19.6-19.7).
    const std::string pair = WgmmaConfig::kPairsSmallTilesOffLines ? "_x2" : "";
    EXPECT_EQ(pick(200, 4096, N, N), "wgmma_128x64x64_c1_s8_g8" + pair);
    EXPECT_EQ(pick(96, 4096, N, N), "wgmma_64x64x64_c1_s8_g8");
    // A side that 64's fit: no fitted width.
    EXPECT_EQ(pick(4096, 128, N, N), "wgmma_64x64x64_c1_s8_g8");
}

TEST(WgmmaFamily, MisalignedOperandsArePackedFirst) {
    Problem p = half(4097, 4097, 4097);
    p.align_a = p.align_b = p.align_c = 2;
    const auto refusal = WgmmaConfig{}.validate(p, h200_profile());
    ASSERT_TRUE(refusal.has_value());
    EXPECT_NE(refusal->reason.find("_p1"), std::string::npos) << refusal->reason;
    WgmmaConfig packed;
    packed.pack = 3;
    EXPECT_FALSE(rule_of(packed, p));
    const Problem seen = packed.kernel_problem(p);
    EXPECT_EQ(seen.align_a, 16);
    EXPECT_EQ(seen.align_b, 16);
    EXPECT_EQ(seen.lda % 64, 0);  // whole 128-byte lines
    EXPECT_EQ(seen.align_c, 2);   // C is stored where it is, through the shared epilogue
    const LaunchDescription launch = packed.launch(p);
    ASSERT_EQ(launch.packs.size(), 2u);
    EXPECT_EQ(launch.packs[0].ld_from, 4097);
    EXPECT_EQ(launch.packs[0].ld_to, seen.lda);
    EXPECT_FALSE(launch.packs[0].tiled);
}

TEST(WgmmaFamily, LaunchIsOneBlockPerSmOrPerTileWithTheTensorMaps) {
    const Problem p = half(4096, 4096, 4096);
    WgmmaConfig c;  // 256 x 128 tiles: 16 x 32 = 512
    LaunchDescription launch = c.launch(p);
    EXPECT_EQ(launch.grid.x, 512u);
    EXPECT_EQ(launch.block.x, 384u);
    EXPECT_EQ(launch.dynamic_shared_bytes, static_cast<std::uint32_t>(4 * 384 * 64 * 2 + 16 * 4 + 1024));
    EXPECT_NE(launch.preparation, nullptr);
    EXPECT_TRUE(launch.packs.empty());
    c.grid = 132;
    EXPECT_EQ(c.launch(p).grid.x, 132u);
    c.grid = 1000;  // never more blocks than tiles
    EXPECT_EQ(c.launch(p).grid.x, 512u);
    // Clusters of two: a unit is a pair of tiles along n; the grid is whole clusters.
    c.cluster = 2;
    c.grid = 132;
    launch = c.launch(p);
    EXPECT_EQ(launch.cluster.x, 2u);
    EXPECT_EQ(launch.grid.x, 132u);
    c.grid = 0;
    EXPECT_EQ(c.launch(p).grid.x, 512u);
    const Problem odd_columns = half(4096, 3 * 128, 4096);  // 3 tiles along n: two units, the last half past N
    EXPECT_EQ(c.units(odd_columns), 16 * 2);
    EXPECT_EQ(c.launch(odd_columns).grid.x, 64u);
    c.grid = 7;  // not whole clusters
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
}

// The maps describe each operand as the kernel's loads read it (wgmma.cuh's produce()): k-major operands in boxes of
// 64 k by the tile's rows (half of op(A)'s rows in a cluster of two), m- or n-major ones in boxes of 64 m or n by BK.
TEST(WgmmaFamily, TensorMapsDescribeEachOperandAsTheKernelLoadsIt) {
    Problem p = half(300, 200, 152);  // column-major nn: A m-major (300 x 152), B k-major (152 x 200)
    p.lda = 304;
    p.ldb = 160;
    const TensorMapBoxes boxes{128, 128, 64};
    const TensorMapShape a = tensor_map_shape(p, boxes, 0, p.lda);
    EXPECT_EQ(a.dims[0], 300u);
    EXPECT_EQ(a.dims[1], 152u);
    EXPECT_EQ(a.stride_bytes, 608u);
    EXPECT_EQ(a.box[0], 64u);
    EXPECT_EQ(a.box[1], 64u);  // BK
    const TensorMapShape b = tensor_map_shape(p, boxes, 1, p.ldb);
    EXPECT_EQ(b.dims[0], 152u);
    EXPECT_EQ(b.dims[1], 200u);
    EXPECT_EQ(b.stride_bytes, 320u);
    EXPECT_EQ(b.box[1], 128u);  // BN
    p.trans_a = Transpose::Yes;  // A stored k x m: k-major, boxes of a_rows (BM, or its half in a cluster of two)
    p.trans_b = Transpose::Yes;  // B stored n x k: n-major, boxes of BK
    const TensorMapShape at = tensor_map_shape(p, boxes, 0, 152);
    EXPECT_EQ(at.dims[0], 152u);
    EXPECT_EQ(at.dims[1], 300u);
    EXPECT_EQ(at.box[1], 128u);
    const TensorMapShape bt = tensor_map_shape(p, boxes, 1, 200);
    EXPECT_EQ(bt.dims[0], 200u);
    EXPECT_EQ(bt.dims[1], 152u);
    EXPECT_EQ(bt.box[1], 64u);
    // A single column: the stride is the column rounded up to 16 bytes, whatever ld says.
    Problem vector = half(300, 1, 152);
    vector.ldb = 1;
    EXPECT_EQ(tensor_map_shape(vector, boxes, 1, 1).stride_bytes, 304u);
    // A batch: rank 3, the GEMMs the third dimension; an operand every GEMM shares (stride 0) has one of them.
    EXPECT_EQ(a.rank, 2);
    p.trans_a = p.trans_b = Transpose::No;
    p.batch = 12;
    const TensorMapShape ab = tensor_map_shape(p, boxes, 0, p.lda, 304 * 152);
    EXPECT_EQ(ab.rank, 3);
    EXPECT_EQ(ab.dims[2], 12u);
    EXPECT_EQ(ab.batch_stride_bytes, 304u * 152 * 2);
    EXPECT_EQ(ab.box[2], 1u);
    const TensorMapShape shared_b = tensor_map_shape(p, boxes, 1, p.ldb, 0);
    EXPECT_EQ(shared_b.rank, 3);
    EXPECT_EQ(shared_b.dims[2], 1u);
    EXPECT_EQ(shared_b.batch_stride_bytes % 16, 0u);
}

// C through the TMA: its map takes C's own element type, m contiguous, in boxes of one 128-byte row of m by a
// consumer's columns; its staging area (a tile of C) comes out of the shared memory; C must be 16-byte aligned.
TEST(WgmmaFamily, TmaStoredCHasItsMapStagingAreaAndAlignment) {
    Problem p = half(300, 200, 152);
    p.c_type = DType::F32;
    p.ldc = 304;
    const TensorMapShape c = tensor_map_shape(p, TensorMapBoxes{128, 128, 64, 64}, 2, p.ldc);
    EXPECT_EQ(c.dims[0], 300u);
    EXPECT_EQ(c.dims[1], 200u);
    EXPECT_EQ(c.stride_bytes, 304u * 4);
    EXPECT_EQ(c.box[0], 32u);  // 128 bytes of fp32
    EXPECT_EQ(c.box[1], 64u);
    p.c_type = DType::BF16;
    p.batch = 3;
    const TensorMapShape batched = tensor_map_shape(p, TensorMapBoxes{128, 128, 64, 128}, 2, p.ldc, 304 * 200);
    EXPECT_EQ(batched.box[0], 64u);
    EXPECT_EQ(batched.box[1], 128u);
    EXPECT_EQ(batched.rank, 3);
    EXPECT_EQ(batched.dims[2], 3u);
    EXPECT_EQ(batched.batch_stride_bytes, 304u * 200 * 2);

    const Problem big = half(4096, 4096, 4096);
    WgmmaConfig direct;  // 256 x 128, 4 stages: 196 KB of ring, no room for a 64 KB tile of bf16 C
    direct.grid = 132;
    WgmmaConfig staged = direct;
    staged.tma_store = true;
    EXPECT_EQ(staged.shared_bytes(big), direct.shared_bytes(big) + 256 * 128 * 2);
    EXPECT_EQ(rule_of(staged, big), PruneRule::SharedMemory);
    staged.stages = 3;
    EXPECT_FALSE(rule_of(staged, big));
    EXPECT_TRUE(defines_knob(staged, "WGMMA_STORE", 1));
    // The winner's refinements include its twin through the TMA, with as many stages as then fit, and back.
    bool twin = false;
    for (const AnyConfig& v : refinements(direct, big, h200_profile())) {
        const auto& w = std::get<WgmmaConfig>(v);
        if (!w.tma_store) continue;
        twin = true;
        EXPECT_EQ(w.stages, 3);
        EXPECT_FALSE(rule_of(w, big)) << w.to_string();
    }
    EXPECT_TRUE(twin);
    bool back = false;
    for (const AnyConfig& v : refinements(staged, big, h200_profile()))
        back = back || (!std::get<WgmmaConfig>(v).tma_store && std::get<WgmmaConfig>(v).stages == 3);
    EXPECT_TRUE(back);
    // Box by box (_tb): two boxes of 64 m by a consumer's 64 columns per consumer, 32 KB in all, so the fourth stage
    // fits; the refinements of a tile through the TMA include it with that ring, and it goes back.
    WgmmaConfig by_box = staged;
    by_box.store_by_box = true;
    by_box.stages = 4;
    EXPECT_EQ(by_box.shared_bytes(big), direct.shared_bytes(big) + 2 * 2 * 64 * 128);
    EXPECT_FALSE(rule_of(by_box, big));
    EXPECT_TRUE(defines_knob(by_box, "WGMMA_STORE", 2));
    bool box_twin = false;
    for (const AnyConfig& v : refinements(staged, big, h200_profile())) {
        const auto& w = std::get<WgmmaConfig>(v);
        box_twin = box_twin || (w.store_by_box && w.stages == 4 && w.tma_store);
    }
    EXPECT_TRUE(box_twin);
    bool whole_again = false;
    for (const AnyConfig& v : refinements(by_box, big, h200_profile())) {
        const auto& w = std::get<WgmmaConfig>(v);
        whole_again = whole_again || (w.tma_store && !w.store_by_box && w.stages == 3);
    }
    EXPECT_TRUE(whole_again);
    WgmmaConfig two_boxes = by_box;  // a 128-row tile of bf16 is two boxes: nothing saved
    two_boxes.bm = 128;
    EXPECT_EQ(rule_of(two_boxes, big), PruneRule::Knobs);
    WgmmaConfig no_tma = by_box;
    no_tma.tma_store = false;
    EXPECT_EQ(rule_of(no_tma, big), PruneRule::Knobs);
    Problem odd_c = big;
    odd_c.ldc = 4097;
    odd_c.align_c = 2;
    EXPECT_EQ(rule_of(staged, odd_c), PruneRule::Knobs);
    EXPECT_EQ(rule_of(by_box, odd_c), PruneRule::Knobs);
    EXPECT_FALSE(rule_of(direct, odd_c));
    // Its launch carries the map of C as the third parameter.
    EXPECT_NE(staged.launch(big).preparation, nullptr);
}

// A batch's units are all its GEMMs' tiles; its operands are never packed (the TMA reads them where they are).
TEST(WgmmaFamily, BatchedProblemsCountEveryGemmsTilesAndReadOperandsInPlace) {
    Problem p = half(1024, 1024, 1024);
    WgmmaConfig c;  // 256 x 128 tiles
    const std::int64_t one = c.tiles(p);
    p.batch = 16;
    EXPECT_EQ(c.tiles(p), 16 * one);
    EXPECT_EQ(c.units(p), 16 * one);
    EXPECT_FALSE(rule_of(c, p));
    c.pack = 1;
    EXPECT_EQ(rule_of(c, p), PruneRule::Batch);
}

// fp32 tensor maps: boxes of 32 k (one 128-byte row) by the tile's rows, strides of 4-byte elements; a transposed
// copy is described as the k-contiguous operand the kernel problem says it is.
TEST(WgmmaFamily, Tf32TensorMapsReadRowsOf32Fp32) {
    const Problem p = tf32(300, 200, 152, Transpose::No, Transpose::No);
    const Problem seen = tf32_config(1).kernel_problem(p);  // A copied k-contiguous: 160 x 300
    const TensorMapBoxes boxes{128, 128, 32};
    const TensorMapShape a = tensor_map_shape(seen, boxes, 0, seen.lda);
    EXPECT_EQ(a.dims[0], 152u);
    EXPECT_EQ(a.dims[1], 300u);
    EXPECT_EQ(a.stride_bytes, 160u * 4);
    EXPECT_EQ(a.box[0], 32u);
    EXPECT_EQ(a.box[1], 128u);  // a_rows
    const TensorMapShape b = tensor_map_shape(seen, boxes, 1, seen.ldb);
    EXPECT_EQ(b.dims[0], 152u);
    EXPECT_EQ(b.dims[1], 200u);
    EXPECT_EQ(b.stride_bytes, 152u * 4);
    EXPECT_EQ(b.box[0], 32u);
    EXPECT_EQ(b.box[1], 128u);  // BN
    Problem vector = tf32(300, 1, 151, Transpose::Yes, Transpose::No);
    EXPECT_EQ(tensor_map_shape(vector, boxes, 1, 1).stride_bytes, 608u);  // 151 fp32 rounded up to 16 bytes
}

TEST(WgmmaFamily, SearchSpaceIsValidForTheDeviceAndPacksMisalignedOperands) {
    const DeviceInfo d = h200_profile();
    const Problem aligned = half(4096, 4096, 4096);
    const std::vector<WgmmaConfig> all = WgmmaConfig::enumerate(aligned, d);
    int valid = 0;
    std::set<int> widths, grids;
    for (const WgmmaConfig& c : all) {
        EXPECT_EQ(c.pack, 0);
        if (c.validate(aligned, d)) continue;
        ++valid;
        widths.insert(c.bm);
        grids.insert(c.grid);
    }
    EXPECT_GE(valid, 20);
    // 112 fitted to whole waves: 37 x 32 tiles of 112 x 128 take 9 turns of 112, 128's 32 x 32 take 8 of 128.
    EXPECT_EQ(widths, (std::set<int>{64, 112, 128, 192, 256}));
    EXPECT_EQ(grids, (std::set<int>{0, d.sm_count}));
    Problem odd = half(4097, 4097, 4097);
    odd.align_a = odd.align_b = 2;
    for (const WgmmaConfig& c : WgmmaConfig::enumerate(odd, d)) EXPECT_EQ(c.pack, 3);
    EXPECT_TRUE(WgmmaConfig::enumerate(aligned, a100_profile()).empty());
    EXPECT_TRUE(WgmmaConfig::enumerate(half(4096, 4096, 4096, DType::F32), d).empty());
}

// The search starts from the fewest packs (operands across k read through registers where the kernel can), and a
// candidate's refinements try the other way of reading each such operand: packed transposed first.
TEST(WgmmaFamily, Tf32SearchSpaceTakesFp32RowsAndTriesBothWaysOfReadingOperandsAcrossK) {
    const DeviceInfo d = h200_profile();
    for (const Transpose ta : {Transpose::No, Transpose::Yes})
        for (const Transpose tb : {Transpose::No, Transpose::Yes}) {
            const Problem p = tf32(4096, 4096, 4096, ta, tb);
            SCOPED_TRACE(p.key());
            const int transposable = WgmmaConfig::transposable_operands(p);
            const std::vector<WgmmaConfig> all = WgmmaConfig::enumerate(p, d);
            int valid = 0;
            std::set<int> depths, refined_packs;
            for (const WgmmaConfig& c : all) {
                EXPECT_EQ(c.pack, WgmmaConfig::operands_to_pack(p)) << c.to_string();
                depths.insert(c.bk);
                if (c.validate(p, d)) continue;
                ++valid;
                for (const WgmmaConfig& r : c.refinements(p, d)) {
                    EXPECT_EQ(r.pack & ~transposable, c.pack & ~transposable) << r.to_string();
                    refined_packs.insert(r.pack);
                }
            }
            EXPECT_GE(valid, 20);
            EXPECT_EQ(depths, (std::set<int>{32, 64}));
            // Every operand across k is also tried packed (both, where both are).
            EXPECT_EQ(refined_packs.count(transposable), 1u);
        }
}

// TF32's instruction rate is half the 16-bit one (the ceilings' TF32 rate), and copies made first cost their time.
TEST(WgmmaFamily, Tf32CostIsTheSlowerRatePlusItsPacks) {
    const DeviceInfo d = h200_profile();
    const DeviceCeilings ceilings = estimate_ceilings(d);
    Problem bf16 = half(4096, 4096, 4096);
    bf16.c_type = DType::F32;
    bf16.trans_a = Transpose::Yes;
    bf16.lda = 4096;
    const Problem tn = tf32(4096, 4096, 4096, Transpose::Yes, Transpose::No);
    const Problem nt = tf32(4096, 4096, 4096, Transpose::No, Transpose::Yes);
    WgmmaConfig c;
    c.grid = d.sm_count;
    const CostEstimate sixteen = c.estimate_cost(bf16, d, ceilings);
    c.bk = 32;
    const CostEstimate aligned = c.estimate_cost(tn, d, ceilings);
    EXPECT_GT(aligned.compute_seconds, 1.8 * sixteen.compute_seconds);
    EXPECT_LT(aligned.compute_seconds, 2.2 * sixteen.compute_seconds);
    c.pack = 3;
    const CostEstimate packed = c.estimate_cost(nt, d, ceilings);
    // Each 64 MiB operand read and written once at the DRAM ceiling, in one launch.
    const double copies = 2.0 * 2 * 4096.0 * 4096 * 4 / ceilings.dram_bytes_per_s;
    EXPECT_NEAR(packed.seconds - aligned.seconds, copies, 0.1 * copies + 5e-6);
    // Read through registers instead: no copy, but the fragments' loads (two-way bank conflicts) take shared memory
    // bandwidth from the instructions.
    c.pack = 0;
    const Problem nn = tf32(4096, 4096, 4096, Transpose::No, Transpose::No);
    const CostEstimate registers = c.estimate_cost(nn, d, ceilings);
    EXPECT_GE(registers.compute_seconds, aligned.compute_seconds);
    EXPECT_LT(registers.seconds, aligned.seconds + 0.5 * copies) << registers.seconds << " " << aligned.seconds;
}

TEST(WgmmaFamily, UntunedDefaultTakesLargeHalfPrecisionProblemsOnHopper) {
    const DeviceInfo d = h200_profile();
    for (const Problem& p : {half(4096, 4096, 4096), half(8192, 4096, 14336, DType::F16), half(2048, 14336, 4096)}) {
        const AnyConfig chosen = heuristic_config(p, d);
        const auto* w = std::get_if<WgmmaConfig>(&chosen);
        ASSERT_NE(w, nullptr) << to_string(chosen);
        EXPECT_FALSE(w->validate(p, d)) << w->to_string();
        EXPECT_EQ(w->grid, d.sm_count);
        EXPECT_GE(w->tiles(p), d.sm_count);
        EXPECT_TRUE(w->tma_store) << w->to_string();  // 16-bit C through the TMA
    }
    Problem odd = half(4097, 4097, 4097);
    odd.align_a = odd.align_b = 2;
    odd.align_c = 2;
    const AnyConfig packed = heuristic_config(odd, d);
    ASSERT_NE(std::get_if<WgmmaConfig>(&packed), nullptr);
    EXPECT_EQ(std::get<WgmmaConfig>(packed).pack, 3);
    // A run-time m (the default's variant for a layer whose m varies) cannot store through the TMA: the same tile
    // from the registers.
    Problem varying_m = half(4096, 4096, 4096);
    varying_m.runtime_dim = 1;
    const AnyConfig for_variant = heuristic_config(varying_m, d);
    ASSERT_NE(std::get_if<WgmmaConfig>(&for_variant), nullptr) << to_string(for_variant);
    EXPECT_FALSE(std::get<WgmmaConfig>(for_variant).tma_store);
    EXPECT_FALSE(std::get<WgmmaConfig>(for_variant).validate(varying_m, d));
    EXPECT_FALSE(std::get<WgmmaConfig>(for_variant).copied_store);
    // 4097 rows of 2 bytes end columns inside a 16-byte chunk, which the TMA's store would overwrite: staged and
    // copied out by the threads (3.72x cuBLAS against 2.79x from the registers, session 39), in cluster pairs over
    // the packed operands; the same where only C is off 16 bytes (1001 rows, tn: nothing packed).
    EXPECT_FALSE(std::get<WgmmaConfig>(packed).tma_store);
    EXPECT_FALSE(std::get<WgmmaConfig>(packed).validate(odd, d));
    if (WgmmaConfig::kCopiesUnalignedC && WgmmaConfig::kPairsPackedOperands) {
        EXPECT_EQ(to_string(packed), "wgmma_256x128x64_c2_s4_g8_x2_q132_p3_tc");
    }
    Problem odd_c = half(1001, 4096, 4096);
    odd_c.trans_a = Transpose::Yes;
    odd_c.lda = 4096;
    odd_c.align_c = 2;
    if (WgmmaConfig::kCopiesUnalignedC) {
        EXPECT_EQ(to_string(heuristic_config(odd_c, d)), "wgmma_128x128x64_c2_s6_g8_q132_tc");
    }
    // Short K over three waves of tiles and more (8192^2 x 64: 2048 tiles of 256 x 128) takes it; over fewer (4096 x
    // 2048 x 128: 256 tiles) the mma.sync family's default.
    EXPECT_EQ(family_name(heuristic_config(half(8192, 8192, 64), d)), "wgmma");
    EXPECT_NE(family_name(heuristic_config(half(4096, 2048, 128), d)), "wgmma");
    // Too few 128 x 128 tiles: one-consumer 128 x 64 ones fill the SMs (1024^3: 128 of them, session 34); over
    // operands off 128-byte lines (1000^3: columns 2000 bytes apart) in cluster pairs where the rule pairs them.
    EXPECT_EQ(to_string(heuristic_config(half(1024, 1024, 1024), d)), "wgmma_128x64x64_c1_s8_g8");
    EXPECT_EQ(to_string(heuristic_config(half(1000, 1000, 1000), d)),
              std::string("wgmma_128x64x64_c1_s8_g8") + (WgmmaConfig::kPairsSmallTilesOffLines ? "_x2" : ""));
    // Under a GFLOP, where the rule reaches them: the smaller whole tile whose blocks take at most a wave and at
    // least a quarter of one (384^3: 36 of 64 x 64, 640^3: 100, 768^3: 72 of 128 x 64, as 144 of 64 x 64 take two
    // waves). Too few tiles for a quarter of a wave (256^3: 16, 300^3: 25), too shallow (512 x 512 x 128), or not
    // Hopper: another family's default.
    if (WgmmaConfig::kDefaultsToSmallTilesUnderAGflop) {
        EXPECT_EQ(to_string(heuristic_config(half(384, 384, 384), d)), "wgmma_64x64x64_c1_s8_g8");
        EXPECT_EQ(to_string(heuristic_config(half(512, 512, 512), d)), "wgmma_64x64x64_c1_s8_g8");
        EXPECT_EQ(to_string(heuristic_config(half(640, 640, 640), d)), "wgmma_64x64x64_c1_s8_g8");
        EXPECT_EQ(to_string(heuristic_config(half(768, 768, 768), d)), "wgmma_128x64x64_c1_s8_g8");
    } else {
        EXPECT_NE(family_name(heuristic_config(half(512, 512, 512), d)), "wgmma");
    }
    // Over a GFLOP where no whole tile nearly makes a wave: whole tiles between a quarter of a wave and one, ahead
    // of K split in two up to K of 4096 (512 x 512 x 2048: 0.97-0.99x cuBLAS against 0.89-0.91x split, session 39),
    // the split beyond (4096 x 64 x 14336: 128 blocks); and ahead of the mma.sync default where no split fills a
    // wave (768 x 768 x 2048: 0.85x against 0.37x).
    EXPECT_EQ(to_string(heuristic_config(half(512, 512, 2048), d)), "wgmma_64x64x64_c1_s8_g8");
    EXPECT_EQ(to_string(heuristic_config(half(4096, 64, 4096), d)), "wgmma_64x64x64_c1_s8_g8");
    EXPECT_EQ(to_string(heuristic_config(half(4096, 64, 14336), d)), "wgmma_64x64x64_c1_s8_g8_k2");
    EXPECT_EQ(to_string(heuristic_config(half(768, 768, 2048), d)), "wgmma_128x64x64_c1_s8_g8");
    EXPECT_NE(family_name(heuristic_config(half(300, 300, 300), d)), "wgmma");
    EXPECT_NE(family_name(heuristic_config(half(256, 256, 256), d)), "wgmma");
    EXPECT_NE(family_name(heuristic_config(half(512, 512, 128), d)), "wgmma");
    EXPECT_NE(family_name(heuristic_config(half(4096, 4096, 4096), a100_profile())), "wgmma");
}

TEST(WgmmaFamily, UntunedDefaultTakesLargeTf32ProblemsOnHopperInEveryLayout) {
    const DeviceInfo d = h200_profile();
    int through_tma = 0;
    for (const Transpose ta : {Transpose::No, Transpose::Yes})
        for (const Transpose tb : {Transpose::No, Transpose::Yes})
            for (const std::int64_t size : {4096, 8192}) {
                const Problem p = tf32(size, size, size, ta, tb);
                const AnyConfig chosen = heuristic_config(p, d);
                const auto* w = std::get_if<WgmmaConfig>(&chosen);
                ASSERT_NE(w, nullptr) << p.key() << ": " << to_string(chosen);
                EXPECT_FALSE(w->validate(p, d)) << w->to_string();
                EXPECT_EQ(w->bk, 32);
                EXPECT_EQ(w->bm, 256);
                EXPECT_EQ(w->grid, d.sm_count);
                // Operands stored across k read through registers, one packed only where both are.
                EXPECT_EQ(w->pack, WgmmaConfig::operands_to_pack(p));
                // fp32 C through the TMA box by box, where the tile holds its operand fragments beside the staging.
                if (w->tma_store) ++through_tma;
                EXPECT_EQ(w->store_by_box, w->tma_store) << w->to_string();
            }
    EXPECT_GE(through_tma, 2);
    EXPECT_NE(family_name(heuristic_config(tf32(4096, 4096, 4096, Transpose::Yes, Transpose::No), a100_profile())),
              "wgmma");
}

TEST(WgmmaFamily, Tf32NamesRoundTrip) {
    for (const char* name : {"wgmma_256x128x32_c2_s4_g8_q132", "wgmma_128x128x64_c2_s2_g8_p3",
                             "wgmma_256x128x32_c2_s4_g8_x2_q132_p1", "wgmma_64x64x32_c1_s8_g16_q5_p2"}) {
        const auto parsed = WgmmaConfig::parse(name);
        ASSERT_TRUE(parsed.has_value()) << name;
        EXPECT_EQ(parsed->to_string(), name);
        EXPECT_EQ(to_string(*parse_config(name)), name);
    }
}

// The TMA writes C's columns in whole 16-byte chunks (measured: a column ending inside one had the chunk's rest, C's
// padding, written): C through the TMA only where m fills them, and not with a run-time m.
TEST(WgmmaFamily, TmaStoredCNeedsColumnsOfWhole16ByteChunks) {
    WgmmaConfig c;
    c.bm = 128;
    c.tma_store = true;
    c.stages = 3;
    Problem p = half(4096, 4096, 4096);
    p.ldc = 4104;
    EXPECT_FALSE(rule_of(c, p));
    p.m = 4097;  // 8194 bytes of bf16 per column
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    p.m = 4100;
    p.c_type = DType::F32;  // 16400 bytes
    EXPECT_FALSE(rule_of(c, p));
    p = half(4096, 4096, 4096);
    p.runtime_dim = 1;
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    p.runtime_dim = 2;
    EXPECT_FALSE(rule_of(c, p));
}

// The search starts from C through the TMA where C is 16-bit and its layout takes it (the H200's 10 s searches picked
// it for 14 of the 15 16-bit target rows whose C it can store; turned tiles round by round), and refines a winner back
// to the store from registers; an fp32 C (TF32) and a C whose columns end inside 16-byte chunks start from the
// registers.
TEST(WgmmaFamily, SearchStartsFromTmaStoredCWhereC16BitTakesIt) {
    const DeviceInfo d = h200_profile();
    const Problem p = half(4096, 4096, 4096);
    int valid = 0;
    for (const WgmmaConfig& c : WgmmaConfig::enumerate(p, d)) {
        // (Widths fitted to waves, 112 here, that are not whole 128-byte boxes of C store it from the registers;
        // turned tiles, round by round, where each consumer's rows are whole boxes; tiles of more than 128
        // accumulators a consumer thread have the registers' twin as well.)
        const int boxed_rows = c.rows_m ? c.bm / c.stage_readers() : c.bm;
        if (c.accumulators(p) <= 128) EXPECT_EQ(c.tma_store, boxed_rows % 64 == 0) << c.to_string();
        EXPECT_EQ(c.store_by_box, c.tma_store && c.rows_m) << c.to_string();
        if (!c.validate(p, d)) ++valid;
    }
    EXPECT_GE(valid, 20);
    WgmmaConfig winner;
    winner.grid = 132;
    winner.tma_store = true;
    winner.stages = 3;
    bool from_registers = false;
    for (const WgmmaConfig& r : winner.refinements(p, d))
        from_registers = from_registers || (!r.tma_store && r.bm == 256 && r.bn == 128 && !r.validate(p, d));
    EXPECT_TRUE(from_registers);
    Problem odd_rows = half(4100, 4096, 4096);  // 8200 bytes per column of C
    odd_rows.ldc = 4104;
    for (const WgmmaConfig& c : WgmmaConfig::enumerate(odd_rows, d)) EXPECT_FALSE(c.tma_store) << c.to_string();
    // An fp32 C box by box where its tile has more than two boxes of 32 (session 31: 3-7% faster than from the
    // registers on the H100), whole where it has two; TF32 whose instructions run along m from the registers.
    Problem fp32_c = half(4096, 4096, 4096);
    fp32_c.c_type = DType::F32;
    for (const WgmmaConfig& c : WgmmaConfig::enumerate(fp32_c, d)) {
        const int boxed_rows = c.rows_m ? c.bm / c.stage_readers() : c.bm;
        if (c.accumulators(fp32_c) <= 128) EXPECT_EQ(c.tma_store, boxed_rows % 32 == 0) << c.to_string();
        EXPECT_EQ(c.store_by_box, c.tma_store && (c.rows_m || c.bm > 64)) << c.to_string();
    }
    for (const WgmmaConfig& c : WgmmaConfig::enumerate(tf32(4096, 4096, 4096, Transpose::No, Transpose::No), d))
        EXPECT_FALSE(c.tma_store) << c.to_string();
}

// Stream-K (_sk): a persistent grid of single blocks deals out the k blocks of the tiles past its whole waves. 4096^3
// in 256 x 128 tiles is 512 tiles on 132 blocks: 3 whole waves, 116 tiles left (64 k blocks each, 7424 in all, runs
// of 57 reaching into at most 2 tiles). The workspace: a zeroed counter per tile left, then a 256 x 128 fp32 tile
// per block and tile its run reaches into.
TEST(WgmmaFamily, StreamKDealsOutTheLastWaveAndSizesItsWorkspace) {
    const DeviceInfo d = h200_profile();
    Problem p = half(4096, 4096, 4096);
    p.trans_a = Transpose::Yes;
    p.lda = 4096;
    WgmmaConfig c;
    c.grid = 132;
    c.stream_k = true;
    EXPECT_EQ(c.to_string(), "wgmma_256x128x64_c2_s4_g8_q132_sk");
    EXPECT_EQ(WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_q132_sk_p3_ts")->to_string(),
              "wgmma_256x128x64_c2_s4_g8_q132_sk_p3_ts");
    EXPECT_FALSE(WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_sk_q132"));  // the fields' order is fixed
    EXPECT_FALSE(rule_of(c, p)) << c.validate(p, d)->reason;
    EXPECT_EQ(c.stream_units_left(p), 116);
    EXPECT_EQ(c.stream_segments(p), 2);
    const LaunchDescription launch = c.launch(p);
    EXPECT_EQ(launch.grid.x, 132u);
    EXPECT_EQ(launch.partial_sums_zeroed_bytes, 512);  // 116 counters, padded to 256 bytes
    EXPECT_EQ(launch.partial_sums_bytes, 512 + 132 * 2 * 256 * 128 * 4);
    EXPECT_EQ(c.shared_bytes(p), WgmmaConfig{}.shared_bytes(p) + 16);
    EXPECT_TRUE(defines_knob(c, "WGMMA_STREAMK", 132));
    // Less than the 4 whole tiles on the busiest SM (3 and 57 / 64), plus the partial sums' meeting.
    const DeviceCeilings ceilings = estimate_ceilings(d);
    WgmmaConfig whole = c;
    whole.stream_k = false;
    EXPECT_NEAR(c.estimate_cost(p, d, ceilings).wave_efficiency, 512.0 / ((3 + 57.0 / 64) * 132), 1e-9);
    EXPECT_NEAR(whole.estimate_cost(p, d, ceilings).wave_efficiency, 512.0 / (4 * 132), 1e-9);
    // Where the last wave is emptier and the tiles longer, the meeting costs less than the wave saves: 6144^3 is
    // 1152 tiles, 8 whole waves and 96 tiles left (0.73 of a tile per block, not a whole one).
    Problem large = half(6144, 6144, 6144);
    large.trans_a = Transpose::Yes;
    large.lda = 6144;
    EXPECT_LT(c.estimate_cost(large, d, ceilings).seconds, whole.estimate_cost(large, d, ceilings).seconds);
    // With a whole wave or more, measured slower than whole tiles (its runs lose the L2 reuse of tiles that run
    // together): a refinement of whole tiles does not try it, and a configuration with it refines to whole tiles.
    const auto has_twin = [&](const WgmmaConfig& from, const Problem& q, bool stream_k) {
        for (const WgmmaConfig& r : from.refinements(q, d))
            if (r.stream_k == stream_k && r.bm == from.bm && r.bn == from.bn && r.grid == 132) return true;
        return false;
    };
    EXPECT_FALSE(has_twin(whole, p, true));
    EXPECT_TRUE(has_twin(c, p, false));
    // Fewer tiles than the grid's blocks (14336 x 128 x 4096: 112 of 128 x 128): whole tiles refine to their stream-K
    // twin, which the search measures (7-15% faster on three such shapes, slower on three, session 32); a grid of a
    // block per tile has none.
    Problem few = half(14336, 128, 4096);
    WgmmaConfig few_whole = whole;
    few_whole.bm = few_whole.bn = 128;
    few_whole.stages = 6;
    EXPECT_FALSE(rule_of(few_whole, few)) << few_whole.validate(few, d)->reason;
    EXPECT_TRUE(has_twin(few_whole, few, true));
    few_whole.grid = 0;
    for (const WgmmaConfig& r : few_whole.refinements(few, d)) EXPECT_FALSE(r.stream_k) << r.to_string();
}

// Stream-K in cluster pairs: the runs are dealt out among the grid's clusters, both blocks of a cluster walking them
// over their own tiles of each unit. 6144 x 1528 x 6144 (m x n, op(B) off 32-byte sectors, where pairs pay) in
// 256 x 128 tiles is 24 x 12 tiles, 144 units of two on 66 clusters: 2 whole waves and 12 units left (96 k blocks
// each, 1152 in all, runs of 18 reaching into at most 2 units). A counter per tile left (24, padded to 256 bytes), a
// 256 x 128 fp32 tile per block and unit its cluster's run reaches into.
TEST(WgmmaFamily, StreamKDealsOutUnitsAmongClusterPairs) {
    const DeviceInfo d = h200_profile();
    Problem p = half(6144, 1528, 6144);
    p.trans_a = p.trans_b = Transpose::Yes;
    p.lda = 6144;
    p.ldb = 1528;
    const WgmmaConfig c = *WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_x2_q132_sk_tb");
    EXPECT_FALSE(rule_of(c, p)) << c.validate(p, d)->reason;
    EXPECT_EQ(c.units(p), 144);
    EXPECT_EQ(c.stream_clusters(), 66);
    EXPECT_EQ(c.stream_units_left(p), 12);
    EXPECT_EQ(c.stream_segments(p), 2);
    const LaunchDescription launch = c.launch(p);
    EXPECT_EQ(launch.grid.x, 132u);
    EXPECT_EQ(launch.cluster.x, 2u);
    EXPECT_FALSE(launch.grid_strided);  // the runs are laid out for the grid as compiled
    EXPECT_EQ(launch.partial_sums_zeroed_bytes, 256);
    EXPECT_EQ(launch.partial_sums_bytes, 256 + 132 * 2 * 256 * 128 * 4);
    // The busiest cluster: two whole units and 18 of 96 k blocks, against 3 whole units without stream-K.
    const DeviceCeilings ceilings = estimate_ceilings(d);
    WgmmaConfig whole = c;
    whole.stream_k = false;
    EXPECT_NEAR(c.estimate_cost(p, d, ceilings).wave_efficiency, 288.0 / ((2 + 18.0 / 96) * 132), 1e-9);
    EXPECT_NEAR(whole.estimate_cost(p, d, ceilings).wave_efficiency, 288.0 / (3 * 132), 1e-9);
    // Units a multiple of the clusters (24 x 11 = 264 on 66): nothing to deal out.
    EXPECT_EQ(rule_of(c, half(6144, 2816, 6144)), PruneRule::Knobs);
}

// K split across a cluster (_k): S blocks of a cluster share each tile, one cluster per tile, their partial sums met in
// distributed shared memory. 4096 x 128 x 4096 in 128 x 128 tiles is 32 tiles: 128 blocks in clusters of 4.
TEST(WgmmaFamily, KSplitAcrossAClusterLaunchesAClusterPerTile) {
    const DeviceInfo d = h200_profile();
    const Problem p = half(4096, 128, 4096);
    WgmmaConfig c;
    c.bm = c.bn = 128;
    c.stages = 6;
    c.ksplit = 4;
    EXPECT_EQ(c.to_string(), "wgmma_128x128x64_c2_s6_g8_k4");
    EXPECT_EQ(WgmmaConfig::parse("wgmma_128x128x64_c2_s6_g8_k4"), c);
    EXPECT_FALSE(WgmmaConfig::parse("wgmma_128x128x64_c2_s6_g8_k1"));  // the default spelled out
    EXPECT_FALSE(WgmmaConfig::parse("wgmma_128x128x64_c2_s6_g8_q132_k4"));  // the fields' order is fixed
    EXPECT_FALSE(rule_of(c, p)) << c.validate(p, d)->reason;
    const LaunchDescription launch = c.launch(p);
    EXPECT_EQ(launch.grid.x, 128u);
    EXPECT_EQ(launch.cluster.x, 4u);
    EXPECT_EQ(launch.partial_sums_bytes, 0);  // no workspace
    EXPECT_TRUE(defines_knob(c, "WGMMA_KSPLIT", 4));
    EXPECT_TRUE(defines_knob(WgmmaConfig{}, "WGMMA_KSPLIT", 1));
    // What the kernel cannot take: 3 blocks of 32 rows (slices of whole pairs of 8-row chunks, two pairs here), a
    // persistent grid, stream-K, a multicast pair, C through the TMA, fewer k blocks than blocks, more than 8.
    const auto rejected = [&](auto change, const Problem& q) {
        WgmmaConfig x = c;
        change(x);
        return rule_of(x, q) == PruneRule::Knobs;
    };
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.bm = 32, x.ksplit = 3; }, p));
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.ksplit = 16; }, p));
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.grid = 132; }, p));
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.grid = 132, x.stream_k = true; }, p));
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.cluster = 2; }, p));
    EXPECT_TRUE(rejected([](WgmmaConfig& x) { x.tma_store = true; }, p));
    EXPECT_TRUE(rejected([](WgmmaConfig&) {}, half(4096, 128, 192)));  // 3 k blocks for 4 blocks
    WgmmaConfig three = c;
    three.bm = 192;
    three.stages = 4;
    three.ksplit = 3;  // 24 chunks of 8 rows: 8 a block
    EXPECT_FALSE(rule_of(three, p)) << three.validate(p, d)->reason;
    // Costed as a fraction of a tile per block with the meeting, not a whole tile per SM, in the waves its clusters
    // take: on the H100 (sessions 34 and 36) the 32 tiles split in two ran 20.1 us against 25.0 for whole tiles on
    // 32 SMs, split in four 27.6-28.3 (30 clusters of 4 resident: two waves).
    const DeviceCeilings ceilings = estimate_ceilings(d);
    WgmmaConfig whole = c, halves = c;
    whole.ksplit = 1;
    halves.ksplit = 2;
    EXPECT_LT(halves.estimate_cost(p, d, ceilings).seconds, whole.estimate_cost(p, d, ceilings).seconds);
    EXPECT_LT(halves.estimate_cost(p, d, ceilings).seconds, c.estimate_cost(p, d, ceilings).seconds);
    // The search reaches it as a refinement where the tiles leave half the SMs idle (every split that fits one wave:
    // 2 and 4 here, not 8), from any configuration of the tile; a split refines to the splits beside it (those that
    // validate: the other refinements of a split, a persistent grid or C through the TMA, do not).
    const auto splits_of = [&](const WgmmaConfig& from, const Problem& q) {
        std::set<int> out;
        for (const WgmmaConfig& r : from.refinements(q, d))
            if (r.ksplit != from.ksplit && !r.validate(q, d)) out.insert(r.ksplit);
        return out;
    };
    WgmmaConfig dealt = whole;
    dealt.grid = 132;
    dealt.stream_k = true;
    dealt.tma_store = true;
    if (WgmmaConfig::kSearchesClusterSplit) {
        EXPECT_EQ(splits_of(whole, p), (std::set<int>{2, 4}));
        EXPECT_EQ(splits_of(dealt, p), (std::set<int>{2, 4}));
    } else {
        EXPECT_TRUE(splits_of(whole, p).empty());
    }
    EXPECT_EQ(splits_of(c, p), (std::set<int>{2, 8}));
    EXPECT_TRUE(splits_of(WgmmaConfig{}, half(4096, 4096, 4096)).empty());  // 128 tiles of 256 x 128: no split
}

// A C the TMA cannot write (4097 rows of 16 bits): the search's candidates start from C staged and copied out by the
// threads (_tc) and refine to the store from the registers, and back; a C the TMA writes, or a batch, has no such twin.
TEST(WgmmaFamily, ACTheTmaCannotWriteStartsCopiedOutByTheThreads) {
    const DeviceInfo d = h200_profile();
    Problem odd = half(4097, 4096, 4096);
    odd.align_a = odd.align_c = 2;
    const std::vector<WgmmaConfig> candidates = WgmmaConfig::enumerate(odd, d);
    ASSERT_FALSE(candidates.empty());
    int copied = 0;
    for (const WgmmaConfig& c : candidates) {
        EXPECT_FALSE(c.tma_store) << c.to_string();
        copied += c.copied_store && !c.validate(odd, d) ? 1 : 0;
    }
    EXPECT_GT(copied, 0);
    const auto twin_store = [&](const WgmmaConfig& from, const Problem& p) {
        for (const WgmmaConfig& r : from.refinements(p, d))
            if (r.copied_store != from.copied_store && !r.tma_store && r.bm == from.bm && r.bn == from.bn) return true;
        return false;
    };
    WgmmaConfig big = *WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_q132_p1_tc");
    EXPECT_FALSE(big.validate(odd, d)) << big.validate(odd, d)->reason;
    EXPECT_TRUE(twin_store(big, odd));
    big.copied_store = false;
    EXPECT_TRUE(twin_store(big, odd));
    const Problem aligned = half(4096, 4096, 4096);
    WgmmaConfig plain = *WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_q132");
    EXPECT_FALSE(twin_store(plain, aligned));
    Problem batch = odd;
    batch.batch = 4;
    EXPECT_FALSE(twin_store(plain, batch));
}

// 16-bit operands whose columns start off 128-byte lines: a configuration reading them in place refines to its twin
// that copies them to line-aligned columns first (the measurements weigh the copy); operands on lines have none.
TEST(WgmmaFamily, OperandsOffLinesRefineToAnAlignedCopyAndDefaultToAClusterPair) {
    const DeviceInfo d = h200_profile();
    const auto packs_of_refinements = [&](const Problem& p) {
        std::set<int> packs;
        WgmmaConfig c;
        c.grid = 132;
        c.start_store(c.kernel_problem(p));
        for (const WgmmaConfig& r : c.refinements(p, d)) packs.insert(r.pack);
        return packs;
    };
    Problem off = half(4200, 6000, 3504, DType::F16);  // lda 4200 (8400 bytes), ldb 3504 (7008): neither on a line
    EXPECT_TRUE(packs_of_refinements(off).count(3));
    Problem one = half(4096, 6000, 3504);  // lda on lines, ldb not
    EXPECT_TRUE(packs_of_refinements(one).count(2));
    EXPECT_FALSE(packs_of_refinements(one).count(1));
    EXPECT_EQ(packs_of_refinements(half(4096, 4096, 4096)), std::set<int>{0});
    WgmmaConfig aligned;
    aligned.grid = 132;
    aligned.pack = 3;
    EXPECT_FALSE(rule_of(aligned, off)) << aligned.validate(off, d)->reason;
    // The untuned default reads them in place with a cluster pair (session 33, H100: 0.85-0.92x cuBLAS where the
    // single blocks ran 0.60-0.66x and aligned copies 0.76-0.82x); on lines, single blocks.
    using ClusterAndPack = std::pair<int, int>;
    const auto default_cluster_and_pack = [&](const Problem& p) {
        const auto c = WgmmaConfig::heuristic_default(p, d);
        EXPECT_TRUE(c && !c->validate(p, d));
        return c ? ClusterAndPack{c->cluster, c->pack} : ClusterAndPack{-1, -1};
    };
    EXPECT_EQ(default_cluster_and_pack(off), ClusterAndPack(2, 0));
    EXPECT_EQ(default_cluster_and_pack(one), ClusterAndPack(2, 0));
    EXPECT_EQ(default_cluster_and_pack(half(4096, 4096, 4096)), ClusterAndPack(1, 0));
    Problem sector = half(4096, 4096, 4096);
    sector.lda = 4104;  // 16 bytes past a sector
    EXPECT_EQ(default_cluster_and_pack(sector), ClusterAndPack(2, 0));
}

// The untuned default takes nearly a wave of 128 x 128 tiles (three quarters of the SMs and more) with stream-K
// (H100, session 33: 128 x 16384 x 16384 bf16 0.60 -> 0.89-0.91x cuBLAS); fewer tiles stay with the mma.sync default.
TEST(WgmmaFamily, DefaultDealsNearlyAWaveOfTilesWithStreamK) {
    const DeviceInfo d = h200_profile();
    const Problem skinny = half(128, 16384, 16384);  // 128 tiles of 128 x 128 on 132 SMs
    const auto c = WgmmaConfig::heuristic_default(skinny, d);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->bm, 128);
    EXPECT_EQ(c->bn, 128);
    EXPECT_TRUE(c->stream_k) << c->to_string();
    EXPECT_FALSE(c->validate(skinny, d)) << c->to_string();
    EXPECT_EQ(c->blocks(skinny), 132);
    const Problem three_quarters = half(128, 99 * 128, 4096);  // 99 tiles: 3/4 of 132
    const auto at_the_edge = WgmmaConfig::heuristic_default(three_quarters, d);
    ASSERT_TRUE(at_the_edge);
    EXPECT_TRUE(at_the_edge->stream_k);
    EXPECT_FALSE(WgmmaConfig::heuristic_default(half(128, 98 * 128, 4096), d));  // 98 tiles
    // 32 tiles: one-consumer 64 x 64 tiles fill the SMs instead (session 34), not stream-K.
    const auto few = WgmmaConfig::heuristic_default(half(4096, 128, 4096), d);
    ASSERT_TRUE(few);
    EXPECT_EQ(few->to_string(), "wgmma_64x64x64_c1_s8_g8");
    EXPECT_FALSE(WgmmaConfig::heuristic_default(half(16, 14336, 4096), d));      // 112 tiles, an eighth full
    // A wave and more: whole tiles.
    const auto whole = WgmmaConfig::heuristic_default(half(4096, 4096, 4096), d);
    ASSERT_TRUE(whole);
    EXPECT_FALSE(whole->stream_k);
}

TEST(WgmmaFamily, StreamKNeedsAPersistentGridOfWholeClustersAndTilesLeftOver) {
    Problem p = half(4096, 4096, 4096);
    WgmmaConfig c;
    c.stream_k = true;
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);  // one block per tile: no grid to deal out among
    c.grid = 131;
    c.cluster = 2;
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);  // whole clusters only
    c.cluster = 1;
    c.grid = 128;  // 512 tiles: 4 whole waves, none left
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    c.grid = 132;
    EXPECT_FALSE(rule_of(c, half(4096, 4096, 4096)));
    // 32 tiles, fewer than the blocks: all of them dealt out (2048 k blocks, 15-16 per block), and every block of
    // the grid launches; with K 128 (64 k blocks) some blocks would have none.
    const Problem few_tiles = half(1024, 1024, 4096);
    EXPECT_FALSE(rule_of(c, few_tiles));
    EXPECT_EQ(c.stream_units_left(few_tiles), 32);
    EXPECT_EQ(c.blocks(few_tiles), 132);
    EXPECT_EQ(c.launch(few_tiles).grid.x, 132u);
    EXPECT_EQ(rule_of(c, half(1024, 1024, 128)), PruneRule::Knobs);
    Problem variant = half(4096, 4096, 4096);
    variant.runtime_dim = 1;
    EXPECT_EQ(rule_of(c, variant), PruneRule::RuntimeShape);
}

// Ping-pong (_pp): the two consumers take a persistent block's tiles in turn, each holding a whole tile's accumulators,
// so a tile has half the rows of P that two consumers splitting it would (256 x 64 against 256 x 128: 128
// accumulators per consumer thread either way), and with C through the TMA each consumer has a staging area of its own.
// Cluster pairs along m (_y2): the pair's tiles neighbour along m and share op(B)^T, so a unit is two tiles of m by one
// of n; the name round-trips, only pairs take it, and the kernel hears of it.
TEST(WgmmaFamily, PairsAlongMShareOpBAcrossNeighbouringTilesOfM) {
    Problem p = half(6144, 1528, 6144);
    p.trans_a = p.trans_b = Transpose::Yes;
    p.lda = 6144;
    p.ldb = 1528;
    const auto c = WgmmaConfig::parse("wgmma_192x192x64_c3_s3_g8_y2_q132_tb");
    ASSERT_TRUE(c.has_value());
    EXPECT_TRUE(c->pairs_m);
    EXPECT_EQ(c->cluster, 2);
    EXPECT_EQ(c->to_string(), "wgmma_192x192x64_c3_s3_g8_y2_q132_tb");
    EXPECT_FALSE(rule_of(*c, p));
    EXPECT_EQ(c->units(p), 16 * 8);  // 32 tiles of m in pairs, 8 of n
    WgmmaConfig along_n = *c;
    along_n.pairs_m = false;
    EXPECT_EQ(along_n.units(p), 32 * 4);
    EXPECT_FALSE(along_n == *c);
    const KnobDefines defines = c->defines();
    EXPECT_TRUE(std::find(defines.begin(), defines.end(), std::pair<std::string, long long>{"WGMMA_CLUSTER_M", 1}) !=
                defines.end());
    EXPECT_FALSE(WgmmaConfig::parse("wgmma_192x192x64_c3_s3_g8_y1_q132"));
    WgmmaConfig alone = *c;
    alone.cluster = 1;
    EXPECT_EQ(rule_of(alone, p), PruneRule::Knobs);
    // The refinements of a pair try the other pairing, where the search tries pairs along m.
    const auto refined = c->refinements(p, h200_profile());
    EXPECT_EQ(std::any_of(refined.begin(), refined.end(), [](const WgmmaConfig& r) {
                  return r.cluster == 2 && !r.pairs_m;
              }),
              WgmmaConfig::kSearchesPairsAlongM);
}

TEST(WgmmaFamily, PingPongConsumersTakeWholeTilesInTurn) {
    const DeviceInfo d = h200_profile();
    const Problem p = half(4096, 4096, 4096);
    WgmmaConfig c;
    c.bn = 64;
    c.grid = 132;
    c.pingpong = true;
    EXPECT_EQ(c.to_string(), "wgmma_256x64x64_c2_s4_g8_q132_pp");
    EXPECT_EQ(WgmmaConfig::parse("wgmma_256x64x64_c2_s4_g8_x2_q132_pp_p3_ts")->to_string(),
              "wgmma_256x64x64_c2_s4_g8_x2_q132_pp_p3_ts");
    EXPECT_FALSE(WgmmaConfig::parse("wgmma_256x64x64_c2_s4_g8_q132_pp_sk"));  // the fields' order is fixed
    EXPECT_FALSE(rule_of(c, p)) << c.validate(p, d)->reason;
    EXPECT_EQ(c.consumer_rows(p), 64);
    EXPECT_EQ(c.accumulators(p), 128);
    EXPECT_TRUE(defines_knob(c, "WGMMA_PINGPONG", 1));

    WgmmaConfig wide = c;  // a whole 256 x 128 tile is 256 accumulators per consumer thread
    wide.bn = 128;
    EXPECT_EQ(rule_of(wide, p), PruneRule::Registers);
    WgmmaConfig alone = c;
    alone.consumers = 1;
    EXPECT_EQ(rule_of(alone, p), PruneRule::Knobs);
    WgmmaConfig per_tile = c;  // one block per tile: the second consumer would have nothing to take
    per_tile.grid = 0;
    EXPECT_EQ(rule_of(per_tile, p), PruneRule::Knobs);
    WgmmaConfig dealt = c;
    dealt.stream_k = true;
    EXPECT_EQ(rule_of(dealt, p), PruneRule::Knobs);

    WgmmaConfig staged = c;
    staged.tma_store = true;
    WgmmaConfig split_staged = staged;
    split_staged.pingpong = false;
    split_staged.bn = 128;
    EXPECT_EQ(staged.shared_bytes(p) - c.shared_bytes(p), 2 * 256 * 64 * 2);  // two 256 x 64 staging areas
    EXPECT_EQ(split_staged.shared_bytes(p) - WgmmaConfig{}.shared_bytes(p), 256 * 128 * 2);

    // The search lists ping-pong tiles (two consumers, persistent grid) and refines a split winner to ping-pong on
    // half its rows of P, and a ping-pong one to the split tile with as many accumulators per consumer, twice the
    // rows of P — the instruction's rows run along m for TF32 with op(A) read through registers, where those are
    // BM's.
    WgmmaConfig split;
    split.grid = 132;
    const auto has = [&](const WgmmaConfig& from, const Problem& q, int bm, int bn, bool pingpong) {
        for (const WgmmaConfig& r : from.refinements(q, d))
            if (r.bm == bm && r.bn == bn && r.pingpong == pingpong && r.grid == 132 && !rule_of(r, q)) return true;
        return false;
    };
    int listed = 0;
    for (const WgmmaConfig& e : WgmmaConfig::enumerate(p, d))
        if (e.pingpong) {
            ++listed;
            EXPECT_TRUE(e.consumers == 2 && e.grid > 0 && !e.stream_k) << e.to_string();
        }
    EXPECT_GT(listed, 0);
    EXPECT_TRUE(has(split, p, 256, 64, true));
    EXPECT_TRUE(has(c, p, 256, 128, false));
    const Problem along_m = tf32(4096, 4096, 4096, Transpose::No, Transpose::No);
    WgmmaConfig tf32_pingpong = tf32_config();
    tf32_pingpong.bm = 128;
    tf32_pingpong.bn = 128;
    tf32_pingpong.grid = 132;
    tf32_pingpong.pingpong = true;
    ASSERT_TRUE(WgmmaConfig::forced_rows_along_m(tf32_pingpong.kernel_problem(along_m)));
    EXPECT_FALSE(rule_of(tf32_pingpong, along_m));
    EXPECT_TRUE(has(tf32_pingpong, along_m, 256, 128, false));
    // Its epilogue overlaps the other consumer's instructions: the model ranks it ahead of the same tile split. But
    // its tiles are half the split's, so on a large problem the L2 term ranks the best split tile first (measured on
    // an H100: 256 x 128 split in a cluster 0.96x cuBLAS, 256 x 64 ping-pong 0.79x).
    const DeviceCeilings ceilings = estimate_ceilings(d);
    WgmmaConfig best_split = split;  // 256 x 128
    best_split.cluster = 2;
    WgmmaConfig best_pingpong = c;
    best_pingpong.cluster = 2;
    EXPECT_LT(best_split.estimate_cost(p, d, ceilings).seconds, best_pingpong.estimate_cost(p, d, ceilings).seconds);
    WgmmaConfig square_split;
    square_split.bm = square_split.bn = 128;
    square_split.grid = 132;
    WgmmaConfig square_pingpong = square_split;
    square_pingpong.pingpong = true;
    EXPECT_LT(square_pingpong.estimate_cost(p, d, ceilings).seconds, square_split.estimate_cost(p, d, ceilings).seconds);
}

// TF32 operands read through registers hold two stages' fragments beside the accumulators. Compiled for sm_90a, every
// tile of up to 192 such registers per consumer thread kept its wgmma pipeline and every one of 256 or more had it
// serialized (C7511); with C through the TMA, tiles above 128 spilled. The family refuses those before compiling.
TEST(WgmmaFamily, Tf32FragmentsAndAccumulatorsStayWithinTheRegistersThatCompiled) {
    const Problem along_m = tf32(4096, 4096, 4096, Transpose::No, Transpose::No);  // op(A) through registers
    WgmmaConfig c = tf32_config();
    c.grid = 132;
    // The default tile: 128 accumulators and 2 x 2 x 4 x 4 fragment registers.
    const Problem kernel = c.kernel_problem(along_m);
    EXPECT_EQ(c.accumulators(kernel), 128);
    EXPECT_EQ(c.fragment_registers(kernel), 64);
    EXPECT_FALSE(rule_of(c, along_m));
    WgmmaConfig deep = c;  // twice the k steps per stage: 128 fragment registers
    deep.bk = 64;
    deep.stages = 2;
    EXPECT_EQ(deep.fragment_registers(deep.kernel_problem(along_m)), 128);
    EXPECT_EQ(rule_of(deep, along_m), PruneRule::Registers);
    WgmmaConfig pingpong = c;  // a whole 256 x 64 tile per consumer: 4 row blocks of fragments
    pingpong.bn = 64;
    pingpong.pingpong = true;
    EXPECT_EQ(rule_of(pingpong, along_m), PruneRule::Registers);
    pingpong.bm = 128;
    pingpong.bn = 128;
    EXPECT_FALSE(rule_of(pingpong, along_m));
    // Both operands k-contiguous: nothing through registers, every tile of 128 accumulators.
    const Problem k_major = tf32(4096, 4096, 4096, Transpose::Yes, Transpose::No);
    EXPECT_EQ(deep.fragment_registers(deep.kernel_problem(k_major)), 0);
    EXPECT_FALSE(rule_of(deep, k_major));
    // op(B) through registers (rows along n) with C through the TMA: at most 128 in all.
    const Problem along_n = tf32(4096, 4096, 4096, Transpose::Yes, Transpose::Yes);
    WgmmaConfig staged = c;
    staged.tma_store = true;
    staged.stages = 2;
    EXPECT_EQ(staged.accumulators(staged.kernel_problem(along_n)) +
                  staged.fragment_registers(staged.kernel_problem(along_n)), 128 + 32);
    EXPECT_EQ(rule_of(staged, along_n), PruneRule::Registers);
    staged.bm = 128;  // 64 accumulators and 32 fragment registers
    EXPECT_FALSE(rule_of(staged, along_n)) << staged.validate(along_n, h200_profile())->reason;
}

}  // namespace
}  // namespace jitgemm
