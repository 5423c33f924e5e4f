// The schema versions, the migrations between them and the read-only view of an older file.
#include "cache/schema.h"

#include <iterator>

#include "cache/record_columns.h"
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

constexpr int kCurrentVersion = 2;

// Version 2 is current, so what it added is written with the shared provenance columns. When a version 3 exists,
// freeze this as literal text, as version 1 is: the step from 1 to 2 must keep producing version 2.
struct AddedColumn {
    const char* name;
    const char* type;
    const char* value;  // what rows of version 1 hold: their search counts as incomplete
};
constexpr AddedColumn kSelectionColumnsAddedIn2[] = {
    {"tflops", "REAL", "0"},
    {"search_seconds", "REAL", "0"},
    {"candidates_measured", "INTEGER", "0"},
    {"candidates_total", "INTEGER", "0"},
    {"search_complete", "INTEGER", "0"},
};

// `create` is "CREATE TABLE", or "CREATE TEMP TABLE" for the read-only view of a version-1 file.
std::string tables_added_in_2(const std::string& create) {
    return create + " measurements (id INTEGER PRIMARY KEY, device_fingerprint TEXT NOT NULL, " +
           "problem_key TEXT NOT NULL, config TEXT NOT NULL, outcome TEXT NOT NULL, time_ms REAL NOT NULL, " +
           "detail TEXT NOT NULL, " + provenance_column_definitions() + ", measured_at INTEGER NOT NULL);\n" + create +
           " untuned (device_fingerprint TEXT NOT NULL, problem_key TEXT NOT NULL, " + provenance_column_definitions() +
           ", first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, calls INTEGER NOT NULL, " +
           "PRIMARY KEY (device_fingerprint, problem_key, " + provenance_column_names() + "));\n";
}

const char* const kMeasurementIndex =
    "CREATE INDEX measurements_by_problem ON measurements (device_fingerprint, problem_key);\n";

std::string current_schema_sql() {
    std::string added_columns;
    for (const AddedColumn& c : kSelectionColumnsAddedIn2)
        added_columns += std::string(c.name) + " " + c.type + " NOT NULL DEFAULT " + c.value + ", ";
    return "CREATE TABLE selections (device_fingerprint TEXT NOT NULL, problem_key TEXT NOT NULL, "
           "config TEXT NOT NULL, cubin_key TEXT NOT NULL, time_ms REAL NOT NULL, tuned_at INTEGER NOT NULL, " +
           provenance_column_definitions() + ", " + added_columns + "PRIMARY KEY (device_fingerprint, problem_key, " +
           provenance_column_names() + "));\n" +
           "CREATE TABLE cubins (key TEXT PRIMARY KEY NOT NULL, arch TEXT NOT NULL, kernel_symbol TEXT NOT NULL, "
           "config TEXT NOT NULL, nvrtc_version TEXT NOT NULL, kernel_sources_hash TEXT NOT NULL, "
           "image BLOB NOT NULL, created_at INTEGER NOT NULL);\n" +
           tables_added_in_2("CREATE TABLE") + kMeasurementIndex;
}

std::string migration_1_to_2() {
    std::string sql;
    for (const AddedColumn& c : kSelectionColumnsAddedIn2)
        sql += std::string("ALTER TABLE selections ADD COLUMN ") + c.name + " " + c.type + " NOT NULL DEFAULT " +
               c.value + ";\n";
    return sql + tables_added_in_2("CREATE TABLE") + kMeasurementIndex;
}

// kMigrations[i] takes a file from version i + 1 to version i + 2.
using Migration = std::string (*)();
constexpr Migration kMigrations[] = {migration_1_to_2};
static_assert(std::size(kMigrations) == kCurrentVersion - 1, "one migration per version step");

// TEMP objects are found before main's of the same name, so this view and these empty tables shadow the version-1
// file's tables for this connection only; the file itself is not touched.
std::string version_1_as_current_sql() {
    std::string added_values;
    for (const AddedColumn& c : kSelectionColumnsAddedIn2)
        added_values += std::string(", ") + c.value + " AS " + c.name;
    return "PRAGMA temp_store = MEMORY;\n"
           "CREATE TEMP VIEW selections AS SELECT *" +
           added_values + " FROM main.selections;\n" + tables_added_in_2("CREATE TEMP TABLE");
}

}  // namespace

int current_schema_version() { return kCurrentVersion; }

int read_schema_version(sqlite3* db, const std::string& path) {
    Statement statement(db, path, "PRAGMA user_version");
    statement.step();
    const int version = static_cast<int>(statement.column_int());
    if (version < 0 || version > kCurrentVersion)
        throw Error(ErrorCode::CacheError, "jitgemm: the tuning cache " + path + " has schema version " +
                                               std::to_string(version) + ", newer than this jitgemm knows (" +
                                               std::to_string(kCurrentVersion) +
                                               "): it was written by a newer jitgemm and was not modified.");
    return version;
}

void bring_to_current_schema(sqlite3* db, const std::string& path, int version) {
    if (version == kCurrentVersion) return;
    Transaction transaction(db, path);
    version = read_schema_version(db, path);
    if (version == 0)
        execute(db, path, current_schema_sql());
    else
        for (; version < kCurrentVersion; ++version) execute(db, path, kMigrations[version - 1]());
    execute(db, path, "PRAGMA user_version = " + std::to_string(kCurrentVersion));
    transaction.commit();
}

void present_as_current_schema(sqlite3* db, const std::string& path, int version) {
    if (version == kCurrentVersion) return;
    if (version == 0)
        throw Error(ErrorCode::CacheError,
                    "jitgemm: the tuning-cache bundle " + path + " holds no tuning cache (its schema version is 0).");
    execute(db, path, version_1_as_current_sql());  // version 1, the only other one
}

}  // namespace jitgemm::cache
