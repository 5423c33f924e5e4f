// Bulk copies in the Tensor Core family (MMA_BULK, "_bulk"): both operands packed tile by tile (jg_pack_tiles), each
// stage filled by one bulk copy per operand tile and counted in at a shared-memory barrier. Against the float64 host
// reference on random shapes (tails in m, n and k that leave tiles partly zero, all transposes, both orders, odd
// leading dimensions, misaligned pointers, alpha and beta of every kind, NaN in C with beta = 0), with and without
// split-K; and bit for bit equal to the same configuration fed by cp.async, since only the way the shared tiles are
// filled differs, not a single product or sum. Compute capability 9.0 only: elsewhere the configurations are refused.
#include <gtest/gtest.h>

#include <random>

#include "support/gpu_test_support.h"
#include "support/random_gemm_shape.h"
#include "runtime/device/device_info.h"
#include "support/tensor_core_case.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

// Tiles whose rows are k-contiguous or run along m or n (both occur across the transposes), 112-wide fitted tiles,
// k tiles of 32 to 128, two to five stages, one block per tile or up to four splits.
const std::vector<std::string> kBulkConfigs = {
    "mma_sync_128x64x64_w2x2_s4_g8_k2_p3_bulk", "mma_sync_128x128x64_w2x4_s4_g8_k2_p3_bulk", "mma_sync_64x64x32_w2x2_s3_g4_p3_bulk",
    "mma_sync_128x64x32_w4x1_s5_g8_k3_p3_bulk", "mma_sync_64x128x128_w2x2_s2_g8_p3_bulk",    "mma_sync_128x128x32_w2x2_s4_g8_k4_p3_bulk"};

std::string without_bulk(const std::string& config) { return config.substr(0, config.size() - 5); }

class BulkCopy : public ::testing::TestWithParam<testing::TensorCoreCase> {};

TEST_P(BulkCopy, MatchesFloat64ReferenceAndTheCpAsyncKernelBitForBit) {
    JITGEMM_REQUIRE_GPU();
    if (query_device_info(0).cc_major < 9) GTEST_SKIP() << "bulk copies need compute capability 9.0";
    const testing::TensorCoreCase& c = GetParam();
    const std::uint64_t seed = testing::fresh_seed();
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> mn(1, 300), k(1, 1500);
    int failures = 0;
    for (int i = 0; i < 24; ++i) {
        const std::int64_t depth = k(rng);
        GemmShape shape = testing::random_gemm_shape(rng, mn(rng), mn(rng), depth);
        c.set_types(shape);
        testing::maybe_misalign_pointers(rng, shape);
        GemmOptions options;
        options.config = c.random_config(rng);
        // A split needs a k tile of its own: fall back to one block per tile on short K.
        if (depth < 4 * 128) options.config = "mma_sync_64x64x32_w2x2_s3_g4_p3_bulk";
        const std::string label =
            shape.describe() + " config " + options.config + " (seed " + std::to_string(seed) + ")";
        const GemmWorkload workload(shape, rng);
        if (const auto failure = testing::run_and_check(workload, options, c.max_relative_error, rng)) {
            ADD_FAILURE() << label << ": " << *failure;
            ++failures;
            continue;
        }
        const auto bulk = workload.c_bytes();
        workload.reset_c();
        GemmOptions cp_async = options;
        cp_async.config = without_bulk(options.config);
        workload.run(nullptr, cp_async);
        if (workload.c_bytes() != bulk) {
            ADD_FAILURE() << label << ": the cp.async kernel " << cp_async.config << " wrote different bits";
            ++failures;
        }
    }
    EXPECT_EQ(failures, 0);
}

INSTANTIATE_TEST_SUITE_P(
    TensorCore, BulkCopy,
    ::testing::Values(testing::TensorCoreCase{"bf16", &kBulkConfigs, DType::BF16, DType::BF16, ComputeType::F32, 1e-2},
                      testing::TensorCoreCase{"f16_to_f32", &kBulkConfigs, DType::F16, DType::F32, ComputeType::F32, 3e-3}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace jitgemm
