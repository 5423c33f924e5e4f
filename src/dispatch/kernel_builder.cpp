// The miss path: requested config, scaling kernel, cached tuned entry, or the tuning policy.
#include "dispatch/kernel_builder.h"

#include <chrono>
#include <iostream>
#include <mutex>
#include <optional>

#include "cache/cache_stack.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "runtime/device/device_info.h"
#include "dispatch/background_tuner.h"
#include "dispatch/runtime_shape_variant.h"
#include "runtime/compile/cached_compile.h"
#include "runtime/compile/cubin_verification.h"
#include "tuner/families/registry.h"
#include "dispatch/tuning_policy.h"
#include "runtime/driver/context.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/error.h"
#include "log/log.h"
#include "tuner/search_provenance.h"
#include "tuner/search_turns.h"
#include "tuner/tuner.h"

namespace jitgemm {
namespace {

// Under TunePolicy::Never: what the call is refused with. The problem is recorded as untuned, so that
// `jitgemm cache untuned` lists it for `jitgemm tune`.
Error not_tuned(const Problem& problem, const DeviceInfo& device, const std::string& what);

// The binary of `program`: from the caches, or compiled (and kept) when compiling is allowed; under
// TunePolicy::Never a program without a stored binary throws Error(NotTuned).
std::string binary_of(const KernelProgram& program, const Problem& problem, const DeviceInfo& device,
                      bool may_compile) {
    if (may_compile) return obtain_cubin(program, cache::CacheStack::global(), true).image;
    if (auto stored = find_verified_cubin(program, cache::CacheStack::global())) return std::move(stored->image);
    throw not_tuned(problem, device, "no stored binary of " + program.config_name);
}

std::shared_ptr<const LoadedKernel> compile_and_load(const Problem& problem, const AnyConfig& config,
                                                     const DeviceInfo& device, bool may_compile) {
    const KernelProgram program = kernel_program(config, problem, device.arch());
    return load_kernel(binary_of(program, problem, device, may_compile), program.kernel_symbol,
                       launch_description(config, problem), program.config_name);
}

// The tuned entry of the cache stack, loaded; nullptr when there is none that this build can use.
std::shared_ptr<const LoadedKernel> load_tuned(const Problem& problem, const DeviceInfo& device, bool may_compile) {
    auto entry =
        cache::CacheStack::global().find_tuned(device.fingerprint(), problem.key(), search_provenance(problem, device));
    if (!entry) return nullptr;
    const auto ignore = [&](const std::string& why) -> std::shared_ptr<const LoadedKernel> {
        log::warn_once(entry->source_path + "\n" + problem.key(), "ignoring the tuned entry for " + problem.key() + " in " +
                                                                 entry->source_path + ": " + why);
        return nullptr;
    };
    const auto config = parse_config(entry->selection.config);
    if (!config || validate(*config, problem, device))
        return ignore("configuration " + entry->selection.config + " is not one this build can run");
    // The selection must name the binary of its own configuration for this problem: the key is recomputed, never
    // taken from the file, so a selection cannot borrow another kernel's cubin.
    const KernelProgram program = kernel_program(*config, problem, device.arch());
    if (entry->selection.cubin_key != program.cubin_key())
        return ignore("its cubin key " + entry->selection.cubin_key + " is not the key of " + program.config_name +
                      " for this problem (" + program.cubin_key() + ")");
    // The entry's own cubin is used when it is the program's binary; otherwise (reported) the other files are
    // looked at and, where compiling is allowed, the program compiled, the new binary repairing the writable cache,
    // so the tuned choice still serves.
    std::string image;
    if (verified_or_reported(program, entry->cubin, entry->source_path)) {
        image = std::move(entry->cubin.image);
    } else if (may_compile) {
        image = obtain_cubin(program, cache::CacheStack::global(), true).image;
    } else if (auto stored = find_verified_cubin(program, cache::CacheStack::global())) {
        image = std::move(stored->image);
    } else {
        return nullptr;
    }
    return load_kernel(image, program.kernel_symbol, launch_description(*config, problem), program.config_name);
}

void record_untuned(const Problem& problem, const DeviceInfo& device) {
    cache::TuningCache* writable = cache::CacheStack::global().writable();
    if (writable == nullptr) return;
    try {
        writable->record_untuned(device.fingerprint(), problem.key(), search_provenance(problem, device));
    } catch (const Error& e) {
        log::warn("could not record " + problem.key() + " as untuned: " + e.what());
    }
}

// How long a call waits for another process's search of its problem: that search has a budget like ours, and the
// wait must outlast it with room for its compiles to finish, without hanging on a process that has stopped.
std::chrono::milliseconds search_wait(const TuneOptions& options) {
    return std::chrono::milliseconds(static_cast<std::int64_t>((2.0 * options.budget_seconds + 60.0) * 1000.0));
}

Error not_tuned(const Problem& problem, const DeviceInfo& device, const std::string& what) {
    record_untuned(problem, device);
    return Error(ErrorCode::NotTuned,
                 "jitgemm: " + problem.key() + " has no kernel in the tuning cache for " + device.fingerprint() +
                     " (" + what + "), and JITGEMM_TUNE=never (TunePolicy::Never) forbids compiling one. It is "
                     "recorded as untuned: `jitgemm cache untuned --output untuned.csv` then `jitgemm tune "
                     "--manifest untuned.csv` tunes it, and `jitgemm cache export` ships the result.");
}

}  // namespace

BuiltKernel search_once(const KernelKey& key, const TuneOptions& options) {
    const Problem& problem = key.problem;
    const DeviceInfo& device = cached_device_info(driver::device_of(key.context));
    const cache::CacheStack& caches = cache::CacheStack::global();
    const std::optional<Turn> turn = take_search_turn(caches, device, problem, search_wait(options));
    if (!turn) {
        log::warn_once("search wait\n" + problem.key(), "another process is still tuning " + problem.key() + " after " +
                                                       std::to_string(search_wait(options).count() / 1000) +
                                                       " s; serving it untuned");
        return {nullptr, ServedBy::HeuristicDefault, "another process's search of it outlasted the wait"};
    }
    // The search we waited for has stored its winner where we look first.
    if (turn->waited())
        if (auto tuned = load_tuned(problem, device, true))
            return {std::move(tuned), ServedBy::CachedTuned, "the winner of another process's search, just finished"};
    TuneResult result;
    try {
        result = tune_problem(problem, device, key.context, options, caches);
    } catch (const Error& e) {
        // The device's memory taken by others for now: the call is served untuned (its default needs far less than a
        // search), and the problem is searched again at a later miss, none of its candidates marked failed.
        if (!driver::is_out_of_memory(e)) throw;
        log::warn("the search of " + problem.key() + " ran out of device memory; serving it untuned: " + e.what());
        return {nullptr, ServedBy::HeuristicDefault, "its search ran out of device memory"};
    }
    const std::string searched = std::to_string(result.candidates_measured) + " of " +
                                 std::to_string(result.candidates_total) + " candidates in " +
                                 std::to_string(result.seconds) + " s" + (result.complete ? "" : ", budget reached");
    if (!result.kernel) return {nullptr, ServedBy::HeuristicDefault, "no candidate passed (" + searched + ")"};
    return {std::move(result.kernel), ServedBy::FreshlyTuned, "searched now: " + searched};
}

AnyConfig choose_config(const Problem& problem, const DeviceInfo& device, const std::string& requested) {
    // k = 0 is "C = beta * C": the scaling kernel serves it whatever was asked for.
    if (requested.empty() || problem.k == 0) return heuristic_config(problem, device);
    const auto parsed = parse_config(requested);
    if (!parsed)
        throw Error(ErrorCode::InvalidArgument,
                    "jitgemm: \"" + requested +
                        "\" is not a kernel configuration (examples: naive_16x16, tiled_t16, "
                        "regblock_128x128x8_t8x8_v4_s2_g8)");
    if (const auto rejection = validate(*parsed, problem, device))
        throw Error(ErrorCode::Unsupported, "jitgemm: configuration " + requested + " cannot compute " + problem.key() +
                                                " on " + device.name +
                                                ": " + rejection->reason + " (" +
                                                std::string(to_string(rejection->rule)) + ")");
    return *parsed;
}

BuiltKernel build_kernel(const KernelKey& key, const GemmOptions& options) {
    const Problem& problem = key.problem;
    const DeviceInfo& device = cached_device_info(driver::device_of(key.context));
    require_supported_arch(device.arch());
    static std::once_flag bundles_reported;  // the first miss of the process: the bundles' entries, judged once
    std::call_once(bundles_reported, [&] {
        cache::CacheStack::global().report_unusable_bundle_entries(device.fingerprint(),
                                                                   current_search_provenance(device));
    });

    const TunePolicy policy = resolve_tune_policy(options.tuning);
    const bool may_compile = policy != TunePolicy::Never;
    if (!key.config.empty() || problem.k == 0) {
        const AnyConfig config = choose_config(problem, device, key.config);
        return {compile_and_load(problem, config, device, may_compile),
                problem.k == 0 ? ServedBy::HeuristicDefault : ServedBy::Requested,
                problem.k == 0 ? "k = 0: the scaling kernel" : "the configuration the call asked for"};
    }
    if (auto tuned = load_tuned(problem, device, may_compile))
        return {std::move(tuned), ServedBy::CachedTuned, "the tuned entry of the cache"};
    // A size of a layer tuned at other sizes: the nearest one's kernel in its run-time-shape variant serves it
    // without a compile of its own, unless the call asked to tune it now. The policy's other part — the background
    // search, or the record for `jitgemm tune` — still applies. On a capturing stream only a stored variant serves:
    // a new one is checked on the device first, which the capture forbids.
    if ((policy != TunePolicy::Now || key.during_capture) && !key.deterministic && runtime_shapes_enabled())
        if (auto variant = nearest_tuned_variant(problem, device, may_compile && !key.during_capture)) {
            if (!key.during_capture && policy == TunePolicy::Background)
                BackgroundTuner::global().submit(key, resolve_tune_options(options));
            else if (policy == TunePolicy::Off || policy == TunePolicy::Never)
                record_untuned(problem, device);
            return {std::move(variant->kernel), ServedBy::NearestTuned, variant->why};
        }
    if (!may_compile) throw not_tuned(problem, device, "no tuned entry this build can use");

    std::string why;
    if (key.during_capture) {
        // A search would allocate, synchronize and time on the device, each of which breaks the capture; the first
        // call outside a capture finds the problem untuned and applies the policy then.
        if (policy == TunePolicy::Off) record_untuned(problem, device);
        why = "untuned: called during a stream capture, tuned at the first call outside one";
    } else if (policy == TunePolicy::Now) {
        BuiltKernel searched = search_once(key, resolve_tune_options(options));
        if (searched.kernel) return searched;
        why = "untuned: " + searched.why;
    } else if (policy == TunePolicy::Background) {
        // The winner is swapped in under the key of the problem's other calls; a deterministic key keeps the default.
        KernelKey swapped = key;
        swapped.deterministic = false;
        BackgroundTuner::global().submit(swapped, resolve_tune_options(options));
        why = "untuned for now: a background search is queued";
    } else {
        record_untuned(problem, device);
        why = "untuned: the policy is off (recorded for jitgemm cache untuned)";
    }
    // Another size of a layer this process served untuned before: the default's run-time-shape variant (one compile
    // per default configuration of the layer, not one per size). Else the default compiled for this problem.
    if (!key.deterministic && runtime_shapes_enabled()) {
        auto variant = default_variant(problem, device, !key.during_capture);
        remember_untuned_size(problem);
        if (variant) return {std::move(variant->kernel), ServedBy::HeuristicDefault, why + "; " + variant->why};
    }
    return {compile_and_load(problem, heuristic_config(problem, device), device, true), ServedBy::HeuristicDefault,
            why};
}

}  // namespace jitgemm
