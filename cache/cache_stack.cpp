// Lookups through the writable cache and the bundles.
#include "cache/cache_stack.h"

#include <set>

#include "jitgemm/error.h"
#include "log/log.h"

namespace jitgemm::cache {

CacheStack::CacheStack(std::unique_ptr<TuningCache> writable, std::vector<std::unique_ptr<TuningCache>> bundles)
    : writable_(std::move(writable)), bundles_(std::move(bundles)) {}

CacheStack& CacheStack::global() {
    static CacheStack stack = [] {
        std::unique_ptr<TuningCache> writable;
        try {
            writable = TuningCache::open(default_cache_path(), TuningCache::Access::ReadWrite);
        } catch (const Error& e) {
            log::warn(std::string("no writable tuning cache, tuning results will not be kept: ") + e.what());
        }
        std::vector<std::unique_ptr<TuningCache>> bundles;
        for (const std::string& path : bundle_paths()) {
            try {
                bundles.push_back(TuningCache::open(path, TuningCache::Access::ReadOnly));
            } catch (const Error& e) {
                log::warn("skipping the tuning-cache bundle " + path + ": " + e.what());
            }
        }
        return CacheStack(std::move(writable), std::move(bundles));
    }();
    return stack;
}

void CacheStack::report_unusable_bundle_entries(const std::string& device_fingerprint,
                                                const CurrentProvenance& current) const {
    for (const auto& bundle : bundles_) {
        try {
            std::size_t mine = 0, unusable = 0;
            for (const SelectionRecord& s : bundle->all_selections()) {
                if (s.device_fingerprint != device_fingerprint) continue;
                ++mine;
                if (!current.is_current(s.problem_key, s.provenance)) ++unusable;
            }
            if (unusable > 0)
                log::warn_once("unusable bundle entries " + bundle->path() + "\n" + device_fingerprint,
                               "the tuning-cache bundle " + bundle->path() + " holds " + std::to_string(unusable) +
                                   " of its " + std::to_string(mine) + " entries for " + device_fingerprint +
                                   " under another jitgemm, kernel-source, NVRTC or driver version; they are not "
                                   "used (retune them with jitgemm tune and ship a new bundle)");
        } catch (const Error& e) {
            log::warn_once("unreadable bundle " + bundle->path(),
                           "could not read the tuning-cache bundle " + bundle->path() + ": " + e.what());
        }
    }
}

std::optional<CacheStack::TunedEntry> CacheStack::find_tuned(const std::string& device_fingerprint,
                                                             const std::string& problem_key,
                                                             const Provenance& current) const {
    auto try_file = [&](const TuningCache& file) -> std::optional<TunedEntry> {
        auto selection = file.find_selection(device_fingerprint, problem_key, current);
        if (!selection) return std::nullopt;
        auto cubin = file.find_cubin(selection->cubin_key);
        if (!cubin) return std::nullopt;
        return TunedEntry{std::move(*selection), std::move(*cubin), file.path()};
    };
    if (writable_)
        if (auto found = try_file(*writable_)) return found;
    for (const auto& bundle : bundles_)
        if (auto found = try_file(*bundle)) return found;
    return std::nullopt;
}

std::vector<std::string> CacheStack::tuned_problem_keys(const std::string& device_fingerprint) const {
    std::set<std::string> keys;
    auto add = [&](const TuningCache& file) {
        for (std::string& key : file.selected_problem_keys(device_fingerprint)) keys.insert(std::move(key));
    };
    if (writable_) add(*writable_);
    for (const auto& bundle : bundles_) add(*bundle);
    return {keys.begin(), keys.end()};
}

std::vector<CacheStack::FoundCubin> CacheStack::find_cubins(const std::string& key) const {
    std::vector<FoundCubin> found;
    auto add = [&](const TuningCache& file) {
        if (auto cubin = file.find_cubin(key)) found.push_back({std::move(*cubin), file.path()});
    };
    if (writable_) add(*writable_);
    for (const auto& bundle : bundles_) add(*bundle);
    return found;
}

std::vector<MeasurementRecord> CacheStack::measurements(const std::string& device_fingerprint,
                                                        const std::string& problem_key,
                                                        const Provenance& current) const {
    std::vector<MeasurementRecord> all;
    auto add = [&](const TuningCache& file) {
        auto some = file.measurements(device_fingerprint, problem_key, current);
        all.insert(all.end(), some.begin(), some.end());
    };
    if (writable_) add(*writable_);
    for (const auto& bundle : bundles_) add(*bundle);
    return all;
}

}  // namespace jitgemm::cache
