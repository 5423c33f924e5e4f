// `jitgemm cache`: the tuning cache as data an operator manages — list and show entries, export a subset as a
// bundle to ship, import or merge bundles (nothing of another device or version is ever dropped), check a file
// (integrity, staleness for this machine, coverage of a manifest), prune by explicit rules, and write the problems
// served untuned as a manifest for `jitgemm tune`.
#include <ctime>
#include <fstream>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <map>

#include <nlohmann/json.hpp>

#include "cache/cache_doctor.h"
#include "cache/cache_transfer.h"
#include "cache/tuning_cache.h"
#include "tools/manifest/json_manifest.h"
#include "tools/cli/commands.h"
#include "tuner/search_provenance.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/output_file.h"
#include "tools/cli/option_parsing.h"
#include "tools/cli/problem_plan.h"
#include "runtime/device/device_info.h"
#include "runtime/compile/provenance.h"
#include "runtime/driver/cuda_driver.h"
#include "jitgemm/error.h"
#include "tools/manifest/shape_manifest.h"
#include "runtime/problem/problem.h"

namespace jitgemm::cli {
namespace {

namespace po = boost::program_options;
using cache::TuningCache;

// The running system, when this machine has a GPU: what "current" and "stale" are judged against.
struct RunningSystem {
    std::string fingerprint;
    cache::Provenance provenance;      // for display: its sources hash differs problem by problem
    cache::CurrentProvenance current;  // what each problem's entries must carry
};

std::optional<RunningSystem> running_system() {
    if (!driver::is_available()) return std::nullopt;
    const DeviceInfo& device = cached_device_info(0);
    return RunningSystem{device.fingerprint(), current_provenance(device, "(per problem)"),
                         current_search_provenance(device)};
}

std::string cache_path(const po::variables_map& vm) {
    return vm.count("cache") ? vm["cache"].as<std::string>() : cache::default_cache_path();
}

// The cache a read-only subcommand reads. The user's default cache that does not exist yet (a fresh machine) reads
// as empty, with a note; a file named with --cache must exist.
std::unique_ptr<TuningCache> open_for_reading(const po::variables_map& vm) {
    const std::string path = cache_path(vm);
    std::error_code ignored;
    if (!vm.count("cache") && !std::filesystem::exists(path, ignored)) {
        std::cerr << "jitgemm cache: there is no tuning cache at " << path << " yet; reading it as empty\n";
        return TuningCache::empty(path);
    }
    return TuningCache::open(path, TuningCache::Access::ReadOnly);
}

void add_cache_option(po::options_description& options) {
    options.add_options()("cache", po::value<std::string>(), "the cache file (default: the user's cache)");
}

void add_filter_options(po::options_description& options) {
    options.add_options()
        ("device", po::value<std::string>()->default_value(""), "only devices whose fingerprint contains this")
        ("dtype", po::value<std::string>()->default_value(""), "only problems of this dtype prefix, e.g. f32")
        ("shape", po::value<std::string>()->default_value(""), "only problems of this MxNxK (canonical, column-major)")
        ("problem", po::value<std::string>()->default_value(""), "only problem keys containing this");
}

cache::SelectionFilter filter_of(const po::variables_map& vm) {
    cache::SelectionFilter f;
    f.device = vm["device"].as<std::string>();
    f.dtype = vm["dtype"].as<std::string>();
    f.shape = vm["shape"].as<std::string>();
    f.problem = vm["problem"].as<std::string>();
    return f;
}

std::string provenance_text(const cache::Provenance& p) {
    return "jitgemm " + p.library_version + ", sources " + p.kernel_sources_hash + ", NVRTC " + p.nvrtc_version +
           ", driver " + p.driver_version;
}

std::string date_text(std::int64_t unix_time) {
    char text[32];
    const std::time_t t = static_cast<std::time_t>(unix_time);
    std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M", std::gmtime(&t));
    return text;
}

// "current", "stale" (this device, other provenance) or "-" (another device, or no GPU to judge by).
std::string standing(const cache::SelectionRecord& s, const std::optional<RunningSystem>& running) {
    if (!running || s.device_fingerprint != running->fingerprint) return "-";
    return running->current.is_current(s.problem_key, s.provenance) ? "current" : "stale";
}

int list_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_cache_option(options);
    add_filter_options(options);
    options.add_options()("json", "print JSON");
    int exit_code = kExitOk;
    const auto vm = parse_options("cache list", "usage: jitgemm cache list [filters] [--cache FILE] [--json]",
                                  options, args, exit_code);
    if (!vm) return exit_code;
    const auto file = open_for_reading(*vm);
    const cache::SelectionFilter filter = filter_of(*vm);
    const auto running = running_system();
    std::vector<cache::SelectionRecord> shown;
    for (auto& s : file->all_selections())
        if (filter.matches(s)) shown.push_back(s);
    if (vm->count("json")) {
        nlohmann::ordered_json out = {{"cache", file->path()}, {"selections", nlohmann::ordered_json::array()}};
        for (const auto& s : shown)
            out["selections"].push_back({{"device", s.device_fingerprint}, {"problem", s.problem_key},
                                         {"config", s.config}, {"time_ms", s.time_ms}, {"tflops", s.tflops},
                                         {"search_complete", s.search_complete}, {"tuned_at", s.tuned_at_unix},
                                         {"provenance", provenance_text(s.provenance)},
                                         {"standing", standing(s, running)}});
        std::cout << out.dump(1) << "\n";
        return kExitOk;
    }
    std::cout << file->path() << ": " << shown.size() << " of " << file->all_selections().size() << " selections\n";
    for (const auto& s : shown)
        std::cout << std::left << std::setw(28) << s.device_fingerprint << " " << std::setw(73) << s.problem_key << " "
                  << std::setw(36) << s.config << std::right << std::fixed << std::setprecision(3) << std::setw(10)
                  << s.time_ms << " ms " << std::setprecision(1) << std::setw(7) << s.tflops << " TFLOP/s "
                  << (s.search_complete ? "complete  " : "incomplete") << " " << date_text(s.tuned_at_unix) << " "
                  << standing(s, running) << " (" << provenance_text(s.provenance) << ")\n";
    return kExitOk;
}

// One selection of `cache show --json`: the winner, its search, and every candidate measured.
nlohmann::ordered_json selection_json(const TuningCache& file, const cache::SelectionRecord& s) {
    nlohmann::ordered_json out = {{"problem", s.problem_key}, {"device", s.device_fingerprint}, {"config", s.config},
                          {"time_ms", s.time_ms}, {"tflops", s.tflops}, {"cubin", s.cubin_key},
                          {"candidates_measured", s.candidates_measured}, {"candidates_total", s.candidates_total},
                          {"search_complete", s.search_complete}, {"search_seconds", s.search_seconds},
                          {"tuned_at", s.tuned_at_unix}, {"provenance", provenance_text(s.provenance)},
                          {"candidates", nlohmann::ordered_json::array()}};
    auto measurements = file.measurements(s.device_fingerprint, s.problem_key, s.provenance);
    std::stable_sort(measurements.begin(), measurements.end(), [](const auto& x, const auto& y) {
        const bool xp = x.outcome == cache::CandidateOutcome::Passed, yp = y.outcome == cache::CandidateOutcome::Passed;
        return xp != yp ? xp : xp && x.time_ms < y.time_ms;
    });
    for (const auto& m : measurements)
        out["candidates"].push_back({{"config", m.config}, {"outcome", std::string(to_string(m.outcome))},
                                     {"time_ms", m.time_ms}, {"detail", m.detail}});
    return out;
}

int show_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_cache_option(options);
    options.add_options()("key", po::value<std::string>()->required(), "problem key (or a part of it)")(
        "all", "every candidate the search measured, fastest first, then the ones that failed and why")(
        "json", "print JSON (every candidate, as with --all)");
    po::positional_options_description positional;
    positional.add("key", 1);
    int exit_code = kExitOk;
    const auto vm = parse_options("cache show", "usage: jitgemm cache show KEY [--all] [--json] [--cache FILE]",
                                  options, args, exit_code, &positional);
    if (!vm) return exit_code;
    const auto file = open_for_reading(*vm);
    const std::string key = (*vm)["key"].as<std::string>();
    int shown = 0;
    const bool json = vm->count("json") > 0;
    nlohmann::ordered_json out = {{"cache", file->path()}, {"selections", nlohmann::ordered_json::array()}};
    for (const auto& s : file->all_selections()) {
        if (s.problem_key.find(key) == std::string::npos) continue;
        ++shown;
        if (json) {
            out["selections"].push_back(selection_json(*file, s));
            continue;
        }
        std::cout << "problem   " << s.problem_key << "\ndevice    " << s.device_fingerprint << "\nwinner    "
                  << s.config << ": " << s.time_ms << " ms, " << s.tflops << " TFLOP/s (cubin " << s.cubin_key
                  << ")\nsearch    " << s.candidates_measured << "/" << s.candidates_total << " candidates, "
                  << (s.search_complete ? "complete" : "incomplete") << ", " << s.search_seconds << " s, "
                  << date_text(s.tuned_at_unix) << "\nmade by   " << provenance_text(s.provenance) << "\n";
        std::map<std::string, int> outcomes;
        std::vector<std::pair<double, std::string>> passed;
        std::vector<const cache::MeasurementRecord*> failed;
        const auto measurements = file->measurements(s.device_fingerprint, s.problem_key, s.provenance);
        for (const auto& m : measurements) {
            ++outcomes[std::string(to_string(m.outcome))];
            if (m.outcome == cache::CandidateOutcome::Passed) passed.emplace_back(m.time_ms, m.config);
            else failed.push_back(&m);
        }
        std::cout << "outcomes ";
        for (const auto& [name, count] : outcomes) std::cout << " " << name << " " << count;
        std::sort(passed.begin(), passed.end());
        if (vm->count("all")) {
            std::cout << "\nmeasured\n";
            for (const auto& [ms, config] : passed) std::cout << "  " << std::left << std::setw(40) << config << " " << ms << " ms\n";
            for (const auto* m : failed)
                std::cout << "  " << std::left << std::setw(40) << m->config << " " << to_string(m->outcome) << ": "
                          << m->detail << "\n";
            std::cout << "\n";
            continue;
        }
        std::cout << "\nfastest  ";
        for (std::size_t i = 0; i < passed.size() && i < 5; ++i)
            std::cout << (i ? ", " : " ") << passed[i].second << " " << passed[i].first << " ms";
        std::cout << "\n\n";
    }
    if (json) std::cout << out.dump(1) << "\n";
    if (shown == 0) {
        std::cerr << "jitgemm cache show: no selection in " << file->path() << " matches \"" << key << "\"\n";
        return kExitFailed;
    }
    return kExitOk;
}

