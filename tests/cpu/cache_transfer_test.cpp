// Moving tuning results between cache files and looking after one: export_bundle and merge_into keep every rule of
// the cache (the better selection per device, problem and provenance; other devices and provenances untouched;
// measurements never doubled by merging twice; the later ceiling; a failure changes nothing and leaves no file),
// SelectionFilter takes what its fields name, and doctor and prune examine and remove exactly what they say.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cache/cache_doctor.h"
#include "cache/cache_transfer.h"
#include "cache/cubin_check.h"
#include "cache/schema.h"
#include "cache/tuning_cache.h"
#include "jitgemm/error.h"
#include "support/cache_test_files.h"

namespace jitgemm::cache {
namespace {

namespace fs = std::filesystem;
using namespace cache_test;

// ---- files ----

std::unique_ptr<TuningCache> open_rw(const std::string& path) {
    return TuningCache::open(path, TuningCache::Access::ReadWrite);
}
std::unique_ptr<TuningCache> open_ro(const std::string& path) {
    return TuningCache::open(path, TuningCache::Access::ReadOnly);
}

// ---- records ----

const std::string kH200 = "NVIDIA H200/cc9.0/sm132";
const std::string kA100 = "NVIDIA A100-SXM4-80GB/cc8.0/sm108";
const Provenance kCurrent{"0.2.0", "sources-5f3a", "13.0", "13.1", "NVIDIA H200", 132};
const Provenance kOld{"0.1.0", "sources-0c1d", "12.8", "12.9", "NVIDIA H200", 132};
const Provenance kA100Current{"0.2.0", "sources-5f3a", "13.0", "13.1", "NVIDIA A100-SXM4-80GB", 108};

const std::string kF32 = "f32.f32.f32.f32";
const std::string kF16 = "f16.f16.f32.f32";

// A problem key as Problem::key() writes it (version 2: "v2_" first).
std::string key(const std::string& dtypes, int m, int n, int k) {
    const auto s = [](int v) { return std::to_string(v); };
    return "v2_" + dtypes + "_nn_m" + s(m) + ".n" + s(n) + ".k" + s(k) + "_ld" + s(m) + "." + s(k) + "." + s(m) +
           "_a1.b0_al16.16.16";
}
const std::string kBig = key(kF32, 4096, 4096, 4096);
const std::string kSmall = key(kF32, 1024, 1024, 1024);
const std::string kHalf = key(kF16, 4096, 4096, 4096);

SelectionRecord selection(const std::string& device, const Provenance& provenance, const std::string& problem,
                          const std::string& config, double time_ms, bool complete,
                          std::int64_t tuned_at = 1700000000) {
    SelectionRecord s;
    s.device_fingerprint = device;
    s.problem_key = problem;
    s.config = config;
    s.cubin_key = "cubin-" + config;
    s.time_ms = time_ms;
    s.tflops = 100.0 / time_ms;
    s.tuned_at_unix = tuned_at;
    s.search_seconds = 7.5;
    s.candidates_measured = complete ? 40 : 12;
    s.candidates_total = 40;
    s.search_complete = complete;
    s.provenance = provenance;
    return s;
}

std::string hex(const std::string& bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (const unsigned char c : bytes) out += {digits[c >> 4], digits[c & 15]};
    return out;
}

// The cubin of a selection of configuration X is keyed "cubin-X" (selection above) and is of configuration X.
CubinRecord cubin(const std::string& key) {
    const std::string config = key.rfind("cubin-", 0) == 0 ? key.substr(6) : "config-of-" + key;
    return {key,           "sm_90a", "jg_regblock", config, "13.0", "sources-5f3a",
            fake_cubin("jg_regblock", "sm_90a", "ELF of " + key), 1700000001, {}};
}

MeasurementRecord measurement(const std::string& device, const Provenance& provenance, const std::string& problem,
                              const std::string& config, std::int64_t measured_at,
                              CandidateOutcome outcome = CandidateOutcome::Passed) {
    return {device,
            problem,
            config,
            outcome,
            outcome == CandidateOutcome::Passed ? 0.5 : 0.0,
            "regs=96",
            provenance,
            measured_at};
}

UntunedRecord untuned(const std::string& device, const Provenance& provenance, const std::string& problem,
                      std::int64_t first_seen, std::int64_t last_seen, std::int64_t calls) {
    return {device, problem, provenance, first_seen, last_seen, calls};
}

CeilingRecord ceiling(const std::string& device, const std::string& name, double value, std::int64_t measured_at) {
    return {device, "13.1", name, value, measured_at};
}

// What to write into a cache file. Every selection's cubin is stored with it ("cubin-<config>"); `cubins` are extra.
struct Records {
    std::vector<SelectionRecord> selections;
    std::vector<CubinRecord> cubins;
    std::vector<MeasurementRecord> measurements;
    std::vector<UntunedRecord> untuned;
    std::vector<CeilingRecord> ceilings;
};

std::string q(const std::string& text) { return "'" + text + "'"; }
std::string q(std::int64_t number) { return std::to_string(number); }
std::string number(double value) {
    std::ostringstream out;
    out << std::setprecision(17) << value;
    return out.str();
}

// Untuned records and ceilings carry times that record_untuned and record_ceiling would set to now: written by SQL.
void put_untuned(const std::string& path, const UntunedRecord& u) {
    const Provenance& p = u.provenance;
    run_sql(path,
            "INSERT OR REPLACE INTO untuned (device_fingerprint, problem_key, library_version, kernel_sources_hash, "
            "nvrtc_version, driver_version, device_name, sm_count, first_seen, last_seen, calls) VALUES (" +
                q(u.device_fingerprint) + ", " + q(u.problem_key) + ", " + q(p.library_version) + ", " +
                q(p.kernel_sources_hash) + ", " + q(p.nvrtc_version) + ", " + q(p.driver_version) + ", " +
                q(p.device_name) + ", " + q(p.sm_count) + ", " + q(u.first_seen_unix) + ", " + q(u.last_seen_unix) +
                ", " + q(u.calls) + ")");
}

void put_ceiling(const std::string& path, const CeilingRecord& c) {
    run_sql(path, "INSERT OR REPLACE INTO ceilings (device_fingerprint, driver_version, name, value, measured_at) "
                  "VALUES (" +
                      q(c.device_fingerprint) + ", " + q(c.driver_version) + ", " + q(c.name) + ", " +
                      number(c.value) + ", " + q(c.measured_at_unix) + ")");
}

void write_records(const std::string& path, const Records& r) {
    {
        const auto cache = open_rw(path);
        for (const CubinRecord& c : r.cubins) cache->put_cubin(c);
        if (!r.measurements.empty()) cache->record_measurements(r.measurements);
        for (const SelectionRecord& s : r.selections) cache->record_tuning(s, cubin(s.cubin_key), {});
    }
    for (const UntunedRecord& u : r.untuned) put_untuned(path, u);
    for (const CeilingRecord& c : r.ceilings) put_ceiling(path, c);
}

void delete_cubin(const std::string& path, const std::string& key) {
    run_sql(path, "DELETE FROM cubins WHERE key = " + q(key));
}

// ---- every field of every record, as text, for comparing whole caches ----

std::string text(const Provenance& p) {
    return p.library_version + "," + p.kernel_sources_hash + "," + p.nvrtc_version + "," + p.driver_version + "," +
           p.device_name + "," + std::to_string(p.sm_count);
}
std::string text(const SelectionRecord& s) {
    return s.device_fingerprint + "|" + s.problem_key + "|" + s.config + "|" + s.cubin_key + "|" + number(s.time_ms) +
           "|" + number(s.tflops) + "|" + q(s.tuned_at_unix) + "|" + number(s.search_seconds) + "|" +
           std::to_string(s.candidates_measured) + "|" + std::to_string(s.candidates_total) + "|" +
           (s.search_complete ? "complete" : "incomplete") + "|" + text(s.provenance);
}
std::string text(const CubinRecord& c) {
    return c.key + "|" + c.arch + "|" + c.kernel_symbol + "|" + c.config + "|" + c.nvrtc_version + "|" +
           c.kernel_sources_hash + "|" + c.image + "|" + q(c.created_at_unix);
}
std::string text(const MeasurementRecord& m) {
    return m.device_fingerprint + "|" + m.problem_key + "|" + m.config + "|" + std::string(to_string(m.outcome)) +
           "|" + number(m.time_ms) + "|" + m.detail + "|" + text(m.provenance) + "|" + q(m.measured_at_unix);
}
std::string text(const UntunedRecord& u) {
    return u.device_fingerprint + "|" + u.problem_key + "|" + text(u.provenance) + "|" + q(u.first_seen_unix) + "|" +
           q(u.last_seen_unix) + "|" + q(u.calls);
}
std::string text(const CeilingRecord& c) {
    return c.device_fingerprint + "|" + c.driver_version + "|" + c.name + "|" + number(c.value) + "|" +
           q(c.measured_at_unix);
}

template <typename Record>
std::vector<std::string> texts(const std::vector<Record>& records) {
    std::vector<std::string> out;
    for (const Record& r : records) out.push_back(text(r));
    return out;
}
template <typename Record>
std::vector<std::string> sorted_texts(const std::vector<Record>& records) {
    auto out = texts(records);
    std::sort(out.begin(), out.end());
    return out;
}

struct Snapshot {
    std::vector<std::string> selections, cubins, measurements, untuned, ceilings;
};
Snapshot snapshot(const TuningCache& cache) {
    return {texts(cache.all_selections()), texts(cache.all_cubins()), texts(cache.all_measurements()),
            texts(cache.all_untuned()), texts(cache.all_ceilings())};
}
Snapshot snapshot(const std::string& path) { return snapshot(*open_ro(path)); }

void expect_same(const Snapshot& actual, const Snapshot& expected) {
    EXPECT_EQ(actual.selections, expected.selections);
    EXPECT_EQ(actual.cubins, expected.cubins);
    EXPECT_EQ(actual.measurements, expected.measurements);
    EXPECT_EQ(actual.untuned, expected.untuned);
    EXPECT_EQ(actual.ceilings, expected.ceilings);
}

bool contains(const std::vector<std::string>& texts, const std::string& wanted) {
    return std::find(texts.begin(), texts.end(), wanted) != texts.end();
}

// =====================================================================================================================
// merge_into: selections
// =====================================================================================================================

// A target holding one selection of (H200, kBig, kCurrent), and a source holding another for the same key.
struct KeepBetterCase {
    const char* name;
    bool target_complete;
    double target_time_ms;
    bool source_complete;
    double source_time_ms;
    bool source_wins;
};
void PrintTo(const KeepBetterCase& c, std::ostream* out) { *out << c.name; }

class CacheTransferMergeKeepBetter : public testing::TestWithParam<KeepBetterCase> {};

TEST_P(CacheTransferMergeKeepBetter, StoresTheBetterSelectionAndCountsItAsReplacedOrKept) {
    const KeepBetterCase& c = GetParam();
    TempDir dir;
    const SelectionRecord in_target = selection(kH200, kCurrent, kBig, "target", c.target_time_ms, c.target_complete);
    const SelectionRecord in_source = selection(kH200, kCurrent, kBig, "source", c.source_time_ms, c.source_complete);
    write_records(dir.file("target.sqlite"),
                  {{in_target}, {}, {measurement(kH200, kCurrent, kBig, "target", 10)}, {}, {}});
    write_records(dir.file("source.sqlite"),
                  {{in_source}, {}, {measurement(kH200, kCurrent, kBig, "source", 20)}, {}, {}});

    const auto target = open_rw(dir.file("target.sqlite"));
    const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
    EXPECT_EQ(report.selections_added, 0);
    EXPECT_EQ(report.selections_replaced, c.source_wins ? 1 : 0);
    EXPECT_EQ(report.selections_kept, c.source_wins ? 0 : 1);

    const auto all = target->all_selections();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(text(all[0]), text(c.source_wins ? in_source : in_target));
    // Whichever lost, both cubins and both searches' measurements are there.
    EXPECT_TRUE(target->find_cubin("cubin-target").has_value());
    EXPECT_TRUE(target->find_cubin("cubin-source").has_value());
    EXPECT_EQ(target->measurements(kH200, kBig, kCurrent).size(), 2u);
    EXPECT_EQ(report.cubins_added, 1);
    EXPECT_EQ(report.measurements_added, 1);
}

INSTANTIATE_TEST_SUITE_P(
    CacheTransfer, CacheTransferMergeKeepBetter,
    testing::Values(KeepBetterCase{"CompleteSlowerReplacesIncompleteFaster", false, 1.0, true, 3.0, true},
                    KeepBetterCase{"IncompleteFasterIsKeptOutByCompleteSlower", true, 3.0, false, 1.0, false},
                    KeepBetterCase{"CompleteFasterReplacesCompleteSlower", true, 2.0, true, 1.0, true},
                    KeepBetterCase{"CompleteSlowerIsKeptOutByCompleteFaster", true, 1.0, true, 2.0, false},
                    KeepBetterCase{"IncompleteFasterReplacesIncompleteSlower", false, 2.0, false, 1.0, true},
                    KeepBetterCase{"IncompleteSlowerIsKeptOutByIncompleteFaster", false, 1.0, false, 2.0, false},
                    KeepBetterCase{"EqualTimeKeepsTheTargets", true, 1.0, true, 1.0, false}),
    [](const testing::TestParamInfo<KeepBetterCase>& info) { return std::string(info.param.name); });

TEST(CacheTransferMerge, SelectionsOfOtherDevicesAndProvenancesAreNeverTouched) {
    TempDir dir;
    // The target's entries for the same problem on another device and under another provenance are slow and
    // incomplete; the source's complete, fast H200 result must not replace either of them.
    const SelectionRecord a100 = selection(kA100, kA100Current, kBig, "a100", 9.0, false);
    const SelectionRecord old = selection(kH200, kOld, kBig, "old", 9.0, false);
    const SelectionRecord current = selection(kH200, kCurrent, kBig, "current", 0.5, true);
    write_records(dir.file("target.sqlite"),
                  {{a100, old},
                   {},
                   {measurement(kA100, kA100Current, kBig, "a100", 1), measurement(kH200, kOld, kBig, "old", 2)},
                   {untuned(kA100, kA100Current, kBig, 100, 200, 3)},
                   {ceiling(kA100, "fp32_flops", 19.5e12, 100)}});
    write_records(dir.file("source.sqlite"),
                  {{current},
                   {},
                   {measurement(kH200, kCurrent, kBig, "current", 3)},
                   {untuned(kH200, kCurrent, kBig, 50, 60, 7)},
                   {ceiling(kH200, "fp32_flops", 60e12, 50)}});
    const Snapshot before = snapshot(dir.file("target.sqlite"));

    const auto target = open_rw(dir.file("target.sqlite"));
    const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
    EXPECT_EQ(report.selections_added, 1);
    EXPECT_EQ(report.selections_replaced, 0);
    EXPECT_EQ(report.selections_kept, 0);
    EXPECT_EQ(report.untuned_added, 1);
    EXPECT_EQ(report.untuned_updated, 0);
    EXPECT_EQ(report.ceilings_added, 1);
    EXPECT_EQ(report.ceilings_replaced, 0);

    const Snapshot after = snapshot(*target);
    EXPECT_EQ(after.selections.size(), 3u);
    for (const std::string& s : before.selections) EXPECT_TRUE(contains(after.selections, s)) << s;
    for (const std::string& m : before.measurements) EXPECT_TRUE(contains(after.measurements, m)) << m;
    for (const std::string& u : before.untuned) EXPECT_TRUE(contains(after.untuned, u)) << u;
    for (const std::string& c : before.ceilings) EXPECT_TRUE(contains(after.ceilings, c)) << c;
    EXPECT_TRUE(contains(after.selections, text(current)));
    EXPECT_EQ(target->find_selection(kA100, kBig, kA100Current)->config, "a100");
    EXPECT_EQ(target->find_selection(kH200, kBig, kOld)->config, "old");
    EXPECT_EQ(target->find_selection(kH200, kBig, kCurrent)->config, "current");
}

// =====================================================================================================================
// merge_into: measurements, untuned records, ceilings
// =====================================================================================================================

TEST(CacheTransferMerge, MergingTheSameSourceTwiceAddsNothingTheSecondTime) {
    TempDir dir;
    write_records(dir.file("target.sqlite"),
                  {{selection(kH200, kCurrent, kSmall, "mine", 1.0, true)},
                   {},
                   {measurement(kH200, kCurrent, kSmall, "mine", 1)},
                   {},
                   {}});
    write_records(dir.file("source.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "theirs", 1.0, true)},
                   {cubin("heuristic-default")},
                   {measurement(kH200, kCurrent, kBig, "theirs", 5),
                    measurement(kH200, kCurrent, kBig, "spilled", 6, CandidateOutcome::Spilled),
                    measurement(kH200, kCurrent, kBig, "theirs", 5)},  // the same measurement twice
                   {untuned(kH200, kCurrent, kHalf, 10, 20, 4)},
                   {ceiling(kH200, "copy_bytes_per_s", 4.1e12, 30)}});
    const auto target = open_rw(dir.file("target.sqlite"));
    const auto source = open_ro(dir.file("source.sqlite"));

    const TransferReport first = merge_into(*target, *source);
    EXPECT_EQ(first.selections_added, 1);
    EXPECT_EQ(first.cubins_added, 2);
    EXPECT_EQ(first.measurements_added, 3);
    EXPECT_EQ(first.measurements_duplicate, 0);
    EXPECT_EQ(first.untuned_added, 1);
    EXPECT_EQ(first.ceilings_added, 1);
    EXPECT_EQ(target->measurement_count(), 4u);
    const Snapshot after_first = snapshot(*target);

    const TransferReport second = merge_into(*target, *source);
    EXPECT_EQ(second.selections_added, 0);
    EXPECT_EQ(second.selections_replaced, 0);
    EXPECT_EQ(second.selections_kept, 1);
    EXPECT_EQ(second.cubins_added, 0);
    EXPECT_EQ(second.measurements_added, 0);
    EXPECT_EQ(second.measurements_duplicate, 3);
    EXPECT_EQ(second.untuned_added, 0);
    EXPECT_EQ(second.untuned_updated, 0);
    EXPECT_EQ(second.ceilings_added, 0);
    EXPECT_EQ(second.ceilings_replaced, 0);
    EXPECT_EQ(target->measurement_count(), 4u);
    expect_same(snapshot(*target), after_first);
}

TEST(CacheTransferMerge, IdenticalMeasurementsOfTheSourceArriveAsOftenAsTheSourceHoldsThem) {
    TempDir dir;
    const MeasurementRecord twice = measurement(kH200, kCurrent, kBig, "repeated", 42);
    MeasurementRecord later = twice;  // equal but for when it was taken: a measurement of its own
    later.measured_at_unix = 43;
    write_records(dir.file("source.sqlite"), {{}, {}, {twice, twice, later}, {}, {}});

    // Into an empty cache: every copy arrives.
    {
        const auto target = open_rw(dir.file("empty.sqlite"));
        const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
        EXPECT_EQ(report.measurements_added, 3);
        EXPECT_EQ(report.measurements_duplicate, 0);
        EXPECT_EQ(target->all_measurements().size(), 3u);
        EXPECT_EQ(sorted_texts(target->all_measurements()),
                  (std::vector<std::string>{text(twice), text(twice), text(later)}));
    }
    // Into a cache that holds one copy already: it ends with the larger count, two, not three.
    {
        write_records(dir.file("one_copy.sqlite"), {{}, {}, {twice}, {}, {}});
        const auto target = open_rw(dir.file("one_copy.sqlite"));
        const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
        EXPECT_EQ(report.measurements_added, 2);
        EXPECT_EQ(report.measurements_duplicate, 1);
        EXPECT_EQ(sorted_texts(target->all_measurements()),
                  (std::vector<std::string>{text(twice), text(twice), text(later)}));
    }
    // Into a cache that holds more copies than the source: none is added and none removed.
    {
        write_records(dir.file("three_copies.sqlite"), {{}, {}, {twice, twice, twice}, {}, {}});
        const auto target = open_rw(dir.file("three_copies.sqlite"));
        const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
        EXPECT_EQ(report.measurements_added, 1);  // `later`
        EXPECT_EQ(report.measurements_duplicate, 2);
        EXPECT_EQ(target->measurement_count(), 4u);
    }
}

TEST(CacheTransferMerge, UntunedTakesTheLargerCountTheEarlierFirstSeenAndTheLaterLastSeen) {
    TempDir dir;
    write_records(dir.file("target.sqlite"),
                  {{},
                   {},
                   {},
                   {untuned(kH200, kCurrent, kBig, 100, 200, 5), untuned(kH200, kCurrent, kSmall, 100, 200, 5),
                    untuned(kH200, kCurrent, kHalf, 100, 200, 5), untuned(kA100, kA100Current, kBig, 100, 200, 5)},
                   {}});
    write_records(dir.file("source.sqlite"),
                  {{},
                   {},
                   {},
                   {untuned(kH200, kCurrent, kBig, 50, 300, 3),       // wider window, fewer calls
                    untuned(kH200, kCurrent, kSmall, 150, 150, 9),    // narrower window, more calls
                    untuned(kH200, kCurrent, kHalf, 100, 200, 5),     // the same: nothing to update
                    untuned(kH200, kOld, kBig, 1, 2, 1)},             // another provenance: a record of its own
                   {}});
    const auto target = open_rw(dir.file("target.sqlite"));
    const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
    EXPECT_EQ(report.untuned_added, 1);
    EXPECT_EQ(report.untuned_updated, 2);

    EXPECT_EQ(sorted_texts(target->all_untuned()),
              sorted_texts(std::vector<UntunedRecord>{
                  untuned(kH200, kCurrent, kBig, 50, 300, 5), untuned(kH200, kCurrent, kSmall, 100, 200, 9),
                  untuned(kH200, kCurrent, kHalf, 100, 200, 5), untuned(kA100, kA100Current, kBig, 100, 200, 5),
                  untuned(kH200, kOld, kBig, 1, 2, 1)}));
}

TEST(CacheTransferMerge, CeilingWithTheLaterMeasuredAtWinsAndATieKeepsTheTargets) {
    TempDir dir;
    write_records(dir.file("target.sqlite"),
                  {{},
                   {},
                   {},
                   {},
                   {ceiling(kH200, "older_in_target", 1.0, 100), ceiling(kH200, "newer_in_target", 1.0, 200),
                    ceiling(kH200, "tie", 1.0, 100), ceiling(kA100, "older_in_target", 1.0, 100)}});
    write_records(dir.file("source.sqlite"),
                  {{},
                   {},
                   {},
                   {},
                   {ceiling(kH200, "older_in_target", 2.0, 200), ceiling(kH200, "newer_in_target", 2.0, 100),
                    ceiling(kH200, "tie", 2.0, 100), ceiling(kH200, "only_in_source", 2.0, 1)}});
    const auto target = open_rw(dir.file("target.sqlite"));
    const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
    EXPECT_EQ(report.ceilings_added, 1);
    EXPECT_EQ(report.ceilings_replaced, 1);

    EXPECT_EQ(target->find_ceiling(kH200, "13.1", "older_in_target"), 2.0);
    EXPECT_EQ(target->find_ceiling(kH200, "13.1", "newer_in_target"), 1.0);
    EXPECT_EQ(target->find_ceiling(kH200, "13.1", "tie"), 1.0);
    EXPECT_EQ(target->find_ceiling(kH200, "13.1", "only_in_source"), 2.0);
    EXPECT_EQ(target->find_ceiling(kA100, "13.1", "older_in_target"), 1.0);  // another device: untouched
    EXPECT_EQ(sorted_texts(target->all_ceilings()),
              sorted_texts(std::vector<CeilingRecord>{
                  ceiling(kA100, "older_in_target", 1.0, 100), ceiling(kH200, "newer_in_target", 1.0, 200),
                  ceiling(kH200, "older_in_target", 2.0, 200), ceiling(kH200, "only_in_source", 2.0, 1),
                  ceiling(kH200, "tie", 1.0, 100)}));
}

// =====================================================================================================================
// merge_into: failures
// =====================================================================================================================

TEST(CacheTransferMerge, SourceSelectionWithMissingCubinIsCacheErrorAndTheTargetIsUnchanged) {
    TempDir dir;
    write_records(dir.file("target.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "slow", 5.0, false)},
                   {},
                   {measurement(kH200, kCurrent, kBig, "slow", 1)},
                   {untuned(kH200, kCurrent, kSmall, 1, 2, 3)},
                   {ceiling(kH200, "fp32_flops", 1.0, 1)}});
    // The source has plenty that would be merged: a better selection, new cubins and measurements, a newer
    // ceiling, more untuned calls; but one of its selections has lost its cubin.
    write_records(dir.file("source.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "fast", 1.0, true),
                    selection(kH200, kCurrent, kHalf, "broken", 1.0, true)},
                   {cubin("unused")},
                   {measurement(kH200, kCurrent, kBig, "fast", 5), measurement(kH200, kCurrent, kHalf, "broken", 6)},
                   {untuned(kH200, kCurrent, kSmall, 0, 9, 30)},
                   {ceiling(kH200, "fp32_flops", 2.0, 9)}});
    delete_cubin(dir.file("source.sqlite"), "cubin-broken");

