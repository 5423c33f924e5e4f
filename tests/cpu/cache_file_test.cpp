// The tuning-cache file on disk: the schema on a fresh file, migration of a version-1 file and reading it as a
// read-only bundle, refusing a newer file without touching it, setting damaged files aside (never deleting them),
// and read-only bundles that leave their directory exactly as it was.
#include <gtest/gtest.h>
#include <grp.h>
#include <sys/wait.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <random>
#include <set>
#include <string>

#include "cache/schema.h"
#include "cache/tuning_cache.h"
#include "jitgemm/error.h"
#include "support/cache_test_files.h"

namespace jitgemm::cache {
namespace {

namespace fs = std::filesystem;
using namespace cache_test;

const Provenance kProvenance{"0.1.0", "sources-5f3a", "13.0", "13.1", "NVIDIA H200", 132};
const std::string kDevice = "NVIDIA H200/cc9.0/sm132";

SelectionRecord selection(const std::string& problem, double time_ms, bool complete) {
    SelectionRecord s;
    s.device_fingerprint = kDevice;
    s.problem_key = problem;
    s.config = "config-of-" + problem;
    s.cubin_key = "cubin-of-" + problem;
    s.time_ms = time_ms;
    s.search_complete = complete;
    s.provenance = kProvenance;
    return s;
}

CubinRecord cubin(const std::string& key, std::size_t image_bytes = 16) {
    return {key,    "sm_90a", "jg_regblock", "config", "13.0", "sources-5f3a",
            fake_cubin("jg_regblock", "sm_90a", std::string(image_bytes, 'x')), 1, {}};
}

MeasurementRecord measurement(const std::string& problem) {
    return {kDevice, problem, "config-of-" + problem, CandidateOutcome::Passed, 1.0, "", kProvenance, 1};
}

// A working cache: stores and finds a result.
void expect_working(TuningCache& cache) {
    EXPECT_TRUE(cache.record_tuning(selection("check", 1.0, true), cubin("cubin-of-check"), {measurement("check")}));
    EXPECT_TRUE(cache.find_selection(kDevice, "check", kProvenance).has_value());
    EXPECT_TRUE(cache.find_cubin("cubin-of-check").has_value());
}

// ---- schema ----

TEST(CacheSchema, FreshFileIsCreatedAtTheCurrentVersionInWalMode) {
    TempDir dir;
    const std::string path = dir.file("nested/deeper/tuning.sqlite");  // ReadWrite creates the directories
    {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadWrite);
        EXPECT_EQ(cache->schema_version(), current_schema_version());
        expect_working(*cache);
    }
    EXPECT_EQ(current_schema_version(), 5);
    EXPECT_EQ(query_text(path, "PRAGMA user_version"), "5");
    EXPECT_EQ(query_text(path, "PRAGMA journal_mode"), "wal");
    EXPECT_EQ(query_text(path, "SELECT count(*) FROM cubins WHERE length(image_hash) = 32"), "1");
    EXPECT_EQ(query_text(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'measurements_by_problem'"), "1");
    EXPECT_EQ(query_text(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'ceilings'"), "1");
}

// A version-1 file with one selection and its cubin, made by the historical DDL.
void make_version_1_file(const std::string& path) {
    run_sql(path, std::string(kSchemaVersion1Sql) +
                      "PRAGMA user_version = 1;"
                      "INSERT INTO selections VALUES ('NVIDIA H200/cc9.0/sm132', 'old_problem', 'old_config', "
                      "'old_cubin', 1.5, 1690000000, '0.1.0', 'sources-5f3a', '13.0', '13.1', 'NVIDIA H200', 132);"
                      "INSERT INTO cubins VALUES ('old_cubin', 'sm_90a', 'jg_regblock', 'old_config', '13.0', "
                      "'sources-5f3a', x'00ff00', 1690000000);");
}

void expect_version_1_row(const TuningCache& cache) {
    const auto found = cache.find_selection(kDevice, "old_problem", kProvenance);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->config, "old_config");
    EXPECT_EQ(found->cubin_key, "old_cubin");
    EXPECT_EQ(found->time_ms, 1.5);
    EXPECT_EQ(found->tuned_at_unix, 1690000000);
    EXPECT_FALSE(found->search_complete);  // version 1 did not record it: treated as incomplete
    EXPECT_EQ(found->tflops, 0.0);
    EXPECT_EQ(found->candidates_measured, 0);
    EXPECT_EQ(found->candidates_total, 0);
    ASSERT_TRUE(cache.find_cubin("old_cubin").has_value());
    EXPECT_EQ(cache.find_cubin("old_cubin")->image, std::string("\0\xff\0", 3));
}

TEST(CacheSchema, Version1FileIsMigratedOnReadWriteOpen) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    make_version_1_file(path);
    {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadWrite);
        EXPECT_EQ(cache->schema_version(), 5);
        expect_version_1_row(*cache);
        // The new tables work, and a complete search now beats the migrated, incomplete one even if slower.
        EXPECT_TRUE(cache->record_tuning(selection("old_problem", 3.0, true), cubin("new_cubin"),
                                         {measurement("old_problem")}));
        cache->record_untuned(kDevice, "untuned_problem", kProvenance);
        EXPECT_EQ(cache->measurements(kDevice, "old_problem", kProvenance).size(), 1u);
        EXPECT_EQ(cache->all_untuned().size(), 1u);
    }
    EXPECT_EQ(query_text(path, "PRAGMA user_version"), "5");
    EXPECT_EQ(query_text(path, "PRAGMA integrity_check"), "ok");
    const auto reopened = TuningCache::open(path, TuningCache::Access::ReadWrite);  // nothing left to migrate
    EXPECT_EQ(reopened->find_selection(kDevice, "old_problem", kProvenance)->time_ms, 3.0);
}

// A version-2 file (what jitgemm 0.1 made) with one tuned problem, made by the historical DDL.
void make_version_2_file(const std::string& path) {
    run_sql(path, schema_version_2_sql() +
                      "PRAGMA user_version = 2;"
                      "INSERT INTO selections (device_fingerprint, problem_key, config, cubin_key, time_ms, tuned_at, "
                      "library_version, kernel_sources_hash, nvrtc_version, driver_version, device_name, sm_count, "
                      "tflops, search_seconds, candidates_measured, candidates_total, search_complete) VALUES "
                      "('NVIDIA H200/cc9.0/sm132', 'v2_problem', 'v2_config', 'v2_cubin', 2.5, 1700000000, '0.1.0', "
                      "'sources-5f3a', '13.0', '13.1', 'NVIDIA H200', 132, 40.0, 6.0, 30, 40, 1);"
                      "INSERT INTO cubins VALUES ('v2_cubin', 'sm_90a', 'jg_regblock', 'v2_config', '13.0', "
                      "'sources-5f3a', x'0102', 1700000000);");
}

TEST(CacheSchema, Version2FileGainsTheCeilingsTableAndKeepsItsRows) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    make_version_2_file(path);
    {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadWrite);
        EXPECT_EQ(cache->schema_version(), 5);
        const auto found = cache->find_selection(kDevice, "v2_problem", kProvenance);
        ASSERT_TRUE(found.has_value());
        EXPECT_TRUE(found->search_complete);
        EXPECT_EQ(found->candidates_total, 40);
        EXPECT_FALSE(cache->find_ceiling(kDevice, "13.1", "copy_bytes_per_s").has_value());
        cache->record_ceiling(kDevice, "13.1", "copy_bytes_per_s", 4.1e12);
        EXPECT_EQ(cache->find_ceiling(kDevice, "13.1", "copy_bytes_per_s"), 4.1e12);
    }
    EXPECT_EQ(query_text(path, "PRAGMA user_version"), "5");
    EXPECT_EQ(query_text(path, "PRAGMA integrity_check"), "ok");
}

