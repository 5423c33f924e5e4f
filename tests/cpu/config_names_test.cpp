// Configuration names: every family's to_string/parse round trip over random knobs, and malformed names refused.
#include <gtest/gtest.h>

#include <random>

#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

int pick(std::mt19937_64& rng, std::initializer_list<int> values) {
    std::uniform_int_distribution<std::size_t> d(0, values.size() - 1);
    return *(values.begin() + d(rng));
}

AnyConfig random_config(std::mt19937_64& rng, std::string_view family) {
    {
        if (family == NaiveConfig::kName) {
            NaiveConfig c;
            c.bm = pick(rng, {1, 8, 16, 32, 64});
            c.bn = pick(rng, {1, 4, 16, 32});
            return c;
        }
        if (family == TiledConfig::kName) {
            TiledConfig c;
            c.t = pick(rng, {2, 4, 8, 16, 32});
            return c;
        }
        if (family == RegBlockConfig::kName) {
            RegBlockConfig c;
            c.bm = pick(rng, {16, 32, 64, 128, 256});
            c.bn = pick(rng, {16, 32, 64, 128, 256});
            c.bk = pick(rng, {4, 8, 16, 32});
            c.tm = pick(rng, {1, 2, 4, 8, 16});
            c.tn = pick(rng, {1, 2, 4, 8, 16});
            c.vec = pick(rng, {1, 2, 4});
            c.stages = pick(rng, {1, 2});
            c.group = pick(rng, {1, 4, 8, 16});
            return c;
        }
        if (family == WgmmaConfig::kName) {
            WgmmaConfig c;
            c.bm = pick(rng, {64, 128, 192, 256});
            c.bn = pick(rng, {64, 128, 256});
            c.bk = pick(rng, {32, 64, 128});  // 32: a TF32 row
            c.consumers = pick(rng, {1, 2});
            c.stages = pick(rng, {2, 4, 8});
            c.group = pick(rng, {1, 8, 16});
            c.cluster = pick(rng, {1, 2});
            c.grid = pick(rng, {0, 0, 132, 7});
            c.pack = pick(rng, {0, 0, 1, 2, 3});
            c.tma_store = pick(rng, {0, 1}) != 0;
            return c;
        }
        if (family == MmaSyncConfig::kName) {
            MmaSyncConfig c;
            c.bm = pick(rng, {32, 64, 128, 256});
            c.bn = pick(rng, {32, 64, 128, 256});
            c.bk = pick(rng, {16, 32, 64});
            c.wm = pick(rng, {1, 2, 4, 8});
            c.wn = pick(rng, {1, 2, 4, 8});
            c.stages = pick(rng, {2, 3, 4, 5});
            c.group = pick(rng, {1, 4, 8, 16});
            c.pack = pick(rng, {0, 1, 2, 3});
            c.splits = pick(rng, {1, 1, 2, 3, 8, 16});
            if (c.splits == 1) c.stream_blocks = pick(rng, {0, 0, 132, 264, 7});
            return c;
        }
    }
    return NaiveConfig{};
}

TEST(ConfigNames, RoundTripOfRandomKnobsInEveryFamily) {
    std::mt19937_64 rng(std::random_device{}());
    for (const std::string_view family : {NaiveConfig::kName, TiledConfig::kName, RegBlockConfig::kName,
                                          MmaSyncConfig::kName, WgmmaConfig::kName}) {
        for (int i = 0; i < 200; ++i) {
            const AnyConfig config = random_config(rng, family);
            const std::string name = to_string(config);
            const auto parsed = parse_config(name);
            ASSERT_TRUE(parsed.has_value()) << name;
            EXPECT_EQ(family_name(*parsed), family) << name;
            EXPECT_TRUE(*parsed == config) << name;
            EXPECT_EQ(to_string(*parsed), name);
        }
    }
}

