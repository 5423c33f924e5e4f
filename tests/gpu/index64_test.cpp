// Offsets beyond 32 bits: a transposed A whose leading dimension puts its last column more than 2^31 elements in
// (an 8.6 GB allocation of which only the used columns are written). The kernel must be specialized with 64-bit
// indexing and compute the right result in every family (the Tensor Core family through TF32, on the same fp32
// data).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/device_copy.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/jitgemm.h"
#include "runtime/problem/gemm_call.h"
#include "support/gpu_test_support.h"
#include "tools/verify/host_reference.h"

namespace jitgemm {
namespace {

TEST(Index64, LeadingDimensionPastInt32InEveryFamily) {
    JITGEMM_REQUIRE_GPU();
    const auto& cu = driver::api();
    std::mt19937_64 rng(testing::fresh_seed());
    std::normal_distribution<float> normal;
    const std::int64_t m = 3, n = 5, k = 7;
    const std::int64_t lda = (std::int64_t{1} << 30) + 3;  // A^T stored k x m: column i starts at i * lda
    const std::size_t a_elements = static_cast<std::size_t>((m - 1) * lda + k);
    size_t free_bytes = 0, total_bytes = 0;
    JITGEMM_CU_CHECK(cu.cuMemGetInfo(&free_bytes, &total_bytes));
    if (free_bytes < a_elements * sizeof(float) + (1u << 30)) GTEST_SKIP() << "needs 9.6 GB of free device memory";

    driver::DeviceBuffer a(a_elements * sizeof(float));
    std::vector<float> columns(static_cast<std::size_t>(m * k));
    for (auto& x : columns) x = normal(rng);
    for (std::int64_t i = 0; i < m; ++i)
        JITGEMM_CU_CHECK(cu.cuMemcpyHtoD(a.get() + static_cast<CUdeviceptr>(i * lda) * sizeof(float),
                                          columns.data() + i * k, k * sizeof(float)));
    std::vector<float> b_host(static_cast<std::size_t>(k * n));
    for (auto& x : b_host) x = normal(rng);
    const auto b = driver::upload(b_host);

    GemmCall call;
    call.trans_a = Transpose::Yes;
    call.m = m;
    call.n = n;
    call.k = k;
    call.a = a.as<float>();
    call.lda = lda;
    call.b = b.as<float>();
    call.ldb = k;
    call.c = reinterpret_cast<void*>(0x1000);
    call.ldc = m;
    ASSERT_TRUE(make_canonical_call(call).problem.needs_index64());

    for (const char* config :
         {"naive_16x16", "tiled_t16", "regblock_32x32x16_t4x4_v4_s2_g8", "mma_sync_32x32x16_w1x1_s2_g8"}) {
        std::vector<float> c_host(static_cast<std::size_t>(m * n), std::numeric_limits<float>::quiet_NaN());
        const auto c = driver::upload(c_host);
        GemmOptions options;
        options.config = config;
        const bool tf32 = std::string(config).rfind("mma_", 0) == 0;
        if (tf32) options.compute = ComputeType::TF32;
        sgemm(Order::ColumnMajor, Transpose::Yes, Transpose::No, m, n, k, 1.0f, a.as<float>(), lda, b.as<float>(), k,
              0.0f, c.as<float>(), m, nullptr, options);
        JITGEMM_CU_CHECK(cu.cuCtxSynchronize());
        const auto out = driver::download(c);
        for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t i = 0; i < m; ++i) {
                double ref = 0, magnitude = 0;
                for (std::int64_t p = 0; p < k; ++p) {
                    const double term = double(columns[i * k + p]) * b_host[p + j * k];
                    ref += term;
                    magnitude += std::fabs(term);
                }
                // TF32 rounds each input to 11 significant bits: each product within 2^-10 of itself.
                const double input_rounding = tf32 ? (std::ldexp(2.0, -11) + std::ldexp(1.0, -22)) * magnitude : 0.0;
                EXPECT_LE(std::fabs(out[i + j * m] - ref), fp32_error_bound(k, magnitude) + input_rounding)
                    << config << " C(" << i << ", " << j << ") = " << out[i + j * m] << ", reference " << ref;
            }
    }
}

}  // namespace
}  // namespace jitgemm
