// jitgemm's log: every line the library has to say (warnings, the first serving of each problem, a search's
// stages) goes through here, to stderr, to $JITGEMM_LOG_FILE, or to the program's callback (jitgemm::set_log_callback
// in the public API). $JITGEMM_LOG sets the level: error, warn (the default), info, debug.
//
// The lowest layer (src/log, below the cache): every layer may log, and logging depends on nothing of jitgemm's.
#pragma once

#include <string>

#include "jitgemm/log.h"

namespace jitgemm::log {

// Whether a line of `level` would go anywhere now (to skip building lines nobody reads).
bool enabled(LogLevel level);

// Writes "jitgemm: <level>: <message>" (stderr, the log file) or hands `message` to the callback. Thread-safe;
// never throws.
void write(LogLevel level, const std::string& message);

inline void error(const std::string& message) { write(LogLevel::Error, message); }
inline void warn(const std::string& message) { write(LogLevel::Warn, message); }
inline void info(const std::string& message) { write(LogLevel::Info, message); }
inline void debug(const std::string& message) { write(LogLevel::Debug, message); }

// Reads $JITGEMM_LOG and $JITGEMM_LOG_FILE again (the first line logged reads them; a process that sets them later,
// such as a test's child, calls this). An explicit set_log_level is then replaced by the environment's.
void read_environment();

// warn(message) the first time `what` is reported in this process.
void warn_once(const std::string& what, const std::string& message);

}  // namespace jitgemm::log
