// The subcommands of the `jitgemm` program. Each takes its own arguments (after the subcommand name) and returns the
// process exit code (see exit_codes.h).
#pragma once

#include <string>
#include <vector>

namespace jitgemm::cli {

int info_command(const std::vector<std::string>& args);
int run_command(const std::vector<std::string>& args);
int configs_command(const std::vector<std::string>& args);
int tune_command(const std::vector<std::string>& args);
int bench_command(const std::vector<std::string>& args);
int cache_command(const std::vector<std::string>& args);
int report_command(const std::vector<std::string>& args);

}  // namespace jitgemm::cli
