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

void launch_gemm(const LoadedKernel& kernel, CUstream stream, const void* a, const void* b, void* c, float alpha,
                 float beta) {
    void* params[] = {&a, &b, &c, &alpha, &beta};
    const LaunchGeometry& g = kernel.geometry;
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.function, g.grid, 1, 1, g.block, 1, 1,
                                                  g.dynamic_shared_bytes, stream, params, nullptr));
}

// Copies the operand to `to`, as kernel_sources/jg_pack.cuh says: one thread per 16-byte chunk of the copy.
void launch_pack(const LoadedKernel& kernel, CUstream stream, const OperandPack& op, const void* from, CUdeviceptr to) {
    const std::int64_t chunks = op.bytes() / 16;
    const unsigned threads = 256;
    const unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>((chunks + threads - 1) / threads, 1 << 20));
    long long ld_from = op.ld_from, ld_to = op.ld_to, rows = op.rows, cols = op.cols;
    int element_bytes = op.element_bytes;
    void* dst = reinterpret_cast<void*>(to);
    void* params[] = {&from, &ld_from, &dst, &ld_to, &rows, &cols, &element_bytes};
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.pack_function, std::max(blocks, 1u), 1, 1, threads, 1, 1, 0,
                                                  stream, params, nullptr));
}

}  // namespace

void launch_kernel(const LoadedKernel& kernel, CUstream stream, const void* a, const void* b, void* c, float alpha,
                   float beta) {
    const std::vector<OperandPack>& packs = kernel.geometry.packs;
    if (packs.empty()) {
        launch_gemm(kernel, stream, a, b, c, alpha, beta);
        return;
    }
    // Each copy starts on its own 256-byte boundary.
    const auto slot_bytes = [](const OperandPack& op) { return (op.bytes() + 255) / 256 * 256; };
    std::int64_t total = 0;
    for (const OperandPack& op : packs) total += slot_bytes(op);
    const driver::StreamWorkspace workspace(static_cast<std::size_t>(total), stream);
    CUdeviceptr next = workspace.get();
    const void* operands[2] = {a, b};
    for (const OperandPack& op : packs) {
        launch_pack(kernel, stream, op, operands[op.operand], next);
        operands[op.operand] = reinterpret_cast<const void*>(next);
        next += static_cast<CUdeviceptr>(slot_bytes(op));
    }
    launch_gemm(kernel, stream, operands[0], operands[1], c, alpha, beta);
}

}  // namespace jitgemm
