// The jitgemm command on the GPU, end to end: info measures the ceilings once and keeps them; tune pre-warms from a
// manifest (duplicates merged, resumable, several GPUs, shards that merge); bench compares with cuBLAS; and the
// ship workflow — export a bundle, point JITGEMM_CACHE_PATH at it, and serve with zero compiles.
#include <gtest/gtest.h>

#include <fstream>

#include "cache/tuning_cache.h"
#include "runtime/device/device_info.h"
#include "runtime/driver/context.h"
#include "support/gpu_test_support.h"
#include "support/process.h"

namespace jitgemm {
namespace {

using testing::run_process;
using testing::TemporaryDirectory;
using testing::write_file;

const std::string kCli = JITGEMM_CLI_PATH;

using testing::count_of;

// Three problems, one of them twice (merged by tune).
const char* kManifest =
    "name,M,N,K,frequency\n"
    "a,256,512,128,1\n"
    "b,300,200,100,5\n"
    "a_again,256,512,128,2\n"
    "c,64,1024,256,1\n";

TEST(CliWorkflow, InfoMeasuresTheCeilingsOnceAndKeepsThem) {
    JITGEMM_REQUIRE_GPU();
    const TemporaryDirectory dir;
    const std::string env = "JITGEMM_CACHE=" + dir.path() + " ";
    auto r = run_process(env + kCli + " info --json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("\"gpu_available\": true"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("\"source\": \"measured\""), std::string::npos) << r.output;
    const auto cache = cache::TuningCache::open(dir.file("tuning.sqlite"), cache::TuningCache::Access::ReadOnly);
    const DeviceInfo& device = cached_device_info(0);
    bool found = false;
    for (const auto& c : cache->all_ceilings()) found |= c.device_fingerprint == device.fingerprint();
    EXPECT_TRUE(found);
    r = run_process(env + kCli + " info");
    EXPECT_NE(r.output.find("roofline (measured)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("tuning cache " + dir.file("tuning.sqlite")), std::string::npos) << r.output;
}

TEST(CliWorkflow, TunePrewarmsResumesAndShipsABundleThatServesWithoutCompiling) {
    JITGEMM_REQUIRE_GPU();
    const TemporaryDirectory dir;
    write_file(dir.file("shapes.csv"), kManifest);
    // A budget the searches end well within (each stops once its cost model rules the rest out, the three in 2-5 s
    // alone): run again, a search its budget had stopped would resume rather than count as tuned, which under the GPU
    // suite's eight parallel jobs befell a 10 s one (session 42).
    const std::string tune = kCli + " tune --manifest " + dir.file("shapes.csv") +
                             " --budget 60 --devices all --cache " + dir.file("tuned.sqlite") + " --json";
    auto r = run_process(tune);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(count_of(r.output, "\"status\": \"tuned\""), 3u) << r.output;  // a and a_again are one problem
    EXPECT_NE(r.output.find("a+a_again"), std::string::npos) << r.output;
    r = run_process(tune);  // run again: nothing left to do
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(count_of(r.output, "\"status\": \"already-tuned\""), 3u) << r.output;

    // Ship: export a bundle, serve from it alone, in a fresh cache, with tuning off: zero compiles.
    r = run_process(kCli + " cache export --output " + dir.file("ship.bundle") + " --cache " + dir.file("tuned.sqlite"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const TemporaryDirectory production;
    r = run_process("JITGEMM_CACHE=" + production.path() + " JITGEMM_CACHE_PATH=" + dir.file("ship.bundle") +
                    " JITGEMM_TUNE=off " + kCli + " run --m 300 --n 200 --k 100 --order row --iterations 3 --json");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("\"served_by\": \"cached-tuned\""), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("\"nvrtc_compiles\": 0,"), std::string::npos) << r.output;

    // Coverage of the manifest: all tuned.
    r = run_process(kCli + " cache doctor --manifest " + dir.file("shapes.csv") + " --cache " + dir.file("tuned.sqlite"));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("3 tuned, 0 stale, 0 untuned"), std::string::npos) << r.output;
}

TEST(CliWorkflow, ShardsTuneDisjointHalvesThatMergeIntoTheWhole) {
    JITGEMM_REQUIRE_GPU();
    const TemporaryDirectory dir;
    write_file(dir.file("shapes.csv"), kManifest);
    for (const char* shard : {"0/2", "1/2"}) {
        const auto r = run_process("cd " + dir.path() + " && " + kCli + " tune --manifest shapes.csv --budget 2 --shard " +
                                   shard + " --json");
        ASSERT_EQ(r.exit_code, 0) << r.output;
    }
    const auto first = cache::TuningCache::open(dir.file("jitgemm-shard-0-of-2.sqlite"), cache::TuningCache::Access::ReadOnly);
    const auto second = cache::TuningCache::open(dir.file("jitgemm-shard-1-of-2.sqlite"), cache::TuningCache::Access::ReadOnly);
    EXPECT_EQ(first->all_selections().size() + second->all_selections().size(), 3u);
    const auto r = run_process(kCli + " cache merge --output " + dir.file("all.sqlite") + " " +
                               dir.file("jitgemm-shard-0-of-2.sqlite") + " " + dir.file("jitgemm-shard-1-of-2.sqlite"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto merged = cache::TuningCache::open(dir.file("all.sqlite"), cache::TuningCache::Access::ReadOnly);
    const std::string fingerprint = cached_device_info(0).fingerprint();
    ASSERT_EQ(merged->all_selections().size(), 3u);
    for (const auto& s : merged->all_selections()) EXPECT_EQ(s.device_fingerprint, fingerprint);
}

TEST(CliWorkflow, BenchComparesWithCublasAndWritesCsvAndJson) {
    JITGEMM_REQUIRE_GPU();
    const TemporaryDirectory dir;
    const auto r = run_process("JITGEMM_CACHE=" + dir.path() + " " + kCli +
                               " bench --m 512 --n 384 --k 256 --tune off --iterations 5 --csv " + dir.file("b.csv") +
                               " --json " + dir.file("b.json"));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("cuBLAS"), std::string::npos) << r.output;
    std::ifstream csv(dir.file("b.csv"));
    std::string header, row;
    std::getline(csv, header);
    std::getline(csv, row);
    EXPECT_NE(header.find("speed_vs_cublas"), std::string::npos);
    EXPECT_NE(header.find("percent_of_roofline"), std::string::npos);
    // One column per field: sizes, order, transposes and types apart; text quoted.
    EXPECT_EQ(header.rfind("gpu,problem,m,n,k,order,transa,transb,a_dtype,b_dtype,c_dtype,compute,", 0), 0u) << header;
    EXPECT_NE(row.find("\",512,384,256,row,n,n,f32,f32,f32,f32,\""), std::string::npos) << row;
    EXPECT_NE(row.find(",yes,yes,"), std::string::npos) << row;  // both results verified
    std::ifstream json(dir.file("b.json"));
    const std::string text((std::istreambuf_iterator<char>(json)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("\"jitgemm_verified\": true"), std::string::npos) << text;
}

// JITGEMM_TUNE=never: an untuned problem is refused with the way to tune it and no compile; once tuned into the
// cache, a new process serves it from there with zero NVRTC compiles.
TEST(CliWorkflow, NeverPolicyServesOnlyFromTheCacheAndNeverCompiles) {
    JITGEMM_REQUIRE_GPU();
    const TemporaryDirectory dir;
    const std::string env = "JITGEMM_CACHE=" + dir.path() + " ";
    const std::string problem = " --order row --m 300 --n 200 --k 100";
    auto r = run_process(env + kCli + " run" + problem + " --tune never --json");
    EXPECT_NE(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("JITGEMM_TUNE=never"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("jitgemm tune"), std::string::npos) << r.output;
    r = run_process(env + kCli + " cache untuned");
    EXPECT_NE(r.output.find("300"), std::string::npos) << "the refused problem was not recorded as untuned:\n"
                                                        << r.output;
    r = run_process(env + kCli + " tune" + problem + " --budget 2");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    r = run_process(env + kCli + " run" + problem + " --tune never --json");
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("\"served_by\": \"cached-tuned\""), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("\"nvrtc_compiles\": 0"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("\"verified\": true"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace jitgemm
