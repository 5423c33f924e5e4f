// Context acquisition for calls that arrive with or without a current context.
#include "runtime/driver/context.h"

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

namespace jitgemm::driver {

CUcontext current_context() {
    const auto& cu = api();
    CUcontext context = nullptr;
    JITGEMM_CU_CHECK(cu.cuCtxGetCurrent(&context));
    if (context != nullptr) return context;
    context = primary_context(0);
    JITGEMM_CU_CHECK(cu.cuCtxSetCurrent(context));
    return context;
}

CUcontext primary_context(int device_ordinal) {
    const auto& cu = api();
    // Retained for the life of the process, like the runtime's: modules jitgemm loads into it must stay valid.
    CUdevice device = 0;
    JITGEMM_CU_CHECK(cu.cuDeviceGet(&device, device_ordinal));
    CUcontext context = nullptr;
    JITGEMM_CU_CHECK(cu.cuDevicePrimaryCtxRetain(&context, device));
    return context;
}

int device_of(CUcontext context) {
    const auto& cu = api();
    CUcontext previous = nullptr;
    JITGEMM_CU_CHECK(cu.cuCtxGetCurrent(&previous));
    if (previous != context) JITGEMM_CU_CHECK(cu.cuCtxSetCurrent(context));
    CUdevice device = 0;
    const CUresult result = cu.cuCtxGetDevice(&device);
    if (previous != context) cu.cuCtxSetCurrent(previous);
    JITGEMM_CU_CHECK(result);
    return static_cast<int>(device);
}

}  // namespace jitgemm::driver