// The records of `source` a transfer refused, on stderr: they were not copied, and nothing in the target changed
// because of them.
void warn_rejections(const std::string& source, const cache::TransferReport& report) {
    for (const std::string& rejection : report.rejections)
        std::cerr << "jitgemm: warning: not copied from " << source << ": " << rejection << "\n";
}

// What a transfer (export, import, merge) did, for --json.
nlohmann::ordered_json transfer_json(const cache::TransferReport& r) {
    return {{"selections_added", r.selections_added}, {"selections_replaced", r.selections_replaced},
            {"selections_kept", r.selections_kept}, {"cubins_added", r.cubins_added},
            {"cubins_repaired", r.cubins_repaired}, {"measurements_added", r.measurements_added},
            {"measurements_duplicate", r.measurements_duplicate}, {"untuned_added", r.untuned_added},
            {"untuned_updated", r.untuned_updated}, {"ceilings_added", r.ceilings_added},
            {"ceilings_replaced", r.ceilings_replaced}, {"cubins_rejected", r.cubins_rejected},
            {"selections_rejected", r.selections_rejected}, {"measurements_rejected", r.measurements_rejected},
            {"ceilings_rejected", r.ceilings_rejected}, {"rejections", r.rejections}};
}

void add_json_option(po::options_description& options) {
    options.add_options()("json", "print what was done as JSON on stdout (warnings stay on stderr)");
}

