// Subcommand option parsing with Boost.Program_options.
#include "tools/cli/option_parsing.h"

#include <iostream>

#include "tools/cli/exit_codes.h"

namespace jitgemm::cli {

namespace po = boost::program_options;

std::optional<po::variables_map> parse_options(const std::string& command, const std::string& summary,
                                               const po::options_description& options,
                                               const std::vector<std::string>& args, int& exit_code,
                                               const po::positional_options_description* positional) {
    po::options_description all("options of jitgemm " + command);
    all.add(options);
    all.add_options()("help,h", "show this help");
    po::variables_map vm;
    try {
        po::command_line_parser parser(args);
        parser.options(all);
        if (positional != nullptr) parser.positional(*positional);
        po::store(parser.run(), vm);
        if (vm.count("help")) {  // before notify(), which would complain about missing required options
            std::cout << summary << "\n" << all << "\n";
            exit_code = kExitOk;
            return std::nullopt;
        }
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "jitgemm " << command << ": " << e.what() << "\n\n" << summary << "\n" << all << "\n";
        exit_code = kExitUsage;
        return std::nullopt;
    }
    return vm;
}

}  // namespace jitgemm::cli
