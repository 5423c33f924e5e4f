// Every kernel family against the float64 host reference on fresh random data: at least 50 random shapes each
// (1x1x1, primes, tails around tile multiples, all four transposes, both orders, leading dimensions above the
// minimum — odd ones make 16-bit operands 2-byte aligned), outputs poisoned (NaN in C when beta = 0; a sentinel in
// C's padding that must survive), beta = 0, 1 and general, alpha = 1 and general. The Tensor Core family runs once
// per type combination (bf16, fp16 to each output type, TF32), each element within its dtype's error bound and the
// whole within the relative norm error asked of the type. Cases run on several host threads at once, which
// overlaps their NVRTC compiles and exercises gemm from many threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <utility>

#include "runtime/device/device_info.h"
#include "runtime/driver/context.h"
#include "runtime/problem/gemm_call.h"
#include "support/gpu_test_support.h"
#include "support/parallel_gemm_cases.h"
#include "support/random_gemm_shape.h"
#include "tuner/families/registry.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

struct FamilyCase {
    std::string name;
    std::vector<std::string> configs;  // each case uses one of these, at random
    DType ab_type = DType::F32;
    std::vector<DType> c_types = {DType::F32};  // each case's output type, at random
    ComputeType compute = ComputeType::F32;
    double max_relative_error = 1e-5;  // ||C - ref|| / ||ref|| asked of the type
    // For a family of one layout per case (the wgmma family: every transpose is its own set of 50 shapes): the
    // transposes every shape takes, larger sizes so that tiles repeat and persistent blocks loop, and "_p3" added to
    // the configuration of a shape whose operands the family cannot read unpacked (not 16-byte aligned).
    std::optional<std::pair<Transpose, Transpose>> transposes{};
    // TF32 in the wgmma family: of the operands a shape's canonical problem stores across k (m- or n-contiguous), at
    // random either all are packed, copied transposed first ("_p<mask>" with the misaligned ones), or as few as the
    // kernel needs (one where both are; the other then read through registers).
    bool pack_across_k = false;
    int cc_major = 0;  // the compute capability the family needs (0: any)
    friend void PrintTo(const FamilyCase& c, std::ostream* os) { *os << c.name; }
};

std::int64_t random_size(std::mt19937_64& rng) {
    static const std::int64_t primes[] = {2, 3, 5, 7, 11, 13, 17, 31, 61, 67, 97, 127, 131, 193, 257, 263};
    std::uniform_int_distribution<int> kind(0, 3);
    switch (kind(rng)) {
        case 0: return primes[std::uniform_int_distribution<std::size_t>(0, std::size(primes) - 1)(rng)];
        case 1: {  // a tile multiple, or one off it
            const std::int64_t base = 32 * std::uniform_int_distribution<std::int64_t>(1, 9)(rng);
            return base + std::uniform_int_distribution<std::int64_t>(-1, 1)(rng);
        }
        case 2: return std::uniform_int_distribution<std::int64_t>(1, 8)(rng);
        default: return std::uniform_int_distribution<std::int64_t>(1, 300)(rng);
    }
}

GemmShape random_shape(std::mt19937_64& rng) {
    const std::int64_t m = random_size(rng), n = random_size(rng), k = random_size(rng);
    return testing::random_gemm_shape(rng, m, n, k);
}

// Whether the TMA can read A and B of the shape where they are: 16-byte aligned pointers and leading dimensions.
bool tma_aligned(const GemmShape& s) {
    const bool pointers = s.alignment == 0 || s.alignment >= 16;
    const int bytes = size_of(s.a_type);
    return pointers && s.lda * bytes % 16 == 0 && s.ldb * bytes % 16 == 0;
}

// The operands (bit 0 A, bit 1 B) of the shape's canonical problem stored across k: a row-major call swaps A and B,
// and with them which operand that is.
int stored_across_k(const GemmShape& s) {
    const void* somewhere = reinterpret_cast<const void*>(std::uintptr_t{1} << 20);  // never read
    const Problem p = make_canonical_call(s.call(somewhere, somewhere, const_cast<void*>(somewhere))).problem;
    return (p.trans_a == Transpose::No ? 1 : 0) | (p.trans_b == Transpose::Yes ? 2 : 0);
}

