// Device buffers, fill and compare of the tuning workspace.
#include "tuner/tuning_workspace.h"

#include <cmath>

#include "driver/cuda_driver.h"
#include "driver/driver_check.h"

namespace jitgemm {
namespace {

std::size_t stored_elements(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
    return cols == 0 ? 1 : static_cast<std::size_t>((cols - 1) * ld + rows);
}

void launch_1d(CUfunction f, std::size_t elements, CUstream stream, void** params) {
    const unsigned block = 256;
    const unsigned grid = static_cast<unsigned>(std::min<std::size_t>((elements + block - 1) / block, 65536));
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(f, std::max(grid, 1u), 1, 1, block, 1, 1, 0, stream, params,
                                                  nullptr));
}

}  // namespace

std::unique_ptr<WorkspaceKernels> load_workspace_kernels(const std::string& image) {
    const auto& cu = driver::api();
    auto kernels = std::make_unique<WorkspaceKernels>();
    CUmodule module = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&module, image.data()));
    kernels->module = driver::ModuleHandle(module);
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernels->fill_normal, module, "jg_fill_normal"));
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernels->compare, module, "jg_compare"));
    return kernels;
}

Tolerance verification_tolerance(const Problem& p) {
    // fp32: u = 6e-8 per rounding; with N(0,1) data a k-term sum is ~sqrt(k) in size and two orderings differ by
    // ~u*k in the worst case. A wrong tile or a dropped k step is off by ~1.
    return {1e-6f * static_cast<float>(p.k) + 1e-5f, 1e-4f};
}

TuningWorkspace::TuningWorkspace(const Problem& p, const WorkspaceKernels& kernels, CUstream stream,
                                 std::uint64_t seed)
    : problem_(p),
      kernels_(kernels),
      alpha_(p.alpha_one ? 1.0f : 0.75f),
      beta_(p.beta_mode == BetaMode::Zero ? 0.0f : p.beta_mode == BetaMode::One ? 1.0f : -0.5f) {
    const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
    const std::size_t a_count = stored_elements(ta ? p.k : p.m, ta ? p.m : p.k, p.lda);
    const std::size_t b_count = stored_elements(tb ? p.n : p.k, tb ? p.k : p.n, p.ldb);
    const std::size_t c_count = stored_elements(p.m, p.n, p.ldc);
    a_ = driver::DeviceBuffer(a_count * 4);
    b_ = driver::DeviceBuffer(b_count * 4);
    c_start_ = driver::DeviceBuffer(c_count * 4);
    c_ = driver::DeviceBuffer(c_count * 4);
    c_reference_ = driver::DeviceBuffer(c_count * 4);
    mismatch_ = driver::DeviceBuffer(2 * sizeof(std::uint64_t));
    const std::pair<const driver::DeviceBuffer*, std::size_t> fills[] = {{&a_, a_count}, {&b_, b_count},
                                                                          {&c_start_, c_count}};
    for (const auto& [buffer, count] : fills) {
        CUdeviceptr ptr = buffer->get();
        long long n = static_cast<long long>(count);
        unsigned long long s = seed++;
        void* params[] = {&ptr, &n, &s};
        launch_1d(kernels_.fill_normal, count, stream, params);
    }
}

void TuningWorkspace::reset_output(CUstream stream) const {
    const auto& cu = driver::api();
    if (problem_.beta_mode == BetaMode::Zero)
        JITGEMM_CU_CHECK(cu.cuMemsetD32Async(c_.get(), 0x7fc00000u, c_.bytes() / 4, stream));  // quiet NaN
    else
        JITGEMM_CU_CHECK(cu.cuMemcpyDtoDAsync(c_.get(), c_start_.get(), c_.bytes(), stream));
}

void TuningWorkspace::keep_output_as_reference(CUstream stream) const {
    JITGEMM_CU_CHECK(driver::api().cuMemcpyDtoDAsync(c_reference_.get(), c_.get(), c_.bytes(), stream));
}

std::uint64_t TuningWorkspace::count_mismatches(CUstream stream, float atol, float rtol) const {
    const auto& cu = driver::api();
    std::uint64_t init[2] = {0, ~0ull};
    JITGEMM_CU_CHECK(cu.cuMemsetD32Async(mismatch_.get(), 0, 2, stream));
    JITGEMM_CU_CHECK(cu.cuMemsetD32Async(mismatch_.get() + 8, 0xffffffffu, 2, stream));
    CUdeviceptr x = c_.get(), ref = c_reference_.get(), bad = mismatch_.get();
    long long m = problem_.m, n = problem_.n, ld = problem_.ldc;
    void* params[] = {&x, &ref, &m, &n, &ld, &atol, &rtol, &bad};
    launch_1d(kernels_.compare, static_cast<std::size_t>(m * n), stream, params);
    JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream));
    JITGEMM_CU_CHECK(cu.cuMemcpyDtoH(init, mismatch_.get(), sizeof(init)));
    return init[0];
}

void TuningWorkspace::launch(const LoadedKernel& kernel, CUstream stream) const {
    launch_kernel(kernel, stream, a_.as<void>(), b_.as<void>(), c_.as<void>(), alpha_, beta_);
}

}  // namespace jitgemm
