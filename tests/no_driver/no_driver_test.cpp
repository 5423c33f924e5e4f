// In-process: with no loadable driver, the first GPU call of jitgemm::gemm throws Error(NoDriver) with a sentence
// saying so, and every later call throws the same (the outcome is remembered, the library stays usable for
// argument errors). Its own program: JITGEMM_CUDA_DRIVER must be set before the driver is first looked for.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/driver/cuda_driver.h"
#include "jitgemm/jitgemm.h"

namespace {

const void* const kA = reinterpret_cast<const void*>(0x10000);
const void* const kB = reinterpret_cast<const void*>(0x20000);
void* const kC = reinterpret_cast<void*>(0x30000);

TEST(NoDriver, FirstGpuCallThrowsNoDriverWithAClearMessage) {
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            jitgemm::sgemm(jitgemm::Order::ColumnMajor, jitgemm::Transpose::No, jitgemm::Transpose::No, 8, 8, 8, 1.0f,
                           static_cast<const float*>(kA), 8, static_cast<const float*>(kB), 8, 0.0f,
                           static_cast<float*>(kC), 8);
            ADD_FAILURE() << "no error";
        } catch (const jitgemm::Error& e) {
            EXPECT_EQ(e.code(), jitgemm::ErrorCode::NoDriver);
            EXPECT_NE(std::string(e.what()).find("no CUDA driver found"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("/nonexistent/libcuda.so.1"), std::string::npos) << e.what();
        }
    }
    EXPECT_FALSE(jitgemm::driver::is_available());
}

TEST(NoDriver, ArgumentErrorsStillComeFirst) {
    try {
        jitgemm::sgemm(jitgemm::Order::ColumnMajor, jitgemm::Transpose::No, jitgemm::Transpose::No, 8, 8, 8, 1.0f,
                       nullptr, 8, nullptr, 8, 0.0f, nullptr, 8);
        ADD_FAILURE() << "no error";
    } catch (const jitgemm::Error& e) {
        EXPECT_EQ(e.code(), jitgemm::ErrorCode::InvalidArgument) << e.what();
    }
}

TEST(NoDriver, ReleasingWorkspacesWithNoneKeptDoesNothing) {
    EXPECT_NO_THROW(jitgemm::release_workspaces());
}

}  // namespace

int main(int argc, char** argv) {
    setenv("JITGEMM_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
