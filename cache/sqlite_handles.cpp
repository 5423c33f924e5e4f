// The SQLite owners, Statement, Transaction and the result check.
#include "cache/sqlite_handles.h"

#include <sqlite3.h>

namespace jitgemm::cache {

// sqlite3_close_v2 defers the close until unfinalized statements are gone instead of failing, so a destructor
// never has to handle SQLITE_BUSY.
void ConnectionCloser::operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
void StatementFinalizer::operator()(sqlite3_stmt* statement) const noexcept { sqlite3_finalize(statement); }

CorruptCacheFile::CorruptCacheFile(const std::string& path, const std::string& reason)
    : Error(ErrorCode::CacheError, "jitgemm: the tuning cache " + path + " is damaged: " + reason + "."),
      reason_(reason) {}

void check(int result, sqlite3* db, const std::string& path, std::string_view doing, std::string_view sql) {
    if (result == SQLITE_OK || result == SQLITE_ROW || result == SQLITE_DONE) return;
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(result);
    const int primary = result & 0xff;  // extended codes keep the primary code in the low byte
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) throw CorruptCacheFile(path, message);
    const std::string statement = sql.empty() ? "" : " \"" + std::string(sql) + "\"";
    // A failed write is most often a full disk or a file-size limit, which SQLite reports as a bare "disk I/O
    // error"; the transaction was rolled back, and saying so tells the user the file is as it was.
    const int extended = db != nullptr ? sqlite3_extended_errcode(db) : result;
    const bool write_failed = primary == SQLITE_FULL || extended == SQLITE_IOERR_WRITE ||
                              extended == SQLITE_IOERR_FSYNC || extended == SQLITE_IOERR_TRUNCATE;
    const std::string hint =
        write_failed ? " (is the disk full, or a file-size limit reached? the unfinished write was rolled back)" : "";
    throw Error(ErrorCode::CacheError, "jitgemm: SQLite could not " + std::string(doing) + statement +
                                           " on the tuning cache " + path + ": " + message + hint + ".");
}

void execute(sqlite3* db, const std::string& path, const std::string& sql) {
    check(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), db, path, "run", sql);
}

Statement::Statement(sqlite3* db, const std::string& path, std::string_view sql) : db_(db), path_(&path), sql_(sql) {
    sqlite3_stmt* statement = nullptr;
    check(sqlite3_prepare_v2(db, sql_.c_str(), static_cast<int>(sql_.size()), &statement, nullptr), db, path, "prepare",
          sql_);
    statement_.reset(statement);
}

// SQLITE_TRANSIENT: SQLite copies the value, so a temporary argument may die before step().
Statement& Statement::bind_text(std::string_view text) {
    check(sqlite3_bind_text64(statement_.get(), next_parameter_++, text.data(), text.size(), SQLITE_TRANSIENT,
                              SQLITE_UTF8),
          db_, *path_, "bind a parameter of", sql_);
    return *this;
}

Statement& Statement::bind_blob(std::string_view bytes) {
    // An empty blob needs a non-null pointer: sqlite3_bind_blob64 binds NULL for a null one.
    check(sqlite3_bind_blob64(statement_.get(), next_parameter_++, bytes.empty() ? "" : bytes.data(), bytes.size(),
                              SQLITE_TRANSIENT),
          db_, *path_, "bind a parameter of", sql_);
    return *this;
}

Statement& Statement::bind_int(std::int64_t value) {
    check(sqlite3_bind_int64(statement_.get(), next_parameter_++, value), db_, *path_, "bind a parameter of", sql_);
    return *this;
}

Statement& Statement::bind_real(double value) {
    check(sqlite3_bind_double(statement_.get(), next_parameter_++, value), db_, *path_, "bind a parameter of", sql_);
    return *this;
}

bool Statement::step() {
    const int result = sqlite3_step(statement_.get());
    check(result, db_, *path_, "run", sql_);
    next_column_ = 0;
    return result == SQLITE_ROW;
}

void Statement::reset() {
    sqlite3_reset(statement_.get());  // returns the last step's error, which step() already reported
    sqlite3_clear_bindings(statement_.get());
    next_parameter_ = 1;
}

int Statement::changes() const { return sqlite3_changes(db_); }

std::string Statement::column_text() {
    const int column = next_column_++;
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_.get(), column));
    return text != nullptr ? std::string(text, sqlite3_column_bytes(statement_.get(), column)) : std::string();
}

std::string Statement::column_blob() {
    const int column = next_column_++;
    const auto* bytes = static_cast<const char*>(sqlite3_column_blob(statement_.get(), column));
    return bytes != nullptr ? std::string(bytes, sqlite3_column_bytes(statement_.get(), column)) : std::string();
}

std::int64_t Statement::column_int() { return sqlite3_column_int64(statement_.get(), next_column_++); }
double Statement::column_real() { return sqlite3_column_double(statement_.get(), next_column_++); }

Transaction::Transaction(sqlite3* db, const std::string& path) : db_(db), path_(path) {
    execute(db_, path_, "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    // Nothing useful can be done about a failed rollback here; SQLite rolls back on close anyway.
    if (!committed_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    execute(db_, path_, "COMMIT");
    committed_ = true;
}

}  // namespace jitgemm::cache
