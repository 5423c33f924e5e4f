// Synchronous whole-buffer copies.
#include "driver/device_copy.h"

#include "driver/cuda_driver.h"
#include "driver/driver_check.h"
#include "jitgemm/error.h"

namespace jitgemm::driver {

DeviceBuffer upload(const std::vector<float>& host) {
    DeviceBuffer device(host.size() * sizeof(float));
    copy_to_device(device, host);
    return device;
}

void copy_to_device(const DeviceBuffer& device, const std::vector<float>& host) {
    if (host.size() * sizeof(float) > device.bytes())
        throw Error(ErrorCode::Internal, "jitgemm: host data larger than its device buffer");
    if (!host.empty()) JITGEMM_CU_CHECK(api().cuMemcpyHtoD(device.get(), host.data(), host.size() * sizeof(float)));
}

std::vector<float> download(const DeviceBuffer& device) {
    std::vector<float> host(device.bytes() / sizeof(float));
    if (!host.empty()) JITGEMM_CU_CHECK(api().cuMemcpyDtoH(host.data(), device.get(), host.size() * sizeof(float)));
    return host;
}

}  // namespace jitgemm::driver
