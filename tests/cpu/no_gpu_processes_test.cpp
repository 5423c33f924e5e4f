// Programs linked with jitgemm start without a driver and say so: `jitgemm info` and the README example, run with
// JITGEMM_CUDA_DRIVER pointing at a library that does not exist (so this holds on GPU machines too).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct ProcessResult {
    int exit_code = -1;
    std::string output;
};

ProcessResult run(const std::string& command) {
    ProcessResult r;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) return r;
    std::array<char, 4096> buffer;
    std::size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

const std::string kNoDriver = "JITGEMM_CUDA_DRIVER=/nonexistent/libcuda.so.1 ";

TEST(NoGpuProcesses, InfoSaysThereIsNoDriverAndExitsThree) {
    const ProcessResult r = run(kNoDriver + JITGEMM_CLI_PATH + " info");
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("No GPU: jitgemm: no CUDA driver found"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("NVRTC"), std::string::npos) << r.output;
}

TEST(NoGpuProcesses, RunSaysThereIsNoDriverAndExitsThree) {
    const ProcessResult r = run(kNoDriver + JITGEMM_CLI_PATH + " run --m 64 --n 64 --k 64");
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_NE(r.output.find("no CUDA driver found"), std::string::npos) << r.output;
}

TEST(NoGpuProcesses, UsageErrorsExitTwo) {
    EXPECT_EQ(run(std::string(JITGEMM_CLI_PATH) + " run --m 1 --n 1").exit_code, 2);
    EXPECT_EQ(run(std::string(JITGEMM_CLI_PATH) + " frobnicate").exit_code, 2);
    EXPECT_EQ(run(std::string(JITGEMM_CLI_PATH) + " run --m 1 --n 1 --k 1 --transa x").exit_code, 2);
    EXPECT_EQ(run(std::string(JITGEMM_CLI_PATH) + " info --bogus").exit_code, 2);
    EXPECT_EQ(run(std::string(JITGEMM_CLI_PATH) + " run --help").exit_code, 0);
}

TEST(NoGpuProcesses, ReadmeExampleStartsAndReportsTheMissingDriver) {
    const ProcessResult r = run(kNoDriver + JITGEMM_README_EXAMPLE_PATH);
    EXPECT_NE(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.exit_code, 3) << r.output;
}

}  // namespace
