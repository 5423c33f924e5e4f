// `jitgemm configs`: the kernel families, the knobs of each, and how their configuration names are written.
#include <iostream>

#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/json_text.h"
#include "tools/cli/option_parsing.h"
#include "tuner/families/registry.h"

namespace jitgemm::cli {

int configs_command(const std::vector<std::string>& args) {
    boost::program_options::options_description options;
    options.add_options()("json", "print JSON");
    int exit_code = kExitOk;
    const auto vm = parse_options("configs", "usage: jitgemm configs [--json]\nThe kernel families and their knobs.",
                                  options, args, exit_code);
    if (!vm) return exit_code;
    if (vm->count("json")) {
        std::cout << "{\"families\": [";
        bool first = true;
        for_each_family([&](auto tag) {
            using Family = decltype(tag);
            std::cout << (first ? "" : ", ") << "{\"name\": " << json_string(std::string(Family::kName))
                      << ", \"name_format\": " << json_string(std::string(Family::kNameFormat))
                      << ", \"default\": " << json_string(tag.to_string())
                      << ", \"description\": " << json_string(std::string(Family::kDescription)) << "}";
            first = false;
        });
        std::cout << "]}\n";
        return kExitOk;
    }
    // Every registered family, in registry order: its name format, its default configuration, and its knobs.
    for_each_family([](auto tag) {
        using Family = decltype(tag);
        std::cout << Family::kName << "\n  " << Family::kNameFormat << "\n  default: " << tag.to_string() << "\n";
        std::string_view knobs = Family::kDescription;
        while (!knobs.empty()) {  // one indented line per line of the description
            const std::size_t end = knobs.find('\n');
            std::cout << "  " << knobs.substr(0, end) << "\n";
            knobs = end == std::string_view::npos ? std::string_view() : knobs.substr(end + 1);
        }
    });
    return kExitOk;
}

}  // namespace jitgemm::cli
