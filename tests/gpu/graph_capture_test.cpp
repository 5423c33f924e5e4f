// jitgemm::gemm on a stream being captured into a CUDA graph (runtime API, global capture mode: the strictest, in
// which any forbidden call from any thread invalidates the capture). A problem seen for the first time inside the
// capture is served untuned without breaking it; the graph instantiates and its replays compute the right result;
// kernels that pack or split K take graph allocations, not the stream's kept workspace; the tuning the policy asks
// for happens at the first call outside a capture.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <ostream>
#include <thread>
#include <random>
#include <stdexcept>
#include <string>

#include "runtime/workspace/stream_workspace.h"
#include "jitgemm/gemm.h"
#include "support/gpu_test_support.h"
#include "tools/verify/gemm_workload.h"
#include "tuner/tuner.h"

namespace jitgemm {
namespace {

cudaStream_t non_blocking_stream() {
    cudaStream_t stream = nullptr;
    const cudaError_t made = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
    if (made != cudaSuccess) throw std::runtime_error(std::string("cudaStreamCreate: ") + cudaGetErrorString(made));
    return stream;
}

struct CaptureCase {
    const char* name;
    GemmShape shape;
};

CaptureCase odd_f32() {
    CaptureCase c{"odd_f32", {}};
    c.shape.m = 301;
    c.shape.n = 203;
    c.shape.k = 157;
    c.shape.beta = 0.5f;
    return c;
}

// Row-major bf16 with odd k and n: 2-byte aligned operands, above a GFLOP: the default packs both to the workspace.
CaptureCase packed_bf16() {
    CaptureCase c{"packed_bf16", {}};
    c.shape.order = Order::RowMajor;
    c.shape.m = 1031;
    c.shape.n = 517;
    c.shape.k = 2049;
    c.shape.a_type = c.shape.b_type = c.shape.c_type = DType::BF16;
    return c;
}

// A decode-like product: few tiles, a long K: the default splits K, with partial sums in the workspace.
CaptureCase split_k_bf16() {
    CaptureCase c{"split_k_bf16", {}};
    c.shape.m = 8;
    c.shape.n = 2048;
    c.shape.k = 8192;
    c.shape.a_type = c.shape.b_type = DType::BF16;
    c.shape.c_type = DType::F32;
    return c;
}

void PrintTo(const CaptureCase& c, std::ostream* os) { *os << c.name; }

class GraphCapture : public ::testing::TestWithParam<CaptureCase> {};

GemmOptions policy(TunePolicy p) {
    GemmOptions options;
    options.tuning = p;
    options.tune_budget_seconds = 1.0;
    return options;
}

// Captures one call of `workload` on `stream`, instantiates the graph, and replays it `replays` times, each on a
// freshly reset C, checking every result. Returns what the captured call was served by.
ServedBy capture_and_replay(const GemmWorkload& workload, cudaStream_t stream, const GemmOptions& options,
                            std::mt19937_64& rng, int replays) {
    ServedBy served = ServedBy::NothingToDo;
    cudaGraph_t graph = nullptr;
    EXPECT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), cudaSuccess);
    try {
        served = workload.run(stream, options);
    } catch (const std::exception& e) {
        ADD_FAILURE() << "gemm inside the capture threw: " << e.what();
    }
    const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
    EXPECT_EQ(ended, cudaSuccess) << "the capture was invalidated: " << cudaGetErrorString(ended);
    if (ended != cudaSuccess) return served;
    cudaGraphExec_t exec = nullptr;
    EXPECT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
    for (int r = 0; r < replays && exec != nullptr; ++r) {
        workload.reset_c();
        EXPECT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
        EXPECT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
        const auto result = workload.check(rng);
        EXPECT_TRUE(result.passed()) << "replay " << r << ": " << result.describe();
    }
    if (exec != nullptr) cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    return served;
}