// Shapes for a family that runs one layout per case: sizes into the thousands (several tiles of 256, tails of every
// size), the transposes fixed.
std::vector<GemmShape> shapes_of_one_layout(std::mt19937_64& rng, std::pair<Transpose, Transpose> transposes) {
    std::vector<GemmShape> shapes;
    std::uniform_int_distribution<int> kind(0, 2);
    auto size = [&] {
        if (kind(rng) == 0) return 64 * std::uniform_int_distribution<std::int64_t>(1, 16)(rng);
        if (kind(rng) == 0) return std::uniform_int_distribution<std::int64_t>(1, 1100)(rng);
        return random_size(rng);
    };
    while (shapes.size() < 50) {
        GemmShape s = testing::random_gemm_shape(rng, size(), size(), size());
        s.trans_a = transposes.first;
        s.trans_b = transposes.second;
        testing::pad_leading_dimensions(rng, s);
        shapes.push_back(s);
    }
    return shapes;
}

std::vector<GemmShape> shapes_for_run(std::mt19937_64& rng) {
    std::vector<GemmShape> shapes;
    GemmShape one;  // 1 x 1 x 1
    shapes.push_back(one.with_minimum_leading_dimensions());
    for (const auto ta : {Transpose::No, Transpose::Yes})
        for (const auto tb : {Transpose::No, Transpose::Yes}) {
            GemmShape aligned;  // every transpose on a shape that takes the widest vector paths
            aligned.trans_a = ta;
            aligned.trans_b = tb;
            aligned.m = 256;
            aligned.n = 128;
            aligned.k = 64;
            aligned.beta = 0.5f;
            shapes.push_back(aligned.with_minimum_leading_dimensions());
        }
    while (shapes.size() < 60) shapes.push_back(random_shape(rng));
    return shapes;
}

// Tensor Core configurations that reach every code path (each valid for every alignment the shapes give): tiles from 32 to 256, one to eight warps, 2 to 5 stages,
// k depths of one to eight mma steps, every rasterization group, operands packed to an aligned copy or not.
const std::vector<std::string> kHalfConfigs = {
    "mma_sync_128x128x32_w2x4_s3_g8", "mma_sync_64x64x32_w2x2_s4_g1",  "mma_sync_32x32x16_w1x1_s2_g8",
    "mma_sync_64x128x16_w1x4_s5_g8",  "mma_sync_128x64x64_w2x2_s2_g16", "mma_sync_128x128x32_w2x4_s3_g8_p3",
    "mma_sync_64x64x32_w2x2_s4_g1_p1", "mma_sync_32x32x16_w1x1_s2_g8_p2",
    // 64 x 64 warp tiles: within the register limit only with nothing staged through registers, so packed.
    "mma_sync_256x128x64_w4x2_s3_g4_p3", "mma_sync_128x256x32_w2x4_s4_g8_p3",
    // k tiles of 128 (eight mma steps, 256-byte shared rows), packed for the same reason.
    "mma_sync_128x64x128_w2x2_s2_g8_p3"};
const std::vector<std::string> kTf32Configs = {
    "mma_sync_128x128x32_w2x4_s3_g8", "mma_sync_64x64x16_w2x2_s4_g1",  "mma_sync_32x32x16_w1x1_s2_g8",
    "mma_sync_256x128x32_w4x2_s3_g4", "mma_sync_64x128x16_w1x4_s5_g8", "mma_sync_128x64x32_w2x1_s2_g16",
    "mma_sync_64x64x16_w2x2_s3_g8_p3"};

