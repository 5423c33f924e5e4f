// Fixed DeviceInfo profiles of GPUs the CPU tests do not have, from the vendors' published limits: the pruning rules
// are checked against them on any machine.
#pragma once

#include "runtime/device/device_info.h"

namespace jitgemm::testing {

inline DeviceInfo h200_profile() {
    DeviceInfo d;
    d.name = "NVIDIA H200";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.max_threads_per_block = 1024;
    d.max_threads_per_sm = 2048;
    d.max_blocks_per_sm = 32;
    d.registers_per_block = 65536;
    d.registers_per_sm = 65536;
    d.shared_per_block = 49152;
    d.shared_per_block_optin = 232448;
    d.shared_per_sm = 233472;
    d.reserved_shared_per_block = 1024;
    d.l2_bytes = 60 * 1024 * 1024;
    return d;
}

// The H100 SXM of the device tool's machines (`jitgemm info` there): the H200's limits, 50 MB of L2, clocks as read.
inline DeviceInfo h100_profile() {
    DeviceInfo d = h200_profile();
    d.name = "NVIDIA H100 80GB HBM3";
    d.l2_bytes = 50 * 1024 * 1024;
    d.sm_clock_khz = 1980000;
    d.memory_clock_khz = 2619000;
    d.memory_bus_bits = 5120;
    return d;
}

inline DeviceInfo a100_profile() {
    DeviceInfo d = h200_profile();
    d.name = "NVIDIA A100-SXM4-80GB";
    d.cc_major = 8;
    d.cc_minor = 0;
    d.sm_count = 108;
    d.shared_per_block_optin = 166912;
    d.shared_per_sm = 167936;
    d.l2_bytes = 40 * 1024 * 1024;
    return d;
}

// A small part with tight limits (in the style of a laptop GPU): 1024 threads and 64 KB shared memory per SM.
inline DeviceInfo small_gpu_profile() {
    DeviceInfo d = h200_profile();
    d.name = "Small GPU";
    d.cc_major = 8;
    d.cc_minor = 6;
    d.sm_count = 16;
    d.max_threads_per_sm = 1536;
    d.max_blocks_per_sm = 16;
    d.shared_per_block_optin = 101376;
    d.shared_per_sm = 102400;
    d.l2_bytes = 4 * 1024 * 1024;
    return d;
}

}  // namespace jitgemm::testing
