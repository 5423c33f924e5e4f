// What the cache's file operations (setting a damaged file aside, publishing a partial bundle) agree on about names
// on disk: the files SQLite keeps beside a database, and whether a name is taken.
#pragma once

#include <fcntl.h>
#include <stdio.h>

#include <cerrno>
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

// Renames `from` to `to` unless something has the name `to`. Returns 0, or the errno: EEXIST when the name is taken.
// RENAME_NOREPLACE makes "is the name free" and "take it" one step; a file system that lacks it gets the check and the
// rename as two steps, which only a writer racing for the same name can tell apart.
inline int rename_without_replacing(const std::string& from, const std::string& to) {
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return errno;
    if (name_present(to)) return EEXIST;
    return ::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

}  // namespace jitgemm::cache
