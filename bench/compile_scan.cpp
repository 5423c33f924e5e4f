// Compiles every candidate the search would consider for a problem — each family's enumeration and, with
// --refinements, the refinements of each — for an H200 (sm_90a) or an A100 (sm_80), without a GPU, and lists those
// whose kernel ptxas spilled to local memory or whose wgmma pipeline it serialized: candidates a search compiles and
// then throws away (session 21 found four defects so: _ts and stream-K kernels that spilled, TF32 tiles ptxas
// serialized, which the families now avoid or refuse).
//   compile_scan h200|a100 M N K TRANSA TRANSB DTYPE [COMPUTE [FAMILY [--refinements] [--all]]]
//   e.g. compile_scan h200 4096 4096 4096 n n bf16 f32 wgmma --refinements
//        compile_scan a100 4096 4096 4096 n n f32 tf32 mma_sync
// Column-major, minimum leading dimensions, alpha 1 and beta 0. FAMILY "all" (the default) scans every family.
// --all lists every candidate, with the registers ptxas used.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bench_problem.h"
#include "jitgemm/error.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "support/device_profiles.h"
#include "tuner/families/registry.h"

int main(int argc, char** argv) {
    using namespace jitgemm;
    if (argc < 8 || argc > 12) {
        std::fprintf(stderr, "usage: compile_scan h200|a100 M N K TRANSA TRANSB DTYPE [COMPUTE [FAMILY "
                             "[--refinements] [--all]]]\n");
        return 2;
    }
    const std::string gpu = argv[1];
    const auto dtype = parse_dtype(argv[7]);
    const auto compute = parse_compute_type(argc > 8 ? argv[8] : "f32");
    if ((gpu != "h200" && gpu != "a100") || !dtype || !compute) {
        std::fprintf(stderr, "the GPU is h200 or a100, DTYPE f32, f16 or bf16, COMPUTE f32 or tf32\n");
        return 2;
    }
    const DeviceInfo device = gpu == "h200" ? testing::h200_profile() : testing::a100_profile();
    const std::string arch = gpu == "h200" ? "sm_90a" : "sm_80";
    const std::string family = argc > 9 ? argv[9] : "all";
    bool with_refinements = false, list_all = false;
    for (int i = 10; i < argc; ++i) {
        if (std::strcmp(argv[i], "--refinements") == 0) with_refinements = true;
        else if (std::strcmp(argv[i], "--all") == 0) list_all = true;
        else {
            std::fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }

    const Problem p = bench_problem(std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]),
                                    argv[5][0] == 't' ? Transpose::Yes : Transpose::No,
                                    argv[6][0] == 't' ? Transpose::Yes : Transpose::No, *dtype, *compute);

    // The candidates the search could compile: valid on the device, each name once.
    std::vector<AnyConfig> candidates;
    std::set<std::string> names;
    const auto consider = [&](const AnyConfig& c) {
        if (family != "all" && family_name(c) != family) return;
        if (!validate(c, p, device) && names.insert(to_string(c)).second) candidates.push_back(c);
    };
    for (const AnyConfig& c : enumerate_candidates(p, device)) {
        consider(c);
        if (with_refinements)
            for (const AnyConfig& r : refinements(c, p, device)) consider(r);
    }
    std::printf("%zu candidates of %s for %s on %s\n", candidates.size(), family.c_str(), p.key().c_str(),
                arch.c_str());

    // NVRTC is thread-safe: a compile per core at a time, reported in order.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    // One candidate's outcome: whether it spilled, was serialized or did not compile, and its line.
    struct Outcome {
        bool bad = false;
        std::string line;
    };
    std::vector<std::future<Outcome>> results;
    int failed = 0;
    std::size_t reported = 0;
    const auto report = [&](std::size_t upto) {
        for (; reported < upto; ++reported) {
            const Outcome outcome = results[reported].get();
            failed += outcome.bad ? 1 : 0;
            if (outcome.bad || list_all) std::printf("%s\n", outcome.line.c_str());
        }
    };
    for (const AnyConfig& c : candidates) {
        KernelProgram program = kernel_program(c, p, arch);
        program.options.push_back("--ptxas-options=-v");
        results.push_back(std::async(std::launch::async, [program] {
            try {
                const Cubin cubin = compile_to_cubin(program);
                const PtxasResources resources = ptxas_resources(cubin.log).value_or(PtxasResources{-1, -1});
                const int spilled = resources.spilled_bytes;
                const bool serialized = serialization_warning(cubin.log).has_value();
                const bool clean = spilled == 0 && !serialized;
                return Outcome{!clean, program.config_name + ": " + std::to_string(resources.registers) +
                                           " registers" +
                                           (spilled != 0 ? ", " + std::to_string(spilled) + " bytes spilled"
                                                         : std::string()) +
                                           (serialized ? ", wgmma serialized" : "") + (clean ? ", clean" : "")};
            } catch (const Error& e) {
                return Outcome{true, program.config_name + ": did not compile: " + e.what()};
            }
        }));
        if (results.size() >= reported + cores) report(results.size() - cores + 1);
    }
    report(results.size());
    std::printf("%d of %zu candidates spilled, were serialized or did not compile\n", failed, candidates.size());
    return 0;
}
