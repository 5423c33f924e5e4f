// Where the cache files are found: default_cache_path() and bundle_paths() under controlled environment variables.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cache/tuning_cache.h"
#include "jitgemm/error.h"

namespace jitgemm::cache {
namespace {

// A fresh directory under the test temp directory, removed with everything in it.
struct TempDir {
    std::string path = [] {
        std::string name = testing::TempDir() + "jitgemm-cache-XXXXXX";
        if (mkdtemp(name.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
        return name;
    }();
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

// Sets (or, given nullptr, unsets) environment variables for one test and restores them afterwards.
class Environment {
public:
    ~Environment() {
        for (auto it = saved_.rbegin(); it != saved_.rend(); ++it)
            it->second ? setenv(it->first.c_str(), it->second->c_str(), 1) : unsetenv(it->first.c_str());
    }
    void set(const char* name, const char* value) {
        const char* old = getenv(name);
        saved_.emplace_back(name, old ? std::optional<std::string>(old) : std::nullopt);
        value ? setenv(name, value, 1) : unsetenv(name);
    }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

TEST(CacheLocations, DefaultPathIsInJitgemmCacheFirst) {
    Environment env;
    env.set("JITGEMM_CACHE", "/srv/jitgemm-cache");
    env.set("XDG_CACHE_HOME", "/xdg");
    env.set("HOME", "/home/user");
    EXPECT_EQ(default_cache_path(), "/srv/jitgemm-cache/tuning.sqlite");
    env.set("JITGEMM_CACHE", "/srv/jitgemm-cache/");
    EXPECT_EQ(default_cache_path(), "/srv/jitgemm-cache/tuning.sqlite");
}

TEST(CacheLocations, DefaultPathFallsBackToXdgCacheHomeThenHome) {
    Environment env;
    env.set("JITGEMM_CACHE", nullptr);
    env.set("XDG_CACHE_HOME", "/xdg");
    env.set("HOME", "/home/user");
    EXPECT_EQ(default_cache_path(), "/xdg/jitgemm/tuning.sqlite");
    env.set("XDG_CACHE_HOME", nullptr);
    EXPECT_EQ(default_cache_path(), "/home/user/.cache/jitgemm/tuning.sqlite");
}

TEST(CacheLocations, EmptyVariablesCountAsUnset) {
    Environment env;
    env.set("JITGEMM_CACHE", "");
    env.set("XDG_CACHE_HOME", "");
    env.set("HOME", "/home/user");
    EXPECT_EQ(default_cache_path(), "/home/user/.cache/jitgemm/tuning.sqlite");
}

TEST(CacheLocations, DefaultPathWithoutAnyVariableThrows) {
    Environment env;
    env.set("JITGEMM_CACHE", nullptr);
    env.set("XDG_CACHE_HOME", nullptr);
    env.set("HOME", nullptr);
    try {
        default_cache_path();
        ADD_FAILURE() << "no Error thrown";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::CacheError);
        EXPECT_NE(std::string(e.what()).find("JITGEMM_CACHE"), std::string::npos) << e.what();
    }
}

TEST(CacheLocations, DefaultPathCreatesNothing) {
    TempDir dir;
    Environment env;
    env.set("JITGEMM_CACHE", (dir.path + "/not-yet").c_str());
    EXPECT_EQ(default_cache_path(), dir.path + "/not-yet/tuning.sqlite");
    EXPECT_FALSE(std::filesystem::exists(dir.path + "/not-yet"));
}

TEST(CacheLocations, BundlePathsTakeFilesAsGivenAndDirectoriesSqliteFilesInNameOrder) {
    TempDir dir;
    const std::string& root = dir.path;
    std::filesystem::create_directories(root + "/bundles/nested.sqlite");  // a directory, not a bundle
    for (const char* name : {"b.sqlite", "a.sqlite", "c.sqlite", "notes.txt", "a.sqlite-wal"})
        std::ofstream(root + "/bundles/" + name) << "x";
    std::ofstream(root + "/single.db") << "x";

    Environment env;
    env.set("JITGEMM_CACHE_PATH",
            ("::" + root + "/missing.sqlite:" + root + "/bundles:" + root + "/single.db:" + root + "/gone/:").c_str());
    EXPECT_EQ(bundle_paths(), (std::vector<std::string>{root + "/bundles/a.sqlite", root + "/bundles/b.sqlite",
                                                        root + "/bundles/c.sqlite", root + "/single.db"}));
    env.set("JITGEMM_CACHE_PATH", nullptr);
    EXPECT_TRUE(bundle_paths().empty());
    env.set("JITGEMM_CACHE_PATH", "");
    EXPECT_TRUE(bundle_paths().empty());
}

}  // namespace
}  // namespace jitgemm::cache
