// Synchronous whole-buffer copies: complete on the device when they return, after all of the context's work.
#include "runtime/driver/device_copy.h"

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/error.h"

namespace jitgemm::driver {

namespace {

void copy_in(const DeviceBuffer& device, const void* host, std::size_t bytes, std::size_t offset_bytes) {
    if (bytes + offset_bytes > device.bytes())
        throw Error(ErrorCode::Internal, "jitgemm: host data larger than its device buffer");
    if (bytes == 0) return;
    JITGEMM_CU_CHECK(api().cuMemcpyHtoD(device.get() + offset_bytes, host, bytes));
    // From pageable memory the copy returns once the bytes are staged, before they reach the buffer, and it is
    // ordered only on the legacy stream: a kernel on a non-blocking stream could still read the old contents (the
    // soak test saw C reset after the GEMM had written it). Done means on the device.
    JITGEMM_CU_CHECK(api().cuCtxSynchronize());
}

void copy_out(void* host, const DeviceBuffer& device, std::size_t bytes, std::size_t offset_bytes) {
    if (bytes == 0) return;
    // The copy waits only for the legacy stream; work on non-blocking streams that writes the buffer must have
    // finished first (the graph-capture test read C before its GEMM had run).
    JITGEMM_CU_CHECK(api().cuCtxSynchronize());
    JITGEMM_CU_CHECK(api().cuMemcpyDtoH(host, device.get() + offset_bytes, bytes));
}

}  // namespace

DeviceBuffer upload(const std::vector<float>& host, std::size_t offset_bytes) {
    DeviceBuffer device(host.size() * sizeof(float) + offset_bytes);
    copy_to_device(device, host, offset_bytes);
    return device;
}

void copy_to_device(const DeviceBuffer& device, const std::vector<float>& host, std::size_t offset_bytes) {
    copy_in(device, host.data(), host.size() * sizeof(float), offset_bytes);
}

std::vector<float> download(const DeviceBuffer& device, std::size_t offset_bytes) {
    std::vector<float> host((device.bytes() - offset_bytes) / sizeof(float));
    copy_out(host.data(), device, host.size() * sizeof(float), offset_bytes);
    return host;
}

DeviceBuffer upload_bytes(const std::vector<std::byte>& host, std::size_t offset_bytes) {
    DeviceBuffer device(host.size() + offset_bytes);
    copy_bytes_to_device(device, host, offset_bytes);
    return device;
}

void copy_bytes_to_device(const DeviceBuffer& device, const std::vector<std::byte>& host, std::size_t offset_bytes) {
    copy_in(device, host.data(), host.size(), offset_bytes);
}

std::vector<std::byte> download_bytes(const DeviceBuffer& device, std::size_t offset_bytes) {
    std::vector<std::byte> host(device.bytes() - offset_bytes);
    copy_out(host.data(), device, host.size(), offset_bytes);
    return host;
}

}  // namespace jitgemm::driver
