// Run-time-shape variants of tuned kernels: the nearest one that computes a problem, its binary, its module.
#include "dispatch/runtime_shape_variant.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "dispatch/nearest_problem.h"
#include "runtime/compile/cached_compile.h"
#include "runtime/compile/cubin_verification.h"
#include "runtime/compile/kernel_program.h"
#include "jitgemm/error.h"
#include "log/log.h"
#include "runtime/device/device_ceilings.h"
#include "runtime/driver/context.h"
#include "tuner/reference_check.h"
#include "tuner/search_provenance.h"

namespace jitgemm {
namespace {

// How many of the nearest tuned problems are tried before giving up: each try is a cache lookup, and the ones past
// the first few are too far away to be worth serving from.
constexpr std::size_t kMostTries = 8;
// How many candidates other than winners are looked for in the caches before the winners expected slower than them.
constexpr int kMostStoredLookups = 16;

// The loaded variants of this process, by context and binary: a variant's module is loaded once per context.
class LoadedVariants {
public:
    std::shared_ptr<const LoadedKernel> find(CUcontext context, const std::string& cubin_key) const {
        std::lock_guard<std::mutex> lock(mutex_);
        const auto found = loaded_.find(name(context, cubin_key));
        return found == loaded_.end() ? nullptr : found->second;
    }
    // Keeps `kernel` unless another thread got there first; returns the one kept.
    std::shared_ptr<const LoadedKernel> keep(CUcontext context, const std::string& cubin_key,
                                             std::shared_ptr<const LoadedKernel> kernel) {
        std::lock_guard<std::mutex> lock(mutex_);
        return loaded_.emplace(name(context, cubin_key), std::move(kernel)).first->second;
    }
    // A variant that failed its check against the reference: not compiled and checked again for every size.
    void refuse(CUcontext context, const std::string& cubin_key) {
        std::lock_guard<std::mutex> lock(mutex_);
        refused_.insert(name(context, cubin_key));
    }
    bool refused(CUcontext context, const std::string& cubin_key) const {
        std::lock_guard<std::mutex> lock(mutex_);
        return refused_.count(name(context, cubin_key)) != 0;
    }
    static LoadedVariants& global() {
        static LoadedVariants* variants = new LoadedVariants();  // outlives every thread's last call
        return *variants;
    }

private:
    static std::string name(CUcontext context, const std::string& cubin_key) {
        return std::to_string(reinterpret_cast<std::uintptr_t>(context)) + "/" + cubin_key;
    }
    mutable std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<const LoadedKernel>> loaded_;
    std::unordered_set<std::string> refused_;
};

// The sizes this process served untuned, by key: the layers whose varying size default_variant can tell. Bounded,
// oldest first out, since a server may see every size of its layers over its life.
class UntunedSizes {
public:
    void remember(const Problem& problem) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (keys_.size() >= kMostRemembered) keys_.erase(keys_.begin());
        keys_.push_back(problem.key());
    }
    std::vector<std::string> keys() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return keys_;
    }
    static UntunedSizes& global() {
        static UntunedSizes* sizes = new UntunedSizes();  // outlives every thread's last call
        return *sizes;
    }

private:
    static constexpr std::size_t kMostRemembered = 1024;
    mutable std::mutex mutex_;
    std::vector<std::string> keys_;
};

// `config`'s variant along `dim` for `problem`, where its knobs take one (its family's checks with the run-time
// dimension set); `whose` says in the log which configuration it is.
std::optional<VariantKernel> variant_of(const AnyConfig& config, const Problem& problem, std::uint8_t dim,
                                        const DeviceInfo& device, const cache::CacheStack& caches, bool may_compile,
                                        const std::string& whose) {
    if (validate(config, problem.with_runtime_dim(dim), device)) return std::nullopt;
    auto kernel = runtime_shape_kernel(config, problem, dim, device, caches, may_compile);
    if (!kernel) return std::nullopt;
    return VariantKernel{std::move(kernel),
                         "the run-time-" + std::string(dim == 1 ? "m" : "n") + " variant of " + whose};
}

