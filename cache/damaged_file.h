// Setting a damaged cache file aside: it is renamed, never deleted, so that a person can look at it or recover it.
#pragma once

#include <string>

namespace jitgemm::cache {

// Renames `path` to the first free "<path>.corrupt-<unix time>" (with ".2", ".3", ... appended when that name is
// taken), together with its -wal, -shm and -journal files, which belong to it. Returns the new path; throws
// Error(CacheError) when the file cannot be renamed.
std::string set_aside_damaged_file(const std::string& path);

}  // namespace jitgemm::cache
