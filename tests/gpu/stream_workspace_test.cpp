// The workspace jitgemm keeps per stream (src/runtime/workspace/stream_workspace.h) for kernels that pack their operands or
// split K: calls on concurrent streams, and threads sharing one stream, never see each other's packed copies or
// partial sums; a stream's workspace grows in stream order while earlier calls still run; release_workspaces()
// frees it, and later calls allocate again. Every result is checked against the float64 reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "runtime/device/device_info.h"
#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_handles.h"
#include "runtime/workspace/stream_workspace.h"
#include "jitgemm/gemm.h"
#include "support/gpu_test_support.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm {
namespace {

// A packed, split-K kernel: both operands copied to the workspace, the partial sums and counters after them.
GemmOptions packed_split() {
    GemmOptions options;
    options.config = "mma_sync_64x64x32_w2x2_s3_g8_k2_p3";
    options.tuning = TunePolicy::Off;
    return options;
}

GemmShape column_major(std::int64_t m, std::int64_t n, std::int64_t k, DType type) {
    GemmShape shape;
    shape.m = m;
    shape.n = n;
    shape.k = k;
    shape.a_type = shape.b_type = shape.c_type = type;
    return shape;
}

// Row-major bf16 with odd leading dimensions (k and n odd): only 2-byte aligned, the case the pack exists for.
GemmShape misaligned(std::int64_t m, std::int64_t n, std::int64_t k) {
    GemmShape shape = column_major(m, n, k, DType::BF16);
    shape.order = Order::RowMajor;
    return shape;
}

void expect_correct(const GemmWorkload& workload, std::mt19937_64& rng) {
    const GemmWorkload::Result result = workload.check(rng);
    EXPECT_TRUE(result.passed()) << workload.shape().describe() << ": " << result.describe();
}

TEST(StreamWorkspace, ConcurrentStreamsNeverShareOne) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    const driver::StreamHandle first = driver::make_stream(), second = driver::make_stream();
    const GemmWorkload one(misaligned(517, 389, 1031), rng), other(misaligned(301, 701, 777), rng);
    // Both streams run their calls at the same time; had they one workspace, each pack would overwrite copies the
    // other stream's GEMM is reading.
    for (int i = 0; i < 16; ++i) {
        one.run(first.get(), packed_split());
        other.run(second.get(), packed_split());
    }
    testing::synchronize();
    expect_correct(one, rng);
    expect_correct(other, rng);
    EXPECT_GT(driver::kept_stream_workspace_bytes(first.get()), 0u);
    EXPECT_GT(driver::kept_stream_workspace_bytes(second.get()), 0u);
}

TEST(StreamWorkspace, ThreadsSharingAStreamTakeTurns) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    const driver::StreamHandle stream = driver::make_stream();
    // Different sizes, so that a call may grow the workspace while the other thread's calls are queued on it.
    std::vector<GemmWorkload> workloads;
    workloads.emplace_back(misaligned(203, 159, 517), rng);
    workloads.emplace_back(misaligned(611, 487, 1999), rng);
    workloads.emplace_back(misaligned(97, 1201, 333), rng);
    std::vector<std::thread> threads;
    for (const GemmWorkload& w : workloads)
        threads.emplace_back([&w, &stream] {
            driver::current_context();  // the test's context, made current on this thread as gemm() would
            for (int i = 0; i < 8; ++i) w.run(stream.get(), packed_split());
        });
    for (std::thread& t : threads) t.join();
    testing::synchronize();
    for (const GemmWorkload& w : workloads) expect_correct(w, rng);
}

