// Export and merge: both write a CacheContents into a cache file with the same rules (merge_contents below), an
// export into a fresh partial file that is published only when complete, a merge into an existing cache.
#include "cache/cache_transfer.h"

#include <cctype>
#include <map>
#include <tuple>

#include "cache/cache_connection.h"
#include "cache/cache_contents.h"
#include "cache/partial_file.h"
#include "cache/record_sanity.h"
#include "cache/record_columns.h"
#include "cache/record_writes.h"
#include "cache/sqlite_handles.h"
#include "jitgemm/error.h"

namespace jitgemm::cache {
namespace {

bool is_decimal(const std::string& text) {
    if (text.empty()) return false;
    for (const char c : text)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

// "_m4096.n4096.k4096_" for "4096x4096x4096"; throws for anything but three decimal numbers joined by 'x'.
std::string shape_fragment(const std::string& shape) {
    const auto first = shape.find('x');
    const auto second = first == std::string::npos ? std::string::npos : shape.find('x', first + 1);
    const std::string m = shape.substr(0, first);
    const std::string n = first == std::string::npos ? "" : shape.substr(first + 1, second - first - 1);
    const std::string k = second == std::string::npos ? "" : shape.substr(second + 1);
    if (!is_decimal(m) || !is_decimal(n) || !is_decimal(k))
        throw Error(ErrorCode::CacheError,
                    "jitgemm: the shape filter \"" + shape + "\" is not MxNxK (three whole numbers joined by 'x').");
    return "_m" + m + ".n" + n + ".k" + k + "_";
}

// Where a problem key's text starts after its version token ("v2_"); 0 for a key of version 1, which has none. No
// dtype name starts with 'v', so the token cannot be mistaken for one.
std::size_t after_version_token(const std::string& problem_key) {
    if (problem_key.empty() || problem_key[0] != 'v') return 0;
    std::size_t end = 1;
    while (end < problem_key.size() && std::isdigit(static_cast<unsigned char>(problem_key[end]))) ++end;
    return end > 1 && end < problem_key.size() && problem_key[end] == '_' ? end + 1 : 0;
}

// The dtype part of a problem key is its first '_'-separated field after the version token, "f32.f32.f32.f32";
// `prefix` must match whole dot-separated names from its start.
bool dtype_matches(const std::string& problem_key, const std::string& prefix) {
    const std::size_t start = after_version_token(problem_key);
    const std::string dtypes = problem_key.substr(start, problem_key.find('_', start) - start);
    if (dtypes.compare(0, prefix.size(), prefix) != 0) return false;
    return dtypes.size() == prefix.size() || dtypes[prefix.size()] == '.';
}

// How many measurements equal to `m` in every column the connection's cache holds.
int count_equal_measurements(sqlite3* db, const std::string& path, const MeasurementRecord& m) {
    static const std::string sql = "SELECT count(*) FROM measurements WHERE " + column_match(measurement_columns());
    Statement statement(db, path, sql);
    bind_measurement(statement, m);
    statement.step();
    return static_cast<int>(statement.column_int());
}

std::optional<UntunedRecord> stored_untuned(sqlite3* db, const std::string& path, const UntunedRecord& u) {
    static const std::string sql = "SELECT " + untuned_columns() + " FROM untuned WHERE " + problem_match();
    Statement statement(db, path, sql);
    bind_problem(statement, u.device_fingerprint, u.problem_key, u.provenance);
    if (!statement.step()) return std::nullopt;
    return read_untuned(statement);
}

std::optional<CeilingRecord> stored_ceiling(sqlite3* db, const std::string& path, const CeilingRecord& c) {
    static const std::string sql = "SELECT " + ceiling_columns() + " FROM ceilings WHERE " + ceiling_match();
    Statement statement(db, path, sql);
    bind_ceiling_key(statement, c.device_fingerprint, c.driver_version, c.name);
    if (!statement.step()) return std::nullopt;
    return read_ceiling(statement);
}

// Every measured field, for counting copies of one measurement.
using MeasurementIdentity = std::tuple<std::string, std::string, std::string, std::string, double, std::string,
                                       std::string, std::string, std::string, std::string, std::string, int,
                                       std::int64_t>;
MeasurementIdentity identity(const MeasurementRecord& m) {
    const Provenance& p = m.provenance;
    return {m.device_fingerprint, m.problem_key,      std::string(to_string(m.outcome)),
            m.config,             m.time_ms,          m.detail,
            p.library_version,    p.kernel_sources_hash, p.nvrtc_version,
            p.driver_version,     p.device_name,      p.sm_count,
            m.measured_at_unix};
}

void merge_measurements(sqlite3* db, const std::string& path, const std::vector<MeasurementRecord>& measurements,
                        TransferReport& report) {
    // Copies of one measurement in the source, against copies already in the target: the target keeps the larger
    // number, so merging the same file twice adds nothing the second time.
    std::map<MeasurementIdentity, std::pair<int, int>> copies;  // identity -> (seen in source, present in target)
    std::vector<MeasurementRecord> to_insert;
    for (const MeasurementRecord& m : measurements) {
        auto [it, first] = copies.try_emplace(identity(m), 0, 0);
        if (first) it->second.second = count_equal_measurements(db, path, m);
        if (++it->second.first > it->second.second) {
            to_insert.push_back(m);
            ++report.measurements_added;
        } else {
            ++report.measurements_duplicate;
        }
    }
    insert_measurements(db, path, to_insert);
}

void merge_untuned(sqlite3* db, const std::string& path, const UntunedRecord& u, TransferReport& report) {
    const auto stored = stored_untuned(db, path, u);
    if (!stored) {
        replace_untuned(db, path, u);
        ++report.untuned_added;
        return;
    }
    UntunedRecord merged = *stored;
    merged.calls = std::max(stored->calls, u.calls);
    merged.first_seen_unix = std::min(stored->first_seen_unix, u.first_seen_unix);
    merged.last_seen_unix = std::max(stored->last_seen_unix, u.last_seen_unix);
    if (merged.calls == stored->calls && merged.first_seen_unix == stored->first_seen_unix &&
        merged.last_seen_unix == stored->last_seen_unix)
        return;
    replace_untuned(db, path, merged);
    ++report.untuned_updated;
}

void merge_ceiling(sqlite3* db, const std::string& path, const CeilingRecord& c, TransferReport& report) {
    const auto stored = stored_ceiling(db, path, c);
    if (stored && stored->measured_at_unix >= c.measured_at_unix) return;
    replace_ceiling(db, path, c);
    ++(stored ? report.ceilings_replaced : report.ceilings_added);
}

void reject(TransferReport& report, int& count, const std::string& what, const std::string& why) {
    ++count;
    report.rejections.push_back(what + ": " + why);
}

// Writes `contents` into the cache of `connection` by the rules cache_transfer.h gives for merge_into, inside one
// transaction: all of it or, on an error, none.
TransferReport merge_contents(const CacheConnection& connection, const CacheContents& contents) {
    sqlite3* db = connection.db();
    const std::string& path = connection.path();
    TransferReport report;
    Transaction transaction(db, path);
    std::map<std::string, std::string> cubin_configs;  // key -> configuration, of the cubins copied or present
    for (const CubinRecord& cubin : contents.cubins) {
        const CubinWrite write = insert_cubin(db, path, cubin);
        if (write.result == CubinWrite::Rejected) {
            reject(report, report.cubins_rejected, "cubin " + cubin.key + " (" + cubin.config + ")", write.defect);
            continue;
        }
        cubin_configs[cubin.key] = cubin.config;
        if (write.result == CubinWrite::Added) ++report.cubins_added;
        if (write.result == CubinWrite::Repaired) ++report.cubins_repaired;
    }
    std::vector<MeasurementRecord> measurements;
    for (const MeasurementRecord& m : contents.measurements) {
        if (auto defect = measurement_defect(m))
            reject(report, report.measurements_rejected, "measurement of " + m.config + " for " + m.problem_key,
                   *defect);
        else
            measurements.push_back(m);
    }
    merge_measurements(db, path, measurements, report);
    for (const SelectionRecord& s : contents.selections) {
        const auto cubin = cubin_configs.find(s.cubin_key);
        std::optional<std::string> defect = selection_defect(s);
        if (!defect && cubin == cubin_configs.end()) defect = "its cubin " + s.cubin_key + " was refused";
        if (!defect && cubin->second != s.config) defect = "its cubin " + s.cubin_key + " is of " + cubin->second;
        if (defect) {
            reject(report, report.selections_rejected, "selection " + s.config + " for " + s.problem_key, *defect);
            continue;
        }
        switch (compare_with_stored(db, path, s)) {
            case StoredSelection::None:
                replace_selection(db, path, s);
                ++report.selections_added;
                break;
            case StoredSelection::Worse:
                replace_selection(db, path, s);
                ++report.selections_replaced;
                break;
            case StoredSelection::Better:
                ++report.selections_kept;
                break;
        }
    }
    for (const UntunedRecord& u : contents.untuned) merge_untuned(db, path, u, report);
    for (const CeilingRecord& c : contents.ceilings) {
        if (auto defect = ceiling_defect(c))
            reject(report, report.ceilings_rejected, "ceiling " + c.name + " of " + c.device_fingerprint, *defect);
        else
            merge_ceiling(db, path, c, report);
    }
    transaction.commit();
    return report;
}

}  // namespace

bool SelectionFilter::matches(const SelectionRecord& s) const {
    const std::string fragment = shape.empty() ? std::string() : shape_fragment(shape);
    if (!device.empty() && s.device_fingerprint.find(device) == std::string::npos) return false;
    if (!dtype.empty() && !dtype_matches(s.problem_key, dtype)) return false;
    if (!fragment.empty() && s.problem_key.find(fragment) == std::string::npos) return false;
    if (!problem.empty() && s.problem_key.find(problem) == std::string::npos) return false;
    return true;
}

std::string TransferReport::describe() const {
    return std::to_string(selections_added) + " selections added, " + std::to_string(selections_replaced) +
           " replaced, " + std::to_string(selections_kept) + " kept; " + std::to_string(cubins_added) + " cubins; " +
           std::to_string(measurements_added) + " measurements (" + std::to_string(measurements_duplicate) +
           " duplicates); " + std::to_string(untuned_added) + " untuned problems added, " +
           std::to_string(untuned_updated) + " updated; " + std::to_string(ceilings_added) + " ceilings added, " +
           std::to_string(ceilings_replaced) + " replaced" +
           (cubins_repaired > 0 ? "; " + std::to_string(cubins_repaired) + " damaged cubins repaired" : "") +
           (rejections.empty()
                ? ""
                : "; refused as untrustworthy: " + std::to_string(cubins_rejected) + " cubins, " +
                      std::to_string(selections_rejected) + " selections, " + std::to_string(measurements_rejected) +
                      " measurements, " + std::to_string(ceilings_rejected) + " ceilings");
}

TransferReport export_bundle(const TuningCache& source, const std::string& bundle_path,
                             const SelectionFilter& filter) {
    const CacheContents contents =
        read_selected_contents(source, filter, "nothing was exported to " + bundle_path);
    PartialFile partial(bundle_path);
    TransferReport report;
    {
        const auto bundle = TuningCache::open(partial.partial_path(), TuningCache::Access::ReadWrite);
        const CacheConnection connection(*bundle);
        report = merge_contents(connection, contents);
        // One self-contained file: no -wal beside it once the connection closes.
        execute(connection.db(), connection.path(), "PRAGMA journal_mode = DELETE");
    }
    partial.publish();
    return report;
}

TransferReport merge_into(TuningCache& target, const TuningCache& source) {
    require_writable(target);
    const CacheContents contents = read_contents(source);
    require_cubins_of_selections(contents, source.path(), "nothing was merged into " + target.path());
    const CacheConnection connection(target);
    return merge_contents(connection, contents);
}

}  // namespace jitgemm::cache
