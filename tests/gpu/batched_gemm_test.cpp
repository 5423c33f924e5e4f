// Strided batched GEMM against the float64 host reference, GEMM by GEMM: per element type, random shapes with batch
// counts from 1 to 64 in both orders and all four transposes, padded leading dimensions, pointers off their 16-byte
// boundaries, every output type, and strides of every kind — each GEMM's operands right after the last one's, padded
// apart, A or B shared by all GEMMs (stride 0), and C's GEMMs side by side within one leading dimension — each run
// by a random candidate of the tuner's search for it (every family that takes batches, with its knobs) and by the
// untuned default. Also a batch larger than the grid's third dimension holds (65535), taken in turns.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "runtime/device/device_info.h"
#include "runtime/driver/context.h"
#include "runtime/problem/gemm_call.h"
#include "support/canonical_problem.h"
#include "support/gpu_test_support.h"
#include "support/parallel_gemm_cases.h"
#include "support/random_candidate.h"
#include "support/random_gemm_shape.h"
#include "tools/verify/gemm_workload.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

struct BatchCase {
    std::string name;
    DType ab_type;
    ComputeType compute;
    double max_relative_error;
    friend void PrintTo(const BatchCase& c, std::ostream* os) { *os << c.name; }
};

DType pick_type(std::mt19937_64& rng) {
    const DType types[] = {DType::F32, DType::F16, DType::BF16};
    return types[std::uniform_int_distribution<int>(0, 2)(rng)];
}

// Strides of one of the kinds above for the shape's batch (its leading dimensions already set).
void random_strides(std::mt19937_64& rng, GemmShape& s) {
    s.stride_a = s.stride_b = s.stride_c = -1;  // packed
    s = s.with_minimum_leading_dimensions();
    switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
        case 0: break;
        case 1:  // padded apart by a few elements (odd: only 2- or 4-byte aligned GEMMs after the first)
            s.stride_a += std::uniform_int_distribution<std::int64_t>(1, 9)(rng);
            s.stride_b += std::uniform_int_distribution<std::int64_t>(0, 9)(rng);
            s.stride_c += std::uniform_int_distribution<std::int64_t>(0, 9)(rng);
            break;
        case 2: s.stride_a = 0; break;  // every GEMM multiplies the same A (weights shared across the batch)
        case 3: s.stride_b = 0; break;
        default: {  // C's GEMMs side by side: each one's rows within one column (row) of ldc
            const std::int64_t rows = stored_shape(s.order, Transpose::No, s.m, s.n).ld_extent;
            s.stride_c = rows + std::uniform_int_distribution<std::int64_t>(0, 3)(rng);
            s.ldc = s.stride_c * s.batch;
        }
    }
}

class BatchedGemm : public ::testing::TestWithParam<BatchCase> {};

TEST_P(BatchedGemm, EveryCandidateFamilyAndTheDefaultMatchTheReferenceGemmByGemm) {
    JITGEMM_REQUIRE_GPU();
    driver::current_context();
    const DeviceInfo& device = cached_device_info(0);
    const BatchCase& c = GetParam();
    const std::uint64_t seed = std::random_device{}();
    RecordProperty("seed", std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<GemmShape> shapes;
    std::vector<std::string> configs;
    std::map<std::string, int> families;
    const std::int64_t batches[] = {1, 2, 3, 17, 64};
    while (shapes.size() < 60) {
        auto size = [&] { return std::uniform_int_distribution<std::int64_t>(1, 300)(rng); };
        GemmShape s = testing::random_gemm_shape(rng, size(), size(), size());
        s.a_type = s.b_type = c.ab_type;
        s.c_type = c.ab_type == DType::F32 ? DType::F32 : pick_type(rng);
        s.compute = c.compute;
        s.batch = batches[std::uniform_int_distribution<int>(0, 4)(rng)];
        testing::maybe_misalign_pointers(rng, s);
        random_strides(rng, s);
        const Problem p = testing::canonical_problem(s);
        // A random candidate of the search (every family whose rules take the batch), or the untuned default.
        const auto candidate = testing::random_search_candidate(rng, p, p, device);
        std::string config;
        if (candidate && shapes.size() % 4 != 3) config = to_string(*candidate);
        ++families[config.empty() ? "default" : std::string(family_name(*parse_config(config)))];
        shapes.push_back(s);
        configs.push_back(config);
    }
    for (const auto& [family, count] : families) RecordProperty("family_" + family, std::to_string(count));
    const auto failures = testing::run_gemm_cases_in_parallel(shapes, configs, c.max_relative_error, seed);
    for (const auto& failure : failures) ADD_FAILURE() << failure << " (seed " << seed << ")";
}

INSTANTIATE_TEST_SUITE_P(
    Types, BatchedGemm,
    ::testing::Values(BatchCase{"f32", DType::F32, ComputeType::F32, 1e-5},
                      BatchCase{"tf32", DType::F32, ComputeType::TF32, 2e-3},
                      BatchCase{"bf16", DType::BF16, ComputeType::F32, 1e-2},
                      BatchCase{"f16", DType::F16, ComputeType::F32, 2e-3}),
    [](const ::testing::TestParamInfo<BatchCase>& info) { return info.param.name; });

// More GEMMs than the grid's third dimension holds: blocks take GEMM z, z + 65535, ... in turns.
TEST(BatchedGemmLimits, ABatchBeyondTheGridsThirdDimensionIsTakenInTurns) {
    JITGEMM_REQUIRE_GPU();
    driver::current_context();
    std::mt19937_64 rng(7);
    std::vector<GemmShape> shapes;
    std::vector<std::string> configs;
    for (const auto& [type, config] : {std::pair{DType::F32, std::string("naive_16x16")},
                                       {DType::F32, std::string()},
                                       {DType::BF16, std::string()}}) {
        GemmShape s;
        s.m = 5;
        s.n = 3;
        s.k = 7;
        s.a_type = s.b_type = s.c_type = type;
        s.batch = 70001;
        shapes.push_back(s.with_minimum_leading_dimensions());
        configs.push_back(config);
    }
    const auto failures = testing::run_gemm_cases_in_parallel(shapes, configs, 1e-2, 7);
    for (const auto& failure : failures) ADD_FAILURE() << failure;
}

}  // namespace
}  // namespace jitgemm
