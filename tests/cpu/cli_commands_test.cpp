// The jitgemm command on any machine: bad manifests and flags are refused before anything runs (exit 2, the file,
// line and field named, no cache written), and the cache subcommands work on caches holding entries of several fake
// devices and versions — export, import and merge lose nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include <nlohmann/json.hpp>

#include "cache/tuning_cache.h"
#include "support/cache_test_files.h"
#include "support/fake_cubin.h"
#include "tuner/families/registry.h"
#include "tools/manifest/json_value.h"
#include "tools/manifest/shape_manifest.h"
#include "support/process.h"

namespace jitgemm {
namespace {

using testing::run_process;
using testing::TemporaryDirectory;
using testing::write_file;

const std::string kCli = JITGEMM_CLI_PATH;

TEST(CliTune, MalformedManifestIsRefusedBeforeAnythingRuns) {
    const TemporaryDirectory dir;
    write_file(dir.file("bad.csv"), "name,M,N,K\nok,64,64,64\nbad,64,6x4,64\n");
    const auto r = run_process(kCli + " tune --manifest " + dir.file("bad.csv") + " --cache " + dir.file("c.sqlite"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("bad.csv:3"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("'N'"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("c.sqlite")));
}

TEST(CliTune, UnsupportedEntriesAndBadFlagsAreUsageErrors) {
    const TemporaryDirectory dir;
    write_file(dir.file("mixed.csv"), "name,M,N,K,dtypeA,dtypeB\nx,64,64,64,f16,bf16\n");
    auto r = run_process(kCli + " tune --manifest " + dir.file("mixed.csv") + " --cache " + dir.file("c.sqlite"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("'dtype'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("same element type"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("c.sqlite")));
    write_file(dir.file("epilogue.csv"), "name,M,N,K,dtype,epilogue\nx,64,64,64,bf16,relu\n");
    r = run_process(kCli + " tune --manifest " + dir.file("epilogue.csv") + " --cache " + dir.file("c.sqlite"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("'epilogue'"), std::string::npos) << r.output;
    r = run_process(kCli + " tune --m 8 --n 8 --k 8 --dtype f32 --out-dtype bf16 --cache " + dir.file("c.sqlite"));
    EXPECT_EQ(r.exit_code, 2) << r.output;  // fp32 inputs give an fp32 output
    EXPECT_NE(r.output.find("'dtype'"), std::string::npos) << r.output;
    r = run_process(kCli + " tune --m 8 --n 8 --k 8 --dtype bf16 --compute tf32 --cache " + dir.file("c.sqlite"));
    EXPECT_EQ(r.exit_code, 2) << r.output;  // TF32 is for fp32 inputs
    EXPECT_EQ(run_process(kCli + " tune --m 8 --n 8 --k 8 --compute f64").exit_code, 2);
    // A flag's value is the field's value, not CSV text: "n,t" is a bad transpose, not two cells.
    r = run_process(kCli + " tune --m 8 --n 8 --k 8 --transa 'n,t' --cache " + dir.file("c.sqlite"));
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("field 'transA': \"n,t\" is not a transpose"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("c.sqlite")));
    r = run_process(kCli + " run --m 8 --n 8 --k 8 --dtype f64");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--dtype"), std::string::npos) << r.output;
    EXPECT_EQ(run_process(kCli + " run --m 8 --n 8 --k 8 --compute bf16").exit_code, 2);
    EXPECT_EQ(run_process(kCli + " run --m 8 --n 8 --k 8 --dtype f16 --out-dtype bf16 --compute tf32").exit_code, 2);
    EXPECT_EQ(run_process(kCli + " tune --bogus").exit_code, 2);
    EXPECT_EQ(run_process(kCli + " tune").exit_code, 2);  // no problems named
    EXPECT_EQ(run_process(kCli + " tune --m 8 --n 8 --k 8 --shard 5/3").exit_code, 2);
    EXPECT_EQ(run_process(kCli + " tune --m 8 --n 8 --k 8 --shard x").exit_code, 2);
    EXPECT_EQ(run_process(kCli + " bench --m 8").exit_code, 2);
    // --m takes a size or a range FIRST-LAST of a layer's sizes; anything else is refused before the GPU.
    for (const char* m : {"0", "x", "8-4", "8-8", "-8", "1-", "1-x", "2.5", "1-8-9"}) {
        r = run_process(kCli + " tune --m " + m + " --n 8 --k 8 --cache " + dir.file("c.sqlite"));
        EXPECT_EQ(r.exit_code, 2) << m << ": " << r.output;
        EXPECT_NE(r.output.find("--m"), std::string::npos) << m << ": " << r.output;
    }
    EXPECT_EQ(run_process(kCli + " bench --m 1-x --n 8 --k 8").exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(dir.file("c.sqlite")));
    EXPECT_EQ(run_process(kCli + " cache frobnicate").exit_code, 2);
    EXPECT_EQ(run_process(kCli + " tune --help").exit_code, 0);
    EXPECT_EQ(run_process(kCli + " cache --help").exit_code, 0);
}

// `jitgemm report` needs no GPU: a bench file alone makes the page; the page is not overwritten without --force,
// and nothing to show is a usage error.
TEST(CliReport, WritesThePageWithoutAGpuAndKeepsAnExistingFile) {
    const TemporaryDirectory dir;
    const std::string env = "JITGEMM_CUDA_DRIVER=/nonexistent/libcuda.so.1 JITGEMM_CACHE=" + dir.file("none.sqlite");
    const std::string bench = std::string(JITGEMM_SOURCE_DIR) + "/tests/report/h200_session14_bench.json";
    auto r = run_process(env + " " + kCli + " report --bench " + bench + " --output " + dir.file("r.html"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("52 problems on NVIDIA H200 (52 beside cuBLAS)"), std::string::npos) << r.output;
    std::ifstream page(dir.file("r.html"));
    const std::string html((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
    EXPECT_NE(html.find("<svg class=\"roofline\" data-precision=\"bf16\""), std::string::npos);
    r = run_process(env + " " + kCli + " report --bench " + bench + " --output " + dir.file("r.html"));
    EXPECT_EQ(r.exit_code, 2) << r.output;  // exists, no --force
    r = run_process(env + " " + kCli + " report --output " + dir.file("s.html"));
    EXPECT_EQ(r.exit_code, 2) << r.output;  // no cache yet and no bench file
    EXPECT_NE(r.output.find("nothing to show"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("s.html")));
}

TEST(CliTune, WithoutAGpuAValidManifestStopsWithExitThree) {
    const TemporaryDirectory dir;
    const auto r = run_process("JITGEMM_CUDA_DRIVER=/nonexistent/libcuda.so.1 " + kCli +
                               " tune --m 64 --n 64 --k 64 --cache " + dir.file("c.sqlite"));
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("no CUDA driver found"), std::string::npos) << r.output;
}

// A cache with entries of three fake devices and two library versions.
cache::SelectionRecord selection(const std::string& device, const std::string& key, const std::string& library,
                                 double ms) {
    cache::SelectionRecord s;
    s.device_fingerprint = device;
    s.problem_key = key;
    s.config = "regblock_128x128x8_t8x8_v4_s2_g8";
    s.cubin_key = "cubin-" + device.substr(7, 4) + "-" + key.substr(20, 10) + library;
    s.time_ms = ms;
    s.tflops = 40;
    s.tuned_at_unix = 1700000000;
    s.search_complete = true;
    s.candidates_measured = s.candidates_total = 10;
    s.provenance = {library, "00112233aabbccdd", "13.0", "13.0", device.substr(0, device.find('/')), 100};
    return s;
}

void fill(cache::TuningCache& c) {
    const std::string keys[] = {"v2_f32.f32.f32.f32_nn_m4096.n4096.k4096_ld4096.4096.4096_a1.b0_al16.16.16",
                                "v2_f32.f32.f32.f32_nn_m1024.n1024.k1024_ld1024.1024.1024_a1.b0_al16.16.16"};
    for (const std::string device : {"NVIDIA H200/cc9.0/sm132", "NVIDIA A100-SXM4-80GB/cc8.0/sm108",
                                     "Fake GPU/cc8.6/sm16"})
        for (const std::string library : {"0.1.0", "0.0.9"})
            for (const auto& key : keys) {
                const cache::SelectionRecord s = selection(device, key, library, 1.0);
                cache::CubinRecord cubin;
                cubin.key = s.cubin_key;
                cubin.arch = "sm_90a";
                cubin.kernel_symbol = "jg_regblock";
                cubin.config = s.config;
                cubin.image = cache_test::fake_cubin("jg_regblock", "sm_90a", s.cubin_key);
                cache::MeasurementRecord m;
                m.device_fingerprint = device;
                m.problem_key = key;
                m.config = s.config;
                m.time_ms = 1.0;
                m.provenance = s.provenance;
                m.measured_at_unix = 1700000000;
                c.record_tuning(s, cubin, {m});
            }
    c.record_untuned("NVIDIA H200/cc9.0/sm132",
                     "v2_f32.f32.f32.f32_nt_m100.n200.k300_ld100.200.100_a1.b0_al16.16.16",
                     selection("NVIDIA H200/cc9.0/sm132", keys[0], "0.1.0", 1).provenance);
}

std::set<std::string> selection_ids(const cache::TuningCache& c) {
    std::set<std::string> ids;
    for (const auto& s : c.all_selections())
        ids.insert(s.device_fingerprint + "|" + s.problem_key + "|" + s.provenance.library_version + "|" + s.config);
    return ids;
}

TEST(CliConfigs, ListsEveryFamilyWithADefaultThatParses) {
    const auto r = run_process(kCli + " configs");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    for (const AnyConfig& c : {AnyConfig{NaiveConfig{}}, AnyConfig{TiledConfig{}}, AnyConfig{RegBlockConfig{}},
                               AnyConfig{MmaSyncConfig{}}}) {
        const std::string name = to_string(c);
        EXPECT_NE(r.output.find(std::string(family_name(c)) + "\n"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find(name), std::string::npos) << name << " missing from\n" << r.output;
        EXPECT_TRUE(parse_config(name).has_value()) << name;
    }
}

TEST(CliCache, ListShowExportImportMergeLoseNothing) {
    const TemporaryDirectory dir;
    const std::string source = dir.file("source.sqlite");
    {
        const auto c = cache::TuningCache::open(source, cache::TuningCache::Access::ReadWrite);
        fill(*c);
    }
    auto r = run_process(kCli + " cache list --cache " + source);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("12 of 12 selections"), std::string::npos) << r.output;
    for (const char* device : {"NVIDIA H200", "A100", "Fake GPU"}) EXPECT_NE(r.output.find(device), std::string::npos);
    r = run_process(kCli + " cache list --device A100 --shape 1024x1024x1024 --cache " + source);
    EXPECT_NE(r.output.find("2 of 12 selections"), std::string::npos) << r.output;
    r = run_process(kCli + " cache show m4096.n4096 --cache " + source);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("passed 1"), std::string::npos) << r.output;
    r = run_process(kCli + " cache show m4096.n4096 --all --cache " + source);  // every candidate, with its time
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("measured\n"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(" 1 ms\n"), std::string::npos) << r.output;
    EXPECT_EQ(run_process(kCli + " cache show no-such-key --cache " + source).exit_code, 1);

    // Export one device's entries, import them elsewhere: exactly those arrive.
    r = run_process(kCli + " cache export --device H200 --output " + dir.file("h200.bundle") + " --cache " + source);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(run_process(kCli + " cache export --output " + dir.file("h200.bundle") + " --cache " + source).exit_code,
              0) << "export must not overwrite an existing bundle";
    r = run_process(kCli + " cache import " + dir.file("h200.bundle") + " --cache " + dir.file("target.sqlite"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    {
        const auto target = cache::TuningCache::open(dir.file("target.sqlite"), cache::TuningCache::Access::ReadOnly);
        EXPECT_EQ(target->all_selections().size(), 4u);
        for (const auto& s : target->all_selections()) EXPECT_EQ(s.device_fingerprint, "NVIDIA H200/cc9.0/sm132");
    }

    // Merge the two into a third: everything of both, nothing dropped, twice is the same as once.
    for (int round = 0; round < 2; ++round) {
        r = run_process(kCli + " cache merge --output " + dir.file("merged.sqlite") + " " + source + " " +
                        dir.file("target.sqlite"));
        ASSERT_EQ(r.exit_code, 0) << r.output;
    }
    const auto original = cache::TuningCache::open(source, cache::TuningCache::Access::ReadOnly);
    const auto merged = cache::TuningCache::open(dir.file("merged.sqlite"), cache::TuningCache::Access::ReadOnly);
    EXPECT_EQ(selection_ids(*merged), selection_ids(*original));
    EXPECT_EQ(merged->measurement_count(), original->measurement_count());
    EXPECT_EQ(merged->cubin_count(), original->cubin_count());
}

// A fresh machine: no cache directory yet. The read-only subcommands read the absent default cache as empty (they
// failed with "unable to open database file"), and create nothing.
TEST(CliCache, SubcommandsWorkBeforeAnyCacheExists) {
    const TemporaryDirectory dir;
    const std::string env = "JITGEMM_CUDA_DRIVER=/nonexistent/libcuda.so.1 JITGEMM_CACHE=" + dir.file("none") + " ";
    const std::vector<std::string> subcommands{"list", "list --json", "untuned", "doctor", "prune --older-than 1",
                                               "prune --older-than 1 --yes",
                                               "export --output " + dir.file("empty.bundle")};
    for (const std::string& sub : subcommands) {
        const auto r = run_process(env + kCli + " cache " + sub);
        EXPECT_EQ(r.exit_code, 0) << sub << "\n" << r.output;
        EXPECT_EQ(r.output.find("unable to open"), std::string::npos) << sub << "\n" << r.output;
    }
    EXPECT_FALSE(std::filesystem::exists(dir.file("none"))) << "a read-only subcommand created the cache";
    EXPECT_NE(run_process(env + kCli + " cache list --json").output.find("\"selections\": []"), std::string::npos);
    // An explicitly named file that does not exist is still an error.
    EXPECT_NE(run_process(env + kCli + " cache list --cache " + dir.file("missing.sqlite")).exit_code, 0);
}

// A doctor asked for coverage it cannot judge without the GPU has not checked it: not exit 0, which a deployment
// gate would read as covered.
TEST(CliCache, DoctorCoverageWithoutTheGpuIsNotAPass) {
    const TemporaryDirectory dir;
    const std::string path = dir.file("c.sqlite");
    {
        const auto c = cache::TuningCache::open(path, cache::TuningCache::Access::ReadWrite);
        fill(*c);
    }
    testing::write_file(dir.file("shapes.csv"), "name,M,N,K\na,64,64,64\n");
    const auto r = run_process("JITGEMM_CUDA_DRIVER=/nonexistent/libcuda.so.1 " + kCli + " cache doctor --cache " +
                               path + " --manifest " + dir.file("shapes.csv"));
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("NOT CHECKED"), std::string::npos) << r.output;
}

// The subcommands that print data print valid JSON with --json, holding what the text shows.
TEST(CliCache, JsonOfConfigsShowAndDoctor) {
    const TemporaryDirectory dir;
    const std::string path = dir.file("c.sqlite");
    {
        const auto c = cache::TuningCache::open(path, cache::TuningCache::Access::ReadWrite);
        fill(*c);
    }
    const auto member = [](const manifest::JsonValue& object, const std::string& key) -> const manifest::JsonValue* {
        for (const auto& m : object.members)
            if (m.key == key) return &m.value;
        return nullptr;
    };
    auto r = run_process(kCli + " configs --json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto configs = manifest::parse_json(r.output, "configs --json");
    ASSERT_NE(member(configs, "families"), nullptr);
    std::size_t families = 0;
    for_each_family([&](auto) { ++families; });
    EXPECT_EQ(member(configs, "families")->items.size(), families);

    r = run_process(kCli + " cache show m4096 --json --cache " + path);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto shown = manifest::parse_json(r.output, "cache show --json");
    ASSERT_NE(member(shown, "selections"), nullptr);
    ASSERT_FALSE(member(shown, "selections")->items.empty());
    for (const auto& s : member(shown, "selections")->items) {
        ASSERT_NE(member(s, "problem"), nullptr);
        EXPECT_NE(member(s, "problem")->text.find("m4096"), std::string::npos);
        EXPECT_NE(member(s, "candidates"), nullptr);
    }

    r = run_process("JITGEMM_CUDA_DRIVER=/nonexistent/libcuda.so.1 " + kCli + " cache doctor --json --cache " + path);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    const auto doctor = manifest::parse_json(r.output, "cache doctor --json");
    ASSERT_NE(member(doctor, "selections"), nullptr);
    EXPECT_EQ(member(doctor, "selections")->text, "12");
    EXPECT_EQ(member(doctor, "healthy")->text, "true");
    EXPECT_EQ(member(doctor, "coverage")->kind, manifest::JsonValue::Kind::Null);
}

// The subcommands that act (export, import, merge, prune) say what they did as JSON with --json: the counts their
// text gives, and a document a program can read whole.
TEST(CliCache, JsonOfExportImportMergeAndPrune) {
    const TemporaryDirectory dir;
    const std::string path = dir.file("c.sqlite");
    {
        const auto c = cache::TuningCache::open(path, cache::TuningCache::Access::ReadWrite);
        fill(*c);
    }
    auto r = run_process(kCli + " cache export --json --device H200 --output " + dir.file("h200.bundle") + " --cache " +
                         path);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    auto out = nlohmann::json::parse(r.output);
    EXPECT_EQ(out["bundle"], dir.file("h200.bundle"));
    EXPECT_EQ(out["selections_added"], 4);  // 2 problems x 2 library versions of the H200
    r = run_process(kCli + " cache import --json " + dir.file("h200.bundle") + " --cache " + dir.file("fresh.sqlite"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    out = nlohmann::json::parse(r.output);
    ASSERT_EQ(out["bundles"].size(), 1u);
    EXPECT_EQ(out["bundles"][0]["selections_added"], 4);
    EXPECT_EQ(out["bundles"][0]["rejections"].size(), 0u);
    r = run_process(kCli + " cache merge --json --output " + dir.file("merged.sqlite") + " " + path + " " +
                    dir.file("fresh.sqlite"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    out = nlohmann::json::parse(r.output);
    ASSERT_EQ(out["inputs"].size(), 2u);
    EXPECT_EQ(out["inputs"][0]["selections_added"], 12);
    EXPECT_EQ(out["inputs"][1]["selections_added"], 0);
    r = run_process(kCli + " cache prune --json --unreferenced-cubins --cache " + path);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    out = nlohmann::json::parse(r.output);
    EXPECT_EQ(out["dry_run"], true);
    EXPECT_EQ(out["cubins_removed"], 0);
}

TEST(CliCache, DoctorPruneAndUntunedManifest) {
    const TemporaryDirectory dir;
    const std::string path = dir.file("c.sqlite");
    {
        const auto c = cache::TuningCache::open(path, cache::TuningCache::Access::ReadWrite);
        fill(*c);
    }
    auto r = run_process(kCli + " cache doctor --cache " + path);
    EXPECT_NE(r.output.find("integrity ok"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("12 selections"), std::string::npos) << r.output;

    // Untuned problems come out as a manifest the reader takes, naming the same problem.
    r = run_process(kCli + " cache untuned --output " + dir.file("untuned.csv") + " --cache " + path);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto entries = read_manifest(dir.file("untuned.csv"));
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].m, 100);
    EXPECT_EQ(entries[0].n, 200);
    EXPECT_EQ(entries[0].k, 300);
    EXPECT_EQ(entries[0].trans_b, Transpose::Yes);
    // The same as a JSON manifest, which reads back as the same problem.
    r = run_process(kCli + " cache untuned --json --output " + dir.file("untuned.json") + " --cache " + path);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto from_json = read_manifest(dir.file("untuned.json"));
    ASSERT_EQ(from_json.size(), 1u);
    EXPECT_TRUE(same_problem(from_json[0], entries[0])) << describe(from_json[0]) << "\n" << describe(entries[0]);
    EXPECT_EQ(from_json[0].frequency, entries[0].frequency);

    // The output is never written over data (issue 19: pointed at the cache, it turned 30 selections into 188 bytes
    // of CSV with exit 0): the cache itself is refused even with --force, another existing file without it.
    const std::string cache_bytes = cache_test::read_bytes(path);
    for (const std::string force : {"", " --force"}) {
        r = run_process(kCli + " cache untuned --output " + path + force + " --cache " + path);
        EXPECT_EQ(r.exit_code, 2) << r.output;
        EXPECT_NE(r.output.find("is a SQLite database"), std::string::npos) << r.output;
    }
    EXPECT_TRUE(cache_test::read_bytes(path) == cache_bytes);
    r = run_process(kCli + " cache untuned --output " + dir.file("untuned.csv") + " --cache " + path);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("already exists"), std::string::npos) << r.output;
    r = run_process(kCli + " cache untuned --output " + dir.file("untuned.csv") + " --force --cache " + path);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(read_manifest(dir.file("untuned.csv")).size(), 1u);
    // A write that fails (a file-size limit stands in for a full disk) exits non-zero and leaves nothing: no
    // truncated file at the path, no temporary beside it.
    r = run_process("sh -c \"ulimit -f 0; trap '' XFSZ; " + kCli + " cache untuned --output " + dir.file("full.csv") +
                    " --cache " + path + "\"");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("could not write"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(dir.file("full.csv")));
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        EXPECT_EQ(entry.path().filename().string().find("partial"), std::string::npos) << entry.path();

    // Prune: a dry run removes nothing; with --yes the old entries go.
    r = run_process(kCli + " cache prune --older-than 1 --cache " + path);
    EXPECT_NE(r.output.find("dry run: would remove 12 selections"), std::string::npos) << r.output;
    EXPECT_EQ(cache::TuningCache::open(path, cache::TuningCache::Access::ReadOnly)->all_selections().size(), 12u);
    EXPECT_EQ(run_process(kCli + " cache prune --cache " + path).exit_code, 2);  // no rule named
    r = run_process(kCli + " cache prune --older-than 1 --yes --cache " + path);
    EXPECT_NE(r.output.find("removed 12 selections"), std::string::npos) << r.output;
    EXPECT_EQ(cache::TuningCache::open(path, cache::TuningCache::Access::ReadOnly)->all_selections().size(), 0u);
}

}  // namespace
}  // namespace jitgemm
