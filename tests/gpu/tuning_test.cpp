// Tuning on the GPU: a search finds a verified winner at least as fast as the heuristic default and records it;
// a new process serves the problem from the cache with zero NVRTC compiles; the background policy swaps the winner
// in; the "off" policy records the problem as untuned.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "cache/cache_stack.h"
#include "cache/tuning_cache.h"
#include "runtime/device/device_info.h"
#include "tuner/families/registry.h"
#include "dispatch/kernel_store.h"
#include "runtime/compile/provenance.h"
#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/jitgemm.h"
#include "runtime/measure/event_timer.h"
#include "runtime/measure/l2_flush.h"
#include "runtime/problem/gemm_call.h"
#include "support/gpu_test_support.h"
#include "support/process.h"
#include "tuner/search_provenance.h"
#include "tuner/tuner.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

const DeviceInfo& current_device() { return cached_device_info(driver::device_of(driver::current_context())); }

// Median times of two kernels, measured alternately with the L2 flushed.
std::pair<double, double> alternate_medians(const GemmWorkload& w, const GemmOptions& x, const GemmOptions& y) {
    const L2Flusher flusher(current_device());
    EventTimer timer;
    std::vector<double> tx, ty;
    for (int i = 0; i < 25; ++i)
        for (int which = 0; which < 2; ++which) {
            flusher.flush(nullptr);
            timer.start(nullptr);
            w.run(nullptr, which == 0 ? x : y);
            timer.stop(nullptr);
            (which == 0 ? tx : ty).push_back(timer.elapsed_ms());
        }
    return {median(tx), median(ty)};
}

// Tunes the shape's problem now, then checks the winner: verified, recorded with its search, served, and no slower
// than the heuristic default (which competes in every search).
// `expected_families`: the families the winner may come from (one, or the Tensor Core families of the device).
void expect_verified_winner_no_slower_than_default(const GemmShape& shape, double budget_seconds,
                                                   std::vector<std::string_view> expected_families) {
    std::mt19937_64 rng(testing::fresh_seed());
    const GemmWorkload w(shape, rng);
    GemmOptions tune_now;
    tune_now.tuning = TunePolicy::Now;
    tune_now.tune_budget_seconds = budget_seconds;
    const std::uint64_t tunings = statistics().tunings;
    EXPECT_EQ(w.run(nullptr, tune_now), ServedBy::FreshlyTuned);
    EXPECT_EQ(statistics().tunings, tunings + 1);
    EXPECT_TRUE(w.check(rng).passed());

    const DeviceInfo& device = current_device();
    const Problem problem = make_canonical_call(w.call()).problem;
    const auto entry = cache::CacheStack::global().find_tuned(device.fingerprint(), problem.key(),
                                                              search_provenance(problem, device));
    ASSERT_TRUE(entry.has_value());
    const auto tuned = find_loaded_kernel(w.call(), "");
    ASSERT_NE(tuned, nullptr);
    EXPECT_EQ(tuned->config_name, entry->selection.config);
    const auto winner = parse_config(entry->selection.config);
    ASSERT_TRUE(winner.has_value());
    EXPECT_NE(std::find(expected_families.begin(), expected_families.end(), family_name(*winner)),
              expected_families.end())
        << entry->selection.config;
    EXPECT_GT(entry->selection.candidates_measured, 1);
    EXPECT_GT(entry->selection.time_ms, 0.0);
    EXPECT_FALSE(cache::CacheStack::global()
                     .measurements(device.fingerprint(), problem.key(), search_provenance(problem, device))
                     .empty());

    GemmOptions heuristic;
    heuristic.config = to_string(heuristic_config(problem, device));
    const auto [tuned_ms, heuristic_ms] = alternate_medians(w, GemmOptions{}, heuristic);
    ::testing::Test::RecordProperty("tuned_ms", std::to_string(tuned_ms));
    ::testing::Test::RecordProperty("heuristic_ms", std::to_string(heuristic_ms));
    // The heuristic default is one of the candidates, so only timing noise can put it ahead.
    EXPECT_LE(tuned_ms, heuristic_ms * 1.05) << entry->selection.config << " vs " << heuristic.config;
}

TEST(Tuning, WinnerIsVerifiedRecordedAndNoSlowerThanTheHeuristicDefault) {
    JITGEMM_REQUIRE_GPU();
    GemmShape shape;
    shape.m = 1000;
    shape.n = 1500;
    shape.k = 700;
    shape.trans_b = Transpose::Yes;
    shape.beta = 0.5f;
    expect_verified_winner_no_slower_than_default(shape, 10.0, {RegBlockConfig::kName});
}

TEST(Tuning, Bf16WithOddLeadingDimensionsTunesTheTensorCoreFamily) {
    JITGEMM_REQUIRE_GPU();
    GemmShape shape;  // row-major, lda = 1001 and ldb = 1501: 2-byte aligned operands, the register path
    shape.order = Order::RowMajor;
    shape.m = 1000;
    shape.n = 1501;
    shape.k = 1001;
    shape.a_type = shape.b_type = DType::BF16;
    shape.c_type = DType::BF16;
    shape.beta = -1.5f;
    // On Hopper the wgmma family, on packed copies, competes (and on the H200 wins: session 15).
    expect_verified_winner_no_slower_than_default(shape, 12.0, {MmaSyncConfig::kName, WgmmaConfig::kName});
}

