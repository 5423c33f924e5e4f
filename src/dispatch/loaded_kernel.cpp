// Module loading and the launch of the hot path.
#include "dispatch/loaded_kernel.h"

#include <algorithm>

#include "driver/cuda_driver.h"
#include "driver/driver_check.h"
#include "driver/stream_workspace.h"

namespace jitgemm {

std::shared_ptr<const LoadedKernel> load_kernel(const std::string& image, const std::string& symbol,
                                                const LaunchGeometry& geometry, const std::string& config_name) {
    const auto& cu = driver::api();
    auto kernel = std::make_shared<LoadedKernel>();
    CUmodule module = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&module, image.data()));
    kernel->module = driver::ModuleHandle(module);
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernel->function, module, symbol.c_str()));
    if (!geometry.packs.empty()) JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernel->pack_function, module, "jg_pack"));
    if (geometry.dynamic_shared_bytes > 48 * 1024)
        JITGEMM_CU_CHECK(cu.cuFuncSetAttribute(kernel->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                               static_cast<int>(geometry.dynamic_shared_bytes)));
    JITGEMM_CU_CHECK(cu.cuFuncGetAttribute(&kernel->registers, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel->function));
    JITGEMM_CU_CHECK(cu.cuFuncGetAttribute(&kernel->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                                           kernel->function));
    kernel->geometry = geometry;
    kernel->config_name = config_name;
    return kernel;
}

namespace {

// The kernel's parameters: (A, B, C, alpha, beta) and, for the Tensor Core family, its scratch. The driver reads as
// many of them as the kernel declares, so the other families ignore the sixth.
void launch_gemm(const LoadedKernel& kernel, CUstream stream, const void* a, const void* b, void* c, float alpha,
                 float beta, CUdeviceptr scratch) {
    void* scratch_pointer = reinterpret_cast<void*>(scratch);
    void* params[] = {&a, &b, &c, &alpha, &beta, &scratch_pointer};
    const LaunchGeometry& g = kernel.geometry;
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.function, g.grid, 1, 1, g.block, 1, 1,
                                                  g.dynamic_shared_bytes, stream, params, nullptr));
}

// kernel_sources/jg_pack.cuh's jg_pack_job: eight-byte fields only, so the layouts agree.
struct PackJob {
    const void* src = nullptr;
    void* dst = nullptr;
    long long ld_src = 0, ld_dst = 0, rows = 0, cols = 0;  // cols = 0: no copy
};
static_assert(sizeof(PackJob) == 48, "PackJob mirrors jg_pack_job");

// Copies the packed operands, both in one launch (jg_pack.cuh): one thread per 16-byte chunk of the copies. The
// launch also zeroes `zero_bytes` at `zero` (the split-K counters).
void launch_packs(const LoadedKernel& kernel, CUstream stream, PackJob first, PackJob second, int element_bytes,
                  CUdeviceptr zero, std::int64_t zero_bytes) {
    const std::int64_t bytes = (first.ld_dst * first.cols + second.ld_dst * second.cols) * element_bytes;
    const unsigned threads = 256;
    const unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>((bytes / 16 + threads - 1) / threads, 1 << 20));
    void* zero_pointer = reinterpret_cast<void*>(zero);
    int zero_words = static_cast<int>(zero_bytes / 4);
    void* params[] = {&first, &second, &element_bytes, &zero_pointer, &zero_words};
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.pack_function, std::max(blocks, 1u), 1, 1, threads, 1, 1, 0,
                                                  stream, params, nullptr));
}

}  // namespace

void launch_kernel(const LoadedKernel& kernel, CUstream stream, const void* a, const void* b, void* c, float alpha,
                   float beta) {
    const LaunchGeometry& g = kernel.geometry;
    if (g.packs.empty() && g.scratch_bytes == 0) {
        launch_gemm(kernel, stream, a, b, c, alpha, beta, 0);
        return;
    }
    // One stream-ordered workspace: the kernel's scratch, then each packed copy, each on its own 256-byte boundary.
    const auto slot_bytes = [](std::int64_t bytes) { return (bytes + 255) / 256 * 256; };
    std::int64_t total = slot_bytes(g.scratch_bytes);
    for (const OperandPack& op : g.packs) total += slot_bytes(op.bytes());
    const driver::StreamWorkspace workspace(static_cast<std::size_t>(total), stream);
    const CUdeviceptr scratch = g.scratch_bytes > 0 ? workspace.get() : 0;
    if (g.scratch_zeroed_bytes > 0 && g.packs.empty())  // else the pack launch zeroes them
        JITGEMM_CU_CHECK(driver::api().cuMemsetD32Async(scratch, 0, static_cast<std::size_t>(g.scratch_zeroed_bytes / 4),
                                                        stream));
    CUdeviceptr next = workspace.get() + static_cast<CUdeviceptr>(slot_bytes(g.scratch_bytes));
    const void* operands[2] = {a, b};
    if (!g.packs.empty()) {
        PackJob jobs[2];
        for (std::size_t i = 0; i < g.packs.size() && i < 2; ++i) {
            const OperandPack& op = g.packs[i];
            jobs[i] = {operands[op.operand], reinterpret_cast<void*>(next), op.ld_from, op.ld_to, op.rows, op.cols};
            operands[op.operand] = reinterpret_cast<const void*>(next);
            next += static_cast<CUdeviceptr>(slot_bytes(op.bytes()));
        }
        launch_packs(kernel, stream, jobs[0], jobs[1], g.packs.front().element_bytes, scratch, g.scratch_zeroed_bytes);
    }
    launch_gemm(kernel, stream, operands[0], operands[1], c, alpha, beta, scratch);
}

}  // namespace jitgemm
