// Evicts the L2 cache between timed runs by reading a buffer twice its size (time from cold caches, as a real
// workload that streams its operands would run), leaving L2 clean: kernel_sources/support/jg_l2_flush.cuh says why
// a read and not a memset.
#pragma once

#include "runtime/device/device_info.h"
#include "runtime/driver/driver_handles.h"

namespace jitgemm {

class L2Flusher {
public:
    // Compiles the read kernel for the device (once per architecture and process).
    explicit L2Flusher(const DeviceInfo& device);
    // Enqueues the read on `stream`.
    void flush(CUstream stream) const;

private:
    driver::DeviceBuffer scratch_;
    driver::DeviceBuffer sink_;
    driver::ModuleHandle module_;
    CUfunction read_ = nullptr;
    unsigned blocks_ = 0;
};

}  // namespace jitgemm
