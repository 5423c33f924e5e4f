// Host <-> device copies of whole DeviceBuffers, synchronous, for tools and tests (never on the gemm hot path).
#pragma once

#include <vector>

#include "driver/driver_handles.h"

namespace jitgemm::driver {

// Allocates a buffer holding a copy of `host`.
DeviceBuffer upload(const std::vector<float>& host);
void copy_to_device(const DeviceBuffer& device, const std::vector<float>& host);
std::vector<float> download(const DeviceBuffer& device);

}  // namespace jitgemm::driver