int export_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_cache_option(options);
    add_filter_options(options);
    options.add_options()("output,o", po::value<std::string>()->required(), "the bundle file to write (new)");
    add_json_option(options);
    int exit_code = kExitOk;
    const auto vm = parse_options(
        "cache export", "usage: jitgemm cache export --output BUNDLE [filters] [--cache FILE]\n"
                        "Writes the matching tuned entries, their cubins and measurements to a new bundle file.",
        options, args, exit_code);
    if (!vm) return exit_code;
    const auto file = open_for_reading(*vm);
    const auto report = cache::export_bundle(*file, (*vm)["output"].as<std::string>(), filter_of(*vm));
    if (vm->count("json")) {
        nlohmann::ordered_json out = {{"cache", file->path()}, {"bundle", (*vm)["output"].as<std::string>()}};
        out.update(transfer_json(report));
        std::cout << out.dump(1) << "\n";
    } else {
        std::cout << "exported to " << (*vm)["output"].as<std::string>() << ": " << report.describe() << "\n";
    }
    return kExitOk;
}

int import_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_cache_option(options);
    options.add_options()("bundle", po::value<std::vector<std::string>>()->required(), "bundle files to import");
    add_json_option(options);
    po::positional_options_description positional;
    positional.add("bundle", -1);
    int exit_code = kExitOk;
    const auto vm = parse_options("cache import", "usage: jitgemm cache import BUNDLE... [--cache FILE]", options,
                                  args, exit_code, &positional);
    if (!vm) return exit_code;
    const auto target = TuningCache::open(cache_path(*vm), TuningCache::Access::ReadWrite);
    target->set_lock_wait_ms(TuningCache::kBulkLockWaitMs);
    nlohmann::ordered_json out = {{"cache", target->path()}, {"bundles", nlohmann::ordered_json::array()}};
    for (const auto& bundle : (*vm)["bundle"].as<std::vector<std::string>>()) {
        const auto source = TuningCache::open(bundle, TuningCache::Access::ReadOnly);
        const cache::TransferReport report = cache::merge_into(*target, *source);
        if (vm->count("json")) {
            nlohmann::ordered_json one = {{"bundle", bundle}};
            one.update(transfer_json(report));
            out["bundles"].push_back(one);
        } else {
            std::cout << "imported " << bundle << " into " << target->path() << ": " << report.describe() << "\n";
        }
        warn_rejections(bundle, report);
    }
    if (vm->count("json")) std::cout << out.dump(1) << "\n";
    return kExitOk;
}

