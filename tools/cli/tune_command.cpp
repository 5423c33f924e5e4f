// `jitgemm tune`: pre-warms a tuning cache from one problem or a shape manifest — merged, ordered by
// frequency x estimated time, optionally one shard of it, over one or several GPUs of this host (one worker each),
// resumable (problems already tuned completely are skipped; an interrupted search continues where it stopped).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cache/cache_stack.h"
#include "dispatch/runtime_shape_variant.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/interrupt.h"
#include "tools/cli/option_parsing.h"
#include "tools/cli/problem_options.h"
#include "tools/cli/problem_plan.h"
#include "tools/cli/tune_progress.h"
#include "runtime/device/device_info.h"
#include "runtime/device/roofline.h"
#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/jitgemm.h"
#include "tuner/search_provenance.h"
#include "tuner/search_turns.h"
#include "dispatch/tuning_policy.h"
#include "tuner/tuner.h"

namespace jitgemm::cli {
namespace {

namespace po = boost::program_options;

// "all" or a comma-separated list of device ordinals.
std::vector<int> parse_devices(const std::string& text, int available) {
    std::vector<int> devices;
    if (text == "all") {
        for (int d = 0; d < available; ++d) devices.push_back(d);
        return devices;
    }
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        std::size_t used = 0;
        int d = -1;
        try {
            d = std::stoi(item, &used);
        } catch (const std::exception&) {
        }
        if (used != item.size() || d < 0 || d >= available)
            throw Error(ErrorCode::InvalidArgument, "jitgemm: --devices \"" + text + "\": \"" + item +
                                                        "\" is not a device of this machine (0.." +
                                                        std::to_string(available - 1) + ")");
        devices.push_back(d);
    }
    if (devices.empty()) throw Error(ErrorCode::InvalidArgument, "jitgemm: --devices names no device");
    return devices;
}

struct ProblemOutcome {
    std::string name, key, config, status;  // status: tuned, already-tuned, no-winner, failed
    double ms = 0.0, tflops = 0.0, seconds = 0.0;
    int measured = 0, total = 0, compiles = 0, device = 0, ruled_out = 0;
    bool complete = false;
    std::string detail;
    std::string variant;  // tune --m FIRST-LAST: whether the winner's run-time-shape variant was stored
    SearchTimes times;
};

// For a range of M (tune --m FIRST-LAST): compiles the run-time-shape variant of the winner and keeps its binary in
// the cache, so that every M of the layer between the tuned ones is served without a compile; and those of the
// measured candidates expected fastest at sizes around this one (neighbour_variants), which serving weighs against
// the winners by their measured times. The run-time size is the caller's M: the kernel's m for column-major calls,
// its n for row-major ones (folded to C^T = B^T A^T).
std::string store_runtime_variant(const PlannedProblem& p, const std::string& config_name, double winner_ms,
                                  const std::vector<cache::MeasurementRecord>& measured, const DeviceInfo& device,
                                  const cache::CacheStack& stack) {
    const std::uint8_t dim = p.entry.layout_c == Order::ColumnMajor ? 1 : 2;
    const auto config = parse_config(config_name);
    if (!config) return "no run-time variant (" + config_name + " is not a configuration of this build)";
    const std::string name = "run-time-" + std::string(dim == 1 ? "m" : "n");
    // Each variant is stored as the winner's is: compiled, checked against the reference, kept only then.
    std::string said;
    if (const auto rejection = validate(*config, p.problem.with_runtime_dim(dim), device)) {
        said = "no run-time variant of " + config_name + " (" + rejection->reason + "): nearer sizes lend theirs";
    } else {
        try {
            said = runtime_shape_kernel(*config, p.problem, dim, device, stack, true)
                       ? "its " + name + " variant stored"
                       : "its run-time variant computed unlike the reference: not stored";
        } catch (const Error& e) {
            said = "its run-time variant failed: " + std::string(e.what());
        }
    }
    int neighbours = 0, failed = 0;
    for (const AnyConfig& other : neighbour_variants(p.problem, dim, *config, winner_ms, measured, device)) {
        try {
            (runtime_shape_kernel(other, p.problem, dim, device, stack, true) ? neighbours : failed) += 1;
        } catch (const Error&) {  // a compile that failed: the winner's variant still serves
            ++failed;
        }
    }
    if (neighbours > 0) said += "; and " + std::to_string(neighbours) + " of candidates faster at sizes around";
    if (failed > 0) said += " (" + std::to_string(failed) + " such failed their check or compile: not stored)";
    return said;
}

std::string joined_names(const PlannedProblem& p) {
    std::string names;
    for (const auto& n : p.names) names += (names.empty() ? "" : "+") + n;
    return names;
}

}  // namespace

