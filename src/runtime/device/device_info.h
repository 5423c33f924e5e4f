// DeviceInfo: what jitgemm needs to know about a GPU — the limits that prune the search space, the target NVRTC
// compiles for, and the fingerprint that keys tuning results. A plain value: the tuner's tests build profiles of
// GPUs they do not have (H200, A100, a small part) and prune against them.
#pragma once

#include <cstddef>
#include <string>

namespace jitgemm {

struct DeviceInfo {
    std::string name;                    // "NVIDIA H200"
    std::string uuid;                    // 32 hex digits naming the physical GPU; empty in profiles
    int cc_major = 0, cc_minor = 0;      // compute capability
    int sm_count = 0;
    int warp_size = 32;
    int max_threads_per_block = 1024;
    int max_threads_per_sm = 2048;
    int max_blocks_per_sm = 32;
    int registers_per_block = 65536;
    int registers_per_sm = 65536;
    int shared_per_block = 48 * 1024;         // without opt-in
    int shared_per_block_optin = 48 * 1024;   // with cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)
    int shared_per_sm = 64 * 1024;
    int reserved_shared_per_block = 0;        // the driver's per-block reservation, counted against shared_per_sm
    int l2_bytes = 0;
    std::size_t global_memory_bytes = 0;
    int sm_clock_khz = 0;
    int memory_clock_khz = 0;
    int memory_bus_bits = 0;

    // The real target NVRTC compiles for: "sm_90a" on Hopper (wgmma and setmaxnreg need the a-target),
    // "sm_XY" elsewhere.
    std::string arch() const;
    // What makes a tuning result transferable: name, compute capability and SM count, e.g.
    // "NVIDIA H200/cc9.0/sm132".
    std::string fingerprint() const;
};

// Reads the limits of a device through the driver (loads it if needed; throws Error(NoDriver/NoDevice)).
DeviceInfo query_device_info(int device_ordinal);

}  // namespace jitgemm

namespace jitgemm {

// query_device_info, read once per device and kept for the life of the process.
const DeviceInfo& cached_device_info(int device_ordinal);

}  // namespace jitgemm
