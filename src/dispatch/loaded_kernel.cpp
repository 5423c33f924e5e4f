// Module loading and the launch of the hot path.
#include "dispatch/loaded_kernel.h"

#include "driver/cuda_driver.h"
#include "driver/driver_check.h"

namespace jitgemm {

std::shared_ptr<const LoadedKernel> load_kernel(const std::string& image, const std::string& symbol,
                                                const LaunchGeometry& geometry, const std::string& config_name) {
    const auto& cu = driver::api();
    auto kernel = std::make_shared<LoadedKernel>();
    CUmodule module = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&module, image.data()));
    kernel->module = driver::ModuleHandle(module);
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernel->function, module, symbol.c_str()));
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

void launch_kernel(const LoadedKernel& kernel, CUstream stream, const void* a, const void* b, void* c, float alpha,
                   float beta) {
    void* params[] = {&a, &b, &c, &alpha, &beta};
    const LaunchGeometry& g = kernel.geometry;
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.function, g.grid, 1, 1, g.block, 1, 1,
                                                  g.dynamic_shared_bytes, stream, params, nullptr));
}

}  // namespace jitgemm
