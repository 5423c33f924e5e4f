// `jitgemm configs`: the kernel families, the knobs of each, and how their configuration names are written.
#include <iostream>

#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include <nlohmann/json.hpp>

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
        nlohmann::ordered_json families = nlohmann::ordered_json::array();
        for_each_family([&](auto tag) {
            using Family = decltype(tag);
            families.push_back({{"name", std::string(Family::kName)}, {"name_format", std::string(Family::kNameFormat)},
                                {"default", tag.to_string()}, {"description", std::string(Family::kDescription)}});
        });
        std::cout << nlohmann::ordered_json{{"families", families}}.dump(1) << "\n";
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
