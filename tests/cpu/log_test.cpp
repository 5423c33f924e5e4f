// The log (src/log, jitgemm/log.h): levels filter, the callback takes the lines, JITGEMM_LOG and JITGEMM_LOG_FILE
// are read from the environment, and what used to be skipped silently is now said (a JITGEMM_CACHE_PATH entry
// that does not exist).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cache/tuning_cache.h"
#include "jitgemm/log.h"
#include "log/log.h"
#include "support/cache_test_files.h"
#include "support/process.h"

namespace jitgemm {
namespace {

// Takes the log's lines for the life of a test, and restores the level and stderr after.
class CapturedLog {
public:
    explicit CapturedLog(LogLevel level) : previous_(log_level()) {
        set_log_level(level);
        set_log_callback([this](LogLevel l, std::string_view message) {
            std::lock_guard lock(mutex_);
            lines_.emplace_back(l, std::string(message));
        });
    }
    ~CapturedLog() {
        set_log_callback({});
        set_log_level(previous_);
    }
    std::vector<std::pair<LogLevel, std::string>> lines() {
        std::lock_guard lock(mutex_);
        return lines_;
    }

private:
    LogLevel previous_;
    std::mutex mutex_;
    std::vector<std::pair<LogLevel, std::string>> lines_;
};

TEST(Log, LevelsFilterAndTheCallbackTakesTheLines) {
    {
        CapturedLog captured(LogLevel::Warn);
        log::info("not shown");
        log::warn("shown");
        log::error("shown too");
        const auto lines = captured.lines();
        ASSERT_EQ(lines.size(), 2u);
        EXPECT_EQ(lines[0], std::make_pair(LogLevel::Warn, std::string("shown")));
        EXPECT_EQ(lines[1].first, LogLevel::Error);
        EXPECT_FALSE(log::enabled(LogLevel::Info));
    }
    {
        CapturedLog captured(LogLevel::Debug);
        EXPECT_TRUE(log::enabled(LogLevel::Debug));
        log::debug("every stage");
        log::warn_once("same thing", "said once");
        log::warn_once("same thing", "said once");
        EXPECT_EQ(captured.lines().size(), 2u);
    }
}

TEST(Log, ACallbackThatThrowsDoesNotFailTheCaller) {
    set_log_callback([](LogLevel, std::string_view) { throw std::runtime_error("callback failed"); });
    EXPECT_NO_THROW(log::warn("a warning"));
    set_log_callback({});
}

TEST(Log, AMissingBundleOfJitgemmCachePathIsReported) {
    CapturedLog captured(LogLevel::Warn);
    setenv("JITGEMM_CACHE_PATH", "/nonexistent/app.jitgemm.sqlite", 1);
    EXPECT_TRUE(cache::bundle_paths().empty());
    unsetenv("JITGEMM_CACHE_PATH");
    const auto lines = captured.lines();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].second.find("/nonexistent/app.jitgemm.sqlite, which does not exist"), std::string::npos)
        << lines[0].second;
}

// The environment, set in a child (the parent's log has read its own already).
TEST(Log, EnvironmentSetsTheLevelAndTheFile) {
    const testing::TemporaryDirectory dir;
    const std::string file = dir.file("jitgemm.log");
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        setenv("JITGEMM_LOG", "info", 1);
        setenv("JITGEMM_LOG_FILE", file.c_str(), 1);
        log::read_environment();
        log::debug("below the level");
        log::info("an info line");
        log::warn("a warning line");
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    const std::string text = cache_test::read_bytes(file);
    EXPECT_EQ(text, "jitgemm: info: an info line\njitgemm: warning: a warning line\n");
}

}  // namespace
}  // namespace jitgemm
