// The provenance of results made by this process on one device: what a cached entry must match to be used.
#pragma once

#include "cache/cache_records.h"
#include "runtime/device/device_info.h"

namespace jitgemm {

// Loads the driver (its version is part of the provenance).
cache::Provenance current_provenance(const DeviceInfo& device);

// The driver's CUDA version as "13.0".
std::string driver_version_text();

}  // namespace jitgemm
