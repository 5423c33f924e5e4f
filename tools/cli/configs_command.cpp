// `jitgemm configs`: the kernel families, the knobs of each, and how their configuration names are written.
#include <iostream>

#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/option_parsing.h"
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
              << "  G: tile rows per rasterization group\n"
              << "mma       mma_<BM>x<BN>x<BK>_w<WM>x<WN>_s<S>_g<G>[_k<SPLITS>|_sk<BLOCKS>][_p<PACK>]  "
              << MmaConfig{}.to_string() << "\n"
              << "  Tensor Cores (mma.sync), for fp16 and bf16 inputs and fp32 inputs with --compute tf32.\n"
              << "  BM, BN: block tile of C, multiples of 16 from 32 to 256 (32 or a multiple of 64, for TF32 a\n"
              << "  multiple of 32, where the operand runs along m or n in memory); BK: k depth of a stage\n"
              << "  (16, 32, 64, 128; 16, 32 for TF32);\n"
              << "  WM, WN: warps along m and n; S: cp.async pipeline stages (2..5); G: tile rows per rasterization\n"
              << "  group; SPLITS: blocks per tile, each over its share of K (split-K, 2..16; written only when not\n"
              << "  1); BLOCKS: stream-K, that many blocks share out the k tiles of all tiles evenly (instead of\n"
              << "  SPLITS; written only when not 0); PACK: operands copied to an aligned workspace first, 1 A, 2 B,\n"
              << "  3 both (written only when not 0)\n";
    return kExitOk;
}

}  // namespace jitgemm::cli