TEST_P(GraphCapture, UnseenProblemIsServedUntunedReplaysCorrectlyAndIsTunedAfterTheCapture) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    const GemmWorkload workload(GetParam().shape, rng);
    cudaStream_t stream = non_blocking_stream();

    const std::uint64_t searches = tuning_count();
    const ServedBy captured = capture_and_replay(workload, stream, policy(TunePolicy::Now), rng, 3);
    EXPECT_EQ(captured, ServedBy::HeuristicDefault);  // each test process starts with an empty cache
    EXPECT_EQ(tuning_count(), searches) << "a search ran inside the capture";
    EXPECT_EQ(driver::kept_stream_workspace_bytes(stream), 0u) << "the capture grew the stream's kept workspace";

    // A second capture finds the kernel the first one built: nothing is built or tuned.
    EXPECT_EQ(capture_and_replay(workload, stream, policy(TunePolicy::Now), rng, 1), ServedBy::InMemory);
    EXPECT_EQ(tuning_count(), searches);

    // Outside the capture the policy applies: the problem is tuned now, and the result is right.
    workload.reset_c();
    EXPECT_EQ(workload.run(stream, policy(TunePolicy::Now)), ServedBy::FreshlyTuned);
    EXPECT_EQ(tuning_count(), searches + 1);
    const auto tuned_result = workload.check(rng);
    EXPECT_TRUE(tuned_result.passed()) << tuned_result.describe();

    // A capture after that records the tuned kernel.
    EXPECT_EQ(capture_and_replay(workload, stream, policy(TunePolicy::Now), rng, 2), ServedBy::InMemory);
    EXPECT_EQ(tuning_count(), searches + 1);
    cudaStreamDestroy(stream);
}

INSTANTIATE_TEST_SUITE_P(Shapes, GraphCapture, ::testing::Values(odd_f32(), packed_bf16(), split_k_bf16()),
                         [](const ::testing::TestParamInfo<CaptureCase>& info) { return info.param.name; });

TEST(GraphCaptureBackground, NothingIsQueuedDuringTheCaptureAndTheSearchRunsAfterIt) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    GemmShape shape = split_k_bf16().shape;
    shape.n = 1536;  // a problem of its own
    const GemmWorkload workload(shape, rng);
    cudaStream_t stream = non_blocking_stream();

    const std::uint64_t searches = tuning_count();
    EXPECT_EQ(capture_and_replay(workload, stream, policy(TunePolicy::Background), rng, 2),
              ServedBy::HeuristicDefault);
    wait_for_background_tuning();
    EXPECT_EQ(tuning_count(), searches) << "the capture queued a background search";

    workload.reset_c();
    EXPECT_EQ(workload.run(stream, policy(TunePolicy::Background)), ServedBy::HeuristicDefault);
    wait_for_background_tuning();
    EXPECT_EQ(tuning_count(), searches + 1);
    const auto result = workload.check(rng);
    EXPECT_TRUE(result.passed()) << result.describe();
    cudaStreamDestroy(stream);
}

// A search on another thread (allocating, loading modules, synchronizing its own stream) while this thread captures
// in global mode, the mode in which any thread's forbidden call invalidates the capture.
TEST(GraphCaptureBackground, ASearchOnAnotherThreadDoesNotBreakTheCapture) {
    JITGEMM_REQUIRE_GPU();
    std::mt19937_64 rng(testing::fresh_seed());
    GemmShape searched = odd_f32().shape;  // a problem of its own, with candidates enough to fill a 10 s search
    searched.m = searched.n = searched.k = 1536;
    const GemmWorkload search_workload(searched, rng);
    const GemmWorkload captured(packed_bf16().shape, rng);
    cudaStream_t stream = non_blocking_stream();
    std::atomic<bool> searching{false}, search_done{false};
    std::string search_error;
    std::thread search([&] {
        try {
            driver::current_context();
            GemmOptions now = policy(TunePolicy::Now);
            now.tune_budget_seconds = 10.0;
            searching = true;
            search_workload.run(nullptr, now);
            search_done = true;
        } catch (const std::exception& e) {
            search_error = e.what();
        }
    });
    while (!searching.load()) std::this_thread::yield();
    // Captures for as long as the search runs (five at least): how long a search takes depends on what its cost model
    // rules out and on how busy the GPU is (1.5 to 6 s on the H100), so a fixed count of captures cannot be sure to
    // fall inside it. At least one must begin and end while the search runs, or nothing was shown.
    int inside = 0;
    for (int i = 0; i < 200 && (i < 5 || !search_done.load()); ++i) {
        const bool began_inside = !search_done.load();
        capture_and_replay(captured, stream, policy(TunePolicy::Off), rng, 1);
        if (began_inside && !search_done.load()) ++inside;
    }
    EXPECT_GE(inside, 1) << "the search ended before a capture did: nothing was shown";
    search.join();
    EXPECT_TRUE(search_error.empty()) << search_error;
    search_workload.reset_c();
    search_workload.run(nullptr, policy(TunePolicy::Now));
    testing::synchronize();
    EXPECT_TRUE(search_workload.check(rng).passed());
    cudaStreamDestroy(stream);
}

}  // namespace
}  // namespace jitgemm
