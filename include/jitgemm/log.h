// What jitgemm says while it works, and where it goes. By default warnings and errors go to stderr;
// $JITGEMM_LOG=error|warn|info|debug sets how much, $JITGEMM_LOG_FILE=PATH appends the lines to a file instead, and
// a program can take them itself with set_log_callback. At info, one line says how each problem was served the
// first time (tuned from the cache, tuned now, the untuned default, and why).
#pragma once

#include <functional>
#include <string_view>

#include "jitgemm/export.h"

namespace jitgemm {

enum class LogLevel {
    Error,  // something failed and a call reports it
    Warn,   // jitgemm went on, but something is not as it should be (a damaged cache file, an unusable bundle)
    Info,   // one line per problem the first time it is served, with the kernel and why
    Debug,  // every stage of every search
};

JITGEMM_API std::string_view to_string(LogLevel);

// Lines at `level` and above are written; the default is $JITGEMM_LOG, else Warn.
JITGEMM_API void set_log_level(LogLevel level);
JITGEMM_API LogLevel log_level();

// Hands every line at or above the log level to `callback` (from any thread, possibly several at once, never while
// a jitgemm lock the callback could need is held) instead of stderr or the log file. An empty function restores
// them.
using LogCallback = std::function<void(LogLevel, std::string_view message)>;
JITGEMM_API void set_log_callback(LogCallback callback);

}  // namespace jitgemm
