// Host <-> device copies of whole DeviceBuffers, synchronous, for tools and tests (never on the gemm hot path).
#pragma once

#include <vector>

#include "driver/driver_handles.h"

namespace jitgemm::driver {

// Allocates a buffer holding a copy of `host`, starting `offset_bytes` into it (to give a pointer a chosen
// alignment; the buffer is that much larger).
DeviceBuffer upload(const std::vector<float>& host, std::size_t offset_bytes = 0);
void copy_to_device(const DeviceBuffer& device, const std::vector<float>& host, std::size_t offset_bytes = 0);
// The buffer's floats from `offset_bytes` on.
std::vector<float> download(const DeviceBuffer& device, std::size_t offset_bytes = 0);

}  // namespace jitgemm::driver
