// The provenance of results made by this process on one device: what a cached entry must match to be used.
#pragma once

#include "cache/cache_records.h"
#include "runtime/device/device_info.h"

namespace jitgemm {

// Loads the driver (its version is part of the provenance). `sources_hash` is the source hash of the search the
// entry records: the tuner's search_provenance (tuner/search_provenance.h) passes that of the families that search
// the problem.
cache::Provenance current_provenance(const DeviceInfo& device, const std::string& sources_hash);

// The driver's CUDA version as "13.0".
std::string driver_version_text();

}  // namespace jitgemm
