// Helpers of the tests of tuning-cache files: a scratch directory, a file's bytes, SQL run on a file directly (below
// the cache, as another program would), and the check that an action throws Error(CacheError) saying something.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>

#include "jitgemm/error.h"
#include "support/fake_cubin.h"

namespace jitgemm::cache_test {

// A fresh directory under the test temp directory, removed with everything in it (also after a test made it
// read-only).
struct TempDir {
    std::filesystem::path path = [] {
        std::string name = ::testing::TempDir() + "jitgemm-cache-XXXXXX";
        if (mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        return std::filesystem::path(name);
    }();
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::permissions(path, std::filesystem::perms::owner_all, ignored);
        std::filesystem::remove_all(path, ignored);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
    // A subdirectory, created, so that a bundle's directory holds nothing but what the test wrote there.
    std::string directory(const std::string& name) const {
        std::filesystem::create_directories(path / name);
        return file(name);
    }
    std::set<std::string> listing(const std::string& sub = "") const {
        std::set<std::string> names;
        for (const auto& entry : std::filesystem::directory_iterator(sub.empty() ? path : path / sub))
            names.insert(entry.path().filename().string());
        return names;
    }
};

inline std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void run_sql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

// The first column of the first row of `sql`, or "(no row)".
inline std::string query_text(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_stmt* statement = nullptr;
    std::string result = "(no row)";
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW)
        result = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return result;
}

template <typename Action>
void expect_cache_error(Action action, const std::string& message_part) {
    try {
        action();
        ADD_FAILURE() << "no Error thrown";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::CacheError);
        EXPECT_NE(std::string(e.what()).find(message_part), std::string::npos) << e.what();
    }
}

}  // namespace jitgemm::cache_test