    const auto target = open_rw(dir.file("target.sqlite"));
    const Snapshot before = snapshot(*target);
    const std::size_t measurements_before = target->measurement_count();
    const std::size_t cubins_before = target->cubin_count();
    expect_cache_error([&] { merge_into(*target, *open_ro(dir.file("source.sqlite"))); }, "cubin-broken");
    expect_cache_error([&] { merge_into(*target, *open_ro(dir.file("source.sqlite"))); },
                       "nothing was merged into " + target->path());
    expect_same(snapshot(*target), before);
    EXPECT_EQ(target->measurement_count(), measurements_before);
    EXPECT_EQ(target->cubin_count(), cubins_before);
    EXPECT_EQ(target->find_selection(kH200, kBig, kCurrent)->config, "slow");
}

TEST(CacheTransferMerge, MergingIntoAReadOnlyCacheIsCacheErrorAndChangesNothing) {
    TempDir dir;
    write_records(dir.file("target.sqlite"), {{selection(kH200, kCurrent, kSmall, "mine", 1.0, true)}, {}, {}, {}, {}});
    write_records(dir.file("source.sqlite"), {{selection(kH200, kCurrent, kBig, "theirs", 1.0, true)}, {}, {}, {}, {}});
    const std::string bytes = read_bytes(dir.file("target.sqlite"));
    {
        const auto target = open_ro(dir.file("target.sqlite"));
        expect_cache_error([&] { merge_into(*target, *open_ro(dir.file("source.sqlite"))); }, "read-only");
        EXPECT_EQ(target->all_selections().size(), 1u);
    }
    EXPECT_TRUE(read_bytes(dir.file("target.sqlite")) == bytes);
}

TEST(CacheTransferMerge, Version2SourceOpenedReadOnlyMergesWithNoCeilings) {
    TempDir dir;
    const std::string source_path = dir.file("v2.sqlite");
    run_sql(source_path, schema_version_2_sql() +
                             "PRAGMA user_version = 2;"
                             "INSERT INTO selections (device_fingerprint, problem_key, config, cubin_key, time_ms, "
                             "tuned_at, library_version, kernel_sources_hash, nvrtc_version, driver_version, "
                             "device_name, sm_count, tflops, search_seconds, candidates_measured, candidates_total, "
                             "search_complete) VALUES ('" + kH200 + "', '" + kBig + "', 'v2_config', 'v2_cubin', "
                             "2.5, 1700000000, '0.2.0', 'sources-5f3a', '13.0', '13.1', 'NVIDIA H200', 132, 40.0, "
                             "6.0, 40, 40, 1);"
                             "INSERT INTO cubins VALUES ('v2_cubin', 'sm_90a', 'jg_regblock', 'v2_config', '13.0', "
                             "'sources-5f3a', x'" + hex(fake_cubin()) + "', 1700000000);");
    const std::string bytes = read_bytes(source_path);
    const auto target = open_rw(dir.file("target.sqlite"));
    const TransferReport report = merge_into(*target, *open_ro(source_path));
    EXPECT_EQ(report.selections_added, 1);
    EXPECT_EQ(report.cubins_added, 1);
    EXPECT_EQ(report.ceilings_added, 0);
    EXPECT_EQ(target->find_selection(kH200, kBig, kCurrent)->config, "v2_config");
    EXPECT_TRUE(target->find_cubin("v2_cubin").has_value());
    EXPECT_TRUE(read_bytes(source_path) == bytes);
}

// Tampered and impossible records of a source (issue 19: flipped bytes in a cubin, time_ms = -1e300) are refused,
// reported one line each, and never displace the target's sound ones.
TEST(CacheTransferMerge, TamperedCubinIsRefusedWithItsSelectionAndTheTargetKeepsItsOwn) {
    TempDir dir;
    write_records(dir.file("target.sqlite"), {{selection(kH200, kCurrent, kBig, "good", 2.0, true)}, {}, {}, {}, {}});
    write_records(dir.file("source.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "good", 1.0, true),
                    selection(kH200, kCurrent, kHalf, "fresh", 1.0, true)},
                   {},
                   {},
                   {},
                   {}});
    // Flip one byte of each cubin in the source after it was written; its stored hash no longer matches.
    run_sql(dir.file("source.sqlite"),
            "UPDATE cubins SET image = substr(image, 1, 100) || x'ff' || substr(image, 102)");
    const std::string target_bytes = query_text(dir.file("target.sqlite"), "SELECT hex(image) FROM cubins");
    const auto target = open_rw(dir.file("target.sqlite"));
    const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
    EXPECT_EQ(report.cubins_rejected, 2);
    EXPECT_EQ(report.selections_rejected, 2);
    EXPECT_EQ(report.selections_added + report.selections_replaced, 0);
    ASSERT_EQ(report.rejections.size(), 4u);
    EXPECT_NE(report.rejections[0].find("content hash"), std::string::npos) << report.rejections[0];
    EXPECT_EQ(target->find_selection(kH200, kBig, kCurrent)->time_ms, 2.0);
    EXPECT_FALSE(target->find_selection(kH200, kHalf, kCurrent).has_value());
    EXPECT_EQ(target->cubin_count(), 1u);
    EXPECT_EQ(query_text(dir.file("target.sqlite"), "SELECT hex(image) FROM cubins"), target_bytes);
}

