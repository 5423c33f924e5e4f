// The dispatch path on the GPU: the second call of a problem is served from memory without a build, concurrent
// first calls build once, the degenerate BLAS cases, bad configurations fail before anything is launched.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <thread>

#include "dispatch/kernel_store.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/device_copy.h"
#include "jitgemm/error.h"
#include "support/gpu_test_support.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

// These tests are about dispatch, not tuning: serve the heuristic default on a miss.
GemmOptions untuned() {
    GemmOptions options;
    options.tuning = TunePolicy::Off;
    return options;
}

TEST(Dispatch, SecondCallIsServedFromMemoryWithoutABuild) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    GemmShape shape;
    shape.m = 333;
    shape.n = 222;
    shape.k = 111;
    const GemmWorkload workload(shape, rng);
    EXPECT_EQ(workload.run(nullptr, untuned()), ServedBy::HeuristicDefault);
    const std::size_t kernels = KernelStore::global().size();
    workload.reset_c();
    EXPECT_EQ(workload.run(nullptr, untuned()), ServedBy::InMemory);
    EXPECT_EQ(KernelStore::global().size(), kernels);
    EXPECT_TRUE(workload.check(rng).passed());

    GemmOptions requested;
    requested.config = "tiled_t8";
    EXPECT_EQ(workload.run(nullptr, requested), ServedBy::Requested);
    EXPECT_EQ(workload.run(nullptr, requested), ServedBy::InMemory);
    EXPECT_EQ(KernelStore::global().size(), kernels + 1);
}

TEST(Dispatch, ConcurrentFirstCallsBuildOnce) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    GemmShape shape;
    shape.m = 517;
    shape.n = 259;
    shape.k = 77;
    shape.beta = 0.25f;
    // One workload per thread (same problem, own buffers), made before the threads start so their first calls
    // arrive together.
    std::vector<std::unique_ptr<GemmWorkload>> workloads;
    for (int t = 0; t < 8; ++t) workloads.push_back(std::make_unique<GemmWorkload>(shape, rng));
    const std::size_t kernels = KernelStore::global().size();
    std::atomic<bool> go{false};
    std::atomic<int> builds{0};
    std::vector<std::string> errors(workloads.size());
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < workloads.size(); ++t)
        threads.emplace_back([&, t] {
            try {
                driver::current_context();
                while (!go.load()) std::this_thread::yield();
                if (workloads[t]->run(nullptr, untuned()) != ServedBy::InMemory) ++builds;
            } catch (const std::exception& e) {
                errors[t] = e.what();
            }
        });
    go = true;
    for (auto& t : threads) t.join();
    for (const auto& e : errors) EXPECT_TRUE(e.empty()) << e;
    EXPECT_EQ(builds.load(), 1);
    EXPECT_EQ(KernelStore::global().size(), kernels + 1);
    for (const auto& w : workloads) EXPECT_TRUE(w->check(rng).passed());
}

TEST(Dispatch, KZeroAndAlphaZeroScaleCWithoutReadingAOrB) {
    JITGEMM_REQUIRE_GPU();
    const std::int64_t m = 37, n = 19, k = 5, ldc = 40;
    std::vector<float> c(static_cast<std::size_t>(ldc * n));
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = static_cast<float>(i % 13) - 6.0f;
    // A and B full of NaN: alpha = 0 must not read them.
    const std::vector<float> nan_operand(static_cast<std::size_t>(m * k + k * n) + 64,
                                         std::numeric_limits<float>::quiet_NaN());
    const auto da = driver::upload(nan_operand), db = driver::upload(nan_operand);
    for (const bool alpha_zero : {false, true}) {
        const auto dc = driver::upload(c);
        const ServedBy served =
            sgemm(Order::ColumnMajor, Transpose::No, Transpose::No, m, n, alpha_zero ? k : 0, alpha_zero ? 0.0f : 1.0f,
                  da.as<float>(), m, db.as<float>(), k, -0.5f, dc.as<float>(), ldc);
        EXPECT_NE(served, ServedBy::NothingToDo);
        testing::synchronize();
        const auto out = driver::download(dc);
        for (std::int64_t j = 0; j < n; ++j)
            for (std::int64_t i = 0; i < ldc; ++i) {
                const std::size_t e = static_cast<std::size_t>(i + j * ldc);
                const float expected = i < m ? -0.5f * c[e] : c[e];
                ASSERT_EQ(out[e], expected) << "C(" << i << ", " << j << ") alpha_zero=" << alpha_zero;
            }
    }
    // beta = 0: C = 0 exactly, even where C held NaN.
    std::vector<float> nan_c(static_cast<std::size_t>(ldc * n), std::numeric_limits<float>::quiet_NaN());
    const auto dc = driver::upload(nan_c);
    sgemm(Order::ColumnMajor, Transpose::No, Transpose::No, m, n, 0, 1.0f, nullptr, m, nullptr, 1, 0.0f,
          dc.as<float>(), ldc);
    testing::synchronize();
    const auto out = driver::download(dc);
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < m; ++i) ASSERT_EQ(out[static_cast<std::size_t>(i + j * ldc)], 0.0f);
}

TEST(Dispatch, IdentityAndEmptyCallsLaunchNothing) {
    JITGEMM_REQUIRE_GPU();
    std::vector<float> c(16, std::numeric_limits<float>::quiet_NaN());
    const auto dc = driver::upload(c);
    EXPECT_EQ(sgemm(Order::ColumnMajor, Transpose::No, Transpose::No, 4, 4, 0, 1.0f, nullptr, 4, nullptr, 1, 1.0f,
                    dc.as<float>(), 4),
              ServedBy::NothingToDo);
    EXPECT_EQ(sgemm(Order::ColumnMajor, Transpose::No, Transpose::No, 0, 4, 4, 1.0f, nullptr, 1, nullptr, 4, 0.0f,
                    dc.as<float>(), 1),
              ServedBy::NothingToDo);
    testing::synchronize();
    for (const float x : driver::download(dc)) EXPECT_TRUE(std::isnan(x));
}

TEST(Dispatch, BadConfigurationsFailBeforeAnythingRuns) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    GemmShape shape;
    shape.m = shape.n = shape.k = 64;
    const GemmWorkload workload(shape, rng);
    for (const auto& [config, code] : {std::pair<std::string, ErrorCode>{"regblock_nonsense", ErrorCode::InvalidArgument},
                                       {"regblock_256x256x64_t16x16_v4_s2_g8", ErrorCode::Unsupported},
                                       {"regblock_128x128x8_t3x8_v4_s2_g8", ErrorCode::Unsupported}}) {
        GemmOptions options;
        options.config = config;
        try {
            workload.run(nullptr, options);
            ADD_FAILURE() << config << " ran";
        } catch (const Error& e) {
            EXPECT_EQ(e.code(), code) << e.what();
        }
    }
    testing::synchronize();
    const auto result = workload.check(rng);
    // C was poisoned with NaN (beta = 0) and nothing may have written it.
    EXPECT_EQ(result.reference.failures, 64 * 64);
    EXPECT_EQ(result.padding_changed, 0);
}

}  // namespace
}  // namespace jitgemm
