// The schema versions, the migrations between them and the read-only view of an older file.
//
// Every statement here is frozen: files in the field were made by it, and the step from version n must keep
// producing version n + 1 whatever the current schema becomes. So nothing here is built from the column lists of
// record_columns.h, which describe the current schema for the queries and will change with it.
#include "cache/schema.h"

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string_view>

#include "cache/sqlite_handles.h"
#include "cache/tuning_cache.h"

namespace jitgemm::cache {

const char* const kSchemaVersion1Sql = R"sql(
CREATE TABLE selections (
    device_fingerprint TEXT NOT NULL,
    problem_key TEXT NOT NULL,
    config TEXT NOT NULL,
    cubin_key TEXT NOT NULL,
    time_ms REAL NOT NULL,
    tuned_at INTEGER NOT NULL,
    library_version TEXT NOT NULL,
    kernel_sources_hash TEXT NOT NULL,
    nvrtc_version TEXT NOT NULL,
    driver_version TEXT NOT NULL,
    device_name TEXT NOT NULL,
    sm_count INTEGER NOT NULL,
    PRIMARY KEY (device_fingerprint, problem_key, library_version, kernel_sources_hash, nvrtc_version,
                 driver_version, device_name, sm_count)
);
CREATE TABLE cubins (
    key TEXT PRIMARY KEY NOT NULL,
    arch TEXT NOT NULL,
    kernel_symbol TEXT NOT NULL,
    config TEXT NOT NULL,
    nvrtc_version TEXT NOT NULL,
    kernel_sources_hash TEXT NOT NULL,
    image BLOB NOT NULL,
    created_at INTEGER NOT NULL
);
)sql";

