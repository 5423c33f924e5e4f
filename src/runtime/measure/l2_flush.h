// Evicts the L2 cache between timed runs by overwriting a buffer twice its size (time from cold caches, as
// a real workload that streams its operands would run).
#pragma once

#include "runtime/device/device_info.h"
#include "runtime/driver/driver_handles.h"

namespace jitgemm {

class L2Flusher {
public:
    explicit L2Flusher(const DeviceInfo& device);
    // Enqueues the overwrite on `stream`.
    void flush(CUstream stream) const;

private:
    driver::DeviceBuffer scratch_;
};

}  // namespace jitgemm