TEST(CacheTransferMerge, DamagedTargetCubinIsRepairedBySoundSourceCopy) {
    TempDir dir;
    const Records records{{selection(kH200, kCurrent, kBig, "good", 1.0, true)}, {}, {}, {}, {}};
    write_records(dir.file("target.sqlite"), records);
    write_records(dir.file("source.sqlite"), records);
    run_sql(dir.file("target.sqlite"), "UPDATE cubins SET image = x'7f454c46'");
    const auto target = open_rw(dir.file("target.sqlite"));
    const TransferReport report = merge_into(*target, *open_ro(dir.file("source.sqlite")));
    EXPECT_EQ(report.cubins_repaired, 1);
    EXPECT_EQ(report.cubins_rejected, 0);
    EXPECT_EQ(cubin_record_defect(*target->find_cubin("cubin-good")), std::nullopt);
    EXPECT_NE(report.describe().find("1 damaged cubins repaired"), std::string::npos) << report.describe();
}

TEST(CacheTransferMerge, ImpossibleValuesAreRefusedAndTheGoodSelectionStays) {
    TempDir dir;
    write_records(dir.file("target.sqlite"), {{selection(kH200, kCurrent, kBig, "good", 2.0, true)}, {}, {}, {}, {}});
    write_records(dir.file("source.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "bogus", 1.0, true),
                    selection(kH200, kCurrent, kHalf, "nan", 1.0, true),
                    selection(kH200, kCurrent, kSmall, "relabelled", 1.0, true)},
                   {},
                   {measurement(kH200, kCurrent, kBig, "bogus", 1700000000)},
                   {},
                   {ceiling(kH200, "copy_bytes_per_s", -4.8e12, 1700000000)}});
    const std::string source = dir.file("source.sqlite");
    run_sql(source, "UPDATE selections SET time_ms = -1e300 WHERE config = 'bogus'");
    run_sql(source, "UPDATE selections SET tflops = 1e999 WHERE config = 'nan'");  // +inf
    run_sql(source, "UPDATE measurements SET time_ms = -0.5");
    // A selection pointing at another configuration's cubin: the 256-thread name with the 64-thread binary.
    run_sql(source, "UPDATE selections SET cubin_key = 'cubin-bogus' WHERE config = 'relabelled'");
    const auto target = open_rw(dir.file("target.sqlite"));
    const TransferReport report = merge_into(*target, *open_ro(source));
    EXPECT_EQ(report.selections_rejected, 3);
    EXPECT_EQ(report.measurements_rejected, 1);
    EXPECT_EQ(report.ceilings_rejected, 1);
    EXPECT_EQ(report.selections_added + report.selections_replaced, 0);
    EXPECT_EQ(report.measurements_added, 0);
    EXPECT_EQ(target->find_selection(kH200, kBig, kCurrent)->config, "good");
    EXPECT_EQ(target->all_selections().size(), 1u);
    EXPECT_FALSE(target->find_ceiling(kH200, "13.1", "copy_bytes_per_s").has_value());
    std::string all;
    for (const std::string& line : report.rejections) all += line + "\n";
    EXPECT_NE(all.find("-1e+300"), std::string::npos) << all;
    EXPECT_NE(all.find("is of bogus"), std::string::npos) << all;
}