namespace {

constexpr int kCurrentVersion = 5;

// ---- version 2 ----

constexpr char kSelectionsOf2[] =
    "CREATE TABLE selections (device_fingerprint TEXT NOT NULL, problem_key TEXT NOT NULL, config TEXT NOT NULL, "
    "cubin_key TEXT NOT NULL, time_ms REAL NOT NULL, tuned_at INTEGER NOT NULL, library_version TEXT NOT NULL, "
    "kernel_sources_hash TEXT NOT NULL, nvrtc_version TEXT NOT NULL, driver_version TEXT NOT NULL, "
    "device_name TEXT NOT NULL, sm_count INTEGER NOT NULL, tflops REAL NOT NULL DEFAULT 0, "
    "search_seconds REAL NOT NULL DEFAULT 0, candidates_measured INTEGER NOT NULL DEFAULT 0, "
    "candidates_total INTEGER NOT NULL DEFAULT 0, search_complete INTEGER NOT NULL DEFAULT 0, "
    "PRIMARY KEY (device_fingerprint, problem_key, library_version, kernel_sources_hash, nvrtc_version, "
    "driver_version, device_name, sm_count))";
constexpr char kCubinsOf2[] =
    "CREATE TABLE cubins (key TEXT PRIMARY KEY NOT NULL, arch TEXT NOT NULL, kernel_symbol TEXT NOT NULL, "
    "config TEXT NOT NULL, nvrtc_version TEXT NOT NULL, kernel_sources_hash TEXT NOT NULL, image BLOB NOT NULL, "
    "created_at INTEGER NOT NULL)";
constexpr char kMeasurementsAddedIn2[] =
    "CREATE TABLE measurements (id INTEGER PRIMARY KEY, device_fingerprint TEXT NOT NULL, "
    "problem_key TEXT NOT NULL, config TEXT NOT NULL, outcome TEXT NOT NULL, time_ms REAL NOT NULL, "
    "detail TEXT NOT NULL, library_version TEXT NOT NULL, kernel_sources_hash TEXT NOT NULL, "
    "nvrtc_version TEXT NOT NULL, driver_version TEXT NOT NULL, device_name TEXT NOT NULL, "
    "sm_count INTEGER NOT NULL, measured_at INTEGER NOT NULL)";
constexpr char kUntunedAddedIn2[] =
    "CREATE TABLE untuned (device_fingerprint TEXT NOT NULL, problem_key TEXT NOT NULL, "
    "library_version TEXT NOT NULL, kernel_sources_hash TEXT NOT NULL, nvrtc_version TEXT NOT NULL, "
    "driver_version TEXT NOT NULL, device_name TEXT NOT NULL, sm_count INTEGER NOT NULL, "
    "first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, calls INTEGER NOT NULL, "
    "PRIMARY KEY (device_fingerprint, problem_key, library_version, kernel_sources_hash, nvrtc_version, "
    "driver_version, device_name, sm_count))";
constexpr char kMeasurementIndexAddedIn2[] =
    "CREATE INDEX measurements_by_problem ON measurements (device_fingerprint, problem_key)";

// The columns version 2 added to the selections of a version-1 file, with what its rows hold: their search counts
// as incomplete.
struct AddedColumn {
    const char* name;
    const char* type;
    const char* value;
};
constexpr AddedColumn kSelectionColumnsAddedIn2[] = {
    {"tflops", "REAL", "0"},
    {"search_seconds", "REAL", "0"},
    {"candidates_measured", "INTEGER", "0"},
    {"candidates_total", "INTEGER", "0"},
    {"search_complete", "INTEGER", "0"},
};

// ---- version 3 ----

constexpr char kCeilingsAddedIn3[] =
    "CREATE TABLE ceilings (device_fingerprint TEXT NOT NULL, driver_version TEXT NOT NULL, name TEXT NOT NULL, "
    "value REAL NOT NULL, measured_at INTEGER NOT NULL, PRIMARY KEY (device_fingerprint, driver_version, name))";

// ---- steps ----

std::string statements(std::initializer_list<const char*> list) {
    std::string sql;
    for (const char* statement : list) sql += std::string(statement) + ";\n";
    return sql;
}

// The same table as TEMP, for the read-only view of an older file: TEMP objects are found before main's of the
// same name, so they shadow the file's tables for this connection only and the file itself is not touched.
std::string as_temp(const char* create_table) {
    constexpr std::string_view kCreate = "CREATE TABLE ";
    return "CREATE TEMP TABLE " + std::string(create_table).substr(kCreate.size()) + ";\n";
}

std::string migration_1_to_2() {
    std::string sql;
    for (const AddedColumn& c : kSelectionColumnsAddedIn2)
        sql += std::string("ALTER TABLE selections ADD COLUMN ") + c.name + " " + c.type + " NOT NULL DEFAULT " +
               c.value + ";\n";
    return sql + statements({kMeasurementsAddedIn2, kUntunedAddedIn2, kMeasurementIndexAddedIn2});
}

std::string migration_2_to_3() { return statements({kCeilingsAddedIn3}); }

std::string version_1_read_as_2() {
    std::string added_values;
    for (const AddedColumn& c : kSelectionColumnsAddedIn2)
        added_values += std::string(", ") + c.value + " AS " + c.name;
    return "CREATE TEMP VIEW selections AS SELECT *" + added_values + " FROM main.selections;\n" +
           as_temp(kMeasurementsAddedIn2) + as_temp(kUntunedAddedIn2);
}

std::string version_2_read_as_3() { return as_temp(kCeilingsAddedIn3); }

// ---- version 4 ----
// No table changes shape: what changes is what two columns hold in the rows written from now on (schema.h). The rows
// of older files stay as they are, never current for this version (their keys are unversioned and their source
// hashes cover every kernel source), and are neither rewritten nor deleted; `jitgemm cache prune --stale` removes them
// when the operator decides to. The bump keeps an older jitgemm from opening such a file and misreading the rows.
std::string migration_3_to_4() { return std::string(); }
std::string version_3_read_as_4() { return std::string(); }

// ---- version 5 ----
// Cubins gain the content hash of their image, checked before the image may reach the driver (cache/cubin_check.h).
// The rows of older files keep an empty hash: a hash computed now would only vouch for bytes nobody checked when
// they were written. They are still checked as ELF images of their kernel, and a row rewritten by a merge or a
// repair gets its hash then.
constexpr char kCubinHashAddedIn5[] = "ALTER TABLE cubins ADD COLUMN image_hash TEXT NOT NULL DEFAULT ''";
std::string migration_4_to_5() { return statements({kCubinHashAddedIn5}); }
std::string version_4_read_as_5() {
    return "CREATE TEMP VIEW cubins AS SELECT *, '' AS image_hash FROM main.cubins;\n";
}

// kMigrations[i] takes a file from version i + 1 to version i + 2; kReadOnlyViews[i] lets a connection read a file
// of version i + 1 as if it were of version i + 2.
using Step = std::string (*)();
constexpr Step kMigrations[] = {migration_1_to_2, migration_2_to_3, migration_3_to_4, migration_4_to_5};
constexpr Step kReadOnlyViews[] = {version_1_read_as_2, version_2_read_as_3, version_3_read_as_4,
                                   version_4_read_as_5};
static_assert(std::size(kMigrations) == kCurrentVersion - 1, "one migration per version step");
static_assert(std::size(kReadOnlyViews) == kCurrentVersion - 1, "one read-only view per version step");

}  // namespace

