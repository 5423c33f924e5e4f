// The SQLite layer of the tuning cache: move-only owners of a connection and a prepared statement, a Statement that
// binds parameters and reads columns in order, a Transaction that rolls back unless committed (as SQLiteCpp's does),
// and the check that turns SQLite's result codes into Error(CacheError) naming the file.
//
// Only forward declarations of SQLite's types appear here; sqlite3.h stays in the .cpp files.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "jitgemm/error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace jitgemm::cache {

struct ConnectionCloser {
    void operator()(sqlite3* db) const noexcept;
};
using Connection = std::unique_ptr<sqlite3, ConnectionCloser>;

struct StatementFinalizer {
    void operator()(sqlite3_stmt* statement) const noexcept;
};
using StatementHandle = std::unique_ptr<sqlite3_stmt, StatementFinalizer>;

// SQLite says the file is not a database or is damaged (SQLITE_NOTADB, SQLITE_CORRUPT, a failed quick_check).
// Opening a ReadWrite cache catches it to set the file aside; everywhere else it is just the CacheError it is.
class CorruptCacheFile : public Error {
public:
    CorruptCacheFile(const std::string& path, const std::string& reason);
    const std::string& reason() const noexcept { return reason_; }

private:
    std::string reason_;
};

// Returns when `result` is SQLITE_OK, SQLITE_ROW or SQLITE_DONE; otherwise throws Error(CacheError) with the path,
// what was being done ("run" and the statement) and SQLite's message, or CorruptCacheFile for a damaged file.
void check(int result, sqlite3* db, const std::string& path, std::string_view doing, std::string_view sql = {});

// Runs one or more statements that return nothing of interest (DDL, pragmas, BEGIN/COMMIT).
void execute(sqlite3* db, const std::string& path, const std::string& sql);

// A prepared statement whose parameters are bound in order, from the first, and whose row is read in order, from
// the first column: the column lists of cache/record_columns.h and the bind/read functions beside them then cannot
// drift apart by a miscounted index.
class Statement {
public:
    Statement(sqlite3* db, const std::string& path, std::string_view sql);

    const std::string& path() const { return *path_; }

    Statement& bind_text(std::string_view text);
    Statement& bind_blob(std::string_view bytes);
    Statement& bind_int(std::int64_t value);
    Statement& bind_real(double value);

    // True when a row is ready, false when the statement is done.
    bool step();
    // Steps a statement that returns no rows.
    void run() { step(); }
    // Makes the statement ready to be bound and run again.
    void reset();
    // The rows the last INSERT, UPDATE or DELETE run on this connection inserted, changed or deleted (0 for an
    // INSERT OR IGNORE that found its key present).
    int changes() const;

    // The next column of the current row.
    std::string column_text();
    std::string column_blob();
    std::int64_t column_int();
    double column_real();

private:
    sqlite3* db_;
    const std::string* path_;
    std::string sql_;
    StatementHandle statement_;
    int next_parameter_ = 1;
    int next_column_ = 0;
};

// BEGIN IMMEDIATE: takes the write lock at once (waiting up to the busy timeout), so a transaction that reads then
// writes never fails half-way on a lock another process holds. Rolls back in its destructor unless committed.
class Transaction {
public:
    Transaction(sqlite3* db, const std::string& path);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    void commit();

private:
    sqlite3* db_;
    const std::string& path_;
    bool committed_ = false;
};

}  // namespace jitgemm::cache
