// Loads libcuda.so.1 with dlopen, resolves every entry point of JITGEMM_DRIVER_FUNCTIONS through cuGetProcAddress
// and runs cuInit, once per process.
#include "runtime/driver/cuda_driver.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "jitgemm/error.h"

namespace jitgemm::driver {
namespace {

// The oldest driver whose cuGetProcAddress has the signature used here (CUDA 12.0).
constexpr int kOldestDriver = 12000;

using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

struct LoadOutcome {
    DriverApi api;
    ErrorCode error_code = ErrorCode::Internal;
    std::string error;  // empty on success
};

std::string driver_error_name(const DriverApi& api, CUresult result) {
    const char* name = nullptr;
    if (api.cuGetErrorName == nullptr || api.cuGetErrorName(result, &name) != CUDA_SUCCESS || name == nullptr)
        return "CUresult " + std::to_string(static_cast<int>(result));
    return name;
}

LoadOutcome load() {
    LoadOutcome out;
    const char* override_path = std::getenv("JITGEMM_CUDA_DRIVER");
    const std::string path = override_path != nullptr && *override_path != '\0' ? override_path : "libcuda.so.1";

    // The handle is never closed: entry points stay valid for the life of the process.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* why = dlerror();
        out.error_code = ErrorCode::NoDriver;
        out.error = "jitgemm: no CUDA driver found: could not load " + path + " (" + (why ? why : "unknown") +
                    "). Install the NVIDIA driver or run on a machine with an NVIDIA GPU.";
        return out;
    }
    auto get_proc = reinterpret_cast<GetProcAddress>(dlsym(handle, "cuGetProcAddress_v2"));
    if (get_proc == nullptr) {
        out.error_code = ErrorCode::NoDriver;
        out.error = "jitgemm: the CUDA driver " + path +
                    " is too old: it has no cuGetProcAddress_v2 (jitgemm needs a driver for CUDA 12.0 or later).";
        return out;
    }

    std::string missing;
    auto resolve = [&](const char* name, int version, void** slot) {
        CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        if (get_proc(name, slot, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status) != CUDA_SUCCESS ||
            status != CU_GET_PROC_ADDRESS_SUCCESS || *slot == nullptr) {
            *slot = nullptr;
            missing += missing.empty() ? name : std::string(", ") + name;
        }
    };
#define JITGEMM_RESOLVE_ENTRY(name, version) resolve(#name, version, reinterpret_cast<void**>(&out.api.name));
    JITGEMM_DRIVER_FUNCTIONS(JITGEMM_RESOLVE_ENTRY)
#undef JITGEMM_RESOLVE_ENTRY
    if (!missing.empty()) {
        out.error_code = ErrorCode::NoDriver;
        out.error = "jitgemm: the CUDA driver " + path + " lacks entry points jitgemm needs (" + missing +
                    "); jitgemm needs a driver for CUDA 12.0 or later.";
        return out;
    }

    if (out.api.cuDriverGetVersion(&out.api.version) != CUDA_SUCCESS || out.api.version < kOldestDriver) {
        out.error_code = ErrorCode::NoDriver;
        out.error = "jitgemm: the CUDA driver " + path + " reports version " + std::to_string(out.api.version) +
                    "; jitgemm needs a driver for CUDA 12.0 or later.";
        return out;
    }

    const CUresult init = out.api.cuInit(0);
    if (init != CUDA_SUCCESS) {
        out.error_code = init == CUDA_ERROR_NO_DEVICE || init == CUDA_ERROR_STUB_LIBRARY ||
                                 init == CUDA_ERROR_INVALID_DEVICE
                             ? ErrorCode::NoDevice
                             : ErrorCode::NoDriver;
        out.error = "jitgemm: no CUDA device found: cuInit failed with " + driver_error_name(out.api, init) +
                    (init == CUDA_ERROR_STUB_LIBRARY ? " (the loaded libcuda is the toolkit's stub, not a driver)"
                                                     : "") +
                    ".";
        return out;
    }
    int count = 0;
    if (out.api.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
        out.error_code = ErrorCode::NoDevice;
        out.error = "jitgemm: no CUDA device found: the driver loaded but reports no device.";
        return out;
    }
    return out;
}

// Not const: api_for_fault_injection hands tests its table to wrap entries of.
LoadOutcome& outcome() {
    static LoadOutcome loaded = load();
    return loaded;
}

}  // namespace

const DriverApi& api() {
    const LoadOutcome& loaded = outcome();
    if (!loaded.error.empty()) throw Error(loaded.error_code, loaded.error);
    return loaded.api;
}

bool is_available() noexcept {
    try {
        return outcome().error.empty();
    } catch (...) {
        return false;
    }
}

std::string unavailable_reason() { return outcome().error; }

DriverApi& api_for_fault_injection() {
    LoadOutcome& loaded = outcome();
    if (!loaded.error.empty()) throw Error(loaded.error_code, loaded.error);
    return loaded.api;
}

}  // namespace jitgemm::driver
