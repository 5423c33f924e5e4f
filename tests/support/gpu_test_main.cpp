// main() of the GPU tests: each test process gets a fresh, empty tuning cache (unless JITGEMM_CACHE is set), so tests
// never see one another's tuning results or the user's.
//
// JITGEMM_TEST_NO_SKIP=1 (set by bench/gpu-run.sh on the GPU machine) makes a skipped test fail the process: there a
// skip means the driver or the device is broken, and a batch of skipped GPU tests must not read as a pass. Under
// ctest the GPU tests' SKIP_REGULAR_EXPRESSION marks such a test skipped whatever the exit status, so the script also
// fails the batch on a skip it finds in ctest's log.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include "support/process.h"

namespace {

class SkipCounter : public ::testing::EmptyTestEventListener {
public:
    int skipped = 0;
    void OnTestEnd(const ::testing::TestInfo& info) override {
        if (info.result() != nullptr && info.result()->Skipped()) ++skipped;
    }
};

}  // namespace

int main(int argc, char** argv) {
    std::unique_ptr<jitgemm::testing::TemporaryDirectory> cache;
    if (std::getenv("JITGEMM_CACHE") == nullptr) {
        cache = std::make_unique<jitgemm::testing::TemporaryDirectory>();
        setenv("JITGEMM_CACHE", cache->path().c_str(), 1);
    }
    ::testing::InitGoogleTest(&argc, argv);
    auto* counter = new SkipCounter;  // owned by gtest's listener list
    ::testing::UnitTest::GetInstance()->listeners().Append(counter);
    const int result = RUN_ALL_TESTS();
    const char* no_skip = std::getenv("JITGEMM_TEST_NO_SKIP");
    if (no_skip != nullptr && std::strcmp(no_skip, "1") == 0 && counter->skipped > 0) {
        std::fprintf(stderr, "FAILED: %d test(s) skipped, and JITGEMM_TEST_NO_SKIP=1 says none may be\n",
                     counter->skipped);
        return 1;
    }
    return result;
}
