// TuningCache's queries and writes. Every public method holds the mutex of the one connection; every write is one
// IMMEDIATE transaction, so a result is stored whole or not at all and concurrent writers of other processes queue
// on the busy timeout instead of failing.
#include "cache/tuning_cache.h"

#include <sqlite3.h>

#include <ctime>
#include <utility>

#include "cache/cache_connection.h"
#include "cache/cache_file.h"
#include "cache/record_columns.h"
#include "cache/record_writes.h"
#include "cache/schema.h"
#include "cache/sqlite_handles.h"

namespace jitgemm::cache {
namespace {

// A cubin this process made that the cache would not store is a fault of the compile, not of the file.
void require_stored(const CubinWrite& write, const CubinRecord& cubin, const std::string& path) {
    if (write.result == CubinWrite::Rejected)
        throw Error(ErrorCode::CacheError, "jitgemm: refusing to store the cubin " + cubin.key + " of " + cubin.config +
                                               " in " + path + ": " + write.defect);
}

template <typename Record>
std::vector<Record> read_all(Statement& statement, Record (*read)(Statement&)) {
    std::vector<Record> records;
    while (statement.step()) records.push_back(read(statement));
    return records;
}

std::size_t count(sqlite3* db, const std::string& path, const char* sql) {
    Statement statement(db, path, sql);
    statement.step();
    return static_cast<std::size_t>(statement.column_int());
}

}  // namespace

std::unique_ptr<TuningCache> TuningCache::open(const std::string& path, Access access) {
    Connection db = open_cache_file(path, access);
    return std::unique_ptr<TuningCache>(new TuningCache(path, access, db.release()));
}

std::unique_ptr<TuningCache> TuningCache::empty(const std::string& path) {
    sqlite3* db = nullptr;
    const int result = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    Connection connection(db);
    check(result, db, path, "open an empty cache in memory for");
    bring_to_current_schema(db, path, 0);
    return std::unique_ptr<TuningCache>(new TuningCache(path, Access::ReadOnly, connection.release()));
}

TuningCache::TuningCache(std::string path, Access access, sqlite3* db)
    : path_(std::move(path)), access_(access), db_(db) {}

TuningCache::~TuningCache() { ConnectionCloser{}(db_); }

void TuningCache::set_lock_wait_ms(int milliseconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    check(sqlite3_busy_timeout(db_, milliseconds), db_, path_, "set a busy timeout");
}

int TuningCache::schema_version() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return read_schema_version(db_, path_);
}

std::optional<SelectionRecord> TuningCache::find_selection(const std::string& device_fingerprint,
                                                           const std::string& problem_key,
                                                           const Provenance& current) const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql = "SELECT " + selection_columns() + " FROM selections WHERE " + problem_match();
    Statement statement(db_, path_, sql);
    bind_problem(statement, device_fingerprint, problem_key, current);
    if (!statement.step()) return std::nullopt;
    return read_selection(statement);
}

std::optional<CubinRecord> TuningCache::find_cubin(const std::string& key) const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql = "SELECT " + cubin_columns() + " FROM cubins WHERE key = ?";
    Statement statement(db_, path_, sql);
    statement.bind_text(key);
    if (!statement.step()) return std::nullopt;
    return read_cubin(statement);
}

std::vector<std::string> TuningCache::selected_problem_keys(const std::string& device_fingerprint) const {
    std::lock_guard<std::mutex> lock(mutex_);
    Statement statement(db_, path_,
                        "SELECT DISTINCT problem_key FROM selections WHERE device_fingerprint = ? "
                        "ORDER BY problem_key");
    statement.bind_text(device_fingerprint);
    std::vector<std::string> keys;
    while (statement.step()) keys.push_back(statement.column_text());
    return keys;
}

std::vector<MeasurementRecord> TuningCache::measurements(const std::string& device_fingerprint,
                                                         const std::string& problem_key,
                                                         const Provenance& current) const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql =
        "SELECT " + measurement_columns() + " FROM measurements WHERE " + problem_match() + " ORDER BY measured_at, id";
    Statement statement(db_, path_, sql);
    bind_problem(statement, device_fingerprint, problem_key, current);
    return read_all(statement, read_measurement);
}

