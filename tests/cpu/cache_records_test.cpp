// The tuning cache keeps what it is given: every field of every record survives a close and a reopen, record_tuning
// keeps the better of two selections, and nothing is returned for, or taken from, another provenance.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <ctime>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "cache/content_hash.h"
#include "cache/tuning_cache.h"
#include "jitgemm/error.h"
#include "support/cache_test_files.h"
#include "support/fake_cubin.h"

namespace jitgemm::cache {
namespace {

using namespace cache_test;


// Every field differs from every other, so a swapped column shows.
Provenance provenance() { return {"0.1.0", "sources-5f3a", "13.0", "13.1", "NVIDIA H200", 132}; }

SelectionRecord selection(const std::string& problem, const std::string& config, double time_ms, bool complete) {
    SelectionRecord s;
    s.device_fingerprint = "NVIDIA H200/cc9.0/sm132";
    s.problem_key = problem;
    s.config = config;
    s.cubin_key = "cubin-" + config;
    s.time_ms = time_ms;
    s.tflops = 54.5;
    s.tuned_at_unix = 1700000123;
    s.search_seconds = 12.75;
    s.candidates_measured = 37;
    s.candidates_total = 41;
    s.search_complete = complete;
    s.provenance = provenance();
    return s;
}

CubinRecord cubin(const std::string& key, std::string image = fake_cubin("jg_regblock", "sm_90a", "ELF image")) {
    CubinRecord c;
    c.key = key;
    c.arch = "sm_90a";
    c.kernel_symbol = "jg_regblock";
    c.config = "regblock_f32_nn_128x128x8_t8x8_s2";
    c.nvrtc_version = "13.0.88";
    c.kernel_sources_hash = "sources-5f3a";
    c.image = std::move(image);
    c.created_at_unix = 1700000456;
    return c;
}

MeasurementRecord measurement(const std::string& problem, const std::string& config, CandidateOutcome outcome,
                              std::int64_t measured_at) {
    MeasurementRecord m;
    m.device_fingerprint = "NVIDIA H200/cc9.0/sm132";
    m.problem_key = problem;
    m.config = config;
    m.outcome = outcome;
    m.time_ms = outcome == CandidateOutcome::Passed ? 0.75 : 0.0;
    m.detail = "regs=96 " + config;
    m.provenance = provenance();
    m.measured_at_unix = measured_at;
    return m;
}

constexpr CandidateOutcome kAllOutcomes[] = {CandidateOutcome::Passed,        CandidateOutcome::Invalid,
                                             CandidateOutcome::CompileFailed, CandidateOutcome::Spilled,
                                             CandidateOutcome::LaunchFailed,  CandidateOutcome::Incorrect};

TEST(CacheOutcomeNames, EveryOutcomeHasItsNameAndParsesBack) {
    const std::vector<std::string> expected = {"passed",  "invalid",       "compile-failed",
                                               "spilled", "launch-failed", "incorrect"};
    for (std::size_t i = 0; i < std::size(kAllOutcomes); ++i) {
        EXPECT_EQ(to_string(kAllOutcomes[i]), expected[i]);
        EXPECT_EQ(parse_candidate_outcome(expected[i]), kAllOutcomes[i]);
    }
    EXPECT_EQ(parse_candidate_outcome("Passed"), std::nullopt);
    EXPECT_EQ(parse_candidate_outcome(""), std::nullopt);
}

TEST(CacheRoundTrip, SelectionKeepsEveryFieldAcrossReopen) {
    TempDir dir;
    const SelectionRecord stored = selection("f32_nn_m4096_n4096_k4096", "regblock_a", 1.25, true);
    TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite)
        ->record_tuning(stored, cubin(stored.cubin_key), {});

