// Tensor Core tiles that fit the problem instead of a power of two (bm or bn 48, 80, 112, 192: 7 x 112 = 784 covers
// n = 777 where 13 x 64 = 832 does), against the float64 host reference. Such a tile needs its operand stored
// k-contiguous unless its rows are whole 128-byte lines (MmaSyncConfig::validate), so each case takes the storage order
// and transposes its configuration allows, at random among them; the rest is random as elsewhere: tails around the
// fitted multiples, odd leading dimensions (the register path and the pack), misaligned pointers, alpha and beta of
// every kind, NaN in C with beta = 0, split-K and stream-K, odd counts of mma row blocks per warp (bn / wn = 80:
// five). And a configuration the layout does not allow is refused with a clear error before anything runs.
#include <gtest/gtest.h>

#include <random>

#include "jitgemm/error.h"
#include "support/gpu_test_support.h"
#include "support/random_gemm_shape.h"
#include "support/tensor_core_case.h"
#include "tuner/families/registry.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

const std::vector<std::string> kHalfFittedConfigs = {
    "mma_sync_64x112x64_w4x1_s4_g8",       "mma_sync_64x112x64_w4x1_s4_g8_k2_p3", "mma_sync_112x64x32_w1x4_s3_g8",
    "mma_sync_64x80x32_w2x1_s3_g4_k3",     "mma_sync_48x48x16_w1x1_s2_g8",        "mma_sync_192x48x32_w4x1_s3_g1",
    "mma_sync_64x112x32_w4x1_s3_g8_sk7_p3", "mma_sync_128x112x64_w8x1_s3_g8_k2_p3", "mma_sync_64x112x128_w4x1_s2_g8_k2_p3"};
const std::vector<std::string> kTf32FittedConfigs = {"mma_sync_64x112x32_w4x1_s3_g8", "mma_sync_112x64x16_w1x2_s3_g8",
                                                     "mma_sync_64x80x32_w2x1_s3_g8_k2_p3", "mma_sync_96x48x16_w2x1_s2_g4"};

// Whether the shared-tile rows of an operand stored along m or n, `extent` elements long, lay out (mma.cuh's
// tile_layout): 16, 32 or 64 bytes, or whole 128-byte lines.
bool lays_out_along_mn(int extent, int element_bytes) {
    const int bytes = extent * element_bytes;
    return bytes == 16 || bytes == 32 || bytes == 64 || bytes % 128 == 0;
}

// Sets the order and transposes so that the kernel's canonical A is k-contiguous where bm needs it and its B where
// bn does; the others stay random. Row-major calls swap A and B (and the transposes) on the way to the kernel.
void fit_layout(const MmaSyncConfig& config, int element_bytes, std::mt19937_64& rng, GemmShape& s) {
    const bool a_needs_k = !lays_out_along_mn(config.bm, element_bytes);
    const bool b_needs_k = !lays_out_along_mn(config.bn, element_bytes);
    // Canonical A is k-contiguous when transposed; canonical B when not.
    auto kernel_a_k_contiguous = [&] {
        return s.order == Order::ColumnMajor ? s.trans_a == Transpose::Yes : s.trans_b == Transpose::Yes;
    };
    auto kernel_b_k_contiguous = [&] {
        return s.order == Order::ColumnMajor ? s.trans_b == Transpose::No : s.trans_a == Transpose::No;
    };
    std::uniform_int_distribution<int> coin(0, 1);
    do {
        s.order = coin(rng) ? Order::RowMajor : Order::ColumnMajor;
        s.trans_a = coin(rng) ? Transpose::Yes : Transpose::No;
        s.trans_b = coin(rng) ? Transpose::Yes : Transpose::No;
    } while ((a_needs_k && !kernel_a_k_contiguous()) || (b_needs_k && !kernel_b_k_contiguous()));
}

