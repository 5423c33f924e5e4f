// One move-only RAII owner per driver handle jitgemm creates: device buffers, modules, events and streams.
// Destructors never throw; a failure to release is ignored because nothing useful can be done about it there.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace jitgemm::driver {

template <typename Handle, void (*Release)(Handle) noexcept>
class UniqueHandle {
public:
    UniqueHandle() = default;
    explicit UniqueHandle(Handle handle) : handle_(handle) {}
    UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, Handle{})) {}
    UniqueHandle& operator=(UniqueHandle&& other) noexcept {
        if (this != &other) {
            reset();
            handle_ = std::exchange(other.handle_, Handle{});
        }
        return *this;
    }
    UniqueHandle(const UniqueHandle&) = delete;
    UniqueHandle& operator=(const UniqueHandle&) = delete;
    ~UniqueHandle() { reset(); }

    Handle get() const noexcept { return handle_; }
    explicit operator bool() const noexcept { return handle_ != Handle{}; }
    void reset() noexcept {
        if (handle_ != Handle{}) Release(handle_);
        handle_ = Handle{};
    }

private:
    Handle handle_{};
};

void release_module(CUmodule) noexcept;
void release_event(CUevent) noexcept;
void release_stream(CUstream) noexcept;
void release_device_memory(CUdeviceptr) noexcept;

using ModuleHandle = UniqueHandle<CUmodule, release_module>;
using EventHandle = UniqueHandle<CUevent, release_event>;
using StreamHandle = UniqueHandle<CUstream, release_stream>;

// Device memory in the current context, with its size.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    // Allocates `bytes` (at least 1) in the current context; throws Error(CudaError) on failure.
    explicit DeviceBuffer(std::size_t bytes);

    CUdeviceptr get() const noexcept { return memory_.get(); }
    std::size_t bytes() const noexcept { return bytes_; }
    template <typename T>
    T* as() const noexcept {
        return reinterpret_cast<T*>(static_cast<std::uintptr_t>(memory_.get()));
    }

private:
    UniqueHandle<CUdeviceptr, release_device_memory> memory_;
    std::size_t bytes_ = 0;
};

// Creates an event with timing enabled, or a stream (non-blocking with respect to the legacy stream).
EventHandle make_timing_event();
StreamHandle make_stream();

}  // namespace jitgemm::driver