int merge_command(const std::vector<std::string>& args) {
    po::options_description options;
    options.add_options()
        ("output,o", po::value<std::string>()->required(), "the cache file to merge into (created if missing)")
        ("input", po::value<std::vector<std::string>>()->required(), "cache files to merge");
    add_json_option(options);
    po::positional_options_description positional;
    positional.add("input", -1);
    int exit_code = kExitOk;
    const auto vm = parse_options("cache merge",
                                  "usage: jitgemm cache merge --output OUT IN...\nThe best selection per device, "
                                  "problem and provenance; every measurement; nothing of another device or version "
                                  "dropped.",
                                  options, args, exit_code, &positional);
    if (!vm) return exit_code;
    const auto target = TuningCache::open((*vm)["output"].as<std::string>(), TuningCache::Access::ReadWrite);
    target->set_lock_wait_ms(TuningCache::kBulkLockWaitMs);
    nlohmann::ordered_json out = {{"output", target->path()}, {"inputs", nlohmann::ordered_json::array()}};
    for (const auto& input : (*vm)["input"].as<std::vector<std::string>>()) {
        const auto source = TuningCache::open(input, TuningCache::Access::ReadOnly);
        const cache::TransferReport report = cache::merge_into(*target, *source);
        if (vm->count("json")) {
            nlohmann::ordered_json one = {{"input", input}};
            one.update(transfer_json(report));
            out["inputs"].push_back(one);
        } else {
            std::cout << "merged " << input << ": " << report.describe() << "\n";
        }
        warn_rejections(input, report);
    }
    if (vm->count("json")) std::cout << out.dump(1) << "\n";
    return kExitOk;
}

