// Measures a device's ceilings with the probes of kernel_sources/jg_ceilings.cuh: DRAM copy bandwidth (a 2 GiB
// device-to-device copy, bytes read plus written) and the fp32 FFMA rate. Median of several runs each.
#pragma once

#include "cache/cache_stack.h"
#include "device/device_info.h"

namespace jitgemm {

struct MeasuredCeilings {
    double copy_bytes_per_s = 0.0;
    double fp32_flops = 0.0;
};

// In the current context; the probe's cubin comes from the caches when they have it.
MeasuredCeilings measure_ceilings(const DeviceInfo& device, const cache::CacheStack& caches);

}  // namespace jitgemm

#include "tuner/device_ceilings.h"

namespace jitgemm {

// Where the roofline of a device comes from.
enum class CeilingSource { Measured, Estimated };

struct KnownCeilings {
    DeviceCeilings ceilings;
    CeilingSource source = CeilingSource::Estimated;
};

// The device's measured ceilings from the writable cache (measured once per device and driver); when there are
// none and `measure` is set, measures them now (about a second) and records them. Otherwise the estimate from the
// device's clocks and bus.
KnownCeilings known_ceilings(const DeviceInfo& device, const cache::CacheStack& caches, bool measure);

}  // namespace jitgemm