// The wgmma family: instruction widths 16 to 256, one and two consumers, k depths 64 and 128, 3 to 8 stages, every
// rasterization group, one block per tile and persistent grids smaller than the tiles (blocks loop over several tiles,
// the ring's phases run on across them), clusters of one and two.
const std::vector<std::string> kWgmmaConfigs = {
    "wgmma_256x128x64_c2_s4_g8",      "wgmma_128x128x64_c2_s6_g8_q132", "wgmma_128x256x64_c2_s4_g1_q3",
    "wgmma_64x64x64_c1_s8_g8_q5",     "wgmma_192x128x64_c2_s4_g4",      "wgmma_64x192x128_c1_s3_g16_q7",
    "wgmma_256x64x64_c1_s4_g8",       "wgmma_128x128x128_c2_s3_g8_q11",
    // Clusters of two sharing op(A) by multicast: one unit per tile pair, persistent or not, odd tile counts along n.
    "wgmma_256x128x64_c2_s4_g8_x2_q132", "wgmma_128x128x64_c2_s6_g4_x2",  "wgmma_64x64x64_c1_s8_g8_x2_q6",
    "wgmma_192x128x64_c2_s4_g1_x2",
    // C through shared memory and the TMA: persistent blocks reusing their staging area tile after tile, one and two
    // consumers, a cluster, and fp32 C's 32-wide boxes (shapes where C is not 16-byte aligned fall back to others).
    "wgmma_256x128x64_c2_s3_g8_q132_ts", "wgmma_128x128x64_c2_s4_g8_ts", "wgmma_64x128x64_c1_s4_g8_q5_ts",
    "wgmma_128x256x64_c2_s3_g4_x2_q132_ts",
    // The same box by box through two buffers per consumer (_tb): four boxes a tile over a persistent grid, three (an
    // odd count: the buffers alternate across tiles) over a small grid, and ping-pong's two staging areas.
    "wgmma_256x128x64_c2_s4_g8_q132_tb", "wgmma_192x128x64_c2_s4_g4_q7_tb", "wgmma_256x64x64_c2_s4_g8_q5_pp_tb",
    // The same boxes copied out to C by the consumers' threads (_tc, any C's alignment: the shapes' odd m and leading
    // dimensions): four, three and one box a tile, persistent and not, a cluster, ping-pong.
    "wgmma_256x128x64_c2_s4_g8_q132_tc", "wgmma_192x128x64_c2_s4_g4_q7_tc", "wgmma_256x64x64_c2_s4_g8_q5_pp_tc",
    "wgmma_128x128x64_c2_s4_g8_x2_tc", "wgmma_64x128x64_c1_s4_g8_q5_tc",
    // Stream-K: small grids, so that most shapes leave tiles over after whole waves and runs cross tiles, and a grid
    // of one block per SM, so that most shapes have no whole wave and every tile is dealt out (shapes whose k blocks
    // are fewer than the blocks fall back to others); with C through the TMA too; and in cluster pairs, both blocks
    // walking the same runs (odd tile counts along n: the last pair's second tile empty).
    "wgmma_128x128x64_c2_s4_g8_q7_sk", "wgmma_64x128x64_c1_s6_g4_q5_sk", "wgmma_256x128x64_c2_s3_g8_q3_sk_ts",
    "wgmma_128x128x64_c2_s6_g8_q132_sk", "wgmma_128x128x64_c2_s4_g8_x2_q6_sk", "wgmma_64x128x64_c1_s6_g4_x2_q10_sk_ts",
    "wgmma_256x128x64_c2_s4_g8_x2_q132_sk",
    // K split across a cluster of 2, 3, 4 and 8 blocks (sums met in distributed shared memory), one and two consumers
    // (shapes with fewer k blocks than blocks fall back to others).
    "wgmma_128x128x64_c2_s6_g8_k4", "wgmma_64x128x64_c1_s8_g4_k2", "wgmma_192x128x64_c2_s4_g1_k3",
    "wgmma_256x64x64_c1_s4_g8_k8",
    // Ping-pong: consumers taking whole tiles in turn, over grids of one block per SM and small ones (many tiles per
    // block, odd and even counts: the ring's positions skipped for the other consumer's tiles), a cluster, both k
    // depths, and C through the TMA from two staging areas.
    "wgmma_256x64x64_c2_s5_g8_q132_pp", "wgmma_128x128x64_c2_s6_g4_x2_q6_pp", "wgmma_128x64x128_c2_s4_g1_q3_pp",
    "wgmma_64x128x64_c2_s6_g8_q5_pp_ts",
    // Instruction widths fitted to a narrow m (multiples of 16 that are not 64's): op(A) stored m-contiguous arrives in
    // whole 64-wide boxes of which the instructions read part (48, 80, 144), k-major in boxes of the tile's rows; with
    // K split across a cluster (pairs of 8-m chunks dealt out unevenly: 7 over 3), a multicast pair (each block half
    // of a 48-row k-major box; one block loads a lone m-contiguous box), stream-K (accumulator rows of two float4),
    // and fp32 C through the TMA (96: three of its 32-wide boxes; 16-bit C falls back).
    "wgmma_144x64x64_c1_s6_g8_k2", "wgmma_80x64x64_c1_s8_g8", "wgmma_16x128x64_c2_s6_g8_q5",
    "wgmma_48x64x128_c1_s4_g4_x2", "wgmma_208x128x64_c2_s4_g8_q132_sk", "wgmma_112x128x64_c2_s4_g8_k3",
    "wgmma_176x64x64_c1_s4_g8_x2_q132", "wgmma_96x128x64_c2_s4_g8_q7_ts",
    // The instructions turned (_m): their rows along m, their width along n fitted to a narrow n (op(B) stored
    // n-contiguous in whole 64-wide boxes), C stored value by value; K split, a multicast pair, stream-K, ping-pong.
    "wgmma_64x144x64_c1_s7_g8_m_k2", "wgmma_128x80x64_c2_s6_g8_m_q132", "wgmma_64x48x128_c1_s4_g8_m_x2",
    "wgmma_128x208x64_c2_s4_g4_m_q7_sk", "wgmma_128x112x64_c2_s5_g8_m_q132_pp",
    // Deep tiles: two instruction rows a consumer, up to 192 wide (192 accumulators a thread), from the registers,
    // persistent and in a pair; widths fitted to waves (144, 160), fp32 C box by box, and turned (C value by value).
    "wgmma_192x256x64_c2_s4_g8_q132", "wgmma_192x256x64_c2_s3_g8_x2_q132", "wgmma_144x256x64_c2_s3_g8_x2_q7",
    "wgmma_160x256x64_c2_s3_g8_x2_q132_tb", "wgmma_256x160x64_c2_s4_g8_m_x2",
    // Pairs along m (_y2): neighbouring tiles of m sharing op(B)^T (half its boxes or rows each), persistent and not,
    // stream-K, turned, C through the TMA.
    "wgmma_256x128x64_c2_s4_g8_y2_q132_tb", "wgmma_128x128x64_c2_s6_g4_y2", "wgmma_128x128x64_c2_s4_g8_y2_q6_sk",
    "wgmma_128x144x64_c2_s5_g8_m_y2_q132", "wgmma_192x256x64_c2_s4_g8_y2_q132",
    // Turned tiles with C through the TMA, round by round (32 bytes of each column of m a round): deep and in a pair,
    // narrow widths, stream-K, ping-pong, one consumer of 64 rows (one box of 16-bit C a round), pairs along m.
    "wgmma_256x160x64_c2_s3_g8_m_x2_q132_tb", "wgmma_128x80x64_c2_s6_g8_m_q132_tb",
    "wgmma_128x208x64_c2_s4_g4_m_q7_sk_tb", "wgmma_128x112x64_c2_s5_g8_m_q132_pp_tb", "wgmma_64x48x128_c1_s4_g8_m_x2_tb",
    "wgmma_128x144x64_c2_s5_g8_m_y2_q132_tb"};

