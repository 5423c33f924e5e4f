// StreamWorkspace: device scratch for one call on one stream (operands packed to an aligned copy, split-K partial
// sums), taken from a workspace that jitgemm keeps per stream.
//
// Each stream (told apart by the driver's stream and context ids, which are never reused) has one workspace: the
// largest any of its calls has needed, allocated in stream order from jitgemm's own memory pool. A call leases it
// for as long as it enqueues work; calls on one stream take turns (their work runs in stream order anyway), calls
// on different streams never share memory. When a call needs more, the old workspace is freed in stream order after
// the work that used it, and a larger one is allocated in its place.
//
// On a stream being captured into a graph the call takes a graph allocation instead, allocated and freed within
// the call's recorded work: the graph then never names the kept workspace, which calls outside it (on this stream
// or, after release_stream_workspaces, nowhere) go on using, and each launch of the graph has scratch of its own.
//
// A call's scratch may begin with a head that must be zero when its kernel starts (split-K's arrival counters,
// common/jg_split_k.cuh), which the kernel leaves zero again when it ends. The kept workspace holds such heads in an
// area of its own, zeroed once when allocated and used for nothing else: the scratch handed out ends its head at the
// end of that area, so that the rest follows in memory of its own. Zeroing the head before every launch was a memset
// in the stream between the kernels: 0.6-1.0 us a split launch on the H100 (session 29), 4-5% of a 4096 x 4096
// 16-bit decode step. A graph allocation is not zeroed: the caller zeroes its head (head_is_zero() says which).
//
// Why keep it rather than allocate and free per call: a stream-ordered allocation and free each put work on the
// stream, and on the H200 that cost ~0.6 us per call between the kernels (bench/NOTES.md, session 9): 1.5 % of a
// 44 us call. release_stream_workspaces() gives the memory back.
//
// The pool is jitgemm's own: the device's default pool, which the CUDA runtime's cudaMallocAsync uses, is left as
// the program set it.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/driver/cuda_driver.h"

namespace jitgemm::driver {

struct CachedWorkspace;

class StreamWorkspace {
public:
    // Leases the workspace of `stream` (in the current context), at least `bytes` of it, of which the first
    // `zeroed_head_bytes` (a multiple of 256) lie in the area kept zero, growing it first in stream order when it is
    // smaller; on a capturing stream, records a graph allocation of `bytes` instead. Throws Error(CudaError), or
    // Error(Unsupported) when the device has no memory pools; the stream's workspace is then as it was.
    StreamWorkspace(std::size_t bytes, std::size_t zeroed_head_bytes, CUstream stream);
    // Ends the lease (the work enqueued meanwhile keeps the memory in stream order); never throws.
    ~StreamWorkspace();
    StreamWorkspace(const StreamWorkspace&) = delete;
    StreamWorkspace& operator=(const StreamWorkspace&) = delete;

    CUdeviceptr get() const { return ptr_; }
    // True where the head is zero already (the kept workspace), false where the caller must zero it before the
    // kernel (a graph allocation).
    bool head_is_zero() const { return captured_stream_ == nullptr; }

private:
    std::shared_ptr<CachedWorkspace> workspace_;
    CUdeviceptr ptr_ = 0;
    CUstream captured_stream_ = nullptr;  // set for a graph allocation
};

// The bytes of the workspace kept for `stream` in the current context: 0 when there is none (tests, diagnostics).
std::size_t kept_stream_workspace_bytes(CUstream stream);
// Zeroes the area kept zero in the workspace of `stream` again, in stream order (nothing when there is none): after a
// kernel that may not have left it zero, such as a tuning candidate whose output was wrong, so that the calls after
// it count from zero. Throws Error(CudaError).
void rezero_kept_stream_workspace(CUstream stream);
// Whether the area kept zero in that workspace is all zeros once the stream's work has ended (waits for it; true
// when there is none): the kernels that count in it must leave it so (tests).
bool kept_stream_workspace_head_area_is_zero(CUstream stream);

// Frees the workspaces kept for the streams of the current context, after waiting for the work on them
// (cuCtxSynchronize), and returns the memory to the device. A workspace leased at that moment by another thread is
// left alone. Does nothing, and touches no driver, when no workspace is kept. Throws Error(CudaError).
void release_stream_workspaces();

}  // namespace jitgemm::driver
