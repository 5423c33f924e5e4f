// The CUDA driver API, loaded at run time.
//
// jitgemm never links libcuda: it dlopens libcuda.so.1 on first use and takes every entry point through
// cuGetProcAddress, so any program linked with jitgemm starts on a machine without a driver or GPU, and its first
// GPU call throws Error(NoDriver) or Error(NoDevice) with a sentence saying which. cuda.h is used for its types
// only, and only inside src/ (never in the public headers).
//
// JITGEMM_CUDA_DRIVER, when set, names the library to load instead of libcuda.so.1 (unusual installs, and the
// tests of the no-driver path).
#pragma once

#include <cuda.h>

#include <string>

namespace jitgemm::driver {

// Every driver function jitgemm calls. Adding one here is all it takes to load it.
#define JITGEMM_DRIVER_FUNCTIONS(X)                 \
    X(cuInit)                                       \
    X(cuDriverGetVersion)                           \
    X(cuGetErrorName)                               \
    X(cuGetErrorString)                             \
    X(cuDeviceGet)                                  \
    X(cuDeviceGetCount)                             \
    X(cuDeviceGetName)                              \
    X(cuDeviceGetAttribute)                         \
    X(cuDeviceTotalMem)                             \
    X(cuDevicePrimaryCtxRetain)                     \
    X(cuCtxGetCurrent)                              \
    X(cuCtxSetCurrent)                              \
    X(cuCtxGetDevice)                               \
    X(cuCtxSynchronize)                             \
    X(cuModuleLoadData)                             \
    X(cuModuleUnload)                               \
    X(cuModuleGetFunction)                          \
    X(cuFuncGetAttribute)                           \
    X(cuFuncSetAttribute)                           \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)  \
    X(cuLaunchKernel)                               \
    X(cuMemAlloc)                                   \
    X(cuMemFree)                                    \
    X(cuMemGetInfo)                                 \
    X(cuMemcpyHtoD)                                 \
    X(cuMemcpyDtoH)                                 \
    X(cuMemcpy2D)                                   \
    X(cuMemsetD32)                                  \
    X(cuMemsetD32Async)                             \
    X(cuMemsetD8Async)                              \
    X(cuStreamCreate)                               \
    X(cuStreamDestroy)                              \
    X(cuStreamSynchronize)                          \
    X(cuEventCreate)                                \
    X(cuEventDestroy)                               \
    X(cuEventRecord)                                \
    X(cuEventSynchronize)                           \
    X(cuEventElapsedTime)

struct DriverApi {
#define JITGEMM_DECLARE_ENTRY(name) decltype(&::name) name = nullptr;
    JITGEMM_DRIVER_FUNCTIONS(JITGEMM_DECLARE_ENTRY)
#undef JITGEMM_DECLARE_ENTRY
    int version = 0;  // cuDriverGetVersion, e.g. 13000
};

// The loaded and initialized driver. Loads it on the first call (thread-safe); throws Error(NoDriver) when
// libcuda cannot be loaded and Error(NoDevice) when cuInit finds no device. A failure is remembered: later calls
// throw the same error again without retrying.
const DriverApi& api();

// True when api() would succeed. Never throws.
bool is_available() noexcept;

// The reason api() fails, or an empty string when it does not.
std::string unavailable_reason();

}  // namespace jitgemm::driver