// =====================================================================================================================
// export_bundle
// =====================================================================================================================

// A cache with a bit of everything: two devices, two provenances, two dtypes, two shapes, and records that no
// selection refers to.
Records everything() {
    Records r;
    r.selections = {
        selection(kH200, kCurrent, kBig, "h200_big", 1.0, true),
        selection(kH200, kCurrent, kHalf, "h200_half", 0.5, true),
        selection(kH200, kOld, kBig, "h200_old_big", 1.5, false),
        selection(kA100, kA100Current, kBig, "a100_big", 3.0, true),
        selection(kA100, kA100Current, kSmall, "a100_small", 0.2, true),
    };
    r.cubins = {cubin("heuristic-default")};
    r.measurements = {
        measurement(kH200, kCurrent, kBig, "h200_big", 10),
        measurement(kH200, kCurrent, kBig, "h200_big_spilled", 11, CandidateOutcome::Spilled),
        measurement(kH200, kCurrent, kBig, "h200_big", 10),  // identical twice
        measurement(kH200, kCurrent, kHalf, "h200_half", 12),
        measurement(kH200, kOld, kBig, "h200_old_big", 13),
        measurement(kA100, kA100Current, kBig, "a100_big", 14),
        measurement(kA100, kA100Current, kSmall, "a100_small", 15),
        measurement(kH200, kCurrent, kSmall, "no_winner", 16, CandidateOutcome::CompileFailed),  // no selection
    };
    r.untuned = {
        untuned(kH200, kCurrent, kBig, 1, 5, 7),         // served untuned, then tuned
        untuned(kH200, kOld, kBig, 2, 6, 8),
        untuned(kA100, kA100Current, kBig, 3, 7, 9),
        untuned(kH200, kCurrent, kSmall, 4, 8, 10),      // never tuned
    };
    r.ceilings = {
        ceiling(kH200, "fp32_flops", 60e12, 100),
        ceiling(kH200, "copy_bytes_per_s", 4.1e12, 101),
        {kH200, "12.9", "fp32_flops", 59e12, 50},        // another driver of the same device
        ceiling(kA100, "fp32_flops", 19.5e12, 102),
        ceiling("NVIDIA L4/cc8.9/sm58", "fp32_flops", 30e12, 103),  // a device with no selection
    };
    return r;
}

TEST(CacheTransferExport, FilterTakesExactlyTheMatchingSelectionsWithTheirRecords) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    const auto source = open_ro(dir.file("source.sqlite"));
    const std::string bundle = dir.directory("out") + "/bundle.sqlite";

    SelectionFilter filter;
    filter.device = "H200";
    filter.dtype = "f32";  // kBig under both provenances, not kHalf (f16) nor the A100's
    const TransferReport report = export_bundle(*source, bundle, filter);

    EXPECT_EQ(sorted_texts(open_ro(bundle)->all_selections()),
              sorted_texts(std::vector<SelectionRecord>{selection(kH200, kCurrent, kBig, "h200_big", 1.0, true),
                                                        selection(kH200, kOld, kBig, "h200_old_big", 1.5, false)}));
    EXPECT_EQ(sorted_texts(open_ro(bundle)->all_cubins()),
              sorted_texts(std::vector<CubinRecord>{cubin("cubin-h200_big"), cubin("cubin-h200_old_big")}));
    EXPECT_EQ(sorted_texts(open_ro(bundle)->all_measurements()),
              sorted_texts(std::vector<MeasurementRecord>{
                  measurement(kH200, kCurrent, kBig, "h200_big", 10),
                  measurement(kH200, kCurrent, kBig, "h200_big_spilled", 11, CandidateOutcome::Spilled),
                  measurement(kH200, kCurrent, kBig, "h200_big", 10),
                  measurement(kH200, kOld, kBig, "h200_old_big", 13)}));
    EXPECT_EQ(sorted_texts(open_ro(bundle)->all_untuned()),
              sorted_texts(std::vector<UntunedRecord>{untuned(kH200, kCurrent, kBig, 1, 5, 7),
                                                      untuned(kH200, kOld, kBig, 2, 6, 8)}));
    EXPECT_EQ(sorted_texts(open_ro(bundle)->all_ceilings()),
              sorted_texts(std::vector<CeilingRecord>{ceiling(kH200, "fp32_flops", 60e12, 100),
                                                      ceiling(kH200, "copy_bytes_per_s", 4.1e12, 101),
                                                      {kH200, "12.9", "fp32_flops", 59e12, 50}}));
    // The report counts what the bundle holds.
    EXPECT_EQ(report.selections_added, 2);
    EXPECT_EQ(report.cubins_added, 2);
    EXPECT_EQ(report.measurements_added, 4);
    EXPECT_EQ(report.untuned_added, 2);
    EXPECT_EQ(report.ceilings_added, 3);
}

