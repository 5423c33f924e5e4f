// Programs linked with jitgemm start without a driver and say so: `jitgemm info` and the README example, run with
// JITGEMM_CUDA_DRIVER pointing at a library that does not exist (so this holds on GPU machines too).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "jitgemm/jitgemm.h"
#include "support/process.h"

namespace {

using jitgemm::testing::ProcessResult;
using jitgemm::testing::run_process;

const std::string kNoDriver = "JITGEMM_CUDA_DRIVER=/nonexistent/libcuda.so.1 ";

TEST(NoGpuProcesses, InfoSaysThereIsNoDriverAndExitsThree) {
    const ProcessResult r = run_process(kNoDriver + JITGEMM_CLI_PATH + " info");
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("No GPU: jitgemm: no CUDA driver found"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("NVRTC"), std::string::npos) << r.output;
}

TEST(NoGpuProcesses, RunSaysThereIsNoDriverAndExitsThree) {
    const ProcessResult r = run_process(kNoDriver + JITGEMM_CLI_PATH + " run --m 64 --n 64 --k 64");
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("no CUDA driver found"), std::string::npos) << r.output;
    // With --json, the failure is a JSON object on stdout (it printed nothing there).
    const ProcessResult json =
        run_process("sh -c '" + kNoDriver + JITGEMM_CLI_PATH + " run --m 64 --n 64 --k 64 --json 2>/dev/null'");
    EXPECT_EQ(json.exit_code, 3);
    const auto object = nlohmann::json::parse(json.output);  // nothing but the object
    EXPECT_EQ(object["error"].get<std::string>().rfind("jitgemm: no CUDA driver found", 0), 0u) << json.output;
    EXPECT_EQ(object["code"], "no CUDA driver");
    EXPECT_EQ(object["exit"], 3);
}

TEST(NoGpuProcesses, UsageErrorsExitTwo) {
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " run --m 1 --n 1").exit_code, 2);
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " frobnicate").exit_code, 2);
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " run --m 1 --n 1 --k 1 --transa x").exit_code, 2);
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " info --bogus").exit_code, 2);
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " run --help").exit_code, 0);
}

// A usage error is exit 2 on any machine: the arguments are checked before the driver is looked for and before
// anything is allocated for them (2^63 - 1 used to overflow the host workload's allocation).
TEST(NoGpuProcesses, BadArgumentsExitTwoWithoutADriver) {
    for (const std::string args : {"run --m 64 --n 64 --k 64 --lda -5", "run --m 64 --n 64 --k 64 --config garbage",
                                   "run --m 9223372036854775807 --n 2 --k 2", "run --m 64 --n 64 --k 64 --iterations 0",
                                   "run --m 64 --n 64 --k 64 --budget nan", "tune --m 64 --n 64 --k 64 --budget nan",
                                   "bench --m 9223372036854775807 --n 2 --k 2",
                                   "run --m 64 --n 64 --k 64 --tune sometimes"}) {
        const ProcessResult r = run_process(kNoDriver + JITGEMM_CLI_PATH + " " + args);
        EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
        EXPECT_EQ(r.output.find("no CUDA driver"), std::string::npos) << args << "\n" << r.output;
    }
}

// On the GPU machine JITGEMM_TEST_NO_SKIP=1 turns a skipped GPU test into a failure (a broken driver must not pass
// as "no GPU here"); elsewhere the same test skips and passes.
TEST(NoGpuProcesses, SkippedGpuTestFailsWhenSkipsAreNotAllowed) {
    const std::string test = std::string(JITGEMM_GPU_TESTS_PATH) + " --gtest_filter=LaunchAbi.*";
    const ProcessResult skipped = run_process(kNoDriver + test);
    EXPECT_EQ(skipped.exit_code, 0) << skipped.output;
    EXPECT_NE(skipped.output.find("SKIPPED"), std::string::npos) << skipped.output;
    const ProcessResult refused = run_process(kNoDriver + "JITGEMM_TEST_NO_SKIP=1 " + test);
    EXPECT_EQ(refused.exit_code, 1) << refused.output;
    EXPECT_NE(refused.output.find("skipped, and JITGEMM_TEST_NO_SKIP=1 says none may be"), std::string::npos)
        << refused.output;
}

TEST(NoGpuProcesses, NeverPolicyIsAcceptedAndNamedInTheUsage) {
    EXPECT_EQ(jitgemm::parse_tune_policy("never"), jitgemm::TunePolicy::Never);
    EXPECT_EQ(jitgemm::to_string(jitgemm::TunePolicy::Never), "never");
    EXPECT_EQ(jitgemm::to_string(jitgemm::ErrorCode::NotTuned), "not tuned");
    const ProcessResult never = run_process(kNoDriver + JITGEMM_CLI_PATH + " run --m 64 --n 64 --k 64 --tune never");
    EXPECT_EQ(never.exit_code, 3) << never.output;  // accepted; stops at the missing driver
    const ProcessResult bad = run_process(kNoDriver + JITGEMM_CLI_PATH + " run --m 64 --n 64 --k 64 --tune sometimes");
    EXPECT_NE(bad.output.find("never"), std::string::npos) << bad.output;
}

TEST(NoGpuProcesses, HelpOfACommandPrintsThatCommandsOptions) {
    for (const std::string cmd : {"run", "tune", "bench", "cache prune"}) {
        const ProcessResult r = run_process(JITGEMM_CLI_PATH + std::string(" help ") + cmd);
        EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.output;
        EXPECT_NE(r.output.find("usage: jitgemm " + cmd), std::string::npos) << cmd << "\n" << r.output;
    }
}

TEST(NoGpuProcesses, ReadmeExampleStartsAndReportsTheMissingDriver) {
    const ProcessResult r = run_process(kNoDriver + JITGEMM_README_EXAMPLE_PATH);
    EXPECT_NE(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.exit_code, 3) << r.output;
}

}  // namespace
