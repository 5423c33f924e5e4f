// The L2 flush: a memset of twice the L2 size.
#include "runtime/measure/l2_flush.h"

#include <algorithm>

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

namespace jitgemm {

L2Flusher::L2Flusher(const DeviceInfo& device)
    : scratch_(static_cast<std::size_t>(std::max(device.l2_bytes, 1 << 20)) * 2) {}

void L2Flusher::flush(CUstream stream) const {
    JITGEMM_CU_CHECK(driver::api().cuMemsetD32Async(scratch_.get(), 0x3f800000u, scratch_.bytes() / 4, stream));
}

}  // namespace jitgemm
