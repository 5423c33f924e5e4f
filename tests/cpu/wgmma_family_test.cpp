// The wgmma family's host side without a GPU: what it computes (types, device, alignment), its knob rules, its launch
// (grid, block, shared memory, packs, the tensor-map preparation), the search space and the untuned default.
#include <gtest/gtest.h>

#include <set>

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

std::optional<PruneRule> rule_of(const WgmmaConfig& c, const Problem& p, const DeviceInfo& d = h200_profile()) {
    const auto r = c.validate(p, d);
    return r ? std::optional<PruneRule>(r->rule) : std::nullopt;
}

TEST(WgmmaFamily, TakesHalfPrecisionOnSm90Only) {
    const Problem bf16 = half(4096, 4096, 4096), f16 = half(4096, 4096, 4096, DType::F16);
    EXPECT_FALSE(rule_of(WgmmaConfig{}, bf16));
    EXPECT_FALSE(rule_of(WgmmaConfig{}, f16));
    Problem f32 = half(4096, 4096, 4096, DType::F32);
    EXPECT_EQ(rule_of(WgmmaConfig{}, f32), PruneRule::Dtype);
    f32.compute = ComputeType::TF32;
    EXPECT_EQ(rule_of(WgmmaConfig{}, f32), PruneRule::Dtype);
    EXPECT_EQ(rule_of(WgmmaConfig{}, bf16, a100_profile()), PruneRule::Dtype);
    Problem to_f32 = bf16;  // any output type
    to_f32.c_type = DType::F32;
    EXPECT_FALSE(rule_of(WgmmaConfig{}, to_f32));
}

TEST(WgmmaFamily, KnobRules) {
    const Problem p = half(4096, 4096, 4096);
    WgmmaConfig c;
    c.bm = 96;
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);  // not an instruction width the family writes
    c = WgmmaConfig{};
    c.bn = 192;  // 96 columns per consumer: not whole 64-row instruction blocks
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    c = WgmmaConfig{};
    c.bk = 32;
    EXPECT_EQ(rule_of(c, p), PruneRule::Knobs);
    c = WgmmaConfig{};
    c.bn = 256;  // two instruction blocks of 128 accumulators per consumer thread
    EXPECT_EQ(c.accumulators(), 256);
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
    EXPECT_EQ(widths, (std::set<int>{64, 128, 192, 256}));
    EXPECT_EQ(grids, (std::set<int>{0, d.sm_count}));
    Problem odd = half(4097, 4097, 4097);
    odd.align_a = odd.align_b = 2;
    for (const WgmmaConfig& c : WgmmaConfig::enumerate(odd, d)) EXPECT_EQ(c.pack, 3);
    EXPECT_TRUE(WgmmaConfig::enumerate(aligned, a100_profile()).empty());
    EXPECT_TRUE(WgmmaConfig::enumerate(half(4096, 4096, 4096, DType::F32), d).empty());
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
    }
    Problem odd = half(4097, 4097, 4097);
    odd.align_a = odd.align_b = 2;
    const AnyConfig packed = heuristic_config(odd, d);
    ASSERT_NE(std::get_if<WgmmaConfig>(&packed), nullptr);
    EXPECT_EQ(std::get<WgmmaConfig>(packed).pack, 3);
    // Too few tiles (the mma.sync family splits K), too small, or not Hopper: another family's default.
    EXPECT_NE(family_name(heuristic_config(half(1024, 1024, 1024), d)), "wgmma");
    EXPECT_NE(family_name(heuristic_config(half(512, 512, 512), d)), "wgmma");
    EXPECT_NE(family_name(heuristic_config(half(4096, 4096, 4096), a100_profile())), "wgmma");
}

}  // namespace
}  // namespace jitgemm
