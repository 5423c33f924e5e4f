// How the manifest reader fails: one Error(InvalidArgument) whose message starts with the file and line, so that
// every reader (CSV, JSON, the field table) words its place the same way.
#pragma once

#include <string>
#include <string_view>

namespace jitgemm::manifest {

// Throws Error(InvalidArgument, "jitgemm: FILE:LINE: WHAT"); with line 0, "jitgemm: FILE: WHAT".
[[noreturn]] void throw_manifest_error(const std::string& file, int line, const std::string& what);

// Text from the file as a message shows it: in double quotes, with quotes, backslashes and control characters
// escaped, and cut short past 60 characters (a whole runaway line helps nobody).
std::string quoted(std::string_view text);

}  // namespace jitgemm::manifest
