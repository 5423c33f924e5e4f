// main() of the GPU tests: each test process gets a fresh, empty tuning cache (unless JITGEMM_CACHE is set), so tests
// never see one another's tuning results or the user's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "support/process.h"

int main(int argc, char** argv) {
    std::unique_ptr<jitgemm::testing::TemporaryDirectory> cache;
    if (std::getenv("JITGEMM_CACHE") == nullptr) {
        cache = std::make_unique<jitgemm::testing::TemporaryDirectory>();
        setenv("JITGEMM_CACHE", cache->path().c_str(), 1);
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
