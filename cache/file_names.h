// What the cache's file operations (setting a damaged file aside, publishing a partial bundle) agree on about names
// on disk: the files SQLite keeps beside a database, and whether a name is taken.
#pragma once

#include <filesystem>
#include <string>
#include <system_error>

namespace jitgemm::cache {

// The files SQLite may keep beside a database ("<path>-wal", ...). They belong to it: left behind at a name, a
// -wal or -journal would be replayed into whatever database is created there next.
constexpr const char* kSqliteCompanionSuffixes[] = {"-wal", "-shm", "-journal"};

// Whether anything (a file, a directory, a dangling link) has this name. A name that cannot be examined counts as
// present, so that it is never overwritten.
inline bool name_present(const std::string& path) {
    std::error_code ignored;
    return std::filesystem::symlink_status(path, ignored).type() != std::filesystem::file_type::not_found;
}

}  // namespace jitgemm::cache
