// Synchronous whole-buffer copies.
#include "driver/device_copy.h"

#include "driver/cuda_driver.h"
#include "driver/driver_check.h"
#include "jitgemm/error.h"

namespace jitgemm::driver {

DeviceBuffer upload(const std::vector<float>& host, std::size_t offset_bytes) {
    DeviceBuffer device(host.size() * sizeof(float) + offset_bytes);
    copy_to_device(device, host, offset_bytes);
    return device;
}

void copy_to_device(const DeviceBuffer& device, const std::vector<float>& host, std::size_t offset_bytes) {
    if (host.size() * sizeof(float) + offset_bytes > device.bytes())
        throw Error(ErrorCode::Internal, "jitgemm: host data larger than its device buffer");
    if (!host.empty())
        JITGEMM_CU_CHECK(api().cuMemcpyHtoD(device.get() + offset_bytes, host.data(), host.size() * sizeof(float)));
}

std::vector<float> download(const DeviceBuffer& device, std::size_t offset_bytes) {
    std::vector<float> host((device.bytes() - offset_bytes) / sizeof(float));
    if (!host.empty())
        JITGEMM_CU_CHECK(api().cuMemcpyDtoH(host.data(), device.get() + offset_bytes, host.size() * sizeof(float)));
    return host;
}

}  // namespace jitgemm::driver
