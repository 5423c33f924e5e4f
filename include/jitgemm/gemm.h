// jitgemm::gemm — C = alpha * op(A) * op(B) + beta * C on the GPU, with a kernel compiled for this exact problem.
//
// Arguments follow BLAS (xGEMM): op(A) is m x k, op(B) is k x n, C is m x n; lda, ldb and ldc are leading
// dimensions in elements, in the storage order `order` names. Pointers are device pointers (from cudaMalloc,
// cuMemAlloc — cast a CUdeviceptr with reinterpret_cast<void*> — or any allocator of the current context).
//
// Context: the call works in the calling thread's current CUDA context. When the thread has none, jitgemm makes the
// primary context of device 0 current, as the CUDA runtime API does, so programs that use the runtime API share
// jitgemm's context without doing anything.
//
// Work is enqueued on `stream` and the call returns without waiting for it, except on the first call of a problem
// in a process: that one loads the tuned kernel from the cache (milliseconds), or — when there is none — tunes
// (TunePolicy::Now, within the budget), compiles the heuristic default, or both (Background).
//
// Tuning cache: $JITGEMM_CACHE (a directory), else $XDG_CACHE_HOME/jitgemm, else ~/.cache/jitgemm, file
// tuning.sqlite; read-only bundles from $JITGEMM_CACHE_PATH (':'-separated files or directories) rank below it.
//
// BLAS conventions: m = 0 or n = 0 does nothing; k = 0 or alpha = 0 sets C = beta * C without reading A or B
// (always with jitgemm's scaling kernel, whatever GemmOptions::config names);
// beta = 0 never reads C, so C may hold NaN or garbage. Indexing is 64-bit where the problem's offsets need it
// (chosen per problem when the kernel is specialized), so large leading dimensions are supported.
//
// Errors: every failure throws jitgemm::Error (see error.h) before anything is enqueued.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "jitgemm/types.h"