int doctor_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_cache_option(options);
    options.add_options()("manifest", po::value<std::string>(), "also report how much of this manifest is tuned")(
        "json", "print JSON");
    int exit_code = kExitOk;
    const auto vm = parse_options("cache doctor",
                                  "usage: jitgemm cache doctor [--cache FILE] [--manifest FILE] [--json]\n"
                                  "exit 0: healthy (and the manifest covered); 1: damage, or problems of the manifest "
                                  "untuned or stale; 3: coverage asked for, but no GPU here to judge it",
                                  options, args, exit_code);
    if (!vm) return exit_code;
    std::vector<ManifestEntry> entries;
    if (vm->count("manifest")) entries = read_manifest((*vm)["manifest"].as<std::string>());
    const auto file = open_for_reading(*vm);
    const auto running = running_system();
    const cache::DoctorReport r = cache::doctor(
        *file, running ? std::optional<cache::CurrentProvenance>(running->current) : std::nullopt,
        running ? running->fingerprint : std::string());

    // Coverage of the manifest on this machine: each problem tuned (current here), stale or untuned.
    struct Uncovered {
        std::string state, name, key;
    };
    std::vector<Uncovered> uncovered;
    int tuned = 0, stale = 0, untuned = 0;
    const bool coverage_asked = !entries.empty(), coverage_checked = coverage_asked && running.has_value();
    if (coverage_checked) {
        const auto all = file->all_selections();
        for (const PlannedProblem& p : plan_problems(entries, cached_device_info(0))) {
            const std::string key = p.problem.key();
            bool current_here = false, other = false;
            for (const auto& s : all) {
                if (s.device_fingerprint != running->fingerprint || s.problem_key != key) continue;
                (running->current.is_current(key, s.provenance) ? current_here : other) = true;
            }
            (current_here ? tuned : other ? stale : untuned)++;
            if (!current_here) uncovered.push_back({other ? "stale" : "untuned", p.entry.name, key});
        }
    }
    const bool covered = stale == 0 && untuned == 0;
    // A doctor that could not judge the coverage it was asked for has not checked it, and a deployment gate must not
    // read that as a pass.
    const int result = !r.healthy() || !covered ? kExitFailed : coverage_asked && !coverage_checked ? kExitNoGpu
                                                                                                     : kExitOk;
    if (vm->count("json")) {
        const nlohmann::ordered_json device =
            running ? nlohmann::ordered_json(running->fingerprint) : nlohmann::ordered_json();
        nlohmann::ordered_json out = {
            {"cache", file->path()}, {"schema", r.schema_version}, {"integrity_ok", r.integrity_ok},
            {"integrity_detail", r.integrity_detail}, {"selections", r.selections}, {"cubins", r.cubins},
            {"damaged_cubins", r.damaged_cubins}, {"measurements", r.measurements}, {"untuned", r.untuned},
            {"device", device}, {"current_selections", r.current_selections},
            {"stale_selections", r.stale_selections}, {"findings", r.problems}, {"damage", r.damage},
            {"healthy", r.healthy()}};
        if (!coverage_asked) {
            out["coverage"] = nullptr;
        } else if (!coverage_checked) {
            out["coverage"] = {{"checked", false}, {"why", "no GPU here to judge it"}};
        } else {
            nlohmann::ordered_json missing = nlohmann::ordered_json::array();
            for (const auto& u : uncovered)
                missing.push_back({{"state", u.state}, {"name", u.name}, {"problem", u.key}});
            out["coverage"] = {{"checked", true}, {"tuned", tuned}, {"stale", stale}, {"untuned", untuned},
                               {"uncovered", missing}};
        }
        out["exit"] = result;
        std::cout << out.dump(1) << "\n";
        return result;
    }
    std::cout << file->path() << ": schema " << r.schema_version << ", integrity "
              << (r.integrity_ok ? "ok" : "FAILED: " + r.integrity_detail) << "\n"
              << "  " << r.selections << " selections, " << r.cubins << " cubins, " << r.measurements
              << " measurements, " << r.untuned << " untuned problems\n";
    if (running)
        std::cout << "  for this machine (" << running->fingerprint << ", " << provenance_text(running->provenance)
                  << "): " << r.current_selections << " current, " << r.stale_selections << " stale\n";
    else
        std::cout << "  no GPU here: staleness and coverage are judged on a machine with the target GPU\n";
    for (const auto& finding : r.problems) std::cout << "  " << finding << "\n";
    for (const auto& finding : r.damage) std::cout << "  " << finding << "\n";
    std::cout << "  cubins: " << r.cubins - r.damaged_cubins << " sound, " << r.damaged_cubins << " damaged\n";
    if (coverage_asked && !coverage_checked)
        std::cout << "  coverage of " << (*vm)["manifest"].as<std::string>()
                  << ": NOT CHECKED, it needs the GPU it is for (exit " << kExitNoGpu << ")\n";
    if (coverage_checked) {
        for (const Uncovered& u : uncovered) std::cout << "  " << u.state << ": " << u.name << " (" << u.key << ")\n";
        std::cout << "  coverage of " << (*vm)["manifest"].as<std::string>() << ": " << tuned << " tuned, " << stale
                  << " stale, " << untuned << " untuned\n";
    }
    return result;
}

