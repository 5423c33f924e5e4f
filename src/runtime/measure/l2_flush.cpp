// The L2 flush: a read of twice the L2 size (kernel_sources/support/jg_l2_flush.cuh).
#include "runtime/measure/l2_flush.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>

#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

namespace jitgemm {
namespace {

// The read kernel's cubin for an architecture, compiled once per process (it is the same for every flusher).
const Cubin& flush_cubin(const std::string& arch) {
    static std::mutex mutex;
    static std::map<std::string, Cubin> cubins;
    const std::lock_guard lock(mutex);
    auto it = cubins.find(arch);
    if (it == cubins.end())
        it = cubins.emplace(arch, compile_to_cubin(make_support_program("support/jg_l2_flush.cuh", "jg_l2_read", arch)))
                 .first;
    return it->second;
}

}  // namespace

L2Flusher::L2Flusher(const DeviceInfo& device)
    : scratch_(static_cast<std::size_t>(std::max(device.l2_bytes, 1 << 20)) * 2), sink_(4) {
    const auto& cu = driver::api();
    CUmodule raw = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&raw, flush_cubin(device.arch()).image.data()));
    module_ = driver::ModuleHandle(raw);
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&read_, raw, "jg_l2_read"));
    // Any contents do; these are defined, and their words fold to 0 or to the fill, never to the kernel's sentinel.
    JITGEMM_CU_CHECK(cu.cuMemsetD32(scratch_.get(), 0x3f800000u, scratch_.bytes() / 4));
    blocks_ = static_cast<unsigned>(std::max(device.sm_count, 1) * 4);
}

void L2Flusher::flush(CUstream stream) const {
    CUdeviceptr buffer = scratch_.get(), sink = sink_.get();
    long long vectors = static_cast<long long>(scratch_.bytes() / 16);
    void* params[] = {&buffer, &vectors, &sink};
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(read_, blocks_, 1, 1, 512, 1, 1, 0, stream, params, nullptr));
}

}  // namespace jitgemm