namespace jitgemm {

// Which level of jitgemm produced the kernel that a call launched.
enum class ServedBy {
    InMemory,          // a kernel this process already had loaded: the hot path, no compile
    CachedTuned,       // a tuned entry loaded from the SQLite cache: no compile
    FreshlyTuned,      // this call tuned the problem and launched the winner
    HeuristicDefault,  // compiled now from the heuristic default configuration (untuned)
    Requested,         // compiled now from the configuration named in GemmOptions::config
    NothingToDo,       // m = 0, n = 0, batch_count = 0, or C = 1 * C (k = 0 or alpha = 0 with beta = 1): nothing
                       // was launched
    NearestTuned,      // untuned, served by the run-time-shape variant of the kernel tuned for the nearest problem of
                       // the same layer (only m, or only n, and the leading dimensions differ): no compile where the
                       // variant's binary is stored; exact tuning, where the policy runs it, replaces it
};

JITGEMM_API std::string_view to_string(ServedBy);

// What a call does when no tuned kernel exists for its problem (on this device, with this jitgemm, NVRTC and driver).
enum class TunePolicy {
    FromEnvironment,  // $JITGEMM_TUNE: "now", "background" or "off"; "now" when unset
    Now,              // tune within the budget, then launch the winner (the first call waits for the search)
    Background,       // launch the heuristic default now; tune on a background thread and swap the winner in
    Off,              // heuristic default, never tune; the problem is recorded as untuned for `jitgemm tune`
    Never,            // never tune and never compile: a kernel not in memory comes from the cache (the tuned entry,
                      // or the stored cubin of a requested configuration) or the call throws Error(NotTuned) naming
                      // the problem and the command that tunes it; NVRTC is not called. For production that must
                      // prove it runs from its bundle.
};

JITGEMM_API std::string_view to_string(TunePolicy);
// "now", "background", "off", "never", "from-environment"
JITGEMM_API std::optional<TunePolicy> parse_tune_policy(std::string_view);

struct GemmOptions {
    // A kernel configuration by its canonical name, e.g. "regblock_128x128x8_t8x8_v4_s2_g8" or "naive_16x16"
    // (`jitgemm configs` lists the families and their knobs). Empty: jitgemm chooses.
    std::string config;
    // Arithmetic of the multiply. F32 is exact fp32; TF32 is never used unless asked for here.
    ComputeType compute = ComputeType::F32;
    // On a miss in memory and in the tuning cache.
    TunePolicy tuning = TunePolicy::FromEnvironment;
    // Wall-clock budget of one problem's search in seconds; 0: $JITGEMM_TUNE_BUDGET, else 10. A search whose budget
    // runs out before any candidate has passed goes on until one does.
    double tune_budget_seconds = 0.0;
    // Bitwise-reproducible results. No kernel of jitgemm sums with atomics: split-K and stream-K partial sums are
    // added in a fixed order, so a kernel gives the same bits for the same inputs on every run. What can change them
    // is which kernel runs, and a deterministic call pins that: each problem runs, for the whole process, the kernel
    // its first deterministic call chose (the tuned entry of the cache, else the policy's choice: under Now the
    // search's winner, under Background and Off the heuristic default). A background search still runs and
    // its winner serves the problem's other calls, but is not swapped in under deterministic ones; nor does a
    // run-time-shape variant serve them. The cost: a problem first served untuned stays untuned in this process.
    // Across processes the bits are the same when the cache holds the same selection (ship a tuned bundle and use
    // TunePolicy::Never), on the same GPU model and jitgemm, NVRTC and driver versions.
    bool deterministic = false;
};

// The general entry point: any supported dtype combination (a_type, b_type, c_type); alpha and beta are applied in
// fp32. Supported: F32 x F32 -> F32 with ComputeType::F32 (exact fp32) or ComputeType::TF32 (asked for in
// GemmOptions::compute); F16 x F16 and BF16 x BF16 -> F16, BF16 or F32, multiplied exactly with fp32 accumulation.
// Anything else throws Error(Unsupported) naming the rule. 16-bit operands may be only 2-byte aligned (odd leading
// dimensions): they are read element by element, or — where the tuner finds it faster — copied first to an aligned
// workspace. jitgemm keeps one workspace per stream (the largest its calls have needed, from jitgemm's own memory
// pool, grown in stream order; calls on different streams never share one) until release_workspaces().
JITGEMM_API ServedBy gemm(Order order, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k,
                          float alpha, const void* a, DType a_type, int64_t lda, const void* b, DType b_type,
                          int64_t ldb, float beta, void* c, DType c_type, int64_t ldc, Stream stream = nullptr,
                          const GemmOptions& options = {});

// Strided batched GEMM, as cublasGemmStridedBatchedEx: batch_count independent GEMMs of one shape in one launch, GEMM
// i on A + i * stride_a, B + i * stride_b and C + i * stride_c (strides in elements). stride_a or stride_b may be 0
// (all GEMMs read the same A or B); C's GEMMs must not overlap (stride_c at least one C's extent, or C's GEMMs side
// by side within ldc), or the call throws Error(InvalidArgument). batch_count = 0 does nothing; batch_count = 1 is
// gemm(). The batch count is part of the problem that is tuned and cached; the strides are not (only how they align
// the operands), so calls that differ only in their strides share a kernel.
JITGEMM_API ServedBy gemm_strided_batched(Order order, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n,
                                          int64_t k, float alpha, const void* a, DType a_type, int64_t lda,
                                          int64_t stride_a, const void* b, DType b_type, int64_t ldb, int64_t stride_b,
                                          float beta, void* c, DType c_type, int64_t ldc, int64_t stride_c,
                                          int64_t batch_count, Stream stream = nullptr,
                                          const GemmOptions& options = {});

// fp32 convenience form of gemm().
inline ServedBy sgemm(Order order, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k,
                      float alpha, const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                      int64_t ldc, Stream stream = nullptr, const GemmOptions& options = {}) {
    return gemm(order, trans_a, trans_b, m, n, k, alpha, a, DType::F32, lda, b, DType::F32, ldb, beta, c,
                DType::F32, ldc, stream, options);
}

// The library's version, e.g. "0.1.0": the version of the library that runs, where jitgemm/version.h's macros give
// the version of the headers a program was compiled with.
JITGEMM_API std::string_view version();

// Counters of this process, for checking that production serves from the cache without compiling.
struct Statistics {
    std::uint64_t nvrtc_compiles = 0;  // GEMM kernels compiled by NVRTC (tuning candidates included; not the
                                       // measurements' support kernels, such as the L2 flush)
    std::uint64_t tunings = 0;         // searches run (now or in the background)
};
JITGEMM_API Statistics statistics();

// Waits until every background tuning started so far has finished and been swapped in.
JITGEMM_API void wait_for_background_tuning();

// Frees the workspaces jitgemm keeps for the streams of the calling thread's current context (packed operand copies
// and split-K partial sums; see gemm()) and returns their memory to the device. It waits for all work in that
// context first (cuCtxSynchronize), since a stream may have been destroyed with work pending. A workspace that
// another thread's call holds at that moment is kept. Does nothing when no workspace is kept. Later calls allocate
// again as they need.
JITGEMM_API void release_workspaces();

}  // namespace jitgemm
