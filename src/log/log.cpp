// The log's state: level, destination, callback; read from the environment once.
#include "log/log.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>

namespace jitgemm {
namespace {

struct LogState {
    std::shared_mutex mutex;  // the callback and the file; writes take it shared
    LogLevel level = LogLevel::Warn;
    std::shared_ptr<const LogCallback> callback;
    std::FILE* file = nullptr;  // $JITGEMM_LOG_FILE, opened once for appending
    std::mutex file_mutex;      // whole lines into the file
};

LogLevel level_from_environment() {
    const char* value = std::getenv("JITGEMM_LOG");
    if (value == nullptr) return LogLevel::Warn;
    const std::string text = value;
    if (text == "error") return LogLevel::Error;
    if (text == "info") return LogLevel::Info;
    if (text == "debug") return LogLevel::Debug;
    if (text != "warn" && !text.empty())
        std::fprintf(stderr, "jitgemm: warning: JITGEMM_LOG=%s is not one of error, warn, info, debug; using warn\n",
                     value);
    return LogLevel::Warn;
}

// Level and file from the environment; the caller holds the state's lock (or is its constructor).
void apply_environment(LogState& s) {
    s.level = level_from_environment();
    if (s.file != nullptr) std::fclose(s.file);
    s.file = nullptr;
    if (const char* path = std::getenv("JITGEMM_LOG_FILE"); path != nullptr && *path != '\0') {
        s.file = std::fopen(path, "a");
        if (s.file == nullptr)
            std::fprintf(stderr, "jitgemm: warning: cannot open JITGEMM_LOG_FILE=%s; logging to stderr\n", path);
    }
}

LogState& state() {
    static LogState* s = [] {
        auto* created = new LogState;  // never destroyed: threads may log while the program exits
        apply_environment(*created);
        return created;
    }();
    return *s;
}

}  // namespace

std::string_view to_string(LogLevel level) {
    switch (level) {
        case LogLevel::Error: return "error";
        case LogLevel::Warn: return "warning";
        case LogLevel::Info: return "info";
        case LogLevel::Debug: return "debug";
    }
    return "?";
}

void set_log_level(LogLevel level) {
    std::unique_lock lock(state().mutex);
    state().level = level;
}

LogLevel log_level() {
    std::shared_lock lock(state().mutex);
    return state().level;
}

void set_log_callback(LogCallback callback) {
    std::unique_lock lock(state().mutex);
    state().callback = callback ? std::make_shared<const LogCallback>(std::move(callback)) : nullptr;
}

namespace log {

bool enabled(LogLevel level) { return static_cast<int>(level) <= static_cast<int>(log_level()); }

void write(LogLevel level, const std::string& message) {
    LogState& s = state();
    std::shared_ptr<const LogCallback> callback;
    {
        std::shared_lock lock(s.mutex);
        if (static_cast<int>(level) > static_cast<int>(s.level)) return;
        callback = s.callback;
    }
    if (callback) {
        try {
            (*callback)(level, message);
        } catch (...) {
            // A callback that throws must not turn a warning into a failure of the call that logged it.
        }
        return;
    }
    const std::string line = "jitgemm: " + std::string(to_string(level)) + ": " + message + "\n";
    std::lock_guard lock(s.file_mutex);
    std::FILE* out = s.file != nullptr ? s.file : stderr;
    std::fwrite(line.data(), 1, line.size(), out);
    std::fflush(out);
}

void read_environment() {
    LogState& s = state();
    std::unique_lock lock(s.mutex);
    std::lock_guard file_lock(s.file_mutex);
    apply_environment(s);
}

void warn_once(const std::string& what, const std::string& message) {
    static std::mutex mutex;
    static std::set<std::string> reported;
    {
        std::lock_guard lock(mutex);
        if (!reported.insert(what).second) return;
    }
    warn(message);
}

}  // namespace log
}  // namespace jitgemm
