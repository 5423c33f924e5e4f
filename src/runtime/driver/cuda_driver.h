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
#include <cudaTypedefs.h>

#include <string>

namespace jitgemm::driver {

// Every driver function jitgemm calls, with the CUDA version whose ABI jitgemm calls it by. cuGetProcAddress is
// asked for exactly that version, and the entry is typed with cudaTypedefs.h's PFN_<name>_v<version>: asking for
// "the newest" would hand back ABI changes such as CUDA 13's cuCtxSynchronize(CUcontext) under the old name.
#define JITGEMM_DRIVER_FUNCTIONS(X)                 \
    X(cuInit, 2000)                                 \
    X(cuDriverGetVersion, 2020)                     \
    X(cuGetErrorName, 6000)                         \
    X(cuGetErrorString, 6000)                       \
    X(cuDeviceGet, 2000)                            \
    X(cuDeviceGetCount, 2000)                       \
    X(cuDeviceGetName, 2000)                        \
    X(cuDeviceGetAttribute, 2000)                   \
    X(cuDeviceTotalMem, 3020)                       \
    X(cuDeviceGetUuid, 11040)                       \
    X(cuDevicePrimaryCtxRetain, 7000)               \
    X(cuCtxGetCurrent, 4000)                        \
    X(cuCtxSetCurrent, 4000)                        \
    X(cuCtxGetDevice, 2000)                         \
    X(cuCtxGetId, 12000)                            \
    X(cuCtxSynchronize, 2000)                       \
    X(cuModuleLoadData, 2000)                       \
    X(cuModuleUnload, 2000)                         \
    X(cuModuleGetFunction, 2000)                    \
    X(cuFuncGetAttribute, 2020)                     \
    X(cuFuncSetAttribute, 9000)                     \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050) \
    X(cuOccupancyMaxActiveClusters, 11070)          \
    X(cuLaunchKernel, 4000)                         \
    X(cuLaunchKernelEx, 11060)                      \
    X(cuTensorMapEncodeTiled, 12000)                \
    X(cuMemAlloc, 3020)                             \
    X(cuMemFree, 3020)                              \
    X(cuMemGetInfo, 3020)                           \
    X(cuMemcpyHtoD, 3020)                           \
    X(cuMemcpyDtoH, 3020)                           \
    X(cuMemcpyDtoHAsync, 3020)                      \
    X(cuMemcpy2D, 3020)                             \
    X(cuMemcpyDtoDAsync, 3020)                      \
    X(cuMemsetD32, 3020)                            \
    X(cuMemsetD32Async, 3020)                       \
    X(cuMemsetD16Async, 3020)                       \
    X(cuMemsetD8Async, 3020)                        \
    X(cuMemPoolCreate, 11020)                       \
    X(cuMemPoolSetAttribute, 11020)                 \
    X(cuMemAllocFromPoolAsync, 11020)               \
    X(cuMemAllocAsync, 11020)                       \
    X(cuMemFreeAsync, 11020)                        \
    X(cuMemPoolTrimTo, 11020)                       \
    X(cuStreamCreate, 2000)                         \
    X(cuStreamDestroy, 4000)                        \
    X(cuStreamSynchronize, 2000)                    \
    X(cuStreamGetId, 12000)                         \
    X(cuStreamIsCapturing, 10000)                   \
    X(cuThreadExchangeStreamCaptureMode, 10010)     \
    X(cuEventCreate, 2000)                          \
    X(cuEventDestroy, 4000)                         \
    X(cuEventRecord, 2000)                          \
    X(cuEventSynchronize, 2000)                     \
    X(cuEventElapsedTime, 2000)

struct DriverApi {
#define JITGEMM_DECLARE_ENTRY(name, version) PFN_##name##_v##version name = nullptr;
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

// For tests of failure paths only: the table api() returns, whose entries a test may wrap for a while (e.g. to make
// the driver run out of memory in this process alone) and must restore, with no other thread calling the driver.
// Throws as api() does.
DriverApi& api_for_fault_injection();

}  // namespace jitgemm::driver
