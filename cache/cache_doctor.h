// Checking and pruning a tuning-cache file. The doctor only reads: SQLite's integrity check, what the file holds,
// every cubin's bytes (as they are checked before loading), which of the running machine's entries are current or
// stale, and records that contradict each other. Pruning
// deletes only what explicit rules name, in one transaction, and can be run dry first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cache/cache_records.h"
#include "cache/tuning_cache.h"

namespace jitgemm::cache {

struct DoctorReport {
    int schema_version = 0;
    bool integrity_ok = false;
    std::string integrity_detail;  // SQLite's first complaint when the check failed
    std::size_t selections = 0, cubins = 0, measurements = 0, untuned = 0;
    // Selections of the running device (given to doctor): under the current provenance, and under any other.
    int current_selections = 0, stale_selections = 0;
    // Findings for people, one line each: a selection whose cubin is missing (it can never be served), cubins that
    // no selection uses (harmless; `prune --unreferenced-cubins` removes them; run-time-shape variants, which serve
    // without a selection, are not counted among them and stay).
    std::vector<std::string> problems;
    // What is wrong with the data itself, one line each: cubins that fail cache/cubin_check.h (damaged_cubins counts
    // them), selections whose cubin is of another configuration, selections with impossible values. None of these is
    // ever served; a file with any is not healthy.
    int damaged_cubins = 0;
    std::vector<std::string> damage;
    bool healthy() const { return integrity_ok && damage.empty(); }
};

// Examines `cache`. With `current` and `device_fingerprint` (a machine with a GPU), counts that device's selections
// as current or stale; without them, those counts stay 0.
DoctorReport doctor(const TuningCache& cache, const std::optional<CurrentProvenance>& current,
                    const std::string& device_fingerprint);

// What prune removes; rules combine (a record goes when any rule names it).
struct PrunePlan {
    // Selections, measurements and untuned records of `device_fingerprint` whose provenance is not `current`: what
    // this machine will never use again. Other devices' entries are never stale here (this machine cannot judge).
    bool stale = false;
    CurrentProvenance current;
    std::string device_fingerprint;
    // Selections tuned before this time, with the measurements of the same search (device, problem, provenance),
    // and measurements taken before it; 0 for no such rule.
    std::int64_t older_than_unix = 0;
    // Cubins that no selection uses once the rules above have run, but for run-time-shape variants (cache_records.h).
    bool unreferenced_cubins = false;
    // Count and describe what would go, and change nothing.
    bool dry_run = true;
};

struct PruneResult {
    int selections_removed = 0, measurements_removed = 0, untuned_removed = 0, cubins_removed = 0;
    std::vector<std::string> removed;  // one line per selection and cubin removed (or that would be)
};

// Applies `plan` to `cache` (ReadWrite) in one transaction. A dry run applies it to an in-memory copy instead and
// never writes to the file, which may then be open ReadOnly.
PruneResult prune(TuningCache& cache, const PrunePlan& plan);

}  // namespace jitgemm::cache