int prune_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_cache_option(options);
    options.add_options()
        ("stale", "remove this machine's entries made under another jitgemm, kernel-source, NVRTC or driver version")
        ("older-than", po::value<double>(), "remove entries tuned more than this many days ago")
        ("unreferenced-cubins", "remove cubins no selection uses")
        ("yes", "really remove (without it, only show what would go)");
    add_json_option(options);
    int exit_code = kExitOk;
    const auto vm = parse_options("cache prune",
                                  "usage: jitgemm cache prune [--stale] [--older-than DAYS] [--unreferenced-cubins] "
                                  "[--yes] [--cache FILE]\nDeletes only what the rules name; a dry run without --yes.",
                                  options, args, exit_code);
    if (!vm) return exit_code;
    cache::PrunePlan plan;
    plan.stale = vm->count("stale") > 0;
    plan.unreferenced_cubins = vm->count("unreferenced-cubins") > 0;
    plan.dry_run = vm->count("yes") == 0;
    if (vm->count("older-than"))
        plan.older_than_unix =
            static_cast<std::int64_t>(std::time(nullptr) - (*vm)["older-than"].as<double>() * 86400.0);
    if (!plan.stale && !plan.unreferenced_cubins && plan.older_than_unix == 0) {
        std::cerr << "jitgemm cache prune: name what to remove: --stale, --older-than DAYS or --unreferenced-cubins\n";
        return kExitUsage;
    }
    if (plan.stale) {
        const auto running = running_system();
        if (!running) throw Error(ErrorCode::NoDevice, "jitgemm: --stale is judged against this machine's GPU, "
                                                      "and there is none: " + driver::unavailable_reason());
        plan.current = running->current;
        plan.device_fingerprint = running->fingerprint;
    }
    // A dry run opens the file ReadOnly: it neither creates, migrates nor sets aside anything. An absent default
    // cache has nothing to prune, and is not created for it.
    std::error_code ignored;
    const bool absent = !vm->count("cache") && !std::filesystem::exists(cache_path(*vm), ignored);
    const auto file = absent ? nullptr
                      : plan.dry_run ? open_for_reading(*vm)
                                     : TuningCache::open(cache_path(*vm), TuningCache::Access::ReadWrite);
    const cache::PruneResult r = absent ? cache::PruneResult{} : cache::prune(*file, plan);
    if (vm->count("json")) {
        std::cout << nlohmann::ordered_json{{"cache", cache_path(*vm)}, {"exists", !absent}, {"dry_run", plan.dry_run},
                                            {"selections_removed", r.selections_removed},
                                            {"measurements_removed", r.measurements_removed},
                                            {"untuned_removed", r.untuned_removed},
                                            {"cubins_removed", r.cubins_removed}, {"removed", r.removed}}
                         .dump(1)
                  << "\n";
        return kExitOk;
    }
    if (absent) {
        std::cout << "there is no tuning cache at " << cache_path(*vm) << " yet: nothing to prune\n";
        return kExitOk;
    }
    for (const auto& line : r.removed) std::cout << (plan.dry_run ? "would remove " : "removed ") << line << "\n";
    std::cout << (plan.dry_run ? "dry run: would remove " : "removed ") << r.selections_removed << " selections, "
              << r.measurements_removed << " measurements, " << r.cubins_removed << " cubins"
              << (plan.dry_run ? " (run again with --yes to do it)" : "") << "\n";
    return kExitOk;
}

// A manifest entry that reproduces `key` exactly, or nullopt when the manifest's fields cannot express it (leading
// dimensions above the minimum, different alignments per operand) or `key` is no key of this version.
std::optional<ManifestEntry> entry_for_key(const std::string& key) {
    const auto p = Problem::parse_key(key);
    if (!p) return std::nullopt;
    ManifestEntry e;
    e.name = key;
    e.m = p->m;
    e.n = p->n;
    e.k = p->k;
    e.layout_a = e.layout_b = e.layout_c = e.layout_d = Order::ColumnMajor;
    e.trans_a = p->trans_a;
    e.trans_b = p->trans_b;
    e.a_type = p->a_type;
    e.b_type = p->b_type;
    e.c_type = e.d_type = p->c_type;
    e.compute = p->compute;
    e.alpha = p->alpha_one ? 1.0 : 0.5;  // "any alpha but 1" is one problem; 0.5 stands for all of them
    e.beta = p->beta_mode == BetaMode::Zero ? 0.0 : p->beta_mode == BetaMode::One ? 1.0 : 0.5;
    e.alignment = std::min({p->align_a, p->align_b, p->align_c});
    e.file = "untuned";
    if (p->k == 0) return std::nullopt;
    // Check by rebuilding: what `jitgemm tune` would make of the entry must be this very key.
    try {
        DeviceInfo any;
        any.sm_count = 1;
        const auto plan = plan_problems({e}, any);
        if (plan.size() == 1 && plan.front().problem.key() == key) return e;
    } catch (const Error&) {
    }
    return std::nullopt;
}