// jitgemm never adds its tables to another application's SQLite file (issue 19: import, merge -o and prune did), in
// either mode, whether that file marks itself with an application_id or only has tables of its own.
TEST(CacheSchema, AnotherApplicationsDatabaseIsRefusedAndLeftByteForByte) {
    TempDir dir;
    const std::string tables = dir.file("notes.sqlite");
    run_sql(tables, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes VALUES (1, 'keep');");
    const std::string marked = dir.file("marked.sqlite");
    run_sql(marked, "PRAGMA application_id = 42;");
    for (const std::string& path : {tables, marked}) {
        const std::string bytes = read_bytes(path);
        for (const auto access : {TuningCache::Access::ReadWrite, TuningCache::Access::ReadOnly})
            expect_cache_error([&] { TuningCache::open(path, access); }, "another application");
        EXPECT_TRUE(read_bytes(path) == bytes) << path;
    }
    EXPECT_EQ(query_text(tables, "SELECT count(*) FROM sqlite_schema"), "1");
    // jitgemm's own files carry its mark, fresh or migrated.
    TuningCache::open(dir.file("fresh.sqlite"), TuningCache::Access::ReadWrite);
    EXPECT_EQ(query_text(dir.file("fresh.sqlite"), "PRAGMA application_id"), std::to_string(kApplicationId));
}

// Version 4 changes what new rows hold, not the tables, and version 5 adds the cubins' content hash, empty in the rows
// it finds: a version-3 file (a version-2 one taken to 3 by the frozen step) keeps every row, byte for byte, on its
// way to 5.
TEST(CacheSchema, Version3FileIsMigratedToTheCurrentVersionAndKeepsEveryRow) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    make_version_2_file(path);
    run_sql(path, "CREATE TABLE ceilings (device_fingerprint TEXT NOT NULL, driver_version TEXT NOT NULL, name TEXT "
                  "NOT NULL, value REAL NOT NULL, measured_at INTEGER NOT NULL, PRIMARY KEY (device_fingerprint, "
                  "driver_version, name)); PRAGMA user_version = 3;");
    const std::string rows_before = query_text(path, "SELECT group_concat(problem_key || config || kernel_sources_hash) "
                                                     "FROM selections") +
                                    query_text(path, "SELECT hex(image) FROM cubins");
    {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadWrite);
        EXPECT_EQ(cache->schema_version(), 5);
        EXPECT_EQ(cache->all_selections().size(), 1u);
    }
    EXPECT_EQ(query_text(path, "PRAGMA user_version"), "5");
    EXPECT_EQ(query_text(path, "SELECT group_concat(problem_key || config || kernel_sources_hash) FROM selections") +
                  query_text(path, "SELECT hex(image) FROM cubins"),
              rows_before);
    EXPECT_EQ(query_text(path, "SELECT count(*) FROM cubins WHERE image_hash = ''"), "1");
}