TEST(StreamWorkspace, GrowsInStreamOrderAndIsReleased) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    const driver::StreamHandle stream = driver::make_stream();
    const GemmWorkload small(misaligned(131, 77, 445), rng), large(misaligned(1203, 1111, 2049), rng);
    small.run(stream.get(), packed_split());
    const std::size_t small_bytes = driver::kept_stream_workspace_bytes(stream.get());
    EXPECT_GT(small_bytes, 0u);
    // Enqueued behind the small call without waiting: the larger workspace replaces the smaller one in stream order.
    large.run(stream.get(), packed_split());
    const std::size_t large_bytes = driver::kept_stream_workspace_bytes(stream.get());
    EXPECT_GT(large_bytes, small_bytes);
    small.reset_c();
    small.run(stream.get(), packed_split());
    EXPECT_EQ(driver::kept_stream_workspace_bytes(stream.get()), large_bytes) << "a smaller call reuses it";
    testing::synchronize();
    expect_correct(small, rng);
    expect_correct(large, rng);

    release_workspaces();
    EXPECT_EQ(driver::kept_stream_workspace_bytes(stream.get()), 0u);
    release_workspaces();  // nothing left: no effect
    small.reset_c();
    small.run(stream.get(), packed_split());
    EXPECT_GT(driver::kept_stream_workspace_bytes(stream.get()), 0u);
    testing::synchronize();
    expect_correct(small, rng);
}

// Every kernel whose tiles meet through arrival counters sets each counter back to zero, since the stream's workspace
// keeps them zero instead of zeroing them before each launch: calls of every such kind, with more counters and
// fewer, one after another on one stream (each call's counters are the last of the area kept zero, so a smaller
// call reuses a larger one's), are right, and the area is all zeros after each.
TEST(StreamWorkspace, CountersAreLeftZeroByEveryKernelThatCounts) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    const driver::StreamHandle stream = driver::make_stream();
    struct Call {
        GemmShape shape;
        std::string config;
    };
    std::vector<Call> calls = {
        {column_major(1000, 900, 2048, DType::BF16), "mma_sync_64x64x32_w2x2_s3_g8_k4"},        // split-K
        {column_major(200, 96, 1500, DType::BF16), "mma_sync_64x64x32_w2x2_s3_g8_sk7"},         // stream-K
        {misaligned(517, 389, 1031), "mma_sync_64x64x32_w2x2_s3_g8_k2_p3"},                      // packed, split
        {column_major(700, 333, 1999, DType::F32), "regblock_128x64x8_t8x4_v2_s1_g1_k2"},        // SIMT split-K
        {column_major(4000, 8, 3000, DType::F32), "decode_simt_w4_r1_c8_k4_u4"},                 // decode slices
        {column_major(2048, 16, 4096, DType::BF16), "decode_mma_w4_r1_c8_k2_u4"},
        {column_major(50, 30, 2000, DType::BF16), "mma_sync_32x32x16_w1x1_s2_g8_k8"},            // few counters
    };
    if (query_device_info(0).cc_major >= 9)
        calls.push_back({column_major(1024, 1024, 1024, DType::BF16), "wgmma_128x128x64_c2_s4_g8_q7_sk"});
    for (int round = 0; round < 2; ++round) {
        for (const Call& call : calls) {
            GemmOptions options;
            options.config = call.config;
            options.tuning = TunePolicy::Off;
            const GemmWorkload workload(call.shape, rng);
            workload.run(stream.get(), options);
            testing::synchronize();
            expect_correct(workload, rng);
            EXPECT_TRUE(driver::kept_stream_workspace_head_area_is_zero(stream.get()))
                << call.config << " on " << call.shape.describe() << " left a counter set";
        }
        std::shuffle(calls.begin(), calls.end(), rng);
    }
    // What the tuner does after a candidate whose output was wrong: the area zeroed again, in stream order.
    driver::rezero_kept_stream_workspace(stream.get());
    EXPECT_TRUE(driver::kept_stream_workspace_head_area_is_zero(stream.get()));
}

TEST(StreamWorkspace, TheDefaultStreamHasOneToo) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    const GemmWorkload workload(misaligned(257, 263, 769), rng);
    workload.run(nullptr, packed_split());
    EXPECT_GT(driver::kept_stream_workspace_bytes(nullptr), 0u);
    testing::synchronize();
    expect_correct(workload, rng);
}

}  // namespace
}  // namespace jitgemm