const std::string& schema_version_2_sql() {
    static const std::string sql =
        statements({kSelectionsOf2, kCubinsOf2, kMeasurementsAddedIn2, kUntunedAddedIn2, kMeasurementIndexAddedIn2});
    return sql;
}

int current_schema_version() { return kCurrentVersion; }

namespace {

[[noreturn]] void refuse_newer_version(const std::string& path, int version) {
    throw Error(ErrorCode::CacheError, "jitgemm: the tuning cache " + path + " has schema version " +
                                           std::to_string(version) + ", newer than this jitgemm knows (" +
                                           std::to_string(kCurrentVersion) +
                                           "): it was written by a newer jitgemm and was not modified.");
}

}  // namespace

int read_jitgemm_schema_version(sqlite3* db, const std::string& path) {
    // One statement, so one snapshot: read as separate statements, a fresh file that another process creates in
    // between would show version 0 and that process's tables, and be refused as another application's.
    Statement identity(db, path,
                       "SELECT (SELECT user_version FROM pragma_user_version), "
                       "(SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_schema)");
    identity.step();
    const int version = static_cast<int>(identity.column_int());
    const auto application = static_cast<std::uint32_t>(identity.column_int());
    const auto tables = identity.column_int();
    if (application != 0 && application != kApplicationId)
        throw Error(ErrorCode::CacheError, "jitgemm: " + path + " is a SQLite database of another application "
                                           "(application_id " + std::to_string(application) +
                                           "), not a tuning cache; it was neither read nor changed.");
    if (version < 0 || version > kCurrentVersion) refuse_newer_version(path, version);
    if (version == 0 && tables != 0)
        throw Error(ErrorCode::CacheError, "jitgemm: " + path + " is a SQLite database with tables of its own and no "
                                           "tuning-cache schema (another application's?); it was neither read nor "
                                           "changed.");
    return version;
}

int read_schema_version(sqlite3* db, const std::string& path) {
    Statement statement(db, path, "PRAGMA user_version");
    statement.step();
    const int version = static_cast<int>(statement.column_int());
    if (version < 0 || version > kCurrentVersion) refuse_newer_version(path, version);
    return version;
}

void bring_to_current_schema(sqlite3* db, const std::string& path, int version) {
    if (version == kCurrentVersion) return;
    Transaction transaction(db, path);
    version = read_schema_version(db, path);
    if (version == 0) {
        execute(db, path, schema_version_2_sql());
        version = 2;
    }
    for (; version < kCurrentVersion; ++version) execute(db, path, kMigrations[version - 1]());
    execute(db, path, "PRAGMA user_version = " + std::to_string(kCurrentVersion));
    execute(db, path, "PRAGMA application_id = " + std::to_string(static_cast<std::int32_t>(kApplicationId)));
    transaction.commit();
}

void present_as_current_schema(sqlite3* db, const std::string& path, int version) {
    if (version == kCurrentVersion) return;
    if (version == 0)
        throw Error(ErrorCode::CacheError,
                    "jitgemm: the tuning-cache bundle " + path + " holds no tuning cache (its schema version is 0).");
    execute(db, path, "PRAGMA temp_store = MEMORY");
    for (; version < kCurrentVersion; ++version) execute(db, path, kReadOnlyViews[version - 1]());
}

}  // namespace jitgemm::cache
