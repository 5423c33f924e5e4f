// Locked access to a TuningCache's connection, and the check that a cache may be written.
#include "cache/cache_connection.h"

#include "jitgemm/error.h"

namespace jitgemm::cache {

CacheConnection::CacheConnection(const TuningCache& cache)
    : lock_(cache.mutex_), db_(cache.db_), path_(cache.path_) {}

void require_writable(const TuningCache& cache) {
    if (cache.access() == TuningCache::Access::ReadOnly)
        throw Error(ErrorCode::CacheError,
                    "jitgemm: the tuning cache " + cache.path() + " was opened read-only and cannot be written.");
}

}  // namespace jitgemm::cache