// Three consumers (c3), one 64-row instruction block each of a 192-row tile: every case of their own (below), so that
// each layout meets all of them — persistent and not, a pair, stream-K, K split in three, C box by box, turned, a
// fitted width; and in pairs along m (_y2, sharing op(B)).
const std::vector<std::string> kWgmmaThreeConsumerConfigs = {
    "wgmma_192x192x64_c3_s4_g8_q132",    "wgmma_192x192x64_c3_s4_g8_x2_q132", "wgmma_192x192x64_c3_s4_g4",
    "wgmma_192x192x64_c3_s3_g8_q132_tb", "wgmma_192x192x64_c3_s4_g8_q7_sk",   "wgmma_128x192x64_c3_s5_g8_k3",
    "wgmma_192x176x64_c3_s4_g8_m_q132",  "wgmma_176x192x128_c3_s2_g8_x2_q6",  "wgmma_192x192x64_c3_s3_g8_y2_q132_tb",
    "wgmma_192x192x64_c3_s4_g8_y2_q6_sk", "wgmma_192x176x64_c3_s4_g8_m_q132_tb"};

// The same for TF32, at the depths of fp32 rows (32 or 64 per stage).
const std::vector<std::string> kWgmmaTf32Configs = {
    "wgmma_256x128x32_c2_s4_g8",      "wgmma_128x128x32_c2_s6_g8_q132", "wgmma_128x256x32_c2_s4_g1_q3",
    "wgmma_64x64x32_c1_s8_g8_q5",     "wgmma_192x128x32_c2_s4_g4",      "wgmma_64x192x64_c1_s3_g16_q7",
    "wgmma_256x64x32_c1_s4_g8",       "wgmma_128x128x64_c2_s3_g8_q11",
    "wgmma_256x128x32_c2_s4_g8_x2_q132", "wgmma_128x128x32_c2_s6_g4_x2",  "wgmma_64x64x32_c1_s8_g8_x2_q6",
    "wgmma_192x128x32_c2_s4_g1_x2", "wgmma_128x128x32_c2_s4_g8_q132_ts", "wgmma_128x128x32_c2_s4_g8_q7_sk",
    "wgmma_256x128x32_c2_s4_g8_q5_sk", "wgmma_128x128x32_c2_s4_g8_x2_q6_sk", "wgmma_128x128x32_c2_s4_g8_q132_pp", "wgmma_128x128x32_c2_s4_g8_x2_q7_pp",
    "wgmma_128x64x64_c2_s4_g8_q5_pp_ts", "wgmma_128x128x32_c2_s6_g8_k4", "wgmma_80x128x32_c2_s4_g8",
    "wgmma_48x64x64_c1_s6_g8_q5", "wgmma_144x64x32_c1_s6_g8_k2", "wgmma_128x128x32_c2_s4_g8_q132_tc",
    "wgmma_192x192x32_c3_s4_g8_q132", "wgmma_192x192x32_c3_s3_g8_x2_q132_tb", "wgmma_128x128x32_c2_s4_g8_y2_q132"};

