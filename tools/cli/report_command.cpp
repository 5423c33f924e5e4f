// `jitgemm report`: the roofline page of a cache, of bench files, or of both (tools/report). Needs no GPU.
#include <filesystem>
#include <iostream>
#include <memory>

#include "cache/tuning_cache.h"
#include "jitgemm/error.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/option_parsing.h"
#include "tools/cli/output_file.h"
#include "tools/report/report_inputs.h"
#include "tools/report/roofline_report.h"

namespace jitgemm::cli {

namespace po = boost::program_options;

int report_command(const std::vector<std::string>& args) {
    po::options_description options;
    options.add_options()
        ("cache", po::value<std::string>(), "the cache file (default: the user's cache; with --bench alone, none)")
        ("bench", po::value<std::vector<std::string>>()->composing(),
         "output of `jitgemm bench --csv` or `--json` (repeatable): jitgemm and cuBLAS on the same data")
        ("device", po::value<std::string>()->default_value(""),
         "the device, by a part of its fingerprint, when the cache holds several")
        ("output", po::value<std::string>()->default_value("jitgemm-report.html"), "the HTML file to write")
        ("force", "replace the output file if it exists");
    int exit_code = kExitOk;
    const auto parsed = parse_options(
        "report", "usage: jitgemm report [--cache FILE] [--bench FILE ...] [--output FILE]\n"
                  "One self-contained HTML page: each problem on the device's roofline (arithmetic intensity against\n"
                  "TFLOP/s), jitgemm beside cuBLAS where a bench file measured both, and a sortable table.",
        options, args, exit_code);
    if (!parsed) return exit_code;
    const po::variables_map& vm = *parsed;
    const std::string output = vm["output"].as<std::string>();
    const bool force = vm.count("force") > 0;
    check_output_file(output, force);
    const std::vector<std::string> bench =
        vm.count("bench") ? vm["bench"].as<std::vector<std::string>>() : std::vector<std::string>{};

    // The cache: the one named, else the user's when it exists (bench files alone need none).
    std::unique_ptr<cache::TuningCache> file;
    const std::string path = vm.count("cache") ? vm["cache"].as<std::string>() : cache::default_cache_path();
    std::error_code ignored;
    if (vm.count("cache") || std::filesystem::exists(path, ignored))
        file = cache::TuningCache::open(path, cache::TuningCache::Access::ReadOnly);
    else if (bench.empty())
        throw Error(ErrorCode::InvalidArgument, "jitgemm report: there is no tuning cache at " + path +
                                                    " yet, and no --bench file: nothing to show");

    const report::ReportData data = report::collect_report(file.get(), bench, vm["device"].as<std::string>());
    write_output_file(output, report::render_html(data), force);
    std::size_t with_cublas = 0;
    for (const auto& p : data.points) with_cublas += p.cublas_ms ? 1 : 0;
    std::cout << "wrote " << output << ": " << data.points.size() << " problems on " << data.device << " ("
              << with_cublas << " beside cuBLAS); ceilings " << data.ceilings_source << "\n";
    return kExitOk;
}

}  // namespace jitgemm::cli
