// The two ceilings of the roofline (seed 004) for one device: the fp32 FFMA rate and the DRAM bandwidth. Until the
// CLI measures them on the device (kept in the cache), they are derived from the device's clocks and bus, scaled by
// the fraction real kernels reach (the H200 copies at ~4.3 of 4.8 TB/s).
#pragma once

#include "device/device_info.h"

namespace jitgemm {

struct DeviceCeilings {
    double fp32_flops = 0.0;        // FLOP/s, 2 per FFMA
    double dram_bytes_per_s = 0.0;  // read + write
    double l2_bytes_per_s = 0.0;    // what tile re-reads that hit L2 are served at

    // The arithmetic intensity (FLOP per byte) above which fp32 work is compute-bound.
    double fp32_ridge() const { return fp32_flops / dram_bytes_per_s; }
};

DeviceCeilings estimate_ceilings(const DeviceInfo& device);

}  // namespace jitgemm
