// A tuner killed while it searches and writes: `jitgemm tune` over four problems is killed with SIGKILL at points
// before, between and during its searches' writes. The cache keeps its integrity, every selection has its cubin,
// `cache doctor` finds it healthy, and the rerun tunes what is missing.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "cache/cache_records.h"
#include "support/cache_test_files.h"
#include "support/gpu_test_support.h"
#include "support/process.h"

namespace jitgemm {
namespace {

using testing::run_process;
using testing::TemporaryDirectory;

const std::string kCli = JITGEMM_CLI_PATH;

TEST(TuningFaults, KilledTunerLeavesASoundCacheAndTheRerunCompletes) {
    JITGEMM_REQUIRE_GPU();
    const TemporaryDirectory dir;
    testing::write_file(dir.file("shapes.csv"),
                        "name,M,N,K,frequency\n"
                        "a,320,448,192,1\n"
                        "b,640,256,320,1\n"
                        "c,96,1536,512,1\n"
                        "d,1000,1000,200,1\n");
    for (const int delay_ms : {700, 2500, 4500}) {
        const std::string cache = dir.file("killed-" + std::to_string(delay_ms) + ".sqlite");
        const std::vector<std::string> args = {kCli,    "tune",  "--manifest", dir.file("shapes.csv"), "--budget",
                                               "1.5",   "--cache", cache,       "--verbose"};
        // What the killed tuner said, and the failures it recorded: shown when a check below fails.
        const std::string killed_log = dir.file("killed-" + std::to_string(delay_ms) + ".log");
        const pid_t child = testing::start_process_writing_to(args, killed_log, true);
        ASSERT_GE(child, 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        kill(child, SIGKILL);
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);

        EXPECT_EQ(cache_test::query_text(cache, "PRAGMA integrity_check"), "ok") << "killed at " << delay_ms << " ms";
        const std::string selections = cache_test::query_text(cache, "SELECT count(*) FROM selections");
        std::printf("killed at %d ms: %s selections\n", delay_ms, selections.c_str());
        EXPECT_EQ(cache_test::query_text(cache, "SELECT count(*) FROM selections s LEFT JOIN cubins c ON "
                                                "c.key = s.cubin_key WHERE c.key IS NULL"),
                  "0")
            << "a selection without its cubin, killed at " << delay_ms << " ms";
        auto r = run_process(kCli + " cache doctor --cache " + cache);
        EXPECT_EQ(r.exit_code, 0) << r.output;

        const auto killed_run = [&] {
            std::ifstream log(killed_log);
            const std::string said((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
            return "the killed run said:\n" + said + "\nfailures on record:\n" +
                   cache_test::query_text(cache, "SELECT group_concat(outcome || ' ' || config || ': ' || "
                                                 "substr(detail, 1, 300), char(10)) FROM measurements WHERE "
                                                 "outcome != '" + std::string(cache::to_string(
                                                     cache::CandidateOutcome::Passed)) + "'");
        };
        r = run_process(kCli + " tune --manifest " + dir.file("shapes.csv") + " --budget 1.5 --cache " + cache +
                        " --json");
        EXPECT_EQ(r.exit_code, 0) << r.output << killed_run();
        EXPECT_EQ(testing::count_of(r.output, "\"status\": \"tuned\"") +
                      testing::count_of(r.output, "\"status\": \"already-tuned\""),
                  4u)
            << r.output;
        EXPECT_EQ(cache_test::query_text(cache, "SELECT count(*) FROM selections"), "4");
        r = run_process(kCli + " cache doctor --cache " + cache);
        EXPECT_EQ(r.exit_code, 0) << r.output;
    }
}

}  // namespace
}  // namespace jitgemm
