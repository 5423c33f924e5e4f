// Writes the cubin jitgemm would build for a problem and configuration, without a GPU, for SASS inspection
// (cuobjdump --dump-sass) and the compiler's resource use.
//   dump_cubin OUT.cubin ARCH M N K TRANSA TRANSB CONFIG [DTYPE [COMPUTE [RUNTIME]]]
//   dump_cubin OUT.cubin ARCH --key PROBLEM_KEY CONFIG   (a Problem::key() as a log or a failed test names it)
//   e.g. dump_cubin rb.cubin sm_90a 4096 4096 4096 n n regblock_128x128x8_t8x8_v4_s2_g8
//        dump_cubin mma.cubin sm_90a 4097 4097 4097 n n mma_sync_128x128x32_w2x4_s3_g8 bf16
// DTYPE (f32, f16, bf16; default f32) is the type of A, B and C (C's after a colon: bf16:f32); COMPUTE is f32 or
// tf32; RUNTIME (m or n) builds the run-time-shape variant whose m or n is an argument. Leading dimensions are the
// minimum, so odd sizes give 16-bit operands 2-byte alignment.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "bench_problem.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "jitgemm/error.h"
#include "tuner/families/registry.h"

namespace {

int write_cubin(const char* out, const jitgemm::AnyConfig& config, const jitgemm::Problem& p, const char* arch) {
    using namespace jitgemm;
    try {
        const KernelProgram program = kernel_program(config, p, arch);
        const Cubin cubin = compile_to_cubin(program);
        std::ofstream(out, std::ios::binary) << cubin.image;
        std::printf("%s: %zu bytes, %.2f s (%s)\n", out, cubin.image.size(), cubin.seconds,
                    program.file_name.c_str());
        // The NVRTC options, so that the same program can be compiled again from a changed copy of the sources.
        std::printf("options:");
        for (const std::string& option : program.options) std::printf(" %s", option.c_str());
        std::printf("\n");
        // The compiler's warnings (ptxas's C7510, a serialized wgmma pipeline, among them).
        if (!cubin.log.empty()) std::printf("log:\n%s\n", cubin.log.c_str());
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace jitgemm;
    if (argc == 6 && std::string(argv[3]) == "--key") {
        const auto p = Problem::parse_key(argv[4]);
        const auto config = parse_config(argv[5]);
        if (!p || !config) {
            std::fprintf(stderr, "not a problem key of this version or not a configuration\n");
            return 2;
        }
        return write_cubin(argv[1], *config, *p, argv[2]);
    }
    if (argc < 9 || argc > 12) {
        std::fprintf(stderr,
                     "usage: dump_cubin OUT.cubin ARCH M N K TRANSA TRANSB CONFIG [DTYPE [COMPUTE [RUNTIME]]]\n"
                     "       dump_cubin OUT.cubin ARCH --key PROBLEM_KEY CONFIG\n");
        return 2;
    }
    const auto types = parse_types(argc > 9 ? argv[9] : "f32");
    const auto compute = parse_compute_type(argc > 10 ? argv[10] : "f32");
    if (!types || !compute) {
        std::fprintf(stderr, "DTYPE is f32, f16 or bf16 (C's after a colon: bf16:f32) and COMPUTE f32 or tf32\n");
        return 2;
    }
    Problem p = bench_problem(std::atoll(argv[3]), std::atoll(argv[4]), std::atoll(argv[5]),
                              argv[6][0] == 't' ? Transpose::Yes : Transpose::No,
                              argv[7][0] == 't' ? Transpose::Yes : Transpose::No, *types, *compute);
    if (argc > 11) {
        const std::string runtime = argv[11];
        if (runtime != "m" && runtime != "n") {
            std::fprintf(stderr, "RUNTIME is m or n\n");
            return 2;
        }
        p.runtime_dim = runtime == "m" ? 1 : 2;
    }
    const auto config = parse_config(argv[8]);
    if (!config) {
        std::fprintf(stderr, "not a configuration: %s\n", argv[8]);
        return 2;
    }
    return write_cubin(argv[1], *config, p, argv[2]);
}