TEST(ConfigNames, CanonicalFormsOfTheDefaults) {
    EXPECT_EQ(NaiveConfig{}.to_string(), "naive_16x16");
    EXPECT_EQ(TiledConfig{}.to_string(), "tiled_t16");
    EXPECT_EQ(RegBlockConfig{}.to_string(), "regblock_128x128x8_t8x8_v4_s2_g8");
    RegBlockConfig split;
    split.splits = 4;
    EXPECT_EQ(split.to_string(), "regblock_128x128x8_t8x8_v4_s2_g8_k4");  // the split count only where it is not 1
    EXPECT_EQ(RegBlockConfig::parse("regblock_128x128x8_t8x8_v4_s2_g8_k4"), split);
    EXPECT_FALSE(RegBlockConfig::parse("regblock_128x128x8_t8x8_v4_s2_g8_k1").has_value());
    EXPECT_EQ(MmaSyncConfig{}.to_string(), "mma_sync_128x128x32_w2x4_s3_g8");  // nothing packed: no pack field
    MmaSyncConfig packed;
    packed.pack = 3;
    EXPECT_EQ(packed.to_string(), "mma_sync_128x128x32_w2x4_s3_g8_p3");
    packed.splits = 4;
    EXPECT_EQ(packed.to_string(), "mma_sync_128x128x32_w2x4_s3_g8_k4_p3");  // split count before the pack mask
    packed.splits = 1;
    packed.stream_blocks = 264;
    EXPECT_EQ(packed.to_string(), "mma_sync_128x128x32_w2x4_s3_g8_sk264_p3");  // stream-K blocks before the pack mask
    packed.stream_blocks = 0;
    packed.splits = 2;
    packed.bulk = true;
    EXPECT_EQ(packed.to_string(), "mma_sync_128x128x32_w2x4_s3_g8_k2_p3_bulk");  // bulk copies last
    const auto parsed = MmaSyncConfig::parse("mma_sync_128x128x32_w2x4_s3_g8_k2_p3_bulk");
    ASSERT_TRUE(parsed.has_value());
    EXPECT_TRUE(*parsed == packed);
}

TEST(ConfigNames, WgmmaNamesWriteOptionalFieldsOnlyWhenSet) {
    WgmmaConfig c;
    EXPECT_EQ(c.to_string(), "wgmma_256x128x64_c2_s4_g8");
    c.grid = 132;
    c.pack = 3;
    EXPECT_EQ(c.to_string(), "wgmma_256x128x64_c2_s4_g8_q132_p3");  // the grid before the pack mask
    c.cluster = 2;
    EXPECT_EQ(c.to_string(), "wgmma_256x128x64_c2_s4_g8_x2_q132_p3");  // the cluster before the grid
    const auto parsed = WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_x2_q132_p3");
    ASSERT_TRUE(parsed.has_value());
    EXPECT_TRUE(*parsed == c);
    c.tma_store = true;
    EXPECT_EQ(c.to_string(), "wgmma_256x128x64_c2_s4_g8_x2_q132_p3_ts");  // C through the TMA last
    const auto through_tma = WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_x2_q132_p3_ts");
    ASSERT_TRUE(through_tma.has_value());
    EXPECT_TRUE(*through_tma == c);
    const auto plain_ts = WgmmaConfig::parse("wgmma_128x128x64_c2_s3_g8_ts");
    ASSERT_TRUE(plain_ts.has_value());
    EXPECT_TRUE(plain_ts->tma_store);
    EXPECT_EQ(plain_ts->pack, 0);
    c.store_by_box = true;
    EXPECT_EQ(c.to_string(), "wgmma_256x128x64_c2_s4_g8_x2_q132_p3_tb");  // box by box, in the same place
    const auto by_box = WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_x2_q132_p3_tb");
    ASSERT_TRUE(by_box.has_value());
    EXPECT_TRUE(*by_box == c);
    EXPECT_FALSE(*by_box == *through_tma);
    c.tma_store = c.store_by_box = false;
    c.copied_store = true;
    EXPECT_EQ(c.to_string(), "wgmma_256x128x64_c2_s4_g8_x2_q132_p3_tc");  // copied out by the threads, there too
    const auto copied = WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_x2_q132_p3_tc");
    ASSERT_TRUE(copied.has_value());
    EXPECT_TRUE(*copied == c);
    EXPECT_FALSE(*copied == *by_box);
    EXPECT_FALSE(WgmmaConfig::parse("wgmma_256x128x64_c2_s4_g8_tc_tb").has_value());
    EXPECT_EQ(family_name(*parse_config("wgmma_64x64x64_c1_s8_g1")), "wgmma");
}

