// Programs linked with jitgemm start without a driver and say so: `jitgemm info` and the README example, run with
// JITGEMM_CUDA_DRIVER pointing at a library that does not exist (so this holds on GPU machines too).
#include <gtest/gtest.h>

#include <string>

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
}

TEST(NoGpuProcesses, UsageErrorsExitTwo) {
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " run --m 1 --n 1").exit_code, 2);
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " frobnicate").exit_code, 2);
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " run --m 1 --n 1 --k 1 --transa x").exit_code, 2);
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " info --bogus").exit_code, 2);
    EXPECT_EQ(run_process(std::string(JITGEMM_CLI_PATH) + " run --help").exit_code, 0);
}

TEST(NoGpuProcesses, ReadmeExampleStartsAndReportsTheMissingDriver) {
    const ProcessResult r = run_process(kNoDriver + JITGEMM_README_EXAMPLE_PATH);
    EXPECT_NE(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.exit_code, 3) << r.output;
}

}  // namespace
