// The README's host-code example (extracted from README.md by the build) runs on the GPU and exits 0: memory from
// the CUDA runtime API, jitgemm in the same (primary) context.
#include <gtest/gtest.h>

#include "support/gpu_test_support.h"
#include "support/process.h"

namespace {

TEST(ReadmeExample, RunsAndPrintsTheExpectedProduct) {
    JITGEMM_REQUIRE_GPU();
    const auto r = jitgemm::testing::run_process(JITGEMM_README_EXAMPLE_PATH);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("ok"), std::string::npos) << r.output;
}

}  // namespace