// Sizes around multiples of the fitted extents, and random ones; K long enough for every split of the lists.
GemmShape random_fitted_shape(std::mt19937_64& rng) {
    static const std::int64_t bases[] = {48, 80, 112, 192};
    auto size = [&] {
        if (std::uniform_int_distribution<int>(0, 2)(rng) == 0) return std::uniform_int_distribution<std::int64_t>(1, 400)(rng);
        const std::int64_t base = bases[std::uniform_int_distribution<int>(0, 3)(rng)];
        return base * std::uniform_int_distribution<std::int64_t>(1, 4)(rng) +
               std::uniform_int_distribution<std::int64_t>(-1, 1)(rng);
    };
    const std::int64_t m = size(), n = size();
    const std::int64_t k = std::uniform_int_distribution<std::int64_t>(200, 1500)(rng);
    return testing::random_gemm_shape(rng, m, n, k);
}

class FittedTiles : public ::testing::TestWithParam<testing::TensorCoreCase> {};

TEST_P(FittedTiles, MatchFloat64ReferenceOnTheLayoutsTheyTake) {
    JITGEMM_REQUIRE_GPU();
    const testing::TensorCoreCase& c = GetParam();
    const std::uint64_t seed = testing::fresh_seed();
    std::mt19937_64 rng(seed);
    driver::current_context();
    const int element_bytes = size_of(c.ab_type);
    int failures = 0;
    for (int i = 0; i < 50; ++i) {
        GemmShape shape = random_fitted_shape(rng);
        c.set_types(shape);
        GemmOptions options;
        options.config = c.random_config(rng);
        const auto config = parse_config(options.config);
        ASSERT_TRUE(config && std::holds_alternative<MmaSyncConfig>(*config)) << options.config;
        fit_layout(std::get<MmaSyncConfig>(*config), element_bytes, rng, shape);
        testing::pad_leading_dimensions(rng, shape);  // for the layout just drawn
        testing::maybe_misalign_pointers(rng, shape);
        const std::string label = shape.describe() + " config " + options.config + " (seed " + std::to_string(seed) + ")";
        const GemmWorkload workload(shape, rng);
        if (const auto failure = testing::run_and_check(workload, options, c.max_relative_error, rng)) {
            ADD_FAILURE() << label << ": " << *failure;
            ++failures;
        }
    }
    EXPECT_EQ(failures, 0);
}

INSTANTIATE_TEST_SUITE_P(
    TensorCore, FittedTiles,
    ::testing::Values(testing::TensorCoreCase{"bf16", &kHalfFittedConfigs, DType::BF16, DType::BF16, ComputeType::F32, 1e-2},
                      testing::TensorCoreCase{"f16_to_f32", &kHalfFittedConfigs, DType::F16, DType::F32, ComputeType::F32, 3e-3},
                      testing::TensorCoreCase{"tf32", &kTf32FittedConfigs, DType::F32, DType::F32, ComputeType::TF32, 3e-3}),
    [](const auto& info) { return info.param.name; });

// bn = 112 on a B stored n-contiguous would need 224-byte shared rows, which the swizzle does not lay out: the call
// is refused before any launch, and C keeps what it held.
TEST(FittedTiles, ALayoutTheTileCannotTakeIsRefusedAndLeavesCAlone) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    driver::current_context();
    GemmShape shape;
    shape.m = 200;
    shape.n = 777;
    shape.k = 300;
    shape.trans_b = Transpose::Yes;  // column-major: B stored n x k, n-contiguous
    shape.a_type = shape.b_type = shape.c_type = DType::BF16;
    shape = shape.with_minimum_leading_dimensions();
    const GemmWorkload workload(shape, rng);
    const auto before = workload.c_bytes();
    GemmOptions options;
    options.config = "mma_sync_64x112x64_w4x1_s4_g8";
    try {
        workload.run(nullptr, options);
        ADD_FAILURE() << "the call ran";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("k-contiguous"), std::string::npos) << e.what();
    }
    EXPECT_EQ(workload.c_bytes(), before);
}

}  // namespace
}  // namespace jitgemm
