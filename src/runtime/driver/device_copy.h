// Host <-> device copies of whole DeviceBuffers, for tools and tests (never on the gemm hot path). Synchronous with
// the whole current context, whatever streams its work is on: a download waits for all work enqueued before it, an
// upload has reached the device when it returns. (A plain cuMemcpy orders only against the legacy stream, and from
// pageable memory returns before the bytes land.) Not for use while another thread captures a graph in global mode.
#pragma once

#include <cstddef>
#include <vector>

#include "runtime/driver/driver_handles.h"

namespace jitgemm::driver {

// Allocates a buffer holding a copy of `host`, starting `offset_bytes` into it (to give a pointer a chosen
// alignment; the buffer is that much larger).
DeviceBuffer upload(const std::vector<float>& host, std::size_t offset_bytes = 0);
void copy_to_device(const DeviceBuffer& device, const std::vector<float>& host, std::size_t offset_bytes = 0);
// The buffer's floats from `offset_bytes` on.
std::vector<float> download(const DeviceBuffer& device, std::size_t offset_bytes = 0);

// The same for bytes, for operands of any element type (verify/host_dtypes.h encodes fp16 and bf16 values).
DeviceBuffer upload_bytes(const std::vector<std::byte>& host, std::size_t offset_bytes = 0);
void copy_bytes_to_device(const DeviceBuffer& device, const std::vector<std::byte>& host,
                          std::size_t offset_bytes = 0);
std::vector<std::byte> download_bytes(const DeviceBuffer& device, std::size_t offset_bytes = 0);

}  // namespace jitgemm::driver
