// Boost.Program_options glue shared by the subcommands: parse a subcommand's arguments, print its --help, and turn
// a bad command line into a usage message.
#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

namespace jitgemm::cli {

// Parses `args` against `options`. Returns nullopt after printing help (--help) or a usage error; `exit_code` then
// holds what the command should return.
// `positional`, when given, maps bare arguments to options (e.g. the files of `jitgemm cache import`).
std::optional<boost::program_options::variables_map> parse_options(
    const std::string& command, const std::string& summary, const boost::program_options::options_description& options,
    const std::vector<std::string>& args, int& exit_code,
    const boost::program_options::positional_options_description* positional = nullptr);

}  // namespace jitgemm::cli