TEST(CacheSchema, Version2BundleIsReadReadOnlyWithNoCeilingsAndLeftAsItWas) {
    TempDir dir;
    const std::string path = dir.file("bundle.sqlite");
    make_version_2_file(path);
    const std::string bytes = read_bytes(path);
    {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadOnly);
        EXPECT_EQ(cache->schema_version(), 2);
        EXPECT_TRUE(cache->find_selection(kDevice, "v2_problem", kProvenance).has_value());
        EXPECT_TRUE(cache->all_ceilings().empty());
    }
    EXPECT_TRUE(read_bytes(path) == bytes);
}

TEST(CacheSchema, Version1BundleIsReadReadOnlyWithDefaultsAndLeftAsItWas) {
    TempDir dir;
    const std::string path = dir.file("bundle.sqlite");
    make_version_1_file(path);
    const std::string bytes = read_bytes(path);
    const auto files = dir.listing();
    {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadOnly);
        EXPECT_EQ(cache->schema_version(), 1);
        expect_version_1_row(*cache);
        EXPECT_EQ(cache->all_selections().size(), 1u);
        EXPECT_TRUE(cache->measurements(kDevice, "old_problem", kProvenance).empty());
        EXPECT_EQ(cache->measurement_count(), 0u);
        EXPECT_TRUE(cache->all_untuned().empty());
        EXPECT_EQ(cache->cubin_count(), 1u);
    }
    EXPECT_TRUE(read_bytes(path) == bytes);
    EXPECT_EQ(dir.listing(), files);
}

TEST(CacheSchema, NewerVersionIsRefusedInBothModesAndLeftByteForByte) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    TuningCache::open(path, TuningCache::Access::ReadWrite)
        ->record_tuning(selection("p", 1.0, true), cubin("cubin-of-p"), {measurement("p")});
    run_sql(path, "PRAGMA user_version = 99");
    const std::string bytes = read_bytes(path);
    const auto files = dir.listing();

    expect_cache_error([&] { TuningCache::open(path, TuningCache::Access::ReadWrite); }, "newer jitgemm");
    expect_cache_error([&] { TuningCache::open(path, TuningCache::Access::ReadOnly); }, "newer jitgemm");
    EXPECT_TRUE(read_bytes(path) == bytes);
    EXPECT_EQ(dir.listing(), files);
    EXPECT_EQ(query_text(path, "PRAGMA user_version"), "99");
}

// ---- damaged files ----

void fill(const std::string& path) {
    const auto cache = TuningCache::open(path, TuningCache::Access::ReadWrite);
    for (int i = 0; i < 8; ++i) {
        const std::string problem = "problem_" + std::to_string(i);
        cache->record_tuning(selection(problem, 1.0, true), cubin("cubin-of-" + problem, 20000),
                             {measurement(problem)});
    }
}

