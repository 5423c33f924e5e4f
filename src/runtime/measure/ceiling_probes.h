// Measures a device's ceilings with the probes of kernel_sources/support/jg_ceilings.cuh: DRAM copy bandwidth (a 2 GiB
// device-to-device copy, bytes read plus written), the fp32 FFMA rate and the mma.sync rate of each Tensor Core input
// type (fp16, bf16, TF32; compute capability 8.0 and later). Median of several runs each.
#pragma once

#include "cache/cache_stack.h"
#include "runtime/device/device_info.h"
#include "runtime/device/device_ceilings.h"

#include <optional>
#include <string>
#include <vector>

namespace jitgemm {

// In the current context; the probe's cubin comes from the caches when they have it. The Tensor Core rates stay at
// their estimates on a device without mma.sync for those types.
DeviceCeilings measure_ceilings(const DeviceInfo& device, const cache::CacheStack& caches);

// Where the roofline of a device comes from.
enum class CeilingSource { Measured, Estimated };

struct KnownCeilings {
    DeviceCeilings ceilings;
    CeilingSource source = CeilingSource::Estimated;
};

// The device's measured ceilings from the writable cache (measured once per device and driver); when any is
// missing and `measure` is set, measures them all now (about two seconds) and records them. Otherwise the estimate
// from the device's clocks, generation and bus.
KnownCeilings known_ceilings(const DeviceInfo& device, const cache::CacheStack& caches, bool measure);

// The ceilings of the device `fingerprint` among stored records (TuningCache::all_ceilings), without a GPU: those of
// the driver version measured last that has every one of them; nullopt when no driver version has them all.
std::optional<DeviceCeilings> stored_ceilings(const std::vector<cache::CeilingRecord>& records,
                                              const std::string& fingerprint);

}  // namespace jitgemm