TEST(ConfigNames, MalformedNamesAreRefused) {
    for (const char* name :
         {"", "naive", "naive_", "naive_16", "naive_16x", "naive_16x16x16", "naive_0x16", "naive_-1x16", "naive_16y16",
          "tiled", "tiled_16", "tiled_t", "tiled_t16_x", "regblock_128x128_t8x8_v4_s2_g8",
          "regblock_128x128x8_t8x8_v4_s2", "regblock_128x128x8_t8x8_v4_s2_g8_extra", "regblock_128x128x8_8x8_v4_s2_g8",
          "Regblock_128x128x8_t8x8_v4_s2_g8", "regblock_128x128x8_t8x8_v4_s2_g99999999999", "mystery_1",
          "mma", "mma_sync_128x128x32_w2x4_s3", "mma_sync_128x128_w2x4_s3_g8", "mma_sync_128x128x32_2x4_s3_g8",
          "mma_sync_128x128x32_w2x4_s3_g8_e2", "mma_sync_128x128x32_w2_s3_g8", "mma_sync_128x128x32_w2x4_s3_g8_p0",
          "mma_sync_128x128x32_w2x4_s3_g8_p1_p2", "mma_sync_128x128x32_w2x4_s3_g8_k1",
          "mma_sync_128x128x32_w2x4_s3_g8_p3_k2", "mma_sync_128x128x32_w2x4_s3_g8_k2_k2", "mma_sync_128x128x32_w2x4_s3_g8_k",
          "mma_sync_128x128x32_w2x4_s3_g8_k2_p3_x", "mma_sync_128x128x32_w2x4_s3_g8_sk0", "mma_sync_128x128x32_w2x4_s3_g8_sk",
          "mma_sync_128x128x32_w2x4_s3_g8_p3_sk132", "mma_sync_128x128x32_w2x4_s3_g8_sk132_k2",
          "mma_sync_128x128x32_w2x4_s3_g8_sk132_sk132", "mma_sync_128x128x32_w2x4_s3_g8_bulk_p3",
          "mma_sync_128x128x32_w2x4_s3_g8_p3_bulk_bulk", "mma_sync_128x128x32_w2x4_s3_g8_p3_Bulk", "mma_sync_128x128x32_w2x4_s3_g8_p3_bulk_",
          "wgmma", "wgmma_256x128x64_c2_s4", "wgmma_256x128_c2_s4_g8", "wgmma_256x128x64_2_s4_g8",
          "wgmma_256x128x64_c2_s4_g8_q0", "wgmma_256x128x64_c2_s4_g8_p0", "wgmma_256x128x64_c2_s4_g8_p3_q132",
          "wgmma_256x128x64_c2_s4_g8_q132_q132", "wgmma_256x128x64_c2_s4_g8_q132_p3_x",
          "wgmma_256x128x64_c2_s4_g8_x1", "wgmma_256x128x64_c2_s4_g8_q132_x2", "wgmma_256x128x64_c2_s4_g8_ts_p3",
          "wgmma_256x128x64_c2_s4_g8_ts_ts", "wgmma_256x128x64_c2_s4_g8_t", "wgmma_256x128x64_c2_s4_g8_tss",
          "wgmma_256x128x64_c2_s4_g8_ts_tb", "wgmma_256x128x64_c2_s4_g8_tb_ts", "wgmma_256x128x64_c2_s4_g8_tb_p3"}) {
        EXPECT_FALSE(parse_config(name).has_value()) << '"' << name << '"';
    }
}

}  // namespace
}  // namespace jitgemm
