// The untuned default's picks on Hopper, run and checked against the float64 host reference: one shape for each of
// the wgmma default's rules (the ladder's tiles with C copied out by the threads and pairs over packed operands, the
// small and mid-size whole tiles, cluster pairs over operands off 128-byte lines, fitted widths for a narrow n, a
// sparse last turn dealt out), in fp16 and bf16, to their own type and to fp32, with and without beta. The family
// tests draw random configurations; these are the exact ones users without a tuned entry get
// (tests/cpu/wgmma_family_test.cpp and config_validation_test.cpp state the names).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/device/device_info.h"
#include "runtime/driver/context.h"
#include "support/canonical_problem.h"
#include "support/gpu_test_support.h"
#include "support/parallel_gemm_cases.h"
#include "tools/verify/gemm_workload.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

struct DefaultCase {
    std::int64_t m, n, k;
    Transpose trans_a, trans_b;
    DType ab, c;
    float beta;
};

TEST(UntunedDefault, HopperPicksMatchTheReference) {
    JITGEMM_REQUIRE_GPU();
    const DeviceInfo& device = cached_device_info(driver::device_of(driver::current_context()));
    if (device.cc_major != 9 || device.cc_minor != 0) GTEST_SKIP() << "the wgmma default's rules are sm_90's";
    constexpr Transpose N = Transpose::No, T = Transpose::Yes;
    const DefaultCase cases[] = {
        {2049, 2048, 1024, N, N, DType::BF16, DType::BF16, 0.0f},   // C off 16 bytes, op(A) packed: _tc in pairs
        {2049, 2048, 1024, N, N, DType::F16, DType::F16, -1.5f},    // the same, C read for beta element by element
        {4097, 4097, 1024, T, T, DType::F16, DType::F16, 0.0f},     // both packed
        {1001, 4096, 1024, T, N, DType::BF16, DType::BF16, 1.0f},   // only C off 16 bytes
        {2047, 4096, 1024, N, T, DType::BF16, DType::F32, 0.0f},    // an fp32 C off 16 bytes
        {14336, 128, 1024, N, N, DType::BF16, DType::BF16, 0.0f},   // a narrow n: 112-wide tiles
        {13000, 120, 1024, T, N, DType::F16, DType::F32, -1.5f},
        {768, 768, 2048, N, N, DType::BF16, DType::BF16, 0.0f},     // over a GFLOP, no tile nearly a wave
        {512, 512, 2048, N, T, DType::F16, DType::F16, 1.0f},
        {4096, 64, 4096, T, N, DType::BF16, DType::BF16, 0.0f},
        {1000, 1000, 1000, N, N, DType::BF16, DType::BF16, 0.0f},   // small tiles in pairs over operands off lines
        {3584, 1280, 4416, N, N, DType::F16, DType::F16, 0.0f},     // turned 256 x 144: one turn (once stream-K)
        {1792, 2552, 4416, T, T, DType::BF16, DType::F32, -1.5f},   // 192 x 256 in pairs: 100 tiles, one turn
        {384, 384, 384, N, N, DType::F16, DType::F32, -1.5f},       // under a GFLOP
        {2048, 3072, 2048, N, N, DType::BF16, DType::BF16, 0.0f},   // 192 x 256: one turn where 256 x 128 take two
        {4200, 6000, 2048, N, N, DType::F16, DType::F32, -1.5f},    // the same in cluster pairs (op(A) off lines)
        {3072, 1536, 2048, T, N, DType::F16, DType::F16, 1.0f},     // three consumers' 192 x 192: one turn for two
        {3072, 3072, 2048, N, T, DType::BF16, DType::F32, -1.5f},   // the same, an fp32 C box by box
        {6144, 1528, 2048, T, T, DType::BF16, DType::BF16, 0.0f},   // the same in cluster pairs (op(B) off lines)
        {1536, 1536, 1024, N, T, DType::BF16, DType::F16, -1.5f},   // three consumers' 96 x 192
        {3000, 5000, 2000, T, N, DType::BF16, DType::F32, -1.5f},   // turned 256 x 160 in pairs, C round by round
        {2048, 3072, 1024, N, N, DType::F16, DType::F16, 1.0f},     // turned 256 x 192: one turn for two
    };
    std::vector<GemmShape> shapes;
    std::vector<std::string> configs;
    for (const DefaultCase& c : cases) {
        GemmShape s;
        s.order = Order::ColumnMajor;
        s.m = c.m;
        s.n = c.n;
        s.k = c.k;
        s.trans_a = c.trans_a;
        s.trans_b = c.trans_b;
        s.a_type = s.b_type = c.ab;
        s.c_type = c.c;
        s.alpha = 1.25f;
        s.beta = c.beta;
        s = s.with_minimum_leading_dimensions();
        const std::string config = to_string(heuristic_config(testing::canonical_problem(s), device));
        EXPECT_EQ(config.rfind("wgmma_", 0), 0u) << s.describe() << ": " << config;
        shapes.push_back(s);
        configs.push_back(config);
    }
    const std::vector<std::string> failures =
        testing::run_gemm_cases_in_parallel(shapes, configs, 1e-2, testing::fresh_seed());
    for (const auto& f : failures) ADD_FAILURE() << f;
    EXPECT_TRUE(failures.empty()) << failures.size() << " of " << shapes.size() << " cases failed";
}

}  // namespace
}  // namespace jitgemm
