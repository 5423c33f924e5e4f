// The check for CUDA driver calls: JITGEMM_CU_CHECK(call) throws Error(CudaError) naming the call, the driver's
// error name and description, and the file and line, when call does not return CUDA_SUCCESS.
#pragma once

#include <cuda.h>

#include <exception>
#include <string>

#include "jitgemm/error.h"

namespace jitgemm::driver {

// The Error(CudaError) of a failed driver call, with the driver's result: for callers that must tell a passing state
// of the device (its memory taken by others for now) from a verdict on what they launched.
class DriverError : public Error {
public:
    DriverError(CUresult result, const std::string& message) : Error(ErrorCode::CudaError, message), result_(result) {}
    CUresult result() const noexcept { return result_; }

private:
    CUresult result_;
};

// Throws DriverError.
[[noreturn]] void throw_driver_error(CUresult result, const char* call, const char* file, int line);

// Whether `e` is a driver call that failed for want of device memory.
inline bool is_out_of_memory(const std::exception& e) {
    const auto* driver_error = dynamic_cast<const DriverError*>(&e);
    return driver_error != nullptr && driver_error->result() == CUDA_ERROR_OUT_OF_MEMORY;
}

// The driver's name for a result ("CUDA_ERROR_OUT_OF_MEMORY"), or its number when the driver is not loaded.
std::string error_name(CUresult result);

inline void check(CUresult result, const char* call, const char* file, int line) {
    if (result != CUDA_SUCCESS) throw_driver_error(result, call, file, line);
}

}  // namespace jitgemm::driver

#define JITGEMM_CU_CHECK(call) ::jitgemm::driver::check((call), #call, __FILE__, __LINE__)
