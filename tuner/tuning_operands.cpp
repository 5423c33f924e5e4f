// Device buffers, fill and compare of the tuner's own operands.
#include "tuner/tuning_operands.h"

#include <algorithm>
#include <cmath>

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

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

std::unique_ptr<VerificationKernels> load_verification_kernels(const std::string& image) {
    const auto& cu = driver::api();
    auto kernels = std::make_unique<VerificationKernels>();
    CUmodule module = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&module, image.data()));
    kernels->module = driver::ModuleHandle(module);
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernels->fill_normal, module, "jg_fill_normal"));
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernels->compare, module, "jg_compare"));
    return kernels;
}

Tolerance verification_tolerance(const Problem& p) {
    // fp32: u = 6e-8 per rounding; with N(0,1) data a k-term sum is ~sqrt(k) in size and two orderings differ by
    // ~u*k in the worst case. A wrong tile or a dropped k step is off by ~1 (sqrt of the k steps lost).
    Tolerance t{1e-6f * static_cast<float>(p.k) + 1e-5f, 1e-4f};
    // TF32 shortens each input to 11 significant bits where the naive reference multiplies exactly: rounded to
    // nearest (mma.sync) each product is off by up to 2^-10 of itself, and k of them add up like a random walk of
    // about 2^-11 sqrt(k) (N(0, 1) operands); truncated (wgmma reads the fp32 bits and ignores the 13 low ones) by up
    // to 2^-9, a walk of about 1.6 x 2^-11 sqrt(k). Sixteen of 2^-11 sqrt(k) stay ten of those walks' deviations clear
    // of the largest of millions of elements (eight were five and a little, which some elements of a 4096^2 C pass),
    // and far below a lost k step's error (about sqrt(8)).
    if (p.compute == ComputeType::TF32 && p.a_type == DType::F32) {
        t.atol += 16.0f * std::ldexp(1.0f, -11) * std::sqrt(static_cast<float>(p.k));
        t.rtol = std::ldexp(1.0f, -10);
    }
    // A 16-bit output: both results round nearly equal fp32 sums, possibly to neighbouring values, one unit in the
    // last place apart (2^-8 of the value for bf16, 2^-11 for fp16, whose subnormals add an absolute 2^-24).
    if (p.c_type == DType::BF16) t.rtol = std::max(t.rtol, std::ldexp(1.0f, -7));
    if (p.c_type == DType::F16) {
        t.rtol = std::max(t.rtol, std::ldexp(1.0f, -10));
        t.atol += std::ldexp(1.0f, -23);
    }
    return t;
}

TuningOperands::TuningOperands(const Problem& p, const VerificationKernels& kernels, CUstream stream,
                                 std::uint64_t seed)
    : problem_(p),
      kernels_(kernels),
      alpha_(p.alpha_one ? 1.0f : 0.75f),
      beta_(p.beta_mode == BetaMode::Zero ? 0.0f : p.beta_mode == BetaMode::One ? 1.0f : -0.5f) {
    const bool ta = p.trans_a == Transpose::Yes, tb = p.trans_b == Transpose::Yes;
    // A batch's GEMMs lie one after the other, each a whole number of leading dimensions from the last: C's then form
    // one m x (n batch) matrix, which the comparison reads as such.
    const std::int64_t cols_a = ta ? p.m : p.k, cols_b = tb ? p.k : p.n;
    if (p.batch > 1) strides_ = {cols_a * p.lda, cols_b * p.ldb, p.n * p.ldc};
    const auto batched = [&](std::size_t one, std::int64_t stride) {
        return one + static_cast<std::size_t>(p.batch - 1) * static_cast<std::size_t>(stride);
    };
    const std::size_t a_count = batched(stored_elements(ta ? p.k : p.m, cols_a, p.lda), strides_.a);
    const std::size_t b_count = batched(stored_elements(tb ? p.n : p.k, cols_b, p.ldb), strides_.b);
    const std::size_t c_count = batched(stored_elements(p.m, p.n, p.ldc), strides_.c);
    a_ = driver::DeviceBuffer(a_count * size_of(p.a_type));
    b_ = driver::DeviceBuffer(b_count * size_of(p.b_type));
    c_start_ = driver::DeviceBuffer(c_count * size_of(p.c_type));
    c_ = driver::DeviceBuffer(c_count * size_of(p.c_type));
    c_reference_ = driver::DeviceBuffer(c_count * size_of(p.c_type));
    mismatch_ = driver::DeviceBuffer(2 * sizeof(std::uint64_t));
    struct Fill {
        const driver::DeviceBuffer* buffer;
        std::size_t count;
        DType type;
    };
    const Fill fills[] = {{&a_, a_count, p.a_type}, {&b_, b_count, p.b_type}, {&c_start_, c_count, p.c_type}};
    for (const Fill& f : fills) {
        CUdeviceptr ptr = f.buffer->get();
        long long n = static_cast<long long>(f.count);
        unsigned long long s = seed++;
        int dtype = static_cast<int>(f.type);  // the codes of jg_types.cuh
        void* params[] = {&ptr, &n, &s, &dtype};
        launch_1d(kernels_.fill_normal, f.count, stream, params);
    }
}