void write_garbage(const std::string& path) {
    std::mt19937 random(7);
    std::string bytes(8192, '\0');
    for (char& byte : bytes) byte = static_cast<char>(random());
    std::ofstream(path, std::ios::binary) << bytes;
}

void truncate_to_half(const std::string& path) {
    fill(path);
    fs::resize_file(path, fs::file_size(path) / 2);
}

void truncate_to_100_bytes(const std::string& path) {
    fill(path);
    fs::resize_file(path, 100);
}

struct Damage {
    const char* name;
    void (*make)(const std::string& path);
};
void PrintTo(const Damage& damage, std::ostream* out) { *out << damage.name; }

// The damaged files moved aside, without the -wal and -shm that moved with them.
std::vector<std::string> set_aside_files(const TempDir& dir) {
    std::vector<std::string> files;
    for (const std::string& name : dir.listing()) {
        const bool companion =
            name.size() > 4 && (name.substr(name.size() - 4) == "-wal" || name.substr(name.size() - 4) == "-shm");
        if (name.rfind("tuning.sqlite.corrupt-", 0) == 0 && !companion) files.push_back(dir.file(name));
    }
    return files;
}

class CacheDamagedFile : public testing::TestWithParam<Damage> {};

TEST_P(CacheDamagedFile, ReadWriteOpenSetsItAsideAndStartsAFreshCache) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    GetParam().make(path);
    const std::string damaged = read_bytes(path);

    testing::internal::CaptureStderr();
    std::unique_ptr<TuningCache> cache;
    EXPECT_NO_THROW(cache = TuningCache::open(path, TuningCache::Access::ReadWrite));
    const std::string warning = testing::internal::GetCapturedStderr();
    ASSERT_NE(cache, nullptr);

    const std::vector<std::string> set_aside = set_aside_files(dir);
    ASSERT_EQ(set_aside.size(), 1u) << warning;
    EXPECT_TRUE(read_bytes(set_aside[0]) == damaged);
    EXPECT_NE(warning.find("jitgemm: warning:"), std::string::npos) << warning;
    EXPECT_NE(warning.find(path + " "), std::string::npos) << warning;
    EXPECT_NE(warning.find(set_aside[0]), std::string::npos) << warning;

    EXPECT_EQ(cache->schema_version(), current_schema_version());
    EXPECT_TRUE(cache->all_selections().empty());
    expect_working(*cache);
}

TEST_P(CacheDamagedFile, ReadOnlyOpenThrowsAndRenamesNothing) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    GetParam().make(path);
    const std::string damaged = read_bytes(path);
    const auto files = dir.listing();

    expect_cache_error([&] { TuningCache::open(path, TuningCache::Access::ReadOnly); }, path);
    EXPECT_EQ(dir.listing(), files);
    EXPECT_TRUE(read_bytes(path) == damaged);
}

INSTANTIATE_TEST_SUITE_P(CacheDamage, CacheDamagedFile,
                         testing::Values(Damage{"RandomBytes", write_garbage},
                                         Damage{"TruncatedToHalf", truncate_to_half},
                                         Damage{"TruncatedTo100Bytes", truncate_to_100_bytes}),
                         [](const testing::TestParamInfo<Damage>& info) { return std::string(info.param.name); });

TEST(CacheDamagedFileTwice, EachDamagedCopyKeepsItsOwnName) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    for (int round = 0; round < 2; ++round) {  // usually within one second: the second gets a counter suffix
        write_garbage(path);
        testing::internal::CaptureStderr();
        EXPECT_NO_THROW(TuningCache::open(path, TuningCache::Access::ReadWrite));
        testing::internal::GetCapturedStderr();
    }
    EXPECT_EQ(set_aside_files(dir).size(), 2u);
}

// ---- read-only bundles ----

TEST(CacheReadOnly, BundleInReadOnlyDirectoryOpensAndCreatesNoFiles) {
    TempDir dir;
    const std::string path = dir.file("bundle.sqlite");
    fill(path);  // written in WAL mode, as every ReadWrite cache is
    const std::string bytes = read_bytes(path);
    const auto files = dir.listing();
    fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    {
        // Root may write anyway, so what is checked is that nothing was written: no -wal, no -shm, same bytes.
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadOnly);
        EXPECT_EQ(cache->all_selections().size(), 8u);
        EXPECT_TRUE(cache->find_cubin("cubin-of-problem_3").has_value());
        EXPECT_EQ(dir.listing(), files);
    }
    EXPECT_EQ(dir.listing(), files);
    EXPECT_TRUE(read_bytes(path) == bytes);
}