// A filtered bundle carries the run-time-shape variants of the configurations it selects (they serve the sizes
// between the tuned ones), and no other variant.
TEST(CacheTransferExport, FilterTakesTheRunTimeShapeVariantsOfTheSelectedConfigurations) {
    TempDir dir;
    Records r = everything();
    CubinRecord wanted = cubin("variant-of-h200_big");
    wanted.config = "h200_big+runtime-n";
    CubinRecord other = cubin("variant-of-a100_small");
    other.config = "a100_small+runtime-m";
    r.cubins.push_back(wanted);
    r.cubins.push_back(other);
    write_records(dir.file("source.sqlite"), r);
    const std::string bundle = dir.directory("out") + "/bundle.sqlite";
    SelectionFilter filter;
    filter.device = "H200";
    filter.dtype = "f32";
    export_bundle(*open_ro(dir.file("source.sqlite")), bundle, filter);
    EXPECT_EQ(sorted_texts(open_ro(bundle)->all_cubins()),
              sorted_texts(std::vector<CubinRecord>{cubin("cubin-h200_big"), cubin("cubin-h200_old_big"), wanted}));
}

TEST(CacheTransferExport, ShapeFilterTakesThatShapeOnEveryDeviceWithTheCeilingsOfThoseDevices) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    const auto source = open_ro(dir.file("source.sqlite"));
    const std::string bundle = dir.directory("out") + "/bundle.sqlite";
    SelectionFilter filter;
    filter.shape = "1024x1024x1024";
    const TransferReport report = export_bundle(*source, bundle, filter);
    EXPECT_EQ(report.selections_added, 1);
    const auto b = open_ro(bundle);
    ASSERT_EQ(b->all_selections().size(), 1u);
    EXPECT_EQ(b->all_selections()[0].config, "a100_small");
    EXPECT_EQ(texts(b->all_cubins()), std::vector<std::string>{text(cubin("cubin-a100_small"))});
    EXPECT_EQ(texts(b->all_measurements()),
              std::vector<std::string>{text(measurement(kA100, kA100Current, kSmall, "a100_small", 15))});
    EXPECT_TRUE(b->all_untuned().empty());  // the untuned kSmall is the H200's, not the A100's
    EXPECT_EQ(texts(b->all_ceilings()), std::vector<std::string>{text(ceiling(kA100, "fp32_flops", 19.5e12, 102))});
}

TEST(CacheTransferExport, FilterMatchingNothingWritesAnEmptyBundle) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    const std::string bundle = dir.directory("out") + "/bundle.sqlite";
    SelectionFilter filter;
    filter.device = "GH200";
    const TransferReport report = export_bundle(*open_ro(dir.file("source.sqlite")), bundle, filter);
    EXPECT_EQ(report.describe(), TransferReport{}.describe());
    expect_same(snapshot(bundle), Snapshot{});
}

TEST(CacheTransferExport, EmptyFilterCopiesTheWholeCacheExactly) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    const auto source = open_ro(dir.file("source.sqlite"));
    const Snapshot original = snapshot(*source);
    ASSERT_EQ(original.selections.size(), 5u);
    ASSERT_EQ(original.cubins.size(), 6u);
    ASSERT_EQ(original.measurements.size(), 8u);
    ASSERT_EQ(original.untuned.size(), 4u);
    ASSERT_EQ(original.ceilings.size(), 5u);

    const std::string bundle = dir.directory("out") + "/bundle.sqlite";
    const TransferReport exported = export_bundle(*source, bundle, SelectionFilter{});
    EXPECT_EQ(exported.selections_added, 5);
    EXPECT_EQ(exported.cubins_added, 6);
    EXPECT_EQ(exported.measurements_added, 8);
    EXPECT_EQ(exported.measurements_duplicate, 0);
    EXPECT_EQ(exported.untuned_added, 4);
    EXPECT_EQ(exported.ceilings_added, 5);
    expect_same(snapshot(bundle), original);

    // Imported into an empty cache, the bundle makes a copy of the original.
    const auto copy = open_rw(dir.file("copy.sqlite"));
    const TransferReport imported = merge_into(*copy, *open_ro(bundle));
    EXPECT_EQ(imported.describe(), exported.describe());
    expect_same(snapshot(*copy), original);
}

TEST(CacheTransferExport, BundleIsOneFileInDeleteJournalMode) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    const std::string out = dir.directory("out");
    const std::string bundle = out + "/bundle.sqlite";
    export_bundle(*open_rw(dir.file("source.sqlite")), bundle, SelectionFilter{});
    EXPECT_EQ(dir.listing("out"), std::set<std::string>{"bundle.sqlite"});  // no -wal, -shm, -journal, .partial
    EXPECT_EQ(query_text(bundle, "PRAGMA journal_mode"), "delete");
    EXPECT_EQ(query_text(bundle, "PRAGMA user_version"), std::to_string(current_schema_version()));
    EXPECT_EQ(query_text(bundle, "PRAGMA integrity_check"), "ok");
    EXPECT_FALSE(fs::exists(bundle + "-wal"));
    // Opened read-only (immutable) it reads, and leaves the directory as it was.
    EXPECT_EQ(open_ro(bundle)->all_selections().size(), 5u);
    EXPECT_EQ(dir.listing("out"), std::set<std::string>{"bundle.sqlite"});
}

TEST(CacheTransferExport, ExistingOutputPathIsRefusedAndLeftAsItWas) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    const std::string out = dir.directory("out");
    const std::string bundle = out + "/bundle.sqlite";
    std::ofstream(bundle, std::ios::binary) << "precious";
    for (const SelectionFilter& filter : {SelectionFilter{}, SelectionFilter{"H200", "", "", ""}}) {
        expect_cache_error([&] { export_bundle(*open_ro(dir.file("source.sqlite")), bundle, filter); },
                           "already exists");
        EXPECT_EQ(read_bytes(bundle), "precious");
        EXPECT_EQ(dir.listing("out"), std::set<std::string>{"bundle.sqlite"});
    }
    // Exporting onto the source itself is refused the same way.
    const std::string source_bytes = read_bytes(dir.file("source.sqlite"));
    expect_cache_error(
        [&] { export_bundle(*open_ro(dir.file("source.sqlite")), dir.file("source.sqlite"), SelectionFilter{}); },
        "already exists");
    EXPECT_TRUE(read_bytes(dir.file("source.sqlite")) == source_bytes);
    EXPECT_FALSE(fs::exists(dir.file("source.sqlite.partial")));
}

TEST(CacheTransferExport, SelectionWithMissingCubinFailsAndLeavesNoFile) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    delete_cubin(dir.file("source.sqlite"), "cubin-h200_half");
    const auto source = open_ro(dir.file("source.sqlite"));
    const std::string out = dir.directory("out");
    const std::string bundle = out + "/bundle.sqlite";

    SelectionFilter half;
    half.dtype = "f16";
    for (const SelectionFilter& filter : {SelectionFilter{}, half}) {
        expect_cache_error([&] { export_bundle(*source, bundle, filter); }, "cubin-h200_half");
        expect_cache_error([&] { export_bundle(*source, bundle, filter); }, "nothing was exported to " + bundle);
        EXPECT_TRUE(dir.listing("out").empty());  // neither the bundle nor "<path>.partial"
    }
    // A filter that leaves the broken selection out exports fine.
    SelectionFilter a100;
    a100.device = "A100";
    EXPECT_EQ(export_bundle(*source, bundle, a100).selections_added, 2);
    EXPECT_EQ(dir.listing("out"), std::set<std::string>{"bundle.sqlite"});
}

TEST(CacheTransferExport, LeftoverPartialFileIsReportedNotReusedOrRemoved) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    const std::string out = dir.directory("out");
    const std::string bundle = out + "/bundle.sqlite";
    std::ofstream(bundle + ".partial", std::ios::binary) << "interrupted";
    expect_cache_error([&] { export_bundle(*open_ro(dir.file("source.sqlite")), bundle, SelectionFilter{}); },
                       bundle + ".partial");
    EXPECT_FALSE(fs::exists(bundle));
    EXPECT_EQ(read_bytes(bundle + ".partial"), "interrupted");
}