TEST(Tuning, Tf32TunesTheTensorCoreFamily) {
    JITGEMM_REQUIRE_GPU();
    GemmShape shape;
    shape.m = 2048;
    shape.n = 1024;
    shape.k = 3000;
    shape.trans_a = Transpose::Yes;
    shape.compute = ComputeType::TF32;
    // On Hopper the wgmma family competes too (both operands k-contiguous here: nothing copied first).
    expect_verified_winner_no_slower_than_default(shape, 12.0, {MmaSyncConfig::kName, WgmmaConfig::kName});
}

TEST(Tuning, SearchRespectsItsBudgetAndSaysWhetherItWasComplete) {
    JITGEMM_REQUIRE_GPU();
    const DeviceInfo& device = current_device();
    Problem p;
    p.m = p.n = p.k = 2048;
    p.lda = p.ldb = p.ldc = 2048;
    TuneOptions options;
    options.budget_seconds = 1.0;
    const auto start = std::chrono::steady_clock::now();
    const TuneResult r = tune_problem(p, device, driver::current_context(), options, cache::CacheStack::global());
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(wall, options.budget_seconds + 1.0);  // setup and finishing compiles may overrun a little
    ASSERT_TRUE(r.winner.has_value());
    EXPECT_EQ(r.complete, r.candidates_measured == r.candidates_total);
    // Complete in 1 s only where the stopping rule ruled the rest out (and then it says why).
    if (r.ruled_out == 0) {
        EXPECT_FALSE(r.complete) << "a 2048^3 search of " << r.candidates_total << " candidates in 1 s";
    } else {
        EXPECT_FALSE(r.stop_reason.empty());
    }
    EXPECT_GT(r.pruning.enumerated, r.pruning.survivors);
    // The compiles the stop gave up are no verdict on their candidates: none is recorded as failed (a recorded
    // failure is never retried by later searches of the problem).
    for (const auto& m : r.measurements)
        EXPECT_EQ(m.detail.find("compile abandoned"), std::string::npos) << m.config << ": " << m.detail;
}

TEST(Tuning, ANewProcessServesTheTunedProblemWithZeroCompiles) {
    JITGEMM_REQUIRE_GPU();
    const testing::TemporaryDirectory dir;
    const std::string command = "JITGEMM_CACHE=" + dir.path() + " " + JITGEMM_CLI_PATH +
                                " run --m 777 --n 555 --k 333 --transa t --iterations 3 --json --tune now";
    const auto first = testing::run_process(command);
    ASSERT_EQ(first.exit_code, 0) << first.output;
    EXPECT_NE(first.output.find("\"served_by\": \"freshly-tuned\""), std::string::npos) << first.output;
    EXPECT_NE(first.output.find("\"tunings\": 1"), std::string::npos) << first.output;
    const auto second = testing::run_process(command);
    ASSERT_EQ(second.exit_code, 0) << second.output;
    EXPECT_NE(second.output.find("\"served_by\": \"cached-tuned\""), std::string::npos) << second.output;
    EXPECT_NE(second.output.find("\"nvrtc_compiles\": 0,"), std::string::npos) << second.output;
    EXPECT_NE(second.output.find("\"tunings\": 0"), std::string::npos) << second.output;
}

TEST(Tuning, BackgroundPolicySwapsTheWinnerIn) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    GemmShape shape;
    shape.m = 900;
    shape.n = 700;
    shape.k = 500;
    const GemmWorkload w(shape, rng);
    GemmOptions background;
    background.tuning = TunePolicy::Background;
    background.tune_budget_seconds = 3.0;
    EXPECT_EQ(w.run(nullptr, background), ServedBy::HeuristicDefault);
    EXPECT_TRUE(w.check(rng).passed());
    wait_for_background_tuning();
    const DeviceInfo& device = current_device();
    const Problem problem = make_canonical_call(w.call()).problem;
    const auto entry = cache::CacheStack::global().find_tuned(device.fingerprint(), problem.key(),
                                                              search_provenance(problem, device));
    ASSERT_TRUE(entry.has_value());
    const auto kernel = find_loaded_kernel(w.call(), "");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->config_name, entry->selection.config);
    w.reset_c();
    EXPECT_EQ(w.run(nullptr, background), ServedBy::InMemory);
    EXPECT_TRUE(w.check(rng).passed());
}

TEST(Tuning, OffPolicyServesTheDefaultAndRecordsTheProblemAsUntuned) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    GemmShape shape;
    shape.m = 123;
    shape.n = 456;
    shape.k = 78;
    const GemmWorkload w(shape, rng);
    GemmOptions off;
    off.tuning = TunePolicy::Off;
    const std::uint64_t tunings = statistics().tunings;
    EXPECT_EQ(w.run(nullptr, off), ServedBy::HeuristicDefault);
    EXPECT_EQ(statistics().tunings, tunings);
    EXPECT_TRUE(w.check(rng).passed());
    const std::string key = make_canonical_call(w.call()).problem.key();
    bool found = false;
    for (const auto& u : cache::CacheStack::global().writable()->all_untuned()) found |= u.problem_key == key;
    EXPECT_TRUE(found) << key;
}

}  // namespace
}  // namespace jitgemm
