// Ceilings from the device's attributes.
#include "runtime/device/device_ceilings.h"

namespace jitgemm {
namespace {

// FP32 lanes per SM: 64 on compute capability 6.0, 7.x and 8.0; 128 on 6.1/6.2, 8.6+, 9.0 and later.
int fp32_lanes_per_sm(const DeviceInfo& d) {
    if (d.cc_major == 7 || (d.cc_major == 8 && d.cc_minor == 0) || (d.cc_major == 6 && d.cc_minor == 0)) return 64;
    return 128;
}

// Dense fp16/bf16 Tensor Core FLOPs per SM per clock with fp32 accumulation, by generation (the datasheets' peaks:
// A100 312 TFLOP/s over 108 SMs at 1.41 GHz, H100 SXM 989 over 132 at 1.83 GHz). TF32 runs at half that rate.
int f16_mma_flops_per_sm_clock(const DeviceInfo& d) {
    if (d.cc_major >= 10) return 8192;
    if (d.cc_major == 9) return 4096;
    if (d.cc_major == 8 && d.cc_minor == 0) return 2048;
    return 1024;  // Volta, Turing and the other Ampere and Ada parts
}

}  // namespace

DeviceCeilings estimate_ceilings(const DeviceInfo& d) {
    DeviceCeilings c;
    const double clock_hz = sm_clock_hz(d);
    c.fp32_flops = 2.0 * fp32_lanes_per_sm(d) * d.sm_count * clock_hz;
    c.f16_mma_flops = double(f16_mma_flops_per_sm_clock(d)) * d.sm_count * clock_hz;
    c.bf16_mma_flops = c.f16_mma_flops;
    c.tf32_mma_flops = c.f16_mma_flops / 2.0;
    // DDR: two transfers per clock over the bus; 90 % of it is what streaming kernels reach.
    const double bus_bytes = (d.memory_bus_bits > 0 ? d.memory_bus_bits : 4096) / 8.0;
    const double memory_hz = (d.memory_clock_khz > 0 ? d.memory_clock_khz : 1500000) * 1e3;
    c.dram_bytes_per_s = 0.9 * 2.0 * bus_bytes * memory_hz;
    c.l2_bytes_per_s = kL2OverDram * c.dram_bytes_per_s;
    c.shared_bytes_per_s = 128.0 * d.sm_count * clock_hz;
    return c;
}

}  // namespace jitgemm
