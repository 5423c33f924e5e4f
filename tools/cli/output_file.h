// Files the commands write (bench --csv/--json, cache untuned --output): all or nothing, and never over data the
// user did not mean to lose. The text goes to a temporary file beside the path, is flushed to disk, and is renamed
// into place only when every byte was written; a write error (a full disk) leaves the path as it was and fails the
// command. An existing file is replaced only with --force, and a SQLite database never (a tuning cache named by
// mistake: `cache untuned --output` once turned one into 188 bytes of CSV).
#pragma once

#include <string>

namespace jitgemm::cli {

// Throws Error(InvalidArgument) when `path` exists and `force` is not set, or is a SQLite database; std::runtime_error
// with the system's reason when the text cannot be written. Either way `path` is left as it was.
void write_output_file(const std::string& path, const std::string& text, bool force);

// write_output_file's refusals alone, for a command to make before its work rather than after it.
void check_output_file(const std::string& path, bool force);

}  // namespace jitgemm::cli
