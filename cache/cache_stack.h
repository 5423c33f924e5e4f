// CacheStack: the writable tuning cache over the read-only bundles a deployment ships ($JITGEMM_CACHE_PATH). Lookups
// try the writable cache first, then the bundles in order; writes go to the writable cache only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/tuning_cache.h"

namespace jitgemm::cache {

class CacheStack {
public:
    CacheStack(std::unique_ptr<TuningCache> writable, std::vector<std::unique_ptr<TuningCache>> bundles);

    // The process's stack, opened on first use from default_cache_path() and bundle_paths(). A file that cannot be
    // opened is reported once on stderr and left out (tuning still works; its results are then not kept).
    static CacheStack& global();

    // nullptr when there is no writable cache.
    TuningCache* writable() const { return writable_.get(); }

    struct TunedEntry {
        SelectionRecord selection;
        CubinRecord cubin;
        std::string source_path;  // the file it came from
    };
    // The first file holding both a selection for (device, problem, provenance) and its cubin.
    std::optional<TunedEntry> find_tuned(const std::string& device_fingerprint, const std::string& problem_key,
                                         const Provenance& current) const;
    // The problem keys with a selection for this device in any file (any provenance: find_tuned judges each), each
    // once, in key order. For finding the tuned problems nearest to one that has none.
    std::vector<std::string> tuned_problem_keys(const std::string& device_fingerprint) const;
    // Every stored cubin of `key`, writable cache first, then the bundles in order, each with the file it came
    // from. Unchecked: the caller verifies them against the program it wants (runtime/compile/cubin_verification.h).
    struct FoundCubin {
        CubinRecord cubin;
        std::string source_path;
    };
    std::vector<FoundCubin> find_cubins(const std::string& key) const;
    // Measurements of every file.
    std::vector<MeasurementRecord> measurements(const std::string& device_fingerprint, const std::string& problem_key,
                                                const Provenance& current) const;

    // Warns, once per bundle and device, about a bundle whose entries for `device_fingerprint` are all or partly
    // of another provenance (another jitgemm, kernel-source, NVRTC or driver version): they are not used, and a
    // deployment that shipped them would otherwise compile or tune without a word. Never throws.
    void report_unusable_bundle_entries(const std::string& device_fingerprint, const CurrentProvenance& current) const;

private:
    std::unique_ptr<TuningCache> writable_;
    std::vector<std::unique_ptr<TuningCache>> bundles_;
};

}  // namespace jitgemm::cache
