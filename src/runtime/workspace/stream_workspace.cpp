// The per-device pools and the per-stream workspaces kept in them.
#include "runtime/workspace/stream_workspace.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "runtime/driver/context.h"
#include "runtime/driver/driver_check.h"
#include "runtime/driver/stream_capture.h"
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

// Workspaces grow in steps of this much, so that a stream whose problems grow a little at a time does not
// reallocate on each.
constexpr std::size_t kGrowthStep = std::size_t{2} << 20;
// The area kept zero grows in steps of 1024 arrival counters.
constexpr std::size_t kZeroedAreaStep = 4096;

std::size_t round_up(std::size_t bytes, std::size_t step) { return (bytes + step - 1) / step * step; }

}  // namespace

// The workspace of one stream. `lease` is held by the call that uses it, from before it may grow until the call's
// work is enqueued; memory and bytes change only under it.
struct CachedWorkspace {
    std::mutex lease;
    CUdeviceptr memory = 0;
    std::size_t bytes = 0;         // all of it, the area kept zero included
    std::size_t zeroed_bytes = 0;  // the area kept zero, at the start of `memory`
    bool released = false;  // freed and out of the table: a caller that took it just before must look again
};

namespace {

struct WorkspaceKey {
    unsigned long long context = 0, stream = 0;  // the driver's ids: unique for the process's life
    bool operator<(const WorkspaceKey& other) const {
        return context != other.context ? context < other.context : stream < other.stream;
    }
};

struct WorkspaceTable {
    std::mutex mutex;
    std::map<WorkspaceKey, std::shared_ptr<CachedWorkspace>> by_stream;
};

WorkspaceTable& workspace_table() {
    static WorkspaceTable table;
    return table;
}

// The id of the context jitgemm works in on this thread (driver/context.h: device 0's primary one if none is
// current).
unsigned long long current_context_id() {
    unsigned long long id = 0;
    JITGEMM_CU_CHECK(api().cuCtxGetId(current_context(), &id));
    return id;
}

WorkspaceKey key_of(CUstream stream) {
    WorkspaceKey key;
    key.context = current_context_id();
    JITGEMM_CU_CHECK(api().cuStreamGetId(stream, &key.stream));
    return key;
}

}  // namespace

StreamWorkspace::StreamWorkspace(std::size_t bytes, std::size_t zeroed_head_bytes, CUstream stream) {
    if (zeroed_head_bytes > bytes || zeroed_head_bytes % 256 != 0)
        throw Error(ErrorCode::Internal, "jitgemm: a workspace's zeroed head of " + std::to_string(zeroed_head_bytes) +
                                             " bytes does not fit its " + std::to_string(bytes) + " bytes in 256s");
    const auto& cu = api();
    if (is_capturing(stream)) {
        // A graph allocation, freed again at the end of the call's work: each launch of the graph gets its own,
        // and the stream's kept workspace, which calls outside the graph go on using, is never named in a graph.
        JITGEMM_CU_CHECK(cu.cuMemAllocAsync(&ptr_, bytes == 0 ? 1 : bytes, stream));
        captured_stream_ = stream;
        return;
    }
    const WorkspaceKey key = key_of(stream);
    std::shared_ptr<CachedWorkspace> workspace;
    std::unique_lock<std::mutex> lease;
    do {
        {
            WorkspaceTable& table = workspace_table();
            std::lock_guard<std::mutex> lock(table.mutex);
            auto& slot = table.by_stream[key];
            if (!slot) slot = std::make_shared<CachedWorkspace>();
            workspace = slot;
        }
        lease = std::unique_lock<std::mutex>(workspace->lease);
    } while (workspace->released);
    // The scratch after the head, which follows the area kept zero.
    const std::size_t rest = bytes - zeroed_head_bytes;
    if (workspace->zeroed_bytes < zeroed_head_bytes || workspace->bytes - workspace->zeroed_bytes < rest) {
        const std::size_t zeroed = std::max(workspace->zeroed_bytes, round_up(zeroed_head_bytes, kZeroedAreaStep));
        const std::size_t grown = zeroed + round_up(std::max(workspace->bytes - workspace->zeroed_bytes, rest),
                                                    kGrowthStep);
        CUdeviceptr fresh = 0;
        JITGEMM_CU_CHECK(cu.cuMemAllocFromPoolAsync(&fresh, grown, pool_of_current_device(), stream));
        if (zeroed > 0) {
            const CUresult zeroing = cu.cuMemsetD32Async(fresh, 0, zeroed / 4, stream);
            if (zeroing != CUDA_SUCCESS) {
                cu.cuMemFreeAsync(fresh, stream);
                JITGEMM_CU_CHECK(zeroing);
            }
        }
        // After every call that used it, in stream order; the new one is used only by work enqueued after this.
        if (workspace->memory != 0) JITGEMM_CU_CHECK(cu.cuMemFreeAsync(workspace->memory, stream));
        workspace->memory = fresh;
        workspace->bytes = grown;
        workspace->zeroed_bytes = zeroed;
    }
    ptr_ = workspace->memory + (workspace->zeroed_bytes - zeroed_head_bytes);
    lease.release();  // held until the destructor
    workspace_ = std::move(workspace);
}

