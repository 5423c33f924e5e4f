// Renaming a damaged cache file and its companions aside.
#include "cache/damaged_file.h"

#include <ctime>
#include <filesystem>
#include <system_error>

#include "cache/file_names.h"
#include "jitgemm/error.h"

namespace jitgemm::cache {
namespace {

bool taken(const std::string& aside) {
    if (name_present(aside)) return true;
    for (const char* suffix : kSqliteCompanionSuffixes)
        if (name_present(aside + suffix)) return true;
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
    for (const char* suffix : kSqliteCompanionSuffixes)
        if (name_present(path + suffix)) rename_or_throw(path + suffix, aside + suffix);
    rename_or_throw(path, aside);
    return aside;
}

}  // namespace jitgemm::cache
