// Long and crowded runs: 16 threads calling gemm on a mix of problems and types while background searches of those
// problems run and swap their winners in, every result checked; and a million calls on two streams with host and
// device memory flat.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "runtime/driver/driver_handles.h"
#include "jitgemm/gemm.h"
#include "support/gpu_test_support.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

// Problems of every family the default or a search may pick: fp32 odd and aligned, bf16 and fp16 aligned,
// misaligned (packed) and decode-like (split K), TF32.
std::vector<GemmShape> mixed_shapes() {
    std::vector<GemmShape> shapes;
    const auto add = [&](std::int64_t m, std::int64_t n, std::int64_t k, DType in, DType out, Order order,
                         ComputeType compute) {
        GemmShape s;
        s.m = m;
        s.n = n;
        s.k = k;
        s.a_type = s.b_type = in;
        s.c_type = out;
        s.order = order;
        s.compute = compute;
        s.beta = 0.5f;
        shapes.push_back(s);
    };
    add(257, 129, 97, DType::F32, DType::F32, Order::ColumnMajor, ComputeType::F32);
    add(256, 256, 256, DType::F32, DType::F32, Order::ColumnMajor, ComputeType::F32);
    add(384, 256, 512, DType::BF16, DType::BF16, Order::ColumnMajor, ComputeType::F32);
    add(301, 517, 263, DType::F16, DType::F32, Order::RowMajor, ComputeType::F32);
    add(8, 1024, 4096, DType::BF16, DType::F32, Order::ColumnMajor, ComputeType::F32);
    add(200, 300, 400, DType::F32, DType::F32, Order::RowMajor, ComputeType::TF32);
    return shapes;
}

TEST(Soak, SixteenThreadsOnMixedProblemsWhileBackgroundSearchesSwapWinnersIn) {
    JITGEMM_REQUIRE_GPU();
    constexpr int kThreads = 16, kRounds = 12;
    const std::vector<GemmShape> shapes = mixed_shapes();
    const std::uint64_t seed = testing::fresh_seed();
    GemmOptions background;
    background.tuning = TunePolicy::Background;
    background.tune_budget_seconds = 2.0;
    const std::uint64_t searches = statistics().tunings;

    std::vector<std::string> failures(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            try {
                driver::current_context();
                std::mt19937_64 rng(seed + static_cast<std::uint64_t>(t));
                const driver::StreamHandle stream = driver::make_stream();
                // Each thread its own operands of every problem; the threads meet in the kernel store, the cache,
                // the background tuner and the driver.
                std::vector<std::unique_ptr<GemmWorkload>> workloads;
                for (const GemmShape& s : shapes) workloads.push_back(std::make_unique<GemmWorkload>(s, rng));
                for (int round = 0; round < kRounds; ++round)
                    for (std::size_t p = 0; p < workloads.size(); ++p) {
                        const GemmWorkload& w = *workloads[(p + static_cast<std::size_t>(t)) % workloads.size()];
                        w.reset_c();
                        w.run(stream.get(), background);
                        JITGEMM_CU_CHECK(driver::api().cuStreamSynchronize(stream.get()));
                        const auto result = w.check(rng, 1024);
                        if (!result.passed() && failures[t].empty())
                            failures[t] = w.shape().describe() + " round " + std::to_string(round) + ": " +
                                          result.describe();
                    }
            } catch (const std::exception& e) {
                failures[t] = std::string("threw: ") + e.what();
            }
        });
    for (auto& t : threads) t.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(failures[t].empty()) << "thread " << t << ": " << failures[t];
    wait_for_background_tuning();
    // One search per problem, however many threads asked.
    EXPECT_EQ(statistics().tunings, searches + shapes.size());
}

std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t free_device_bytes() {
    std::size_t free = 0, total = 0;
    JITGEMM_CU_CHECK(driver::api().cuMemGetInfo(&free, &total));
    return free;
}

TEST(Soak, AMillionCallsKeepHostAndDeviceMemoryFlat) {
    JITGEMM_REQUIRE_GPU();
    constexpr int kCalls = 1000000, kWarmup = 20000;
    std::mt19937_64 rng(testing::fresh_seed());
    GemmShape small;
    small.m = small.n = small.k = 64;
    GemmShape split = mixed_shapes()[4];  // decode-like: split K, workspace per call
    const GemmWorkload a(small, rng), b(split, rng);
    GemmOptions untuned;
    untuned.tuning = TunePolicy::Off;
    const driver::StreamHandle first = driver::make_stream(), second = driver::make_stream();
    const auto call = [&](int i) {
        if (i % 2 == 0) a.run(first.get(), untuned);
        else b.run(second.get(), untuned);
        if (i % 4096 == 0) testing::synchronize();  // keep the queues bounded
    };
    for (int i = 0; i < kWarmup; ++i) call(i);
    testing::synchronize();
    const std::size_t host_before = resident_bytes(), device_before = free_device_bytes();
    for (int i = 0; i < kCalls; ++i) call(i);
    testing::synchronize();
    const std::size_t host_after = resident_bytes(), device_after = free_device_bytes();
    std::printf("resident %zu -> %zu bytes, device free %zu -> %zu bytes over %d calls\n", host_before, host_after,
                device_before, device_after, kCalls);
    EXPECT_LE(host_after, host_before + (std::size_t{4} << 20)) << "host memory grew over a million calls";
    EXPECT_GE(device_after + (std::size_t{2} << 20), device_before) << "device memory grew over a million calls";
    // The last calls still compute the right thing.
    a.reset_c();
    b.reset_c();
    a.run(first.get(), untuned);
    b.run(second.get(), untuned);
    testing::synchronize();
    EXPECT_TRUE(a.check(rng).passed());
    EXPECT_TRUE(b.check(rng).passed());
}

}  // namespace
}  // namespace jitgemm