int tune_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_problem_options(options);
    options.add_options()
        ("budget", po::value<double>()->default_value(10.0), "wall-clock seconds per problem")
        ("cache", po::value<std::string>(), "the cache file to write (default: the user's cache; with --shard, "
                                            "jitgemm-shard-<i>-of-<N>.sqlite in the current directory)")
        ("devices", po::value<std::string>()->default_value("0"), "GPUs to tune on at once: all, or e.g. 0,1,3")
        ("shard", po::value<std::string>(), "tune only shard i of N of the problems, e.g. 3/8 (0-based)")
        ("force", "tune again problems the cache already holds a complete search for")
        ("runtime-variants", "also store each winner's run-time-shape variant (implied by an --m range), which serves "
                             "the other sizes of its layer along the caller's M without compiling")
        ("json", "print the results as JSON on stdout")
        ("verbose", "log every stage of every search");
    int exit_code = kExitOk;
    const auto parsed = parse_options(
        "tune",
        "usage: jitgemm tune (--manifest FILE | --m M --n N --k K [...]) [--budget S] [--cache FILE] "
        "[--devices LIST] [--shard i/N]\nTunes problems into the cache, so later runs serve them without compiling.",
        options, args, exit_code);
    if (!parsed) return exit_code;
    const po::variables_map& vm = *parsed;

    // Everything about the input is checked before the GPU is touched: nothing is tuned from a half-read manifest.
    const std::vector<ManifestEntry> entries = problem_entries(vm);
    const bool store_variants = m_is_range(vm) || vm.count("runtime-variants") > 0;
    check_entries(entries);
    std::optional<std::pair<int, int>> shard;
    if (vm.count("shard")) {
        shard = parse_shard(vm["shard"].as<std::string>());
        shard_of({}, shard->first, shard->second);  // checks the range
    }
    const double budget = vm["budget"].as<double>();
    if (!(budget > 0)) throw Error(ErrorCode::InvalidArgument, "jitgemm: --budget must be a positive number");

    const auto& cu = driver::api();
    int available = 0;
    JITGEMM_CU_CHECK(cu.cuDeviceGetCount(&available));
    const std::vector<int> devices = parse_devices(vm["devices"].as<std::string>(), available);
    const DeviceInfo& first_device = cached_device_info(devices.front());
    for (int d : devices)
        if (cached_device_info(d).fingerprint() != first_device.fingerprint())
            std::cerr << "jitgemm tune: note: devices differ (" << cached_device_info(d).fingerprint() << " vs "
                      << first_device.fingerprint() << "); each problem is tuned for the device that takes it\n";
    std::vector<PlannedProblem> plan = plan_problems(entries, first_device);
    if (shard) plan = shard_of(plan, shard->first, shard->second);

    std::string cache_path;
    if (vm.count("cache")) cache_path = vm["cache"].as<std::string>();
    else if (shard)
        cache_path = "jitgemm-shard-" + std::to_string(shard->first) + "-of-" + std::to_string(shard->second) +
                     ".sqlite";
    else cache_path = cache::default_cache_path();
    auto writable = cache::TuningCache::open(cache_path, cache::TuningCache::Access::ReadWrite);
    writable->set_lock_wait_ms(cache::TuningCache::kBulkLockWaitMs);  // other tuners and imports share the file
    const cache::CacheStack stack(std::move(writable), {});

    std::cerr << "jitgemm tune: " << plan.size() << " problems (" << entries.size() << " manifest entries"
              << (shard ? ", shard " + std::to_string(shard->first) + "/" + std::to_string(shard->second) : "")
              << ") on " << devices.size() << (devices.size() == 1 ? " GPU" : " GPUs") << ", budget " << budget
              << " s each, into " << cache_path << "\n";

    TuneProgressDisplay display(static_cast<int>(plan.size()), static_cast<int>(devices.size()),
                                isatty(STDERR_FILENO) != 0 && !vm.count("verbose"));
    std::vector<ProblemOutcome> outcomes(plan.size());
    std::atomic<std::size_t> next{0};
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const Twins search_twins = search_twins_from_environment();  // a bad value fails before any search
    const double timing_precision = timing_precision_from_environment();
    const double refine_within = refine_within_from_environment();
    auto worker = [&](int slot, int ordinal) {
        const CUcontext context = driver::primary_context(ordinal);
        JITGEMM_CU_CHECK(driver::api().cuCtxSetCurrent(context));
        const DeviceInfo& device = cached_device_info(ordinal);
        for (std::size_t i = next++; i < plan.size() && !interrupted(); i = next++) {
            const PlannedProblem& p = plan[i];
            ProblemOutcome& out = outcomes[i];
            out.name = joined_names(p);
            out.key = p.problem.key();
            out.device = ordinal;
            // Another process tuning this problem into the same cache goes first; its result then counts as ours.
            const auto wait = std::chrono::milliseconds(static_cast<std::int64_t>((2 * budget + 600) * 1000));
            const std::optional<Turn> turn = take_search_turn(stack, device, p.problem, wait);
            if (!turn) {
                out.status = "failed";
                out.detail = "another process was still tuning it after " + std::to_string(wait.count() / 1000) + " s";
                display.finished(slot, out.name + ": " + out.detail);
                continue;
            }
            const auto existing = stack.writable()->find_selection(device.fingerprint(), out.key,
                                                                    search_provenance(p.problem, device));
            if (existing && existing->search_complete && !vm.count("force")) {
                out.status = "already-tuned";
                out.config = existing->config;
                out.ms = existing->time_ms;
                out.tflops = existing->tflops;
                out.complete = true;
                if (store_variants)
                    out.variant = store_runtime_variant(
                        p, out.config, existing->time_ms,
                        stack.measurements(device.fingerprint(), out.key, search_provenance(p.problem, device)),
                        device, stack);
                display.finished(slot, out.name + ": already tuned (" + existing->config + ")" +
                                           (out.variant.empty() ? "" : "; " + out.variant));
                continue;
            }
            display.started(slot, out.name);
            TuneOptions tune;
            tune.budget_seconds = budget;
            tune.verbose = vm.count("verbose") > 0;
            tune.compile_threads = std::max(1u, cores / static_cast<unsigned>(devices.size()));
            tune.twins = search_twins;
            tune.timing.precision = timing_precision;
            tune.refine_within = refine_within;
            tune.on_progress = [&display, slot](const TuneProgress& progress) { display.progress(slot, progress); };
            try {
                const TuneResult r = tune_problem(p.problem, device, context, tune, stack);
                out.status = r.winner ? "tuned" : "no-winner";
                out.config = r.winner ? to_string(*r.winner) : "";
                out.ms = r.winner_ms;
                out.tflops = r.winner ? problem_flops(p.problem) / (r.winner_ms * 1e-3) / 1e12 : 0;
                out.seconds = r.seconds;
                out.measured = r.candidates_measured;
                out.total = r.candidates_total;
                out.compiles = r.compiles;
                out.complete = r.complete;
                out.ruled_out = r.ruled_out;
                out.detail = r.pruning.describe();
                out.times = r.times;
                if (store_variants && r.winner)
                    out.variant = store_runtime_variant(p, out.config, r.winner_ms, r.measurements, device, stack);
            } catch (const Error& e) {
                out.status = "failed";
                out.detail = e.what();
            }
            std::ostringstream line;
            line << out.name << " (" << p.entry.m << "x" << p.entry.n << "x" << p.entry.k << "): ";
            if (out.status == "tuned")
                line << out.config << " " << std::fixed << std::setprecision(3) << out.ms << " ms, "
                     << std::setprecision(1) << out.tflops << " TFLOP/s; " << out.measured << "/" << out.total
                     << " candidates"
                     << (out.ruled_out > 0 ? " (complete: " + std::to_string(out.ruled_out) + " more ruled out by the "
                                             "measured cost model)"
                                           : out.complete ? " (complete)" : " (budget reached)")
                     << ", " << out.compiles
                     << " compiles, " << out.seconds << " s" << (out.variant.empty() ? "" : "; " + out.variant);
            else
                line << out.status << ": " << out.detail;
            display.finished(slot, line.str());
        }
    };
    stop_after_current_work_on_interrupt();
    std::vector<std::thread> workers;
    for (std::size_t w = 0; w < devices.size(); ++w)
        workers.emplace_back([&, w] {
            try {
                worker(static_cast<int>(w), devices[w]);
            } catch (const std::exception& e) {
                std::cerr << "jitgemm tune: worker on GPU " << devices[w] << " stopped: " << e.what() << "\n";
            }
        });
    for (auto& t : workers) t.join();
    display.close();

    int failed = 0;
    for (const auto& o : outcomes) failed += (o.status == "tuned" || o.status == "already-tuned") ? 0 : 1;
    if (vm.count("json")) {
        nlohmann::ordered_json out = {{"cache", cache_path}, {"problems", nlohmann::ordered_json::array()}};
        for (const auto& o : outcomes)
            out["problems"].push_back({{"name", o.name}, {"key", o.key},
                                       {"status", o.status.empty() ? "not-run" : o.status}, {"device", o.device},
                                       {"config", o.config}, {"time_ms", o.ms}, {"tflops", o.tflops},
                                       {"seconds", o.seconds}, {"candidates_measured", o.measured},
                                       {"candidates_total", o.total}, {"search_complete", o.complete},
                                       {"candidates_ruled_out", o.ruled_out},
                                       {"compiles", o.compiles}, {"detail", o.detail},
                                       {"times", {{"setup", o.times.setup}, {"ranking", o.times.ranking},
                                                  {"compile_wait", o.times.compile_wait},
                                                  {"draining", o.times.draining},
                                                  {"measuring", o.times.measuring},
                                                  {"finalists", o.times.finalists},
                                                  {"recording", o.times.recording},
                                                  {"nvrtc_seconds", o.times.nvrtc_seconds},
                                                  {"compile_threads", o.times.compile_threads}}},
                                       {"runtime_variant", o.variant}});
        std::cout << out.dump(1) << "\n";
    }
    std::cerr << "jitgemm tune: " << (outcomes.size() - failed) << " of " << outcomes.size() << " problems tuned into "
              << cache_path << (interrupted() ? " (stopped by Ctrl-C; run the same command again to go on)" : "")
              << "\n";
    if (interrupted()) return kExitInterrupted;
    return failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace jitgemm::cli
