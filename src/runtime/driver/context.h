// The CUDA context jitgemm works in: the calling thread's current context, or — when the thread has none — the
// primary context of device 0, made current the way the CUDA runtime API does it. So runtime-API programs and
// jitgemm share one context without either doing anything.
#pragma once

#include <cuda.h>

namespace jitgemm::driver {

// The current context, establishing device 0's primary context when there is none. Throws Error(NoDriver,
// NoDevice, CudaError).
CUcontext current_context();

// The primary context of a device, retained for the life of the process (what the runtime API would use there).
CUcontext primary_context(int device_ordinal);

// The device ordinal of a context (for device info and fingerprints).
int device_of(CUcontext context);

}  // namespace jitgemm::driver
