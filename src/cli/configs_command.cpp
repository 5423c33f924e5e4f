// `jitgemm configs`: the kernel families, the knobs of each, and how their configuration names are written.
#include <iostream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/option_parsing.h"
#include "tuner/any_config.h"

namespace jitgemm::cli {

int configs_command(const std::vector<std::string>& args) {
    boost::program_options::options_description options;
    int exit_code = kExitOk;
    const auto vm = parse_options("configs", "usage: jitgemm configs\nThe kernel families and their knobs.", options,
                                  args, exit_code);
    if (!vm) return exit_code;
    std::cout << "family    name format                               default\n"
              << "naive     naive_<BM>x<BN>                           " << NaiveConfig{}.to_string() << "\n"
              << "  BM, BN: threads of a block along m and n (one output each); BM*BN a multiple of 32\n"
              << "tiled     tiled_t<T>                                " << TiledConfig{}.to_string() << "\n"
              << "  T: tile edge, T x T threads and outputs per block, 2..32\n"
              << "regblock  regblock_<BM>x<BN>x<BK>_t<TM>x<TN>_v<V>_s<S>_g<G>  " << RegBlockConfig{}.to_string()
              << "\n"
              << "  BM, BN: block tile of C; BK: k depth of a shared-memory tile; TM, TN: outputs per thread;\n"
              << "  V: widest global load in floats (1, 2, 4); S: shared-memory stages (1, 2);\n"
              << "  G: tile rows per rasterization group\n";
    return kExitOk;
}

}  // namespace jitgemm::cli