// A failure after "<path>.partial" was created: a directory in the way of a file SQLite keeps beside the partial
// bundle makes writing it fail. The partial file goes; the directory, which is not the export's, stays.
TEST(CacheTransferExport, FailureWhileWritingTheBundleLeavesNoPartialFile) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    const auto source = open_ro(dir.file("source.sqlite"));
    const std::string out = dir.directory("out");
    const std::string bundle = out + "/bundle.sqlite";
    for (const std::string suffix : {"-wal", "-shm", "-journal"}) {
        SCOPED_TRACE(suffix);
        const std::string blocker = "bundle.sqlite.partial" + suffix;
        fs::create_directories(out + "/" + blocker + "/occupied");
        expect_cache_error([&] { export_bundle(*source, bundle, SelectionFilter{}); }, bundle + ".partial");
        EXPECT_EQ(dir.listing("out"), std::set<std::string>{blocker});
        fs::remove_all(out + "/" + blocker);
    }
    // With nothing in the way, the same export succeeds.
    EXPECT_EQ(export_bundle(*source, bundle, SelectionFilter{}).selections_added, 5);
    EXPECT_EQ(dir.listing("out"), std::set<std::string>{"bundle.sqlite"});
}

TEST(CacheTransferExport, MalformedShapeIsCacheErrorAndWritesNoFile) {
    TempDir dir;
    write_records(dir.file("source.sqlite"), everything());
    write_records(dir.file("empty.sqlite"), {});
    const std::string out = dir.directory("out");
    const std::string bundle = out + "/bundle.sqlite";
    for (const char* shape : {"12x3", "axbxc", "1x2x3x4", "x2x3", "1x2x", "1x-2x3", "4096", "1 x2x3"}) {
        SCOPED_TRACE(shape);
        SelectionFilter filter;
        filter.shape = shape;
        // Even where no selection is there to test it on.
        for (const char* source : {"source.sqlite", "empty.sqlite"}) {
            expect_cache_error([&] { export_bundle(*open_ro(dir.file(source)), bundle, filter); }, shape);
            EXPECT_TRUE(dir.listing("out").empty());
        }
    }
}

// =====================================================================================================================
// SelectionFilter and TransferReport
// =====================================================================================================================

SelectionRecord of(const std::string& device, const std::string& problem) {
    return selection(device, kCurrent, problem, "c", 1.0, true);
}

TEST(CacheTransferFilter, EmptyFilterMatchesEverything) {
    EXPECT_TRUE(SelectionFilter{}.matches(of(kH200, kBig)));
    EXPECT_TRUE(SelectionFilter{}.matches(of(kA100, kHalf)));
    EXPECT_TRUE(SelectionFilter{}.matches(of("", "")));
}

TEST(CacheTransferFilter, DtypePrefixMatchesWholeDotSeparatedNamesOnly) {
    const SelectionRecord f32 = of(kH200, kBig);  // "v2_f32.f32.f32.f32_..."
    const SelectionRecord mixed = of(kH200, kHalf);  // "v2_f16.f16.f32.f32_..."
    const auto dtype = [](const std::string& prefix) {
        SelectionFilter filter;
        filter.dtype = prefix;
        return filter;
    };
    EXPECT_TRUE(dtype("f32").matches(f32));
    EXPECT_TRUE(dtype("f32.f32").matches(f32));
    EXPECT_TRUE(dtype("f32.f32.f32").matches(f32));
    EXPECT_TRUE(dtype("f32.f32.f32.f32").matches(f32));
    EXPECT_FALSE(dtype("f3").matches(f32));
    EXPECT_FALSE(dtype("f").matches(f32));
    EXPECT_FALSE(dtype("f32.f3").matches(f32));
    EXPECT_FALSE(dtype("f32.").matches(f32));
    EXPECT_FALSE(dtype("f32.f32.f32.f32.f32").matches(f32));
    EXPECT_FALSE(dtype("f32.f32.f32.f32_nn").matches(f32));  // past the dtype part
    EXPECT_FALSE(dtype("32").matches(f32));
    // A prefix, not a substring: "f32" is in the middle of the mixed key's dtypes, not at its start.
    EXPECT_FALSE(dtype("f32").matches(mixed));
    EXPECT_TRUE(dtype("f16").matches(mixed));
    EXPECT_TRUE(dtype("f16.f16.f32").matches(mixed));
    EXPECT_FALSE(dtype("f16.f32").matches(mixed));
    // The version token is no dtype: the filter starts after it, and still reads a key of version 1, which has none.
    EXPECT_FALSE(dtype("v2").matches(f32));
    EXPECT_FALSE(dtype("v2_f32").matches(f32));
    EXPECT_TRUE(dtype("f16.f16").matches(of(kH200, kHalf.substr(3))));
    EXPECT_FALSE(dtype("f32").matches(of(kH200, kHalf.substr(3))));
}

TEST(CacheTransferFilter, ShapeMatchesTheWholeCanonicalMxNxKFragment) {
    const auto shape = [](const std::string& s) {
        SelectionFilter filter;
        filter.shape = s;
        return filter;
    };
    const SelectionRecord big = of(kH200, kBig);
    const SelectionRecord rect = of(kH200, key(kF32, 4096, 1024, 512));
    EXPECT_TRUE(shape("4096x4096x4096").matches(big));
    EXPECT_FALSE(shape("1024x1024x1024").matches(big));
    EXPECT_FALSE(shape("96x4096x4096").matches(big));   // not a suffix of M
    EXPECT_FALSE(shape("4096x4096x409").matches(big));  // not a prefix of K
    EXPECT_TRUE(shape("4096x1024x512").matches(rect));
    EXPECT_FALSE(shape("1024x4096x512").matches(rect));  // M and N are in order
    EXPECT_FALSE(shape("512x1024x4096").matches(rect));
}

TEST(CacheTransferFilter, MalformedShapeThrowsCacheErrorFromMatches) {
    for (const char* s : {"12x3", "axbxc", "1x2x3x4", "x1x2", "1xx2", "4096"}) {
        SelectionFilter filter;
        filter.shape = s;
        expect_cache_error([&] { filter.matches(of(kH200, kBig)); }, s);
        filter.device = "no such device";  // thrown even when another field already rules the selection out
        expect_cache_error([&] { filter.matches(of(kH200, kBig)); }, s);
    }
}

TEST(CacheTransferFilter, DeviceAndProblemAreSubstringsAndEveryGivenFieldMustMatch) {
    SelectionFilter filter;
    filter.device = "H200";
    EXPECT_TRUE(filter.matches(of(kH200, kBig)));
    EXPECT_FALSE(filter.matches(of(kA100, kBig)));
    filter.device = "cc9.0";
    EXPECT_TRUE(filter.matches(of(kH200, kBig)));

    SelectionFilter problem;
    problem.problem = "_nn_m4096";
    EXPECT_TRUE(problem.matches(of(kA100, kBig)));
    EXPECT_TRUE(problem.matches(of(kA100, kHalf)));
    EXPECT_FALSE(problem.matches(of(kA100, kSmall)));

    SelectionFilter all{"H200", "f32", "4096x4096x4096", "_a1.b0"};
    EXPECT_TRUE(all.matches(of(kH200, kBig)));
    EXPECT_FALSE(all.matches(of(kA100, kBig)));   // device
    EXPECT_FALSE(all.matches(of(kH200, kHalf)));  // dtype
    EXPECT_FALSE(all.matches(of(kH200, kSmall)));  // shape
    all.problem = "_a1.bx";
    EXPECT_FALSE(all.matches(of(kH200, kBig)));  // problem
}

TEST(CacheTransferReport, DescribeNamesEveryCountInItsPlace) {
    EXPECT_EQ(TransferReport{}.describe(),
              "0 selections added, 0 replaced, 0 kept; 0 cubins; 0 measurements (0 duplicates); 0 untuned problems "
              "added, 0 updated; 0 ceilings added, 0 replaced");
    TransferReport r;
    r.selections_added = 1;
    r.selections_replaced = 2;
    r.selections_kept = 3;
    r.cubins_added = 4;
    r.measurements_added = 5;
    r.measurements_duplicate = 6;
    r.untuned_added = 7;
    r.untuned_updated = 8;
    r.ceilings_added = 9;
    r.ceilings_replaced = 10;
    EXPECT_EQ(r.describe(),
              "1 selections added, 2 replaced, 3 kept; 4 cubins; 5 measurements (6 duplicates); 7 untuned problems "
              "added, 8 updated; 9 ceilings added, 10 replaced");
}

// =====================================================================================================================
// doctor
// =====================================================================================================================

TEST(CacheDoctor, GoodFileIsIntactAndCounted) {
    TempDir dir;
    Records r = everything();
    r.cubins.clear();  // every cubin in use: nothing to report
    write_records(dir.file("cache.sqlite"), r);
    for (const auto access : {TuningCache::Access::ReadWrite, TuningCache::Access::ReadOnly}) {
        const auto cache = TuningCache::open(dir.file("cache.sqlite"), access);
        const DoctorReport report = doctor(*cache, kCurrent, kH200);
        EXPECT_EQ(report.schema_version, current_schema_version());
        EXPECT_TRUE(report.integrity_ok);
        EXPECT_EQ(report.integrity_detail, "");
        EXPECT_EQ(report.selections, 5u);
        EXPECT_EQ(report.cubins, 5u);
        EXPECT_EQ(report.measurements, 8u);
        EXPECT_EQ(report.untuned, 4u);
        EXPECT_TRUE(report.problems.empty()) << report.problems.front();
    }
    // The doctor only reads: a read-only file is left byte for byte as it was.
    const std::string bytes = read_bytes(dir.file("cache.sqlite"));
    const Snapshot before = snapshot(dir.file("cache.sqlite"));
    doctor(*open_ro(dir.file("cache.sqlite")), kCurrent, kH200);
    EXPECT_TRUE(read_bytes(dir.file("cache.sqlite")) == bytes);
    {
        const auto cache = open_rw(dir.file("cache.sqlite"));
        doctor(*cache, kCurrent, kH200);
        expect_same(snapshot(*cache), before);
    }
}

