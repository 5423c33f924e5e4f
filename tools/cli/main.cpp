// The `jitgemm` program: dispatches to a subcommand and turns errors into messages and exit codes.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "jitgemm/jitgemm.h"

namespace {

void print_usage(std::ostream& out) {
    out << "jitgemm " << jitgemm::version() << " — GEMM kernels specialized and compiled at run time\n\n"
        << "usage: jitgemm <command> [options]     (jitgemm <command> --help for its options)\n\n"
        << "commands:\n"
        << "  info      the GPU, its limits, and the versions of jitgemm, NVRTC and the driver\n"
        << "  run       run, verify and time one GEMM given on the command line\n"
        << "  tune      tune problems (flags or a shape manifest) into a cache: pre-warming, sharding, several GPUs\n"
        << "  bench     jitgemm against cuBLAS on the same data, with roofline figures\n"
        << "  cache     list, show, export, import, merge, doctor, prune the tuning cache; untuned problems\n"
        << "  configs   the kernel families and the names of their configurations\n"
        << "  report    an HTML page of the roofline: each tuned or benched problem, beside cuBLAS\n"
        << "  help CMD  the options of a command (also: jitgemm CMD --help)\n\n"
        << "exit codes: 0 ok, 1 failed, 2 usage, 3 no CUDA driver or device, 130 stopped by Ctrl-C (tune: after\n"
        << "the searches under way, whose results are kept)\n";
}

}  // namespace

int main(int argc, char** argv) {
    using namespace jitgemm::cli;
    if (argc < 2) {
        print_usage(std::cerr);
        return kExitUsage;
    }
    std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    if (command == "help" && !args.empty()) {
        // "help CMD [SUB]" is "CMD [SUB] --help".
        command = args.front();
        args.erase(args.begin());
        args.push_back("--help");
    } else if (command == "--help" || command == "-h" || command == "help") {
        print_usage(std::cout);
        return kExitOk;
    }
    if (command == "--version") {
        std::cout << jitgemm::version() << "\n";
        return kExitOk;
    }
    try {
        if (command == "info") return info_command(args);
        if (command == "run") return run_command(args);
        if (command == "configs") return configs_command(args);
        if (command == "tune") return tune_command(args);
        if (command == "bench") return bench_command(args);
        if (command == "cache") return cache_command(args);
        if (command == "report") return report_command(args);
    } catch (const jitgemm::Error& e) {
        std::cerr << e.what() << "\n";
        const bool no_gpu = e.code() == jitgemm::ErrorCode::NoDriver || e.code() == jitgemm::ErrorCode::NoDevice;
        const int exit_code =
            no_gpu ? kExitNoGpu : e.code() == jitgemm::ErrorCode::InvalidArgument ? kExitUsage : kExitFailed;
        // A program reading --json output gets an object even when the command failed.
        if (std::find(args.begin(), args.end(), "--json") != args.end()) {
            const nlohmann::ordered_json failure = {
                {"error", e.what()}, {"code", std::string(jitgemm::to_string(e.code()))}, {"exit", exit_code}};
            std::cout << failure.dump(1) << "\n";
        }
        return exit_code;
    } catch (const std::exception& e) {
        std::cerr << "jitgemm: " << e.what() << "\n";
        return kExitFailed;
    }
    std::cerr << "jitgemm: unknown command \"" << command << "\"\n\n";
    print_usage(std::cerr);
    return kExitUsage;
}
