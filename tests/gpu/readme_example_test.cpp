// The README's host-code example (extracted from README.md by the build) runs on the GPU and exits 0: memory from
// the CUDA runtime API, jitgemm in the same (primary) context.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>

#include "support/gpu_test_support.h"

namespace {

TEST(ReadmeExample, RunsAndPrintsTheExpectedProduct) {
    JITGEMM_REQUIRE_GPU();
    FILE* pipe = popen(JITGEMM_README_EXAMPLE_PATH " 2>&1", "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    std::array<char, 4096> buffer;
    std::size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output.append(buffer.data(), n);
    const int status = pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
    EXPECT_NE(output.find("ok"), std::string::npos) << output;
}

}  // namespace