std::vector<FamilyCase> wgmma_cases() {
    std::vector<FamilyCase> out;
    for (const DType ab : {DType::BF16, DType::F16})
        for (const auto ta : {Transpose::No, Transpose::Yes})
            for (const auto tb : {Transpose::No, Transpose::Yes}) {
                FamilyCase c;
                c.name = std::string("wgmma_") + (ab == DType::BF16 ? "bf16_" : "f16_") +
                         (ta == Transpose::Yes ? "t" : "n") + (tb == Transpose::Yes ? "t" : "n");
                c.configs = kWgmmaConfigs;
                c.ab_type = ab;
                c.c_types = {DType::F32, DType::F16, DType::BF16};
                c.max_relative_error = 1e-2;
                c.transposes = std::pair{ta, tb};
                c.cc_major = 9;
                out.push_back(c);
            }
    for (const DType ab : {DType::BF16, DType::F16})
        for (const auto ta : {Transpose::No, Transpose::Yes}) {
            FamilyCase c = out[ab == DType::BF16 ? 0 : 4];
            c.name = std::string("wgmma_three_consumers_") + (ab == DType::BF16 ? "bf16_" : "f16_") +
                     (ta == Transpose::Yes ? "tn" : "nt");
            c.configs = kWgmmaThreeConsumerConfigs;
            c.transposes = std::pair{ta, ta == Transpose::Yes ? Transpose::No : Transpose::Yes};
            out.push_back(c);
        }
    // TF32: the tolerance of the mma.sync family's TF32 case; operands stored across k are copied k-contiguous first.
    for (const auto ta : {Transpose::No, Transpose::Yes})
        for (const auto tb : {Transpose::No, Transpose::Yes}) {
            FamilyCase c;
            c.name = std::string("wgmma_tf32_") + (ta == Transpose::Yes ? "t" : "n") +
                     (tb == Transpose::Yes ? "t" : "n");
            c.configs = kWgmmaTf32Configs;
            c.ab_type = DType::F32;
            c.c_types = {DType::F32};
            c.compute = ComputeType::TF32;
            c.max_relative_error = 3e-3;
            c.transposes = std::pair{ta, tb};
            c.pack_across_k = true;
            c.cc_major = 9;
            out.push_back(c);
        }
    return out;
}

// Whether `config` computes the shape on this device (its canonical problem, with the pointers' alignment).
bool computes(const std::string& config, const GemmShape& s) {
    alignas(16) static unsigned char storage[64] = {};
    unsigned char* const p = storage + (s.alignment > 0 && s.alignment < 16 ? s.alignment : 0);
    const Problem problem = make_canonical_call(s.call(p, p, p)).problem;
    const auto parsed = parse_config(config);
    return parsed && !validate(*parsed, problem, cached_device_info(driver::device_of(driver::current_context())));
}

class FamilyCorrectness : public ::testing::TestWithParam<FamilyCase> {};

