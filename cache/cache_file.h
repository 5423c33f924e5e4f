// Opening the SQLite connection behind a TuningCache: how each access mode opens the file, the pragmas, the checks
// on open, setting a damaged ReadWrite file aside, and bringing the schema to what the queries expect.
#pragma once

#include <string>

#include "cache/sqlite_handles.h"
#include "cache/tuning_cache.h"

namespace jitgemm::cache {

// A connection to `path`, ready for TuningCache's queries; throws Error(CacheError) as tuning_cache.h describes.
Connection open_cache_file(const std::string& path, TuningCache::Access access);

}  // namespace jitgemm::cache
