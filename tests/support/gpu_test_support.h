// Helpers of the GPU tests: skip cleanly without a device, fresh seeds that a failure reports, device profiles.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

// Skips the current test, with the reason, when this machine has no CUDA driver or device; otherwise makes sure
// the calling thread has a current context.
#define JITGEMM_REQUIRE_GPU()                                                                  \
    do {                                                                                       \
        if (!::jitgemm::driver::is_available())                                                \
            GTEST_SKIP() << "no GPU here: " << ::jitgemm::driver::unavailable_reason();        \
        ::jitgemm::driver::current_context();                                                  \
    } while (0)

namespace jitgemm::testing {

// Waits for all work in the current context (the tests' calls run on several streams, or on one with work queued).
inline void synchronize() { JITGEMM_CU_CHECK(::jitgemm::driver::api().cuCtxSynchronize()); }

// A seed drawn fresh for every run (tests must pass on any data), recorded in the test's output for replay.
// JITGEMM_TEST_SEED overrides it.
inline std::uint64_t fresh_seed() {
    const char* fixed = std::getenv("JITGEMM_TEST_SEED");
    const std::uint64_t seed = fixed != nullptr ? std::stoull(fixed) : std::random_device{}() * 0x100000001ull;
    ::testing::Test::RecordProperty("seed", std::to_string(seed));
    std::printf("seed %llu (replay with JITGEMM_TEST_SEED)\n", static_cast<unsigned long long>(seed));
    return seed;
}

}  // namespace jitgemm::testing
