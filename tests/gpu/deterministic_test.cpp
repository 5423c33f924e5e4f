// GemmOptions::deterministic: the kernel a problem's first deterministic call chose keeps serving its deterministic
// calls, also after a background search found another, so their results stay the same bit for bit; the search's
// winner serves the problem's other calls.
#include <gtest/gtest.h>

#include <random>

#include "dispatch/kernel_store.h"
#include "jitgemm/gemm.h"
#include "runtime/driver/context.h"
#include "runtime/problem/gemm_call.h"
#include "support/gpu_test_support.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

TEST(Deterministic, ABackgroundWinnerIsNotSwappedInUnderDeterministicCalls) {
    JITGEMM_REQUIRE_GPU();
    driver::current_context();
    std::mt19937_64 rng(5);
    GemmShape s;
    s.m = 777;  // few tiles and a long k: split-K and stream-K candidates take part in the search
    s.n = 1111;
    s.k = 3333;
    s.a_type = s.b_type = s.c_type = DType::BF16;
    s.beta = 0.5f;
    const GemmWorkload w(s.with_minimum_leading_dimensions(), rng);
    GemmOptions deterministic;
    deterministic.tuning = TunePolicy::Background;
    deterministic.tune_budget_seconds = 3;
    deterministic.deterministic = true;

    EXPECT_EQ(w.run(nullptr, deterministic), ServedBy::HeuristicDefault);
    testing::synchronize();
    ASSERT_TRUE(w.check(rng).passed());
    const auto first = w.c_bytes();
    wait_for_background_tuning();  // its winner now serves the problem's other calls

    for (int i = 0; i < 10; ++i) {
        w.reset_c();
        EXPECT_EQ(w.run(nullptr, deterministic), ServedBy::InMemory);
        EXPECT_TRUE(w.c_bytes() == first) << "deterministic call " << i << " changed the result's bits";
    }
    GemmOptions other = deterministic;
    other.deterministic = false;
    w.reset_c();
    EXPECT_EQ(w.run(nullptr, other), ServedBy::InMemory) << "the background winner serves the other calls";
    testing::synchronize();
    EXPECT_TRUE(w.check(rng).passed());
    const auto tuned = find_loaded_kernel(w.call(), "");
    ASSERT_NE(tuned, nullptr);
    RecordProperty("winner", tuned->config_name);
}

}  // namespace
}  // namespace jitgemm