bool TuningCache::record_tuning(const SelectionRecord& selection, const CubinRecord& cubin,
                                const std::vector<MeasurementRecord>& measurements) {
    std::lock_guard<std::mutex> lock(mutex_);
    require_writable(*this);
    Transaction transaction(db_, path_);
    require_stored(insert_cubin(db_, path_, cubin), cubin, path_);
    insert_measurements(db_, path_, measurements);
    const bool stored = compare_with_stored(db_, path_, selection) != StoredSelection::Better;
    if (stored) replace_selection(db_, path_, selection);
    transaction.commit();
    return stored;
}

void TuningCache::record_measurements(const std::vector<MeasurementRecord>& measurements) {
    std::lock_guard<std::mutex> lock(mutex_);
    require_writable(*this);
    Transaction transaction(db_, path_);
    insert_measurements(db_, path_, measurements);
    transaction.commit();
}

void TuningCache::put_cubin(const CubinRecord& cubin) {
    std::lock_guard<std::mutex> lock(mutex_);
    require_writable(*this);
    Transaction transaction(db_, path_);
    require_stored(insert_cubin(db_, path_, cubin), cubin, path_);
    transaction.commit();
}

void TuningCache::record_untuned(const std::string& device_fingerprint, const std::string& problem_key,
                                 const Provenance& provenance) {
    std::lock_guard<std::mutex> lock(mutex_);
    require_writable(*this);
    static const std::string sql = "INSERT INTO untuned (" + untuned_columns() + ") VALUES (" +
                                   placeholders(untuned_columns()) +
                                   ") ON CONFLICT (device_fingerprint, problem_key, " + provenance_column_names() +
                                   ") DO UPDATE SET calls = calls + 1, last_seen = excluded.last_seen";
    const std::int64_t now = std::time(nullptr);
    Transaction transaction(db_, path_);
    Statement statement(db_, path_, sql);
    bind_untuned(statement, UntunedRecord{device_fingerprint, problem_key, provenance, now, now, 1});
    statement.run();
    transaction.commit();
}

std::vector<SelectionRecord> TuningCache::all_selections() const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql = "SELECT " + selection_columns() +
                                   " FROM selections ORDER BY device_fingerprint, problem_key, " +
                                   provenance_column_names();
    Statement statement(db_, path_, sql);
    return read_all(statement, read_selection);
}

void TuningCache::record_ceiling(const std::string& device_fingerprint, const std::string& driver_version,
                                 const std::string& name, double value) {
    std::lock_guard<std::mutex> lock(mutex_);
    require_writable(*this);
    Transaction transaction(db_, path_);
    replace_ceiling(db_, path_, CeilingRecord{device_fingerprint, driver_version, name, value, std::time(nullptr)});
    transaction.commit();
}

std::optional<double> TuningCache::find_ceiling(const std::string& device_fingerprint,
                                                const std::string& driver_version, const std::string& name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql = "SELECT value FROM ceilings WHERE " + ceiling_match();
    Statement statement(db_, path_, sql);
    bind_ceiling_key(statement, device_fingerprint, driver_version, name);
    if (!statement.step()) return std::nullopt;
    return statement.column_real();
}

std::vector<CubinRecord> TuningCache::all_cubins() const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql = "SELECT " + cubin_columns() + " FROM cubins ORDER BY key";
    Statement statement(db_, path_, sql);
    return read_all(statement, read_cubin);
}

std::vector<MeasurementRecord> TuningCache::all_measurements() const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql = "SELECT " + measurement_columns() + " FROM measurements ORDER BY id";
    Statement statement(db_, path_, sql);
    return read_all(statement, read_measurement);
}

std::vector<CeilingRecord> TuningCache::all_ceilings() const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql =
        "SELECT " + ceiling_columns() + " FROM ceilings ORDER BY device_fingerprint, driver_version, name";
    Statement statement(db_, path_, sql);
    return read_all(statement, read_ceiling);
}

std::vector<UntunedRecord> TuningCache::all_untuned() const {
    std::lock_guard<std::mutex> lock(mutex_);
    static const std::string sql = "SELECT " + untuned_columns() +
                                   " FROM untuned ORDER BY device_fingerprint, problem_key, " +
                                   provenance_column_names();
    Statement statement(db_, path_, sql);
    return read_all(statement, read_untuned);
}

std::size_t TuningCache::measurement_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return count(db_, path_, "SELECT count(*) FROM measurements");
}

std::size_t TuningCache::cubin_count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return count(db_, path_, "SELECT count(*) FROM cubins");
}

}  // namespace jitgemm::cache
