// Opening a tuning-cache file.
//
// ReadWrite opens the path itself in WAL mode. ReadOnly depends on what lies beside the file:
//  - a non-empty "<path>-wal": committed transactions may be there and nowhere else (a writer is running, or was
//    killed before it checkpointed), so an ordinary read-only connection ("file:...?mode=ro") reads them, under the
//    shared locks that keep a concurrent checkpoint from changing pages under it. It may create the -shm file.
//  - otherwise every committed entry is in the database file, and "?immutable=1" reads it with no locks and no files
//    created, so a bundle opens in a read-only directory or on a read-only medium and a read-only command leaves a
//    shipped bundle's directory exactly as it was.
#include "cache/cache_file.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <thread>
#include <utility>

#include "cache/damaged_file.h"
#include "cache/schema.h"
#include "log/log.h"

namespace jitgemm::cache {
namespace {

// Long enough to outlast another process's write transaction (a tuning result is one short transaction), short
// enough that a process stuck holding the lock surfaces as an error; bulk writers raise it (set_lock_wait_ms).
constexpr int kBusyTimeoutMs = TuningCache::kDefaultLockWaitMs;

void create_parent_directories(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (parent.empty()) return;
    std::error_code error;
    std::filesystem::create_directories(parent, error);
    if (error)
        throw Error(ErrorCode::CacheError, "jitgemm: could not create the directory " + parent.string() +
                                               " for the tuning cache " + path + ": " + error.message() + ".");
}

// A ReadWrite cache needs its file writable and, for SQLite's -wal and -shm files (and to create the file), its
// directory. Checked before SQLite opens it: SQLite would fall back to reading, and report the first failure as
// "attempt to write a readonly database" on some statement, or "unable to open database file".
void require_writable_location(const std::string& path) {
    std::filesystem::path directory = std::filesystem::path(path).parent_path();
    if (directory.empty()) directory = ".";
    const bool exists = access(path.c_str(), F_OK) == 0;
    if (exists && access(path.c_str(), R_OK | W_OK) != 0)
        throw Error(ErrorCode::CacheError, "jitgemm: the tuning cache " + path + " cannot be written (its "
                                           "permissions do not allow this user to write it); open it ReadOnly to "
                                           "read it, or choose another cache file.");
    const auto writable = [](const std::string& file) { return access(file.c_str(), R_OK | W_OK) == 0; };
    const bool companions_in_place = exists && writable(path + "-wal") && writable(path + "-shm");
    if (!companions_in_place && access(directory.c_str(), W_OK | X_OK) != 0)
        throw Error(ErrorCode::CacheError,
                    "jitgemm: the tuning cache " + path + " cannot be written: its directory " + directory.string() +
                        (exists ? " may not be written, and SQLite keeps its -wal and -shm files there"
                                : " may not be written, so the file cannot be created") +
                        "; open it ReadOnly to read it, or choose another cache file.");
}

// A read-only URI of `path` with `parameter` ("mode=ro", "immutable=1").
std::string read_only_uri(const std::string& path, const char* parameter) {
    std::error_code error;
    const std::string absolute = std::filesystem::absolute(path, error).string();
    if (error)
        throw Error(ErrorCode::CacheError,
                    "jitgemm: could not locate the tuning cache " + path + ": " + error.message() + ".");
    std::string uri = "file://";  // then the absolute path: an empty authority
    for (const char c : absolute) {
        if (c == '%' || c == '?' || c == '#') {
            constexpr char kHex[] = "0123456789ABCDEF";
            uri += {'%', kHex[static_cast<unsigned char>(c) >> 4], kHex[c & 0xF]};
        } else {
            uri += c;
        }
    }
    return uri + "?" + parameter;
}

bool has_wal_contents(const std::string& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path + "-wal", error);
    return !error && size > 0;
}

Connection connect(const std::string& path, TuningCache::Access access, const char* read_only_parameter) {
    sqlite3* db = nullptr;
    const int result =
        access == TuningCache::Access::ReadWrite
            ? sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr)
            : sqlite3_open_v2(read_only_uri(path, read_only_parameter).c_str(), &db,
                              SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    Connection connection(db);  // a failed open still returns a handle to close
    check(result, db, path, "open a connection");
    check(sqlite3_busy_timeout(db, kBusyTimeoutMs), db, path, "set a busy timeout");
    return connection;
}

void quick_check(sqlite3* db, const std::string& path) {
    Statement statement(db, path, "PRAGMA quick_check(1)");  // stops at the first problem
    statement.step();
    const std::string verdict = statement.column_text();
    if (verdict != "ok") throw CorruptCacheFile(path, "PRAGMA quick_check reports \"" + verdict + "\"");
}

// The switch needs the file to itself for a moment, and SQLite answers SQLITE_BUSY at once, without calling the
// busy handler, while another process opens the same fresh file; so retry for as long as the busy timeout. Once the
// file is in WAL mode the pragma is a no-op.
void switch_to_wal(sqlite3* db, const std::string& path) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
    int result = SQLITE_OK;
    while ((result = sqlite3_exec(db, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr)) == SQLITE_BUSY &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    check(result, db, path, "run", "PRAGMA journal_mode = WAL");
}

void prepare(sqlite3* db, const std::string& path, TuningCache::Access access) {
    // The version comes first: a newer jitgemm's file is refused before anything, even the switch to WAL (which
    // rewrites the header), has changed it.
    const int version = read_jitgemm_schema_version(db, path);
    quick_check(db, path);
    if (access == TuningCache::Access::ReadOnly) {
        present_as_current_schema(db, path, version);
        return;
    }
    // SQLite falls back to read-only for a file it may not write; say so now rather than at the first write.
    if (sqlite3_db_readonly(db, "main") == 1)
        throw Error(ErrorCode::CacheError, "jitgemm: the tuning cache " + path +
                                               " cannot be written (check the permissions of the file and its "
                                               "directory); open it ReadOnly to read it.");
    // WAL lets readers and a writer of other processes proceed at once. synchronous=NORMAL: a power cut may lose
    // the last results, never the file's consistency, which is the right trade for a cache.
    switch_to_wal(db, path);
    execute(db, path, "PRAGMA synchronous = NORMAL");
    bring_to_current_schema(db, path, version);
}

Connection open_with(const std::string& path, TuningCache::Access access, const char* read_only_parameter) {
    Connection db = connect(path, access, read_only_parameter);
    try {
        prepare(db.get(), path, access);
    } catch (const CorruptCacheFile&) {
        // Leave the damaged file as it was found: closing would otherwise checkpoint a leftover WAL into it.
        sqlite3_db_config(db.get(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
        throw;
    }
    return db;
}

// One attempt; CorruptCacheFile escapes for open_cache_file to handle.
Connection open_checked(const std::string& path, TuningCache::Access access) {
    if (access == TuningCache::Access::ReadWrite) return open_with(path, access, nullptr);
    if (!has_wal_contents(path)) return open_with(path, access, "immutable=1");
    try {
        return open_with(path, access, "mode=ro");
    } catch (const CorruptCacheFile&) {
        throw;
    } catch (const Error& e) {
        throw Error(ErrorCode::CacheError, "jitgemm: the tuning cache " + path + " has committed entries in " + path +
                                               "-wal that could not be read (" + e.what() +
                                               "); open it ReadWrite once (any jitgemm command that writes it), or "
                                               "copy the file and its -wal somewhere writable.");
    }
}

// Device and inode of the file at `path` ({0, 0} if there is none).
std::pair<dev_t, ino_t> file_identity(const std::string& path) {
    struct stat status {};
    if (stat(path.c_str(), &status) != 0) return {};
    return {status.st_dev, status.st_ino};
}

}  // namespace

Connection open_cache_file(const std::string& path, TuningCache::Access access) {
    if (access == TuningCache::Access::ReadWrite) {
        create_parent_directories(path);
        require_writable_location(path);
    }
    const auto identity = file_identity(path);
    try {
        return open_checked(path, access);
    } catch (const CorruptCacheFile& damage) {
        if (access == TuningCache::Access::ReadOnly) throw;
        // Another process that found the same damage may have set the file aside and started a fresh cache since;
        // that one is not to be moved.
        if (file_identity(path) == identity) {
            const std::string aside = set_aside_damaged_file(path);
            log::warn("the tuning cache " + path + " is damaged (" + damage.reason() + "); it was moved to " + aside +
                      " and a fresh cache was started in its place.");
        }
    }
    return open_checked(path, access);
}

}  // namespace jitgemm::cache
