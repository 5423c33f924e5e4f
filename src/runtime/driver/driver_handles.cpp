// Release functions and constructors of the driver RAII owners.
#include "runtime/driver/driver_handles.h"

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

namespace jitgemm::driver {

// Handles exist only after api() succeeded, so api() cannot throw here.
void release_module(CUmodule module) noexcept { api().cuModuleUnload(module); }
void release_event(CUevent event) noexcept { api().cuEventDestroy(event); }
void release_stream(CUstream stream) noexcept { api().cuStreamDestroy(stream); }
void release_device_memory(CUdeviceptr memory) noexcept { api().cuMemFree(memory); }

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
    CUdeviceptr memory = 0;
    JITGEMM_CU_CHECK(api().cuMemAlloc(&memory, bytes == 0 ? 1 : bytes));
    memory_ = UniqueHandle<CUdeviceptr, release_device_memory>(memory);
}

EventHandle make_timing_event() {
    CUevent event = nullptr;
    JITGEMM_CU_CHECK(api().cuEventCreate(&event, CU_EVENT_DEFAULT));
    return EventHandle(event);
}

StreamHandle make_stream() {
    CUstream stream = nullptr;
    JITGEMM_CU_CHECK(api().cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    return StreamHandle(stream);
}

}  // namespace jitgemm::driver
