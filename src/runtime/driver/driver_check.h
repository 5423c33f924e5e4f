// The check for CUDA driver calls: JITGEMM_CU_CHECK(call) throws Error(CudaError) naming the call, the driver's
// error name and description, and the file and line, when call does not return CUDA_SUCCESS.
#pragma once

#include <cuda.h>

#include <string>

namespace jitgemm::driver {

[[noreturn]] void throw_driver_error(CUresult result, const char* call, const char* file, int line);

// The driver's name for a result ("CUDA_ERROR_OUT_OF_MEMORY"), or its number when the driver is not loaded.
std::string error_name(CUresult result);

inline void check(CUresult result, const char* call, const char* file, int line) {
    if (result != CUDA_SUCCESS) throw_driver_error(result, call, file, line);
}

}  // namespace jitgemm::driver

#define JITGEMM_CU_CHECK(call) ::jitgemm::driver::check((call), #call, __FILE__, __LINE__)