    for (const auto access : {TuningCache::Access::ReadWrite, TuningCache::Access::ReadOnly}) {
        const auto cache = TuningCache::open(dir.file("tuning.sqlite"), access);
        const auto found = cache->find_selection(stored.device_fingerprint, stored.problem_key, stored.provenance);
        ASSERT_TRUE(found.has_value());
        EXPECT_EQ(found->device_fingerprint, stored.device_fingerprint);
        EXPECT_EQ(found->problem_key, stored.problem_key);
        EXPECT_EQ(found->config, stored.config);
        EXPECT_EQ(found->cubin_key, stored.cubin_key);
        EXPECT_EQ(found->time_ms, stored.time_ms);
        EXPECT_EQ(found->tflops, stored.tflops);
        EXPECT_EQ(found->tuned_at_unix, stored.tuned_at_unix);
        EXPECT_EQ(found->search_seconds, stored.search_seconds);
        EXPECT_EQ(found->candidates_measured, stored.candidates_measured);
        EXPECT_EQ(found->candidates_total, stored.candidates_total);
        EXPECT_EQ(found->search_complete, stored.search_complete);
        EXPECT_EQ(found->provenance.library_version, stored.provenance.library_version);
        EXPECT_EQ(found->provenance.kernel_sources_hash, stored.provenance.kernel_sources_hash);
        EXPECT_EQ(found->provenance.nvrtc_version, stored.provenance.nvrtc_version);
        EXPECT_EQ(found->provenance.driver_version, stored.provenance.driver_version);
        EXPECT_EQ(found->provenance.device_name, stored.provenance.device_name);
        EXPECT_EQ(found->provenance.sm_count, stored.provenance.sm_count);
        ASSERT_EQ(cache->all_selections().size(), 1u);
        EXPECT_TRUE(cache->all_selections()[0].provenance == stored.provenance);
    }
}

TEST(CacheRoundTrip, CubinKeepsEveryFieldAndEveryByteOfItsImage) {
    TempDir dir;
    std::string image;
    for (int repeat = 0; repeat < 300; ++repeat)  // ~75 KiB: overflow pages, NUL bytes and all 256 values
        for (int byte = 0; byte < 256; ++byte) image.push_back(static_cast<char>(byte));
    image = fake_cubin("jg_regblock", "sm_90a", image);
    const CubinRecord stored = cubin("key-1", image);
    TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite)->put_cubin(stored);

    const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadOnly);
    const auto found = cache->find_cubin("key-1");
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->key, stored.key);
    EXPECT_EQ(found->arch, stored.arch);
    EXPECT_EQ(found->kernel_symbol, stored.kernel_symbol);
    EXPECT_EQ(found->config, stored.config);
    EXPECT_EQ(found->nvrtc_version, stored.nvrtc_version);
    EXPECT_EQ(found->kernel_sources_hash, stored.kernel_sources_hash);
    EXPECT_EQ(found->created_at_unix, stored.created_at_unix);
    EXPECT_EQ(found->image_hash, content_hash_hex(image));  // set by the cache on the way in
    EXPECT_EQ(found->image.size(), image.size());
    EXPECT_TRUE(found->image == image);  // not EXPECT_EQ: 75 KiB of bytes is no message
    EXPECT_FALSE(cache->find_cubin("key-2").has_value());
}

TEST(CacheRoundTrip, CubinThatIsNoCubinIsRefusedAndNothingIsStored) {
    TempDir dir;
    const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite);
    expect_cache_error([&] { cache->put_cubin(cubin("empty", "")); }, "the image is empty");
    expect_cache_error([&] { cache->put_cubin(cubin("text", "not an ELF file at all, but long enough to be one")); },
                       "not an ELF file");
    CubinRecord other_kernel = cubin("other", fake_cubin("jg_naive"));
    expect_cache_error([&] { cache->put_cubin(other_kernel); }, "defines no global function jg_regblock");
    expect_cache_error([&] { cache->put_cubin(cubin("sm80", fake_cubin("jg_regblock", "sm_80"))); },
                       "built for sm_80, not sm_90a");
    CubinRecord sql = cubin("sql");
    sql.kernel_symbol = "jg_regblock'); DROP TABLE cubins; --";
    expect_cache_error([&] { cache->put_cubin(sql); }, "not an identifier");
    EXPECT_EQ(cache->cubin_count(), 0u);
}

TEST(CacheRoundTrip, PutCubinKeepsTheFirstImageOfAKey) {
    TempDir dir;
    const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite);
    cache->put_cubin(cubin("key", fake_cubin("jg_regblock", "sm_90a", "first")));
    cache->put_cubin(cubin("key", fake_cubin("jg_regblock", "sm_90a", "second")));
    EXPECT_EQ(cache->cubin_count(), 1u);
    EXPECT_EQ(cache->find_cubin("key")->image, fake_cubin("jg_regblock", "sm_90a", "first"));
}

