// Split-K and stream-K in the Tensor Core family (kernel_sources/mma.cuh, MMA_SPLITK and MMA_STREAMK): several
// blocks per tile of C, each over its share of K — a split, or the part of a stream-K block's run of k tiles that
// falls in the tile — the last to arrive adding the partial sums in part order. Against the float64 host reference on
// random shapes whose K feeds every split (tails in m, n and k, all transposes, both orders, odd leading dimensions,
// alpha and beta of every kind, NaN in C with beta = 0) for each input type; and bit-for-bit repeatable: the order of
// the sum does not depend on which block arrived last, so two runs write the same bits.
#include <gtest/gtest.h>

#include <random>

#include "support/gpu_test_support.h"
#include "support/random_gemm_shape.h"
#include "support/tensor_core_case.h"
#include "tuner/families/registry.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

// Split counts from 2 to 16, with and without packing, deep and shallow stages. K of at least 16 x 32 = 512 feeds
// every one of them (the 16-way split has bk 32). Stream-K with 3 to 16 blocks: few enough that every shape has a k
// tile for each (K >= 512 gives 8 k tiles of 64 even to a single tile), and their runs cover many tiles whole, end
// inside tiles, or, on the smallest shapes, share one tile among many blocks.
const std::vector<std::string> kHalfSplitConfigs = {
    "mma_sync_64x64x32_w2x2_s3_g8_k2",     "mma_sync_32x32x16_w1x1_s2_g8_k8",  "mma_sync_128x64x32_w2x2_s4_g8_k3_p3",
    "mma_sync_64x128x64_w2x2_s4_g4_k5",    "mma_sync_128x128x32_w2x4_s3_g8_k16", "mma_sync_64x64x64_w1x4_s4_g4_k4_p3",
    "mma_sync_64x64x32_w2x2_s3_g8_sk3",    "mma_sync_32x32x16_w1x1_s2_g8_sk16_p3", "mma_sync_128x64x64_w2x2_s4_g8_sk8_p3",
    "mma_sync_64x128x32_w2x4_s4_g4_sk7",   "mma_sync_128x64x128_w2x2_s2_g8_k3_p3"};
const std::vector<std::string> kTf32SplitConfigs = {"mma_sync_64x64x16_w2x2_s3_g8_k4", "mma_sync_128x64x32_w2x2_s3_g8_k3",
                                                    "mma_sync_32x32x16_w1x1_s2_g8_k7_p3", "mma_sync_64x64x16_w2x2_s3_g8_sk16",
                                                    "mma_sync_128x64x32_w2x2_s3_g8_sk5_p3"};

// K long enough for every split count of the lists; m and n small enough that the compiles dominate, not the
// float64 reference.
GemmShape random_split_shape(std::mt19937_64& rng) {
    std::uniform_int_distribution<std::int64_t> mn(1, 400), k(512, 2500);
    const std::int64_t m = mn(rng), n = mn(rng);
    return testing::random_gemm_shape(rng, m, n, k(rng));
}

class SplitK : public ::testing::TestWithParam<testing::TensorCoreCase> {};

TEST_P(SplitK, MatchesFloat64ReferenceAndRepeatsBitForBit) {
    JITGEMM_REQUIRE_GPU();
    const testing::TensorCoreCase& c = GetParam();
    const std::uint64_t seed = testing::fresh_seed();
    std::mt19937_64 rng(seed);
    driver::current_context();
    int failures = 0;
    for (int i = 0; i < 32; ++i) {
        GemmShape shape = random_split_shape(rng);
        c.set_types(shape);
        testing::maybe_misalign_pointers(rng, shape);
        GemmOptions options;
        options.config = c.random_config(rng);
        const std::string label = shape.describe() + " config " + options.config + " (seed " + std::to_string(seed) + ")";
        const GemmWorkload workload(shape, rng);
        if (const auto failure = testing::run_and_check(workload, options, c.max_relative_error, rng)) {
            ADD_FAILURE() << label << ": " << *failure;
            ++failures;
            continue;
        }
        const auto first = workload.c_bytes();
        workload.reset_c();
        workload.run(nullptr, options);
        if (workload.c_bytes() != first) {
            ADD_FAILURE() << label << ": a second run wrote different bits";
            ++failures;
        }
    }
    EXPECT_EQ(failures, 0);
}

INSTANTIATE_TEST_SUITE_P(
    TensorCore, SplitK,
    ::testing::Values(testing::TensorCoreCase{"bf16", &kHalfSplitConfigs, DType::BF16, DType::BF16, ComputeType::F32, 1e-2},
                      testing::TensorCoreCase{"f16_to_f32", &kHalfSplitConfigs, DType::F16, DType::F32, ComputeType::F32, 3e-3},
                      testing::TensorCoreCase{"f16", &kHalfSplitConfigs, DType::F16, DType::F16, ComputeType::F32, 3e-3},
                      testing::TensorCoreCase{"tf32", &kTf32SplitConfigs, DType::F32, DType::F32, ComputeType::TF32, 3e-3}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace jitgemm
