// Reads DeviceInfo through the driver API.
#include "runtime/device/device_info.h"

#include <string>

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

namespace jitgemm {

std::string DeviceInfo::arch() const {
    const std::string base = "sm_" + std::to_string(cc_major) + std::to_string(cc_minor);
    return cc_major == 9 && cc_minor == 0 ? base + "a" : base;
}

std::string DeviceInfo::fingerprint() const {
    return name + "/cc" + std::to_string(cc_major) + "." + std::to_string(cc_minor) + "/sm" +
           std::to_string(sm_count);
}

DeviceInfo query_device_info(int device_ordinal) {
    const auto& cu = driver::api();
    CUdevice device = 0;
    JITGEMM_CU_CHECK(cu.cuDeviceGet(&device, device_ordinal));
    DeviceInfo info;
    char name[256] = {};
    JITGEMM_CU_CHECK(cu.cuDeviceGetName(name, sizeof(name) - 1, device));
    info.name = name;
    CUuuid uuid{};
    JITGEMM_CU_CHECK(cu.cuDeviceGetUuid(&uuid, device));
    static const char kHex[] = "0123456789abcdef";
    for (const char byte : uuid.bytes) {
        info.uuid += kHex[(static_cast<unsigned char>(byte) >> 4) & 0xf];
        info.uuid += kHex[static_cast<unsigned char>(byte) & 0xf];
    }
    auto attribute = [&](CUdevice_attribute which) {
        int value = 0;
        JITGEMM_CU_CHECK(cu.cuDeviceGetAttribute(&value, which, device));
        return value;
    };
    info.cc_major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    info.cc_minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    info.sm_count = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info.warp_size = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    info.max_threads_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    info.max_threads_per_sm = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    info.max_blocks_per_sm = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    info.registers_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    info.registers_per_sm = attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    info.shared_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    info.shared_per_block_optin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    info.shared_per_sm = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    info.reserved_shared_per_block = attribute(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    info.l2_bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    info.sm_clock_khz = attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    info.memory_clock_khz = attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    info.memory_bus_bits = attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    std::size_t bytes = 0;
    JITGEMM_CU_CHECK(cu.cuDeviceTotalMem(&bytes, device));
    info.global_memory_bytes = bytes;
    return info;
}

}  // namespace jitgemm

#include <map>
#include <mutex>

namespace jitgemm {

const DeviceInfo& cached_device_info(int device_ordinal) {
    static std::mutex mutex;
    static std::map<int, DeviceInfo> devices;  // node-based: references stay valid as it grows
    std::lock_guard lock(mutex);
    auto it = devices.find(device_ordinal);
    if (it == devices.end()) it = devices.emplace(device_ordinal, query_device_info(device_ordinal)).first;
    return it->second;
}

}  // namespace jitgemm