int untuned_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_cache_option(options);
    options.add_options()("output,o", po::value<std::string>(), "write the manifest here (default: stdout)")
        ("force", "replace --output if it exists (never a SQLite database)")
        ("json", "write the manifest as JSON (what jitgemm tune reads, like the CSV)");
    int exit_code = kExitOk;
    const auto vm = parse_options("cache untuned",
                                  "usage: jitgemm cache untuned [--output FILE [--force]] [--json] [--cache FILE]\n"
                                  "The problems served untuned (policy off or never), as a manifest for jitgemm tune;\n"
                                  "each one's frequency is the number of calls served untuned.",
                                  options, args, exit_code);
    if (!vm) return exit_code;
    const auto file = open_for_reading(*vm);
    std::vector<ManifestEntry> entries;
    std::vector<std::string> inexpressible;
    for (const auto& u : file->all_untuned()) {
        auto e = entry_for_key(u.problem_key);
        if (!e) {
            inexpressible.push_back(u.problem_key);
            continue;
        }
        e->frequency = static_cast<double>(std::max<std::int64_t>(u.calls, 1));
        entries.push_back(*e);
    }
    std::ostringstream out;
    if (vm->count("json")) {
        out << manifest::write_json_manifest(entries);  // JSON has no comments: the others are said on stderr
        for (const auto& key : inexpressible)
            std::cerr << "jitgemm cache untuned: not expressible as a manifest entry: " << key << "\n";
    } else {
        out << "# untuned problems of " << file->path() << " (" << entries.size() << ")\n";
        for (const auto& key : inexpressible) out << "# not expressible as a manifest entry: " << key << "\n";
        write_manifest_csv(entries, out);
    }
    if (vm->count("output"))
        write_output_file((*vm)["output"].as<std::string>(), out.str(), vm->count("force") > 0);
    else
        std::cout << out.str() << std::flush;
    if (!inexpressible.empty())
        std::cerr << "jitgemm cache untuned: " << inexpressible.size()
                  << " problems have leading dimensions or alignments a manifest cannot state, or keys of another "
                     "jitgemm version; listed " << (vm->count("json") ? "above" : "as comments") << "\n";
    return kExitOk;
}

void print_cache_usage(std::ostream& out) {
    out << "usage: jitgemm cache <command> [options]\n\n"
        << "  list      the tuned entries (filters: --device --dtype --shape --problem)\n"
        << "  show      one problem's entry, its search and its fastest candidates\n"
        << "  export    write a subset as a bundle file to ship\n"
        << "  import    bring bundles into the cache\n"
        << "  merge     merge several cache files into one (shards of a tuning job)\n"
        << "  doctor    integrity, staleness for this machine, coverage of a manifest\n"
        << "  prune     remove stale or old entries, by explicit rules\n"
        << "  untuned   the problems served untuned, as a manifest\n";
}

}  // namespace

int cache_command(const std::vector<std::string>& args) {
    if (args.empty() || args.front() == "--help" || args.front() == "-h") {
        print_cache_usage(args.empty() ? std::cerr : std::cout);
        return args.empty() ? kExitUsage : kExitOk;
    }
    const std::string sub = args.front();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (sub == "list") return list_command(rest);
    if (sub == "show") return show_command(rest);
    if (sub == "export") return export_command(rest);
    if (sub == "import") return import_command(rest);
    if (sub == "merge") return merge_command(rest);
    if (sub == "doctor") return doctor_command(rest);
    if (sub == "prune") return prune_command(rest);
    if (sub == "untuned") return untuned_command(rest);
    std::cerr << "jitgemm cache: unknown command \"" << sub << "\"\n\n";
    print_cache_usage(std::cerr);
    return kExitUsage;
}

}  // namespace jitgemm::cli
