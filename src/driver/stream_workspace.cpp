// The per-device pools and the stream-ordered allocations.
#include "driver/stream_workspace.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "driver/driver_check.h"
#include "jitgemm/error.h"

namespace jitgemm::driver {
namespace {

constexpr int kMaxDevices = 64;

// The pool of a device, created on first use and kept for the life of the process.
CUmemoryPool pool_of_current_device() {
    static std::array<std::atomic<CUmemoryPool>, kMaxDevices> pools{};
    static std::mutex creating;
    const auto& cu = api();
    CUdevice device = 0;
    JITGEMM_CU_CHECK(cu.cuCtxGetDevice(&device));
    if (device < 0 || device >= kMaxDevices)
        throw Error(ErrorCode::Unsupported, "jitgemm: device ordinal " + std::to_string(device) + " is out of range");
    if (CUmemoryPool pool = pools[device].load(std::memory_order_acquire)) return pool;
    std::lock_guard<std::mutex> lock(creating);
    if (CUmemoryPool pool = pools[device].load(std::memory_order_acquire)) return pool;
    int supported = 0;
    JITGEMM_CU_CHECK(cu.cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, device));
    if (!supported)
        throw Error(ErrorCode::Unsupported, "jitgemm: this device has no stream-ordered memory pools, which kernels "
                                            "that pack their operands need for their workspace");
    CUmemPoolProps props{};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = device;
    CUmemoryPool pool = nullptr;
    JITGEMM_CU_CHECK(cu.cuMemPoolCreate(&pool, &props));
    std::uint64_t keep_everything = UINT64_MAX;
    JITGEMM_CU_CHECK(cu.cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep_everything));
    pools[device].store(pool, std::memory_order_release);
    return pool;
}

}  // namespace

StreamWorkspace::StreamWorkspace(std::size_t bytes, CUstream stream) : stream_(stream) {
    JITGEMM_CU_CHECK(api().cuMemAllocFromPoolAsync(&ptr_, bytes, pool_of_current_device(), stream));
}

StreamWorkspace::~StreamWorkspace() {
    if (ptr_ != 0) api().cuMemFreeAsync(ptr_, stream_);
}

}  // namespace jitgemm::driver
