// JSON output helpers of the CLI: string quoting (the CLI writes JSON; it never needs to read it).
#pragma once

#include <string>

namespace jitgemm::cli {

// `s` as a JSON string literal, quotes included.
std::string json_string(const std::string& s);

}  // namespace jitgemm::cli