void TuningOperands::reset_output(CUstream stream) const {
    const auto& cu = driver::api();
    if (problem_.beta_mode == BetaMode::Zero && size_of(problem_.c_type) == 4)
        JITGEMM_CU_CHECK(cu.cuMemsetD32Async(c_.get(), 0x7fc00000u, c_.bytes() / 4, stream));  // quiet NaN
    else if (problem_.beta_mode == BetaMode::Zero)  // quiet NaN of the 16-bit type
        JITGEMM_CU_CHECK(cu.cuMemsetD16Async(c_.get(), problem_.c_type == DType::F16 ? 0x7e00u : 0x7fc0u,
                                             c_.bytes() / 2, stream));
    else
        JITGEMM_CU_CHECK(cu.cuMemcpyDtoDAsync(c_.get(), c_start_.get(), c_.bytes(), stream));
}

void TuningOperands::keep_output_as_reference(CUstream stream) const {
    JITGEMM_CU_CHECK(driver::api().cuMemcpyDtoDAsync(c_reference_.get(), c_.get(), c_.bytes(), stream));
}

std::uint64_t TuningOperands::count_mismatches(CUstream stream, float atol, float rtol) const {
    const auto& cu = driver::api();
    std::uint64_t init[2] = {0, ~0ull};
    JITGEMM_CU_CHECK(cu.cuMemsetD32Async(mismatch_.get(), 0, 2, stream));
    JITGEMM_CU_CHECK(cu.cuMemsetD32Async(mismatch_.get() + 8, 0xffffffffu, 2, stream));
    CUdeviceptr x = c_.get(), ref = c_reference_.get(), bad = mismatch_.get();
    long long m = problem_.m, n = problem_.n * problem_.batch, ld = problem_.ldc;
    int dtype = static_cast<int>(problem_.c_type);
    void* params[] = {&x, &ref, &m, &n, &ld, &atol, &rtol, &bad, &dtype};
    launch_1d(kernels_.compare, static_cast<std::size_t>(m * n), stream, params);
    // On the tuner's own stream, not the legacy one, which would wait for the program's blocking streams (and is
    // forbidden while one of them is being captured).
    JITGEMM_CU_CHECK(cu.cuMemcpyDtoHAsync(init, mismatch_.get(), sizeof(init), stream));
    JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream));
    return init[0];
}

void TuningOperands::launch(const LoadedKernel& kernel, CUstream stream) const {
    launch_kernel(kernel, stream, make_kernel_args(problem_, a_.as<void>(), b_.as<void>(), c_.as<void>(), alpha_, beta_,
                                                   strides_));
}

}  // namespace jitgemm
