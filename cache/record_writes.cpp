// The shared writes of the records.
#include "cache/record_writes.h"

#include "cache/cubin_check.h"
#include "cache/record_columns.h"
#include "cache/sqlite_handles.h"

namespace jitgemm::cache {

CubinWrite insert_cubin(sqlite3* db, const std::string& path, const CubinRecord& cubin) {
    if (auto defect = cubin_record_defect(cubin)) return {CubinWrite::Rejected, std::move(*defect)};
    static const std::string find = "SELECT " + cubin_columns() + " FROM cubins WHERE key = ?";
    Statement stored(db, path, find);
    stored.bind_text(cubin.key);
    const bool present = stored.step();
    if (present && !cubin_record_defect(read_cubin(stored))) return {CubinWrite::Present, {}};
    static const std::string sql =
        "INSERT OR REPLACE INTO cubins (" + cubin_columns() + ") VALUES (" + placeholders(cubin_columns()) + ")";
    Statement statement(db, path, sql);
    bind_cubin(statement, with_image_hash(cubin));
    statement.run();
    return {present ? CubinWrite::Repaired : CubinWrite::Added, {}};
}

void insert_measurements(sqlite3* db, const std::string& path, const std::vector<MeasurementRecord>& measurements) {
    static const std::string sql =
        "INSERT INTO measurements (" + measurement_columns() + ") VALUES (" + placeholders(measurement_columns()) + ")";
    Statement statement(db, path, sql);
    for (const MeasurementRecord& measurement : measurements) {
        bind_measurement(statement, measurement);
        statement.run();
        statement.reset();
    }
}

StoredSelection compare_with_stored(sqlite3* db, const std::string& path, const SelectionRecord& candidate) {
    static const std::string sql = "SELECT search_complete, time_ms FROM selections WHERE " + problem_match();
    Statement statement(db, path, sql);
    bind_problem(statement, candidate.device_fingerprint, candidate.problem_key, candidate.provenance);
    if (!statement.step()) return StoredSelection::None;
    const bool stored_complete = statement.column_int() != 0;
    const double stored_time_ms = statement.column_real();
    if (stored_complete != candidate.search_complete)
        return stored_complete ? StoredSelection::Better : StoredSelection::Worse;
    return stored_time_ms <= candidate.time_ms ? StoredSelection::Better : StoredSelection::Worse;
}

void replace_selection(sqlite3* db, const std::string& path, const SelectionRecord& selection) {
    static const std::string sql = "INSERT OR REPLACE INTO selections (" + selection_columns() + ") VALUES (" +
                                   placeholders(selection_columns()) + ")";
    Statement statement(db, path, sql);
    bind_selection(statement, selection);
    statement.run();
}

void replace_untuned(sqlite3* db, const std::string& path, const UntunedRecord& untuned) {
    static const std::string sql = "INSERT OR REPLACE INTO untuned (" + untuned_columns() + ") VALUES (" +
                                   placeholders(untuned_columns()) + ")";
    Statement statement(db, path, sql);
    bind_untuned(statement, untuned);
    statement.run();
}

void replace_ceiling(sqlite3* db, const std::string& path, const CeilingRecord& ceiling) {
    static const std::string sql = "INSERT OR REPLACE INTO ceilings (" + ceiling_columns() + ") VALUES (" +
                                   placeholders(ceiling_columns()) + ")";
    Statement statement(db, path, sql);
    bind_ceiling(statement, ceiling);
    statement.run();
}

}  // namespace jitgemm::cache
