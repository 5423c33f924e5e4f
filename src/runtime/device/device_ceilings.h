// The ceilings of the roofline for one device: the fp32 FFMA rate, the Tensor Core rates of mma.sync
// (16-bit inputs and TF32) and the DRAM bandwidth. Until the CLI measures them on the device (kept in the cache),
// they are derived from the device's clocks, its SM generation and its bus, scaled by the fraction real kernels
// reach (the H200 copies at ~4.3 of 4.8 TB/s).
#pragma once

#include "runtime/device/device_info.h"
#include "jitgemm/types.h"

namespace jitgemm {

struct DeviceCeilings {
    double fp32_flops = 0.0;        // FLOP/s, 2 per FFMA
    double f16_mma_flops = 0.0;     // FLOP/s of mma.sync with fp16 inputs and fp32 accumulation
    double bf16_mma_flops = 0.0;    // the same with bf16 inputs
    double tf32_mma_flops = 0.0;    // FLOP/s of mma.sync with TF32 inputs
    double dram_bytes_per_s = 0.0;  // read + write
    double l2_bytes_per_s = 0.0;    // what tile re-reads that hit L2 are served at
    double shared_bytes_per_s = 0.0;  // shared-memory bandwidth of all SMs together (128 bytes per clock per SM)

    // The arithmetic rate that bounds a GEMM of these input and compute types: fp32 FFMA for fp32 inputs computed
    // exactly, the Tensor Cores otherwise.
    double matrix_flops(DType inputs, ComputeType compute) const {
        if (inputs == DType::F16) return f16_mma_flops;
        if (inputs == DType::BF16) return bf16_mma_flops;
        return compute == ComputeType::TF32 ? tf32_mma_flops : fp32_flops;
    }
    // The arithmetic intensity (FLOP per byte) above which such a GEMM is compute-bound.
    double ridge(DType inputs, ComputeType compute) const { return matrix_flops(inputs, compute) / dram_bytes_per_s; }
    double fp32_ridge() const { return fp32_flops / dram_bytes_per_s; }
};

// What L2 delivers to the SMs, as a multiple of the DRAM copy bandwidth (no probe measures it yet).
constexpr double kL2OverDram = 2.5;

// The SM clock in Hz, or 1.5 GHz where the device reported none (the profiles of the CPU tests).
inline double sm_clock_hz(const DeviceInfo& device) {
    return (device.sm_clock_khz > 0 ? device.sm_clock_khz : 1500000) * 1e3;
}

DeviceCeilings estimate_ceilings(const DeviceInfo& device);

}  // namespace jitgemm