// The candidates a search of `nearby`'s problem measured that passed, as lenders: each configuration once (the first
// of its measurements), the winner `winner` left out.
void add_measured(std::vector<Lender>& lenders, const std::vector<cache::MeasurementRecord>& measured,
                  const NearbyProblem& nearby, const std::string& winner) {
    std::set<std::string> names{winner};
    for (const cache::MeasurementRecord& m : measured)
        if (m.outcome == cache::CandidateOutcome::Passed && m.time_ms > 0 && names.insert(m.config).second)
            if (const auto config = parse_config(m.config)) lenders.push_back({*config, nearby, m.time_ms, false});
}

}  // namespace

std::vector<Lender> fastest_first(std::vector<Lender> lenders, const Problem& problem, const DeviceInfo& device) {
    const DeviceCeilings ceilings = estimate_ceilings(device);
    std::vector<std::pair<double, std::size_t>> order;  // (expected ms, nearness rank)
    for (std::size_t i = 0; i < lenders.size(); ++i) {
        const Lender& l = lenders[i];
        // The exact shapes: what the model tells apart is the tiles and waves of each.
        const Problem tuned = l.nearby.tuned.with_runtime_dim(0);
        const double at_tuned = estimate_cost(l.config, tuned, device, ceilings).seconds;
        const double here = estimate_cost(l.config, problem, device, ceilings).seconds;
        const bool known = l.time_ms > 0 && at_tuned > 0 && here > 0;
        order.emplace_back(known ? l.time_ms * here / at_tuned : std::numeric_limits<double>::infinity(), i);
    }
    std::stable_sort(order.begin(), order.end());  // equals (and the unknown, last) keep the nearest first
    std::vector<Lender> out;
    for (const auto& [ms, i] : order) out.push_back(std::move(lenders[i]));
    return out;
}

std::vector<AnyConfig> neighbour_variants(const Problem& tuned, std::uint8_t runtime_dim, const AnyConfig& winner,
                                          double winner_ms, const std::vector<cache::MeasurementRecord>& measured,
                                          const DeviceInfo& device) {
    const std::int64_t size = runtime_dim == 1 ? tuned.m : tuned.n;
    // Every candidate that passed and whose knobs take a variant, each once, the winner first.
    const NearbyProblem itself{tuned, runtime_dim, 0.0};
    std::vector<Lender> lenders{{winner, itself, winner_ms, true}};
    add_measured(lenders, measured, itself, to_string(winner));
    const Problem variant = tuned.with_runtime_dim(runtime_dim);
    lenders.erase(std::remove_if(lenders.begin() + 1, lenders.end(),
                                 [&](const Lender& l) { return validate(l.config, variant, device).has_value(); }),
                  lenders.end());
    std::vector<AnyConfig> picks;
    std::set<std::string> picked;
    for (const double factor : {0.5, 2.0 / 3.0, 1.5, 2.0}) {
        const std::int64_t other = std::max<std::int64_t>(1, std::llround(double(size) * factor));
        if (other == size) continue;
        Problem there = tuned;
        (runtime_dim == 1 ? there.m : there.n) = other;
        const Lender best = fastest_first(lenders, there, device).front();
        if (!best.winner && picked.insert(to_string(best.config)).second) picks.push_back(best.config);
    }
    return picks;
}

void remember_untuned_size(const Problem& problem) { UntunedSizes::global().remember(problem); }

std::optional<VariantKernel> default_variant(const Problem& problem, const DeviceInfo& device, bool may_compile) {
    const std::vector<NearbyProblem> nearby = nearest_problems(problem, UntunedSizes::global().keys());
    if (nearby.empty()) return std::nullopt;
    const std::uint8_t dim = nearby.front().runtime_dim;
    const std::optional<AnyConfig> config = default_variant_config(problem, dim, device);
    if (!config) return std::nullopt;
    return variant_of(*config, problem, dim, device, cache::CacheStack::global(), may_compile,
                      "the default " + to_string(*config) + ", another size of the layer seen");
}

std::optional<AnyConfig> default_variant_config(const Problem& problem, std::uint8_t runtime_dim,
                                                const DeviceInfo& device) {
    // The variant's default may differ from the exact problem's within a family (wgmma's C through the TMA, for one,
    // takes no run-time m); another family means the size read as varying is most likely not the caller's M.
    const AnyConfig config = heuristic_config(problem.with_runtime_dim(runtime_dim), device);
    if (config.index() != heuristic_config(problem, device).index()) return std::nullopt;
    return config;
}