TEST(CacheDoctor, CountsCurrentAndStaleSelectionsOfTheGivenDeviceOnly) {
    TempDir dir;
    const Provenance older_driver = [] {
        Provenance p = kCurrent;
        p.driver_version = "13.0";
        return p;
    }();
    write_records(dir.file("cache.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "a", 1.0, true), selection(kH200, kCurrent, kSmall, "b", 1.0, true),
                    selection(kH200, kOld, kBig, "c", 1.0, true), selection(kH200, older_driver, kBig, "d", 1.0, true),
                    selection(kA100, kA100Current, kBig, "e", 1.0, true), selection(kA100, kOld, kBig, "f", 1.0, true),
                    selection(kA100, kCurrent, kSmall, "g", 1.0, true)},
                   {},
                   {},
                   {},
                   {}});
    const auto cache = open_ro(dir.file("cache.sqlite"));
    const DoctorReport h200 = doctor(*cache, kCurrent, kH200);
    EXPECT_EQ(h200.current_selections, 2);
    EXPECT_EQ(h200.stale_selections, 2);
    const DoctorReport a100 = doctor(*cache, kA100Current, kA100);
    EXPECT_EQ(a100.current_selections, 1);
    EXPECT_EQ(a100.stale_selections, 2);
    const DoctorReport no_gpu = doctor(*cache, std::nullopt, "");
    EXPECT_EQ(no_gpu.current_selections, 0);
    EXPECT_EQ(no_gpu.stale_selections, 0);
    EXPECT_EQ(no_gpu.selections, 7u);
}

TEST(CacheDoctor, SelectionWhoseCubinIsMissingIsAFinding) {
    TempDir dir;
    write_records(dir.file("cache.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "served", 1.0, true),
                    selection(kH200, kCurrent, kHalf, "lost", 1.0, true)},
                   {},
                   {},
                   {},
                   {}});
    delete_cubin(dir.file("cache.sqlite"), "cubin-lost");
    const DoctorReport report = doctor(*open_ro(dir.file("cache.sqlite")), kCurrent, kH200);
    EXPECT_TRUE(report.integrity_ok);  // the file is sound; what it says is not
    EXPECT_EQ(report.selections, 2u);
    EXPECT_EQ(report.cubins, 1u);
    ASSERT_EQ(report.problems.size(), 1u);
    const std::string& finding = report.problems[0];
    EXPECT_NE(finding.find("missing cubin cubin-lost"), std::string::npos) << finding;
    EXPECT_NE(finding.find(kHalf), std::string::npos) << finding;
    EXPECT_EQ(finding.find("cubin-served"), std::string::npos) << finding;
}

// The doctor checks every blob as it would be checked before loading.
TEST(CacheDoctor, DamagedCubinsAndMislabelledSelectionsMakeTheFileUnhealthy) {
    TempDir dir;
    const std::string path = dir.file("cache.sqlite");
    write_records(path, {{selection(kH200, kCurrent, kBig, "flipped", 1.0, true),
                          selection(kH200, kCurrent, kHalf, "sound", 1.0, true),
                          selection(kH200, kCurrent, kSmall, "borrower", 1.0, true)},
                         {},
                         {},
                         {},
                         {}});
    run_sql(path, "UPDATE cubins SET image = substr(image, 1, 100) || x'ff' || substr(image, 102) "
                  "WHERE key = 'cubin-flipped'");
    run_sql(path, "UPDATE selections SET cubin_key = 'cubin-sound' WHERE config = 'borrower'");
    const DoctorReport report = doctor(*open_ro(path), kCurrent, kH200);
    EXPECT_TRUE(report.integrity_ok);  // SQLite's view: the file is fine
    EXPECT_FALSE(report.healthy());
    EXPECT_EQ(report.damaged_cubins, 1);
    ASSERT_EQ(report.damage.size(), 2u);
    EXPECT_NE(report.damage[0].find("damaged cubin cubin-flipped"), std::string::npos) << report.damage[0];
    EXPECT_NE(report.damage[1].find("which is of sound"), std::string::npos) << report.damage[1];

    write_records(dir.file("clean.sqlite"), {{selection(kH200, kCurrent, kBig, "fine", 1.0, true)}, {}, {}, {}, {}});
    EXPECT_TRUE(doctor(*open_ro(dir.file("clean.sqlite")), kCurrent, kH200).healthy());
}

TEST(CacheDoctor, CubinsNoSelectionUsesAreCountedInOneFinding) {
    TempDir dir;
    write_records(dir.file("cache.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "served", 1.0, true)},
                   {cubin("default-1"), cubin("default-2")},
                   {},
                   {},
                   {}});
    const DoctorReport report = doctor(*open_ro(dir.file("cache.sqlite")), kCurrent, kH200);
    EXPECT_EQ(report.cubins, 3u);
    ASSERT_EQ(report.problems.size(), 1u);
    EXPECT_EQ(report.problems[0].rfind("2 cubins are used by no selection", 0), 0u) << report.problems[0];
}

// =====================================================================================================================
// prune
// =====================================================================================================================

// The same problem tuned on the H200 under the current and an old provenance, and on the A100 under an old one.
Records stale_and_current() {
    Records r;
    r.selections = {selection(kH200, kCurrent, kBig, "h200_now", 1.0, true),
                    selection(kH200, kOld, kBig, "h200_then", 1.0, true),
                    selection(kH200, kOld, kSmall, "h200_then_small", 1.0, true),
                    selection(kA100, kOld, kBig, "a100_then", 1.0, true)};
    r.measurements = {measurement(kH200, kCurrent, kBig, "h200_now", 10),
                      measurement(kH200, kOld, kBig, "h200_then", 11),
                      measurement(kH200, kOld, kBig, "h200_then_2", 12),
                      measurement(kH200, kOld, kSmall, "h200_then_small", 13),
                      measurement(kH200, kOld, kHalf, "no_winner", 14, CandidateOutcome::Incorrect),  // no selection
                      measurement(kA100, kOld, kBig, "a100_then", 15)};
    r.untuned = {untuned(kH200, kCurrent, kHalf, 1, 2, 3), untuned(kH200, kOld, kHalf, 1, 2, 3),
                 untuned(kA100, kOld, kHalf, 1, 2, 3)};
    r.ceilings = {ceiling(kH200, "fp32_flops", 60e12, 100)};
    return r;
}

PrunePlan stale_plan(bool dry_run) {
    PrunePlan plan;
    plan.stale = true;
    plan.current = kCurrent;
    plan.device_fingerprint = kH200;
    plan.dry_run = dry_run;
    return plan;
}

TEST(CachePrune, DryRunChangesNothingButCountsWhatWouldGo) {
    TempDir dir;
    Records r = stale_and_current();
    r.cubins = {cubin("unreferenced")};
    write_records(dir.file("cache.sqlite"), r);
    const auto cache = open_rw(dir.file("cache.sqlite"));
    const Snapshot before = snapshot(*cache);

    PrunePlan plan = stale_plan(true);
    plan.unreferenced_cubins = true;
    plan.older_than_unix = 11;  // measurement "h200_now" at 10 is old too
    const PruneResult dry = prune(*cache, plan);
    EXPECT_EQ(dry.selections_removed, 2);
    EXPECT_EQ(dry.measurements_removed, 5);  // 4 stale of the H200 and the current one taken at 10
    EXPECT_EQ(dry.untuned_removed, 1);
    EXPECT_EQ(dry.cubins_removed, 3);  // "unreferenced" and the two stale selections' cubins
    EXPECT_EQ(dry.removed.size(), 5u);
    expect_same(snapshot(*cache), before);
    expect_same(snapshot(dir.file("cache.sqlite")), before);

    // Run for real, the same plan removes exactly what the dry run counted.
    plan.dry_run = false;
    const PruneResult real = prune(*cache, plan);
    EXPECT_EQ(real.selections_removed, dry.selections_removed);
    EXPECT_EQ(real.measurements_removed, dry.measurements_removed);
    EXPECT_EQ(real.untuned_removed, dry.untuned_removed);
    EXPECT_EQ(real.cubins_removed, dry.cubins_removed);
    EXPECT_EQ(real.removed, dry.removed);
    EXPECT_EQ(cache->all_selections().size(), 2u);
    EXPECT_EQ(cache->measurement_count(), 1u);  // of the 6, only the A100's
    EXPECT_EQ(cache->all_untuned().size(), 2u);
    EXPECT_EQ(cache->cubin_count(), 2u);
}