TEST(CacheRoundTrip, MeasurementsOfEveryOutcomeComeBackOldestFirst) {
    TempDir dir;
    const std::string problem = "f32_nt_m512_n512_k512";
    std::vector<MeasurementRecord> stored;
    for (std::size_t i = 0; i < std::size(kAllOutcomes); ++i)  // recorded newest first
        stored.push_back(measurement(problem, "config_" + std::to_string(i), kAllOutcomes[i], 1700000900 - i));
    {
        const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite);
        cache->record_measurements({stored.begin(), stored.begin() + 3});
        cache->record_tuning(selection(problem, "config_0", 0.75, false), cubin("cubin-config_0"),
                             {stored.begin() + 3, stored.end()});
        cache->record_measurements({measurement("other_problem", "config_0", CandidateOutcome::Passed, 1)});
    }
    const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadOnly);
    EXPECT_EQ(cache->measurement_count(), stored.size() + 1);
    const auto found = cache->measurements("NVIDIA H200/cc9.0/sm132", problem, provenance());
    ASSERT_EQ(found.size(), stored.size());
    for (std::size_t i = 0; i < found.size(); ++i) {
        const MeasurementRecord& expected = stored[stored.size() - 1 - i];
        EXPECT_EQ(found[i].device_fingerprint, expected.device_fingerprint);
        EXPECT_EQ(found[i].problem_key, expected.problem_key);
        EXPECT_EQ(found[i].config, expected.config);
        EXPECT_EQ(found[i].outcome, expected.outcome) << to_string(expected.outcome);
        EXPECT_EQ(found[i].time_ms, expected.time_ms);
        EXPECT_EQ(found[i].detail, expected.detail);
        EXPECT_TRUE(found[i].provenance == expected.provenance);
        EXPECT_EQ(found[i].measured_at_unix, expected.measured_at_unix);
    }
}

TEST(CacheRoundTrip, UntunedProblemIsCountedPerCall) {
    TempDir dir;
    const std::int64_t before = std::time(nullptr);
    {
        const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite);
        cache->record_untuned("NVIDIA H200/cc9.0/sm132", "f32_nn_m8_n8_k8", provenance());
        cache->record_untuned("NVIDIA H200/cc9.0/sm132", "f32_nn_m8_n8_k8", provenance());
        cache->record_untuned("NVIDIA H200/cc9.0/sm132", "f32_nn_m16_n16_k16", provenance());
    }
    const std::int64_t after = std::time(nullptr);
    const auto untuned = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadOnly)->all_untuned();
    ASSERT_EQ(untuned.size(), 2u);
    EXPECT_EQ(untuned[0].problem_key, "f32_nn_m16_n16_k16");
    EXPECT_EQ(untuned[0].calls, 1);
    EXPECT_EQ(untuned[1].device_fingerprint, "NVIDIA H200/cc9.0/sm132");
    EXPECT_EQ(untuned[1].problem_key, "f32_nn_m8_n8_k8");
    EXPECT_EQ(untuned[1].calls, 2);
    EXPECT_TRUE(untuned[1].provenance == provenance());
    EXPECT_GE(untuned[1].first_seen_unix, before);
    EXPECT_LE(untuned[1].first_seen_unix, untuned[1].last_seen_unix);
    EXPECT_LE(untuned[1].last_seen_unix, after);
}

// record_tuning over an already stored selection of the same device, problem and provenance.
struct KeepBetterCase {
    const char* name;
    bool stored_complete;
    double stored_time_ms;
    bool new_complete;
    double new_time_ms;
    bool new_is_stored;
};
void PrintTo(const KeepBetterCase& c, std::ostream* out) { *out << c.name; }

class CacheKeepBetter : public testing::TestWithParam<KeepBetterCase> {};

TEST_P(CacheKeepBetter, StoresTheBetterSelectionAndSaysWhich) {
    const KeepBetterCase& c = GetParam();
    TempDir dir;
    const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite);
    const std::string problem = "f32_nn_m1024_n1024_k1024";
    EXPECT_TRUE(cache->record_tuning(selection(problem, "old", c.stored_time_ms, c.stored_complete), cubin("cubin-old"),
                                     {measurement(problem, "old", CandidateOutcome::Passed, 1)}));
    EXPECT_EQ(cache->record_tuning(selection(problem, "new", c.new_time_ms, c.new_complete), cubin("cubin-new"),
                                   {measurement(problem, "new", CandidateOutcome::Passed, 2)}),
              c.new_is_stored);

    const auto found = cache->find_selection("NVIDIA H200/cc9.0/sm132", problem, provenance());
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->config, c.new_is_stored ? "new" : "old");
    EXPECT_EQ(found->time_ms, c.new_is_stored ? c.new_time_ms : c.stored_time_ms);
    EXPECT_EQ(found->search_complete, c.new_is_stored ? c.new_complete : c.stored_complete);
    EXPECT_EQ(cache->all_selections().size(), 1u);
    // The loser's cubin and measurements are kept all the same.
    EXPECT_EQ(cache->cubin_count(), 2u);
    EXPECT_EQ(cache->measurements("NVIDIA H200/cc9.0/sm132", problem, provenance()).size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(
    CacheRecordTuning, CacheKeepBetter,
    testing::Values(KeepBetterCase{"CompleteSlowerReplacesIncompleteFaster", false, 1.0, true, 2.0, true},
                    KeepBetterCase{"IncompleteFasterDoesNotReplaceCompleteSlower", true, 2.0, false, 1.0, false},
                    KeepBetterCase{"CompleteFasterReplacesCompleteSlower", true, 2.0, true, 1.0, true},
                    KeepBetterCase{"CompleteSlowerDoesNotReplaceCompleteFaster", true, 1.0, true, 2.0, false},
                    KeepBetterCase{"CompleteTieKeepsTheStoredOne", true, 1.0, true, 1.0, false},
                    KeepBetterCase{"IncompleteFasterReplacesIncompleteSlower", false, 2.0, false, 1.0, true},
                    KeepBetterCase{"IncompleteSlowerDoesNotReplaceIncompleteFaster", false, 1.0, false, 2.0, false}),
    [](const testing::TestParamInfo<KeepBetterCase>& info) { return std::string(info.param.name); });

TEST(CacheRecordTuning, FirstSelectionOfAProblemIsStored) {
    TempDir dir;
    const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite);
    EXPECT_TRUE(cache->record_tuning(selection("p", "a", 9.0, false), cubin("cubin-a"), {}));
    EXPECT_TRUE(cache->find_selection("NVIDIA H200/cc9.0/sm132", "p", provenance()).has_value());
}