std::shared_ptr<const LoadedKernel> runtime_shape_kernel(const AnyConfig& config, const Problem& problem,
                                                         std::uint8_t runtime_dim, const DeviceInfo& device,
                                                         const cache::CacheStack& caches, bool may_compile) {
    const Problem variant = problem.with_runtime_dim(runtime_dim);
    const KernelProgram program = kernel_program(config, variant, device.arch());
    const LaunchDescription launch = launch_description(config, variant);
    const CUcontext context = driver::current_context();
    LoadedVariants& variants = LoadedVariants::global();
    if (auto loaded = variants.find(context, program.cubin_key())) return with_launch(*loaded, launch);
    if (auto stored = find_verified_cubin(program, caches))  // kept only after the check below: trusted
        return with_launch(*variants.keep(context, program.cubin_key(),
                                          load_kernel(stored->image, program.kernel_symbol, launch,
                                                      program.config_name)),
                           launch);
    if (!may_compile || variants.refused(context, program.cubin_key())) return nullptr;
    // A new binary that no search measured: checked against the reference family at this size before it serves or
    // is kept, so a variant that computes wrongly is never stored, and the call falls back to the next choice.
    const Cubin cubin = obtain_cubin(program, caches, false);
    auto loaded = load_kernel(cubin.image, program.kernel_symbol, launch, program.config_name);
    if (const std::uint64_t bad =
            mismatches_against_reference(*loaded, problem.with_runtime_dim(0), device.arch(), caches)) {
        log::warn("the run-time-shape variant " + program.config_name + " (" + variant.key() + ") computed " +
                  std::to_string(bad) + " elements unlike the reference: not used");
        variants.refuse(context, program.cubin_key());
        return nullptr;
    }
    if (caches.writable() != nullptr) {
        try {
            caches.writable()->put_cubin(to_cubin_record(program, cubin));
        } catch (const Error& e) {  // the kernel is still good; only its persistence failed
            log::warn(std::string("could not store a run-time-shape variant in the tuning cache: ") + e.what());
        }
    }
    return with_launch(*variants.keep(context, program.cubin_key(), std::move(loaded)), launch);
}

std::optional<VariantKernel> nearest_tuned_variant(const Problem& problem, const DeviceInfo& device,
                                                   bool may_compile) {
    const cache::CacheStack& caches = cache::CacheStack::global();
    const std::vector<NearbyProblem> nearby =
        nearest_problems(problem, caches.tuned_problem_keys(device.fingerprint()));
    std::vector<Lender> lenders;
    for (std::size_t i = 0; i < nearby.size() && i < kMostTries; ++i) {
        const Problem& tuned = nearby[i].tuned;
        const cache::Provenance provenance = search_provenance(tuned, device);
        const auto entry = caches.find_tuned(device.fingerprint(), tuned.key(), provenance);
        if (!entry) continue;  // of another provenance: stale
        const auto config = parse_config(entry->selection.config);
        if (!config) continue;
        lenders.push_back({*config, nearby[i], entry->selection.time_ms, true});
        add_measured(lenders, caches.measurements(device.fingerprint(), tuned.key(), provenance), nearby[i],
                     entry->selection.config);
    }
    // Another candidate's variant serves only where `jitgemm tune` stored it (neighbour_variants): a lookup each,
    // so only so many are looked for before the winners expected slower are.
    int lookups_left = kMostStoredLookups;
    for (const Lender& l : fastest_first(std::move(lenders), problem, device)) {
        if (!l.winner &&
            (validate(l.config, problem.with_runtime_dim(l.nearby.runtime_dim), device) || lookups_left-- <= 0))
            continue;
        if (auto variant = variant_of(l.config, problem, l.nearby.runtime_dim, device, caches,
                                      may_compile && l.winner,
                                      to_string(l.config) + (l.winner ? ", tuned for " : ", measured for ") +
                                          l.nearby.tuned.key()))
            return variant;
    }
    return std::nullopt;
}

}  // namespace jitgemm