// Run-time-shape variants serve the sizes between the tuned ones without a selection of their own: --unreferenced-
// cubins leaves them, and doctor does not count them among the unused.
TEST(CachePrune, UnreferencedCubinsLeaveTheRunTimeShapeVariants) {
    TempDir dir;
    Records r = stale_and_current();
    CubinRecord variant = cubin("variant");
    variant.config = "h200_now+runtime-n";
    r.cubins = {cubin("unreferenced"), variant};
    write_records(dir.file("cache.sqlite"), r);
    const auto cache = open_rw(dir.file("cache.sqlite"));
    PrunePlan plan;
    plan.unreferenced_cubins = true;
    plan.dry_run = false;
    const PruneResult result = prune(*cache, plan);
    EXPECT_EQ(result.removed, std::vector<std::string>{"cubin unreferenced"});
    bool kept = false;
    for (const CubinRecord& c : cache->all_cubins()) kept = kept || c.key == "variant";
    EXPECT_TRUE(kept);
}

TEST(CachePrune, StaleRemovesOnlyTheGivenDevicesEntriesOfOtherProvenances) {
    TempDir dir;
    const Records r = stale_and_current();
    write_records(dir.file("cache.sqlite"), r);
    const auto cache = open_rw(dir.file("cache.sqlite"));
    const PruneResult result = prune(*cache, stale_plan(false));
    EXPECT_EQ(result.selections_removed, 2);
    EXPECT_EQ(result.measurements_removed, 4);
    EXPECT_EQ(result.untuned_removed, 1);
    EXPECT_EQ(result.cubins_removed, 0);  // not asked for
    ASSERT_EQ(result.removed.size(), 2u);
    for (const std::string& line : result.removed) {
        EXPECT_NE(line.find(kH200), std::string::npos) << line;
        EXPECT_NE(line.find("h200_then"), std::string::npos) << line;
    }

    // What is left: the H200's current entries and everything of the A100, old provenance or not.
    EXPECT_EQ(sorted_texts(cache->all_selections()),
              sorted_texts(std::vector<SelectionRecord>{r.selections[0], r.selections[3]}));
    EXPECT_EQ(sorted_texts(cache->all_measurements()),
              sorted_texts(std::vector<MeasurementRecord>{r.measurements[0], r.measurements[5]}));
    EXPECT_EQ(sorted_texts(cache->all_untuned()),
              sorted_texts(std::vector<UntunedRecord>{r.untuned[0], r.untuned[2]}));
    EXPECT_EQ(texts(cache->all_ceilings()), texts(r.ceilings));
    EXPECT_EQ(cache->cubin_count(), 4u);  // the stale selections' cubins stay without --unreferenced-cubins

    // Nothing stale is left: a second run removes nothing.
    const PruneResult again = prune(*cache, stale_plan(false));
    EXPECT_EQ(again.selections_removed + again.measurements_removed + again.untuned_removed, 0);
}

TEST(CachePrune, StaleWithoutStaleEntriesRemovesNothing) {
    TempDir dir;
    write_records(dir.file("cache.sqlite"), stale_and_current());
    const auto cache = open_rw(dir.file("cache.sqlite"));
    const Snapshot before = snapshot(*cache);
    PrunePlan plan = stale_plan(false);
    plan.device_fingerprint = "NVIDIA L4/cc8.9/sm58";  // a device with no entries: nothing of others is stale here
    const PruneResult result = prune(*cache, plan);
    EXPECT_EQ(result.selections_removed + result.measurements_removed + result.untuned_removed, 0);
    EXPECT_TRUE(result.removed.empty());
    expect_same(snapshot(*cache), before);
}

TEST(CachePrune, OlderThanRemovesOldSelectionsWithTheirSearchAndOldMeasurements) {
    TempDir dir;
    // kBig was tuned long ago (its measurements are recent, but belong to that search); kSmall recently, with one
    // measurement taken long ago; the A100's kBig recently (the rule looks at every device and provenance).
    const SelectionRecord old_one = selection(kH200, kCurrent, kBig, "old_one", 1.0, true, 1000);
    const SelectionRecord new_one = selection(kH200, kCurrent, kSmall, "new_one", 1.0, true, 3000);
    const SelectionRecord other = selection(kA100, kA100Current, kBig, "other", 1.0, true, 3000);
    const std::vector<MeasurementRecord> measurements = {
        measurement(kH200, kCurrent, kBig, "old_one", 2000), measurement(kH200, kCurrent, kBig, "old_two", 2500),
        measurement(kH200, kCurrent, kSmall, "new_one", 500), measurement(kH200, kCurrent, kSmall, "new_one", 3000),
        measurement(kA100, kA100Current, kBig, "other", 3000)};
    write_records(dir.file("cache.sqlite"),
                  {{old_one, new_one, other}, {}, measurements, {untuned(kH200, kCurrent, kHalf, 1, 2, 3)}, {}});
    const auto cache = open_rw(dir.file("cache.sqlite"));
    PrunePlan plan;
    plan.older_than_unix = 1500;
    plan.dry_run = false;
    const PruneResult result = prune(*cache, plan);
    EXPECT_EQ(result.selections_removed, 1);
    EXPECT_EQ(result.measurements_removed, 3);
    EXPECT_EQ(result.untuned_removed, 0);
    EXPECT_EQ(result.cubins_removed, 0);
    ASSERT_EQ(result.removed.size(), 1u);
    EXPECT_NE(result.removed[0].find("old_one"), std::string::npos) << result.removed[0];

    EXPECT_EQ(sorted_texts(cache->all_selections()), sorted_texts(std::vector<SelectionRecord>{new_one, other}));
    EXPECT_EQ(sorted_texts(cache->all_measurements()),
              sorted_texts(std::vector<MeasurementRecord>{measurements[3], measurements[4]}));
    EXPECT_EQ(cache->all_untuned().size(), 1u);
    EXPECT_EQ(cache->cubin_count(), 3u);
}

TEST(CachePrune, UnreferencedCubinsRemovesOnlyCubinsNoSelectionUses) {
    TempDir dir;
    write_records(dir.file("cache.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "used", 1.0, true),
                    selection(kA100, kA100Current, kBig, "used_elsewhere", 1.0, true),
                    selection(kH200, kOld, kBig, "used_by_stale", 1.0, true)},
                   {cubin("default-a"), cubin("default-b")},
                   {measurement(kH200, kCurrent, kBig, "used", 1)},
                   {untuned(kH200, kOld, kSmall, 1, 2, 3)},
                   {}});
    const auto cache = open_rw(dir.file("cache.sqlite"));
    const Snapshot before = snapshot(*cache);
    PrunePlan plan;
    plan.unreferenced_cubins = true;
    plan.dry_run = false;
    const PruneResult result = prune(*cache, plan);
    EXPECT_EQ(result.cubins_removed, 2);
    EXPECT_EQ(result.selections_removed + result.measurements_removed + result.untuned_removed, 0);
    EXPECT_EQ(std::set<std::string>(result.removed.begin(), result.removed.end()),
              (std::set<std::string>{"cubin default-a", "cubin default-b"}));
    std::vector<std::string> keys;
    for (const CubinRecord& c : cache->all_cubins()) keys.push_back(c.key);
    EXPECT_EQ(keys, (std::vector<std::string>{"cubin-used", "cubin-used_by_stale", "cubin-used_elsewhere"}));
    const Snapshot after = snapshot(*cache);
    EXPECT_EQ(after.selections, before.selections);
    EXPECT_EQ(after.measurements, before.measurements);
    EXPECT_EQ(after.untuned, before.untuned);
}

TEST(CachePrune, UnreferencedCubinsIncludesThoseOfSelectionsPrunedByTheOtherRules) {
    TempDir dir;
    write_records(dir.file("cache.sqlite"),
                  {{selection(kH200, kCurrent, kBig, "kept", 1.0, true, 5000),
                    selection(kH200, kCurrent, kSmall, "aged", 1.0, true, 100)},
                   {},
                   {},
                   {},
                   {}});
    const auto cache = open_rw(dir.file("cache.sqlite"));
    PrunePlan plan;
    plan.older_than_unix = 1000;
    plan.unreferenced_cubins = true;
    plan.dry_run = false;
    const PruneResult result = prune(*cache, plan);
    EXPECT_EQ(result.selections_removed, 1);
    EXPECT_EQ(result.cubins_removed, 1);
    EXPECT_FALSE(cache->find_cubin("cubin-aged").has_value());
    EXPECT_TRUE(cache->find_cubin("cubin-kept").has_value());
}

// A real prune needs a writable cache; a dry run reads a ReadOnly one and counts exactly what the real one removes,
// leaving the file byte for byte as it was (issue 19: the dry run used to open, migrate and write the file).
TEST(CachePrune, ReadOnlyCacheIsRefusedButDryRunCountsOnACopy) {
    TempDir dir;
    const std::string path = dir.file("cache.sqlite");
    write_records(path, stale_and_current());
    const std::string bytes = read_bytes(path);
    const auto files = dir.listing();
    const auto cache = open_ro(path);
    expect_cache_error([&] { prune(*cache, stale_plan(false)); }, "read-only");
    const PruneResult dry = prune(*cache, stale_plan(true));
    EXPECT_EQ(cache->all_selections().size(), 4u);
    EXPECT_TRUE(read_bytes(path) == bytes);
    EXPECT_EQ(dir.listing(), files);
    const PruneResult real = prune(*open_rw(path), stale_plan(false));
    EXPECT_GT(real.selections_removed, 0);
    EXPECT_EQ(dry.selections_removed, real.selections_removed);
    EXPECT_EQ(dry.measurements_removed, real.measurements_removed);
    EXPECT_EQ(dry.removed, real.removed);
}

}  // namespace
}  // namespace jitgemm::cache
