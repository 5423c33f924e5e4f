// The doctor's checks and the prune rules, run on the cache's own connection.
#include "cache/cache_doctor.h"

#include <sqlite3.h>

#include <map>
#include <set>

#include "cache/cache_connection.h"
#include "cache/cubin_check.h"
#include "cache/record_sanity.h"
#include "cache/record_columns.h"
#include "cache/schema.h"
#include "cache/sqlite_handles.h"

namespace jitgemm::cache {
namespace {

std::size_t count_rows(sqlite3* db, const std::string& path, const std::string& table) {
    Statement statement(db, path, "SELECT count(*) FROM " + table);
    statement.step();
    return static_cast<std::size_t>(statement.column_int());
}

std::vector<SelectionRecord> read_selections(sqlite3* db, const std::string& path) {
    static const std::string sql = "SELECT " + selection_columns() + " FROM selections ORDER BY device_fingerprint, "
                                   "problem_key, " + provenance_column_names();
    Statement statement(db, path, sql);
    std::vector<SelectionRecord> selections;
    while (statement.step()) selections.push_back(read_selection(statement));
    return selections;
}

std::vector<std::string> read_texts(sqlite3* db, const std::string& path, const std::string& sql) {
    Statement statement(db, path, sql);
    std::vector<std::string> texts;
    while (statement.step()) texts.push_back(statement.column_text());
    return texts;
}

std::string describe_selection(const SelectionRecord& s) {
    return "selection " + s.device_fingerprint + " " + s.problem_key + " -> " + s.config + " (" +
           describe(s.provenance) + ")";
}

// Runs a DELETE bound by `bind` and returns how many rows it removed.
template <typename Bind>
int delete_rows(sqlite3* db, const std::string& path, const std::string& sql, Bind bind) {
    Statement statement(db, path, sql);
    bind(statement);
    statement.run();
    return statement.changes();
}

// Deletes the rows of `table` (measurements or untuned) of one device whose provenance is not the current one of
// their problem; returns how many went. Each (problem, provenance) of the device is judged once, then deleted whole.
int delete_stale(sqlite3* db, const std::string& path, const std::string& table, const std::string& device,
                 const CurrentProvenance& current) {
    Statement groups(db, path, "SELECT DISTINCT problem_key, " + provenance_column_names() + " FROM " + table +
                                   " WHERE device_fingerprint = ?");
    groups.bind_text(device);
    std::vector<std::pair<std::string, Provenance>> stale;
    while (groups.step()) {
        std::string key = groups.column_text();
        Provenance provenance = read_provenance(groups);
        if (!current.is_current(key, provenance)) stale.emplace_back(std::move(key), std::move(provenance));
    }
    int removed = 0;
    for (const auto& group : stale)  // not a structured binding: C++17 lambdas cannot capture those
        removed += delete_rows(db, path, "DELETE FROM " + table + " WHERE " + problem_match(),
                               [&](Statement& st) { bind_problem(st, device, group.first, group.second); });
    return removed;
}

}  // namespace

DoctorReport doctor(const TuningCache& cache, const std::optional<CurrentProvenance>& current,
                    const std::string& device_fingerprint) {
    const CacheConnection connection(cache);
    sqlite3* db = connection.db();
    const std::string& path = connection.path();
    DoctorReport r;
    r.schema_version = read_schema_version(db, path);
    {
        Statement check(db, path, "PRAGMA integrity_check(10)");
        while (check.step()) {
            const std::string line = check.column_text();
            if (line == "ok") continue;
            r.integrity_detail += (r.integrity_detail.empty() ? "" : "; ") + line;
        }
        r.integrity_ok = r.integrity_detail.empty();
    }
    r.selections = count_rows(db, path, "selections");
    r.cubins = count_rows(db, path, "cubins");
    r.measurements = count_rows(db, path, "measurements");
    r.untuned = count_rows(db, path, "untuned");

    // Every blob is checked as it would be before it reaches the driver (cache/cubin_check.h), one row at a time.
    std::map<std::string, std::string> cubin_configs;  // key -> configuration
    {
        static const std::string sql = "SELECT " + cubin_columns() + " FROM cubins ORDER BY key";
        Statement statement(db, path, sql);
        while (statement.step()) {
            const CubinRecord cubin = read_cubin(statement);
            cubin_configs[cubin.key] = cubin.config;
            if (const auto defect = cubin_record_defect(cubin)) {
                ++r.damaged_cubins;
                r.damage.push_back("damaged cubin " + cubin.key + " (" + cubin.config + "): " + *defect +
                                   "; it is never loaded, and compiling or merging a sound copy replaces it");
            }
        }
    }
    std::set<std::string> used;
    for (const SelectionRecord& s : read_selections(db, path)) {
        used.insert(s.cubin_key);
        const auto cubin = cubin_configs.find(s.cubin_key);
        if (cubin == cubin_configs.end())
            r.problems.push_back("missing cubin " + s.cubin_key + " of the " + describe_selection(s) +
                                 ": it cannot be served");
        else if (cubin->second != s.config)
            r.damage.push_back("the " + describe_selection(s) + " names cubin " + s.cubin_key + ", which is of " +
                               cubin->second + "; it is never served");
        if (const auto defect = selection_defect(s))
            r.damage.push_back("the " + describe_selection(s) + " is impossible: " + *defect);
        if (current && s.device_fingerprint == device_fingerprint)
            ++(current->is_current(s.problem_key, s.provenance) ? r.current_selections : r.stale_selections);
    }
    int unreferenced = 0;
    for (const auto& [key, config] : cubin_configs)
        unreferenced += used.count(key) == 0 && config.find(kRuntimeVariantMarker) == std::string::npos ? 1 : 0;
    if (unreferenced > 0)
        r.problems.push_back(std::to_string(unreferenced) +
                             " cubins are used by no selection (heuristic defaults, replaced winners); harmless, "
                             "`jitgemm cache prune --unreferenced-cubins` removes them");
    return r;
}

namespace {

// The rules of `plan` on the connection `db`, in one transaction, committed unless `commit` is false.
PruneResult prune_on(sqlite3* db, const std::string& path, const PrunePlan& plan, bool commit) {
    PruneResult r;
    Transaction transaction(db, path);

    static const std::string delete_selection = "DELETE FROM selections WHERE " + problem_match();
    static const std::string delete_search = "DELETE FROM measurements WHERE " + problem_match();
    for (const SelectionRecord& s : read_selections(db, path)) {
        const bool stale = plan.stale && s.device_fingerprint == plan.device_fingerprint &&
                           !plan.current.is_current(s.problem_key, s.provenance);
        const bool old = plan.older_than_unix != 0 && s.tuned_at_unix < plan.older_than_unix;
        if (!stale && !old) continue;
        const auto bind = [&](Statement& st) { bind_problem(st, s.device_fingerprint, s.problem_key, s.provenance); };
        r.selections_removed += delete_rows(db, path, delete_selection, bind);
        r.measurements_removed += delete_rows(db, path, delete_search, bind);
        r.removed.push_back(describe_selection(s));
    }
    if (plan.stale) {
        r.measurements_removed += delete_stale(db, path, "measurements", plan.device_fingerprint, plan.current);
        r.untuned_removed += delete_stale(db, path, "untuned", plan.device_fingerprint, plan.current);
    }
    if (plan.older_than_unix != 0) {
        const auto bind = [&](Statement& st) { st.bind_int(plan.older_than_unix); };
        r.measurements_removed += delete_rows(db, path, "DELETE FROM measurements WHERE measured_at < ?", bind);
    }
    if (plan.unreferenced_cubins) {
        // Run-time-shape variants serve without a selection (cache_records.h): they stay.
        const std::string unused = "key NOT IN (SELECT cubin_key FROM selections) AND instr(config, '" +
                                   std::string(kRuntimeVariantMarker) + "') = 0";
        for (const std::string& key : read_texts(db, path, std::string("SELECT key FROM cubins WHERE ") + unused))
            r.removed.push_back("cubin " + key);
        r.cubins_removed = delete_rows(db, path, std::string("DELETE FROM cubins WHERE ") + unused, [](Statement&) {});
    }
    if (commit) transaction.commit();
    return r;
}

// A dry run works on an in-memory copy of the file (sqlite3_backup), brought to the current schema there, so that it
// runs exactly the statements of the real prune and still cannot write to the file, which may be open ReadOnly. The
// copy costs memory the size of the file, for the moment of the dry run.
PruneResult prune_copy(const CacheConnection& connection, const PrunePlan& plan) {
    sqlite3* memory = nullptr;
    const int opened = sqlite3_open(":memory:", &memory);
    const Connection copy(memory);
    const std::string label = connection.path() + " (in-memory copy for a dry run)";
    check(opened, memory, label, "open a connection");
    sqlite3_backup* backup = sqlite3_backup_init(memory, "main", connection.db(), "main");
    if (backup == nullptr) check(sqlite3_errcode(memory), memory, label, "copy the cache");
    sqlite3_backup_step(backup, -1);
    check(sqlite3_backup_finish(backup), memory, label, "copy the cache");
    bring_to_current_schema(memory, label, read_schema_version(memory, label));
    return prune_on(memory, label, plan, false);
}

}  // namespace

PruneResult prune(TuningCache& cache, const PrunePlan& plan) {
    if (!plan.dry_run) require_writable(cache);
    const CacheConnection connection(cache);
    if (plan.dry_run) return prune_copy(connection, plan);
    return prune_on(connection.db(), connection.path(), plan, true);
}

}  // namespace jitgemm::cache
