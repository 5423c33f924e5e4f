// Renaming a damaged cache file and its companions aside.
#include "cache/damaged_file.h"

#include <ctime>
#include <filesystem>
#include <system_error>

#include "jitgemm/error.h"

namespace jitgemm::cache {
namespace {

// The files SQLite keeps beside a database. They move with it: left behind, a -wal or -journal would be replayed
// into the fresh database created at the old name.
constexpr const char* kCompanionSuffixes[] = {"-wal", "-shm", "-journal"};

bool present(const std::string& path) {
    std::error_code ignored;  // a name that cannot be examined counts as present, so it is never overwritten
    return std::filesystem::symlink_status(path, ignored).type() != std::filesystem::file_type::not_found;
}

bool taken(const std::string& aside) {
    if (present(aside)) return true;
    for (const char* suffix : kCompanionSuffixes)
        if (present(aside + suffix)) return true;
    return false;
}

void rename_or_throw(const std::string& from, const std::string& to) {
    std::error_code error;
    std::filesystem::rename(from, to, error);
    if (error)
        throw Error(ErrorCode::CacheError, "jitgemm: could not move the damaged tuning cache file " + from +
                                               " aside to " + to + ": " + error.message() + ".");
}

}  // namespace

std::string set_aside_damaged_file(const std::string& path) {
    const std::string stem = path + ".corrupt-" + std::to_string(std::time(nullptr));
    std::string aside = stem;
    for (int n = 2; taken(aside); ++n) aside = stem + "." + std::to_string(n);
    // Companions first: should the main file then fail to move, no stale journal is left for a fresh database.
    for (const char* suffix : kCompanionSuffixes)
        if (present(path + suffix)) rename_or_throw(path + suffix, aside + suffix);
    rename_or_throw(path, aside);
    return aside;
}

}  // namespace jitgemm::cache
