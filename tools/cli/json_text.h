// JSON output helpers of the CLI: string quoting and numbers (the CLI writes JSON; it never needs to read it).
#pragma once

#include <string>

namespace jitgemm::cli {

// `s` as a JSON string literal, quotes included.
std::string json_string(const std::string& s);

// `value` as a JSON number; JSON has no NaN or Infinity, so a value that is not finite is written as null.
std::string json_number(double value);

}  // namespace jitgemm::cli