// A cache file and directory that may not be written, as a user whom permissions bind (nobody, when the tests run as
// root): a ReadWrite open of the file and the creation of a new cache there fail saying so, and change nothing; a
// ReadOnly open reads every entry.
TEST(CacheReadOnly, UnwritableFileAndDirectoryRefuseWritesAndStillRead) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    fill(path);
    const std::string bytes = read_bytes(path);
    const auto files = dir.listing();
    fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    fs::permissions(dir.path, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    int report[2];
    ASSERT_EQ(pipe(report), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(report[0]);
        std::string out;
        int failures = 0;
        if (geteuid() == 0 && (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0)) _exit(100);
        const auto refused = [&](const std::string& file, int bit) {
            try {
                TuningCache::open(file, TuningCache::Access::ReadWrite);
                failures |= bit;
                out += file + " opened for writing\n";
            } catch (const Error& e) {
                out += std::string(e.what()) + "\n";
                if (e.code() != ErrorCode::CacheError) failures |= bit;
            }
        };
        refused(path, 1);
        refused(dir.file("new.sqlite"), 2);
        try {
            if (TuningCache::open(path, TuningCache::Access::ReadOnly)->all_selections().size() != 8) failures |= 4;
        } catch (const std::exception& e) {
            failures |= 4;
            out += std::string("read-only open: ") + e.what() + "\n";
        }
        if (write(report[1], out.data(), out.size()) < 0) failures |= 8;
        _exit(failures);
    }
    close(report[1]);
    std::string messages;
    char buffer[512];
    for (ssize_t n; (n = read(report[0], buffer, sizeof buffer)) > 0;)
        messages.append(buffer, static_cast<std::size_t>(n));
    close(report[0]);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: opened for writing, 2: created in the directory, 4: not read, 100: "
                                         "could not become nobody\n"
                                      << messages;
    std::printf("%s", messages.c_str());
    EXPECT_NE(messages.find("cannot be written"), std::string::npos) << messages;
    EXPECT_EQ(dir.listing(), files);
    EXPECT_TRUE(read_bytes(path) == bytes);
}

// A writer killed before it checkpointed leaves its committed transactions in the -wal file; read-only opens (list,
// export, merge and import sources) must see them. With immutable=1 they saw 30 of 40 entries (issue 19).
TEST(CacheReadOnly, EntriesOfAKilledWriterLeftInTheWalAreRead) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    fill(path);  // 8 entries, checkpointed when that writer closed
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const auto cache = TuningCache::open(path, TuningCache::Access::ReadWrite);
        for (int i = 100; i < 140; ++i) {
            const std::string problem = "killed_" + std::to_string(i);
            cache->record_tuning(selection(problem, 1.0, true), cubin("cubin-of-" + problem), {measurement(problem)});
        }
        _exit(0);  // as SIGKILL would: no close, no checkpoint
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT_GT(fs::file_size(path + "-wal"), 0u) << "the test needs the writer's entries still in the WAL";
    const auto cache = TuningCache::open(path, TuningCache::Access::ReadOnly);
    EXPECT_EQ(cache->all_selections().size(), 48u);
    EXPECT_TRUE(cache->find_cubin("cubin-of-killed_139").has_value());
}

TEST(CacheReadOnly, WritesAreRefused) {
    TempDir dir;
    const std::string path = dir.file("bundle.sqlite");
    fill(path);
    const auto cache = TuningCache::open(path, TuningCache::Access::ReadOnly);
    expect_cache_error([&] { cache->put_cubin(cubin("new")); }, "read-only");
    expect_cache_error([&] { cache->record_measurements({measurement("p")}); }, "read-only");
    expect_cache_error([&] { cache->record_tuning(selection("p", 1.0, true), cubin("new"), {}); }, "read-only");
    expect_cache_error([&] { cache->record_untuned(kDevice, "p", kProvenance); }, "read-only");
    EXPECT_EQ(cache->cubin_count(), 8u);
}

TEST(CacheReadOnly, MissingBundleThrowsAndIsNotCreated) {
    TempDir dir;
    const std::string path = dir.file("missing.sqlite");
    expect_cache_error([&] { TuningCache::open(path, TuningCache::Access::ReadOnly); }, path);
    EXPECT_FALSE(fs::exists(path));
}

TEST(CacheReadOnly, PathWithUriCharactersOpens) {
    TempDir dir;
    const std::string path = dir.file("odd?name#50%.sqlite");
    fill(path);
    EXPECT_EQ(TuningCache::open(path, TuningCache::Access::ReadOnly)->all_selections().size(), 8u);
}

}  // namespace
}  // namespace jitgemm::cache
