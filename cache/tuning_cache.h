// TuningCache: one SQLite file of tuning results — selections (device fingerprint x problem -> winner), cubins,
// every candidate's measurement and the measured ceilings of devices — shared safely by many threads and processes.
// Export, merge and import of whole caches are in cache_transfer.h; checking and pruning in cache_doctor.h.
//
// The schema is versioned with PRAGMA user_version and migrated forward on open (cache/schema.cpp). WAL journaling,
// a busy timeout and one transaction per write let several processes tune into and read one file at once without
// losing or corrupting anything. sqlite3.h never reaches this header.
//
// Bad files: a ReadWrite file that is not a SQLite database, is truncated or fails its integrity check is renamed
// aside (to "<path>.corrupt-<unix time>", never deleted) with a warning on stderr, and a fresh cache is created in
// its place; a ReadOnly bundle in that state throws Error(CacheError). A file written by a newer jitgemm (a
// user_version above ours) is never modified: opening it ReadWrite throws Error(CacheError).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cache/cache_records.h"

struct sqlite3;

namespace jitgemm::cache {

class TuningCache {
public:
    enum class Access { ReadWrite, ReadOnly };

    // Opens `path`; ReadWrite creates the file and its parent directories if needed. Throws Error(CacheError) with
    // the path and SQLite's message when it cannot.
    static std::unique_ptr<TuningCache> open(const std::string& path, Access access);
    // An empty ReadOnly cache, in memory, that goes by `path`: what a cache file that does not exist yet reads as
    // (the command's read-only subcommands on a fresh machine). Nothing is created on disk.
    static std::unique_ptr<TuningCache> empty(const std::string& path);
    ~TuningCache();
    TuningCache(const TuningCache&) = delete;
    TuningCache& operator=(const TuningCache&) = delete;

    // How long a write waits for other connections' writes to the same file before it fails with "database is
    // locked" (SQLite's busy timeout, which retries with growing sleeps). The default suits writes made on a GEMM
    // call's path; bulk writers that many processes may run at once on one file (import, merge, tune) wait longer,
    // since one such transaction may queue behind fifteen others.
    static constexpr int kDefaultLockWaitMs = 10'000;
    static constexpr int kBulkLockWaitMs = 600'000;
    void set_lock_wait_ms(int milliseconds);

    const std::string& path() const { return path_; }
    Access access() const { return access_; }
    int schema_version() const;

    // The selection for this device and problem recorded under exactly `current` provenance, if any.
    std::optional<SelectionRecord> find_selection(const std::string& device_fingerprint,
                                                  const std::string& problem_key, const Provenance& current) const;
    std::optional<CubinRecord> find_cubin(const std::string& key) const;
    // The problem keys that have a selection for this device, under any provenance, in key order.
    std::vector<std::string> selected_problem_keys(const std::string& device_fingerprint) const;
    // Every measurement of this device, problem and provenance (all candidates ever evaluated), oldest first.
    std::vector<MeasurementRecord> measurements(const std::string& device_fingerprint, const std::string& problem_key,
                                                const Provenance& current) const;

    // In one transaction: stores the cubin (if its key is new), appends the measurements, and stores the selection
    // unless one with the same device, problem and provenance is better (complete beats incomplete; then the
    // faster wins). Returns true when the given selection is the one stored.
    bool record_tuning(const SelectionRecord& selection, const CubinRecord& cubin,
                       const std::vector<MeasurementRecord>& measurements);
    // Appends measurements alone (a search that found no winner still records its failures).
    void record_measurements(const std::vector<MeasurementRecord>& measurements);
    // Stores a cubin unless its key is present.
    void put_cubin(const CubinRecord& cubin);
    // Counts a call served untuned: inserts the problem or bumps its count and last-seen time.
    void record_untuned(const std::string& device_fingerprint, const std::string& problem_key,
                        const Provenance& provenance);

    // Measured ceilings of a device ("copy_bytes_per_s", "fp32_flops", ...), kept so they are measured once per driver.
    // record_ceiling stores `value`, measured now, in place of the value of the same device, driver and name: that
    // is a re-measurement of the same quantity.
    void record_ceiling(const std::string& device_fingerprint, const std::string& driver_version,
                        const std::string& name, double value);
    std::optional<double> find_ceiling(const std::string& device_fingerprint, const std::string& driver_version,
                                       const std::string& name) const;

    // Everything, for listing, export and merge (any device, any provenance).
    std::vector<SelectionRecord> all_selections() const;    // by device, problem, provenance
    std::vector<CubinRecord> all_cubins() const;            // with images; by key
    std::vector<MeasurementRecord> all_measurements() const;  // in the order they were recorded
    std::vector<UntunedRecord> all_untuned() const;         // by device, problem, provenance
    std::vector<CeilingRecord> all_ceilings() const;        // by device, driver, name
    std::size_t measurement_count() const;
    std::size_t cubin_count() const;

private:
    friend class CacheConnection;  // cache/cache_connection.h: the cache's own multi-statement operations

    TuningCache(std::string path, Access access, sqlite3* db);
    std::string path_;
    Access access_;
    sqlite3* db_;
    mutable std::mutex mutex_;  // one connection, used from many threads
};

// Where the writable cache lives: $JITGEMM_CACHE (a directory), else $XDG_CACHE_HOME/jitgemm, else
// ~/.cache/jitgemm; the file inside is "tuning.sqlite".
std::string default_cache_path();

// Read-only bundles shipped with a deployment: the entries of $JITGEMM_CACHE_PATH (':'-separated), each a cache file
// or a directory whose *.sqlite files are taken in name order. They rank below the writable cache.
std::vector<std::string> bundle_paths();

// The current schema version (PRAGMA user_version of a fresh cache).
int current_schema_version();

}  // namespace jitgemm::cache