StreamWorkspace::~StreamWorkspace() {
    if (captured_stream_ != nullptr) {
        // Recorded after the call's work. A failure here has invalidated the capture, which cuStreamEndCapture
        // reports to the program; a destructor has no one to tell.
        api().cuMemFreeAsync(ptr_, captured_stream_);
        return;
    }
    workspace_->lease.unlock();
}

namespace {

// The workspace kept for `stream` in the current context, or null.
std::shared_ptr<CachedWorkspace> kept_workspace(CUstream stream) {
    const WorkspaceKey key = key_of(stream);
    WorkspaceTable& table = workspace_table();
    std::lock_guard<std::mutex> lock(table.mutex);
    const auto it = table.by_stream.find(key);
    return it == table.by_stream.end() ? nullptr : it->second;
}

}  // namespace

std::size_t kept_stream_workspace_bytes(CUstream stream) {
    const std::shared_ptr<CachedWorkspace> workspace = kept_workspace(stream);
    if (!workspace) return 0;
    std::lock_guard<std::mutex> lease(workspace->lease);
    return workspace->bytes;
}

void rezero_kept_stream_workspace(CUstream stream) {
    const std::shared_ptr<CachedWorkspace> workspace = kept_workspace(stream);
    if (!workspace) return;
    std::lock_guard<std::mutex> lease(workspace->lease);
    if (workspace->zeroed_bytes > 0)
        JITGEMM_CU_CHECK(api().cuMemsetD32Async(workspace->memory, 0, workspace->zeroed_bytes / 4, stream));
}

bool kept_stream_workspace_head_area_is_zero(CUstream stream) {
    const std::shared_ptr<CachedWorkspace> workspace = kept_workspace(stream);
    if (!workspace) return true;
    std::lock_guard<std::mutex> lease(workspace->lease);
    if (workspace->zeroed_bytes == 0) return true;
    const auto& cu = api();
    JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream));
    std::vector<unsigned> words(workspace->zeroed_bytes / 4);
    JITGEMM_CU_CHECK(cu.cuMemcpyDtoH(words.data(), workspace->memory, workspace->zeroed_bytes));
    return std::all_of(words.begin(), words.end(), [](unsigned w) { return w == 0; });
}

void release_stream_workspaces() {
    WorkspaceTable& table = workspace_table();
    std::lock_guard<std::mutex> lock(table.mutex);
    if (table.by_stream.empty()) return;
    const auto& cu = api();
    const unsigned long long context = current_context_id();
    std::vector<std::pair<std::map<WorkspaceKey, std::shared_ptr<CachedWorkspace>>::iterator,
                          std::unique_lock<std::mutex>>>
        idle;
    for (auto it = table.by_stream.begin(); it != table.by_stream.end(); ++it) {
        if (it->first.context != context) continue;
        std::unique_lock<std::mutex> lease(it->second->lease, std::try_to_lock);
        if (lease.owns_lock()) idle.emplace_back(it, std::move(lease));
    }
    if (idle.empty()) return;
    // The streams may be gone: wait for all the context's work, then free on the context's own (legacy) stream and
    // wait for that too, so that the pool can hand the memory back to the device.
    JITGEMM_CU_CHECK(cu.cuCtxSynchronize());
    for (auto& [it, lease] : idle) {
        CachedWorkspace& workspace = *it->second;
        if (workspace.memory != 0) JITGEMM_CU_CHECK(cu.cuMemFreeAsync(workspace.memory, nullptr));
        workspace.memory = 0;
        workspace.bytes = 0;
        workspace.zeroed_bytes = 0;
        workspace.released = true;
        lease.unlock();
        table.by_stream.erase(it);
    }
    JITGEMM_CU_CHECK(cu.cuCtxSynchronize());
    JITGEMM_CU_CHECK(cu.cuMemPoolTrimTo(pool_of_current_device(), 0));
}

}  // namespace jitgemm::driver
