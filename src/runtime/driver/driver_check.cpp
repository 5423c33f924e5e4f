// Turns a failed driver call into a jitgemm::Error with everything needed to find it.
#include "runtime/driver/driver_check.h"

#include "runtime/driver/cuda_driver.h"
#include "jitgemm/error.h"

namespace jitgemm::driver {

std::string error_name(CUresult result) {
    const char* name = nullptr;
    if (is_available() && api().cuGetErrorName(result, &name) == CUDA_SUCCESS && name != nullptr) return name;
    return "CUresult " + std::to_string(static_cast<int>(result));
}

void throw_driver_error(CUresult result, const char* call, const char* file, int line) {
    std::string message = "jitgemm: CUDA driver call " + std::string(call) + " failed with " + error_name(result);
    const char* description = nullptr;
    if (is_available() && api().cuGetErrorString(result, &description) == CUDA_SUCCESS && description != nullptr)
        message += std::string(" (") + description + ")";
    message += " at " + std::string(file) + ":" + std::to_string(line);
    throw DriverError(result, message);
}

}  // namespace jitgemm::driver
