// CacheConnection: how the cache's own operations that run many statements in one transaction (merge and export in
// cache_transfer.cpp, doctor and prune) reach a TuningCache's connection. It holds the mutex that TuningCache's
// methods hold, so those operations are serialized with every other use of the connection. Users of the cache never
// need it: what they can do is a method of TuningCache or a function of cache_transfer.h and cache_doctor.h.
#pragma once

#include <mutex>
#include <string>

#include "cache/tuning_cache.h"

namespace jitgemm::cache {

class CacheConnection {
public:
    // Locks `cache` until destroyed. The mutex is not recursive: while a CacheConnection lives, its thread must not
    // call a method of the same cache.
    explicit CacheConnection(const TuningCache& cache);
    CacheConnection(const CacheConnection&) = delete;
    CacheConnection& operator=(const CacheConnection&) = delete;

    sqlite3* db() const { return db_; }
    const std::string& path() const { return path_; }

private:
    std::lock_guard<std::mutex> lock_;
    sqlite3* db_;
    const std::string& path_;
};

// Throws Error(CacheError) naming the file when `cache` was opened ReadOnly.
void require_writable(const TuningCache& cache);

}  // namespace jitgemm::cache
