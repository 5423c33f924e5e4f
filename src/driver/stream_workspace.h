// StreamWorkspace: device memory that lives in stream order — allocated when the work enqueued before it on the
// stream has run, freed once the work enqueued after it has — from jitgemm's own memory pool of the context's
// device. Kernels that need scratch space (operands packed to an aligned copy) get it per call this way, so calls
// on concurrent streams never share it and the caller's program never sees it.
//
// The pool keeps what it has allocated (an unlimited release threshold), so after the first call of a size the
// allocation is a pool lookup, not a cuMemAlloc. It is jitgemm's own pool: the device's default pool, which the
// CUDA runtime's cudaMallocAsync uses, is left as the program set it.
#pragma once

#include <cstddef>

#include "driver/cuda_driver.h"

namespace jitgemm::driver {

class StreamWorkspace {
public:
    // Enqueues the allocation of `bytes` on `stream` (in the current context). Throws Error(CudaError), or
    // Error(Unsupported) when the device has no memory pools.
    StreamWorkspace(std::size_t bytes, CUstream stream);
    // Enqueues the release; never throws.
    ~StreamWorkspace();
    StreamWorkspace(const StreamWorkspace&) = delete;
    StreamWorkspace& operator=(const StreamWorkspace&) = delete;

    CUdeviceptr get() const { return ptr_; }

private:
    CUdeviceptr ptr_ = 0;
    CUstream stream_ = nullptr;
};

}  // namespace jitgemm::driver