TEST_P(FamilyCorrectness, MatchesFloat64ReferenceOnRandomShapes) {
    JITGEMM_REQUIRE_GPU();
    const FamilyCase& family = GetParam();
    if (family.cc_major > 0 &&
        cached_device_info(driver::device_of(driver::current_context())).cc_major != family.cc_major)
        GTEST_SKIP() << family.name << " needs compute capability " << family.cc_major << ".x";
    const std::uint64_t seed = testing::fresh_seed();
    std::mt19937_64 rng(seed);
    std::vector<GemmShape> cases = family.transposes ? shapes_of_one_layout(rng, *family.transposes)
                                                     : shapes_for_run(rng);
    std::vector<std::string> chosen;
    for (GemmShape& s : cases) {
        chosen.push_back(family.configs[std::uniform_int_distribution<std::size_t>(0, family.configs.size() - 1)(rng)]);
        s.a_type = s.b_type = family.ab_type;
        s.c_type = family.c_types[std::uniform_int_distribution<std::size_t>(0, family.c_types.size() - 1)(rng)];
        s.compute = family.compute;
        testing::maybe_misalign_pointers(rng, s);
        const int across_k = family.pack_across_k ? stored_across_k(s) : 0;
        const int fewest = across_k == 3 ? 1 + (int)(rng() % 2) : 0;  // A or B where both are; else none
        const int pack = (rng() % 2 == 0 ? across_k : fewest) | (family.transposes && !tma_aligned(s) ? 3 : 0);
        std::string& config = chosen.back();
        if (pack != 0) {  // the pack field goes before C's store ("_ts", "_tb" or "_tc"), the last
            const std::string last = config.size() > 3 ? config.substr(config.size() - 3) : "";
            const bool staged = last == "_ts" || last == "_tb" || last == "_tc";
            config.insert(staged ? config.size() - 3 : config.size(), "_p" + std::to_string(pack));
        }
        // A split-K configuration needs a k tile per split, C through the TMA a 16-byte aligned C, and a TF32 wgmma
        // tile whose instructions run along m (op(A) read through registers) consumers of whole 64-row blocks of BM
        // and C from the registers: other shapes take the first configuration.
        if (!computes(config, s)) config = family.configs[0] + (pack != 0 ? "_p" + std::to_string(pack) : "");
    }

    const std::vector<std::string> failures =
        testing::run_gemm_cases_in_parallel(cases, chosen, family.max_relative_error, seed);
    for (const auto& f : failures) ADD_FAILURE() << f;
    EXPECT_TRUE(failures.empty()) << failures.size() << " of " << cases.size() << " cases failed (seed " << seed << ")";
}

INSTANTIATE_TEST_SUITE_P(
    Families, FamilyCorrectness,
    ::testing::Values(FamilyCase{"naive", {"naive_16x16", "naive_32x8", "naive_64x1"}},
                      FamilyCase{"tiled", {"tiled_t16", "tiled_t8", "tiled_t32"}},
                      FamilyCase{"regblock",
                                 {"regblock_128x128x8_t8x8_v4_s2_g8", "regblock_64x64x16_t4x4_v4_s1_g4",
                                  "regblock_128x64x16_t8x4_v2_s2_g1", "regblock_32x32x16_t4x4_v1_s2_g8",
                                  "regblock_64x128x16_t4x8_v4_s2_g2", "regblock_32x64x16_t2x2_v1_s2_g8",
                                  "regblock_64x64x16_t4x4_v4_s2_g8_k3", "regblock_128x64x8_t8x4_v2_s1_g1_k2"}},
                      FamilyCase{"naive_bf16", {"naive_16x16", "naive_32x8"}, DType::BF16,
                                 {DType::BF16, DType::F32}, ComputeType::F32, 1e-2},
                      FamilyCase{"mma_bf16", kHalfConfigs, DType::BF16, {DType::BF16}, ComputeType::F32, 1e-2},
                      FamilyCase{"mma_bf16_to_f32_or_f16", kHalfConfigs, DType::BF16, {DType::F32, DType::F16},
                                 ComputeType::F32, 3e-3},
                      FamilyCase{"mma_f16", kHalfConfigs, DType::F16, {DType::F16}, ComputeType::F32, 3e-3},
                      FamilyCase{"mma_f16_to_f32_or_bf16", kHalfConfigs, DType::F16, {DType::F32, DType::BF16},
                                 ComputeType::F32, 1e-2},
                      FamilyCase{"mma_tf32", kTf32Configs, DType::F32, {DType::F32}, ComputeType::TF32, 3e-3}),
    [](const auto& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(Wgmma, FamilyCorrectness, ::testing::ValuesIn(wgmma_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace jitgemm