// Provenance P' differs from P in one field.
struct ProvenanceChange {
    const char* field;
    void (*change)(Provenance&);
};
void PrintTo(const ProvenanceChange& c, std::ostream* out) { *out << c.field; }

class CacheProvenance : public testing::TestWithParam<ProvenanceChange> {};

TEST_P(CacheProvenance, OtherProvenanceNeitherSeesNorTouchesTheEntry) {
    TempDir dir;
    const auto cache = TuningCache::open(dir.file("tuning.sqlite"), TuningCache::Access::ReadWrite);
    const std::string device = "NVIDIA H200/cc9.0/sm132", problem = "f32_nn_m64_n64_k64";
    ASSERT_TRUE(cache->record_tuning(selection(problem, "under_p", 1.0, true), cubin("cubin-under_p"),
                                     {measurement(problem, "under_p", CandidateOutcome::Passed, 1)}));
    cache->record_untuned(device, problem, provenance());
    Provenance other = provenance();
    GetParam().change(other);
    ASSERT_TRUE(other != provenance());

    EXPECT_FALSE(cache->find_selection(device, problem, other).has_value());
    EXPECT_TRUE(cache->measurements(device, problem, other).empty());

    // A slower, incomplete result under P' is stored beside P's, which stays as it was.
    SelectionRecord under_other = selection(problem, "under_p_prime", 5.0, false);
    under_other.provenance = other;
    MeasurementRecord measured_under_other = measurement(problem, "under_p_prime", CandidateOutcome::Spilled, 2);
    measured_under_other.provenance = other;
    EXPECT_TRUE(cache->record_tuning(under_other, cubin("cubin-under_p_prime"), {measured_under_other}));
    cache->record_untuned(device, problem, other);
    ASSERT_TRUE(cache->find_selection(device, problem, other).has_value());
    EXPECT_EQ(cache->find_selection(device, problem, other)->config, "under_p_prime");
    EXPECT_EQ(cache->measurements(device, problem, other).size(), 1u);
    ASSERT_TRUE(cache->find_selection(device, problem, provenance()).has_value());
    EXPECT_EQ(cache->find_selection(device, problem, provenance())->config, "under_p");
    EXPECT_EQ(cache->measurements(device, problem, provenance()).size(), 1u);
    EXPECT_EQ(cache->all_selections().size(), 2u);
    for (const UntunedRecord& untuned : cache->all_untuned()) EXPECT_EQ(untuned.calls, 1);
    EXPECT_EQ(cache->all_untuned().size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(
    CacheProvenanceMismatch, CacheProvenance,
    testing::Values(ProvenanceChange{"LibraryVersion", [](Provenance& p) { p.library_version = "0.2.0"; }},
                    ProvenanceChange{"KernelSourcesHash", [](Provenance& p) { p.kernel_sources_hash = "other"; }},
                    ProvenanceChange{"NvrtcVersion", [](Provenance& p) { p.nvrtc_version = "12.8"; }},
                    ProvenanceChange{"DriverVersion", [](Provenance& p) { p.driver_version = "12.8"; }},
                    ProvenanceChange{"DeviceName", [](Provenance& p) { p.device_name = "NVIDIA H100"; }},
                    ProvenanceChange{"SmCount", [](Provenance& p) { p.sm_count = 114; }}),
    [](const testing::TestParamInfo<ProvenanceChange>& info) { return std::string(info.param.field); });

}  // namespace
}  // namespace jitgemm::cache
