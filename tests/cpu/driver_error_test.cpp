// A failed driver call's error keeps the driver's result, so that the tuner can tell memory taken by others for now
// (no verdict on a candidate) from a kernel's own failure. Runs without a driver: the message then names the result
// by its number.
#include <gtest/gtest.h>

#include <stdexcept>

#include "runtime/driver/driver_check.h"

namespace jitgemm::driver {
namespace {

TEST(DriverError, KeepsTheDriversResultAndSaysWhetherMemoryRanOut) {
    try {
        throw_driver_error(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc(&memory, bytes)", "here.cpp", 7);
        FAIL() << "no error thrown";
    } catch (const Error& e) {  // caught as the public error, as every caller does
        EXPECT_EQ(e.code(), ErrorCode::CudaError);
        EXPECT_NE(std::string(e.what()).find("cuMemAlloc"), std::string::npos) << e.what();
        EXPECT_TRUE(is_out_of_memory(e));
        const auto* driver_error = dynamic_cast<const DriverError*>(&e);
        ASSERT_NE(driver_error, nullptr);
        EXPECT_EQ(driver_error->result(), CUDA_ERROR_OUT_OF_MEMORY);
    }
    try {
        throw_driver_error(CUDA_ERROR_ILLEGAL_ADDRESS, "cuStreamSynchronize(stream)", "here.cpp", 9);
    } catch (const Error& e) {
        EXPECT_FALSE(is_out_of_memory(e));  // a kernel's own fault
    }
    EXPECT_FALSE(is_out_of_memory(Error(ErrorCode::CudaError, "CUDA_ERROR_OUT_OF_MEMORY in a message only")));
    EXPECT_FALSE(is_out_of_memory(std::runtime_error("not jitgemm's")));
}

}  // namespace
}  // namespace jitgemm::driver
