// TuningOperands: the tuner's own operands for one problem — never the caller's — on the device: A and B filled
// with N(0, 1) values on the GPU, C's starting values, the candidate's output C, and the reference output that the
// naive family computes once. A candidate's output is compared with the reference on the device.
#pragma once

#include <cstdint>

#include "runtime/launch/kernel_args.h"
#include "runtime/launch/loaded_kernel.h"
#include "runtime/driver/driver_handles.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

// The module of kernel_sources/support/jg_verify.cuh in the current context.
struct VerificationKernels {
    driver::ModuleHandle module;
    CUfunction fill_normal = nullptr;
    CUfunction compare = nullptr;
};

// Loads the verification module (cubin of make_support_program("support/jg_verify.cuh")) into the current context.
std::unique_ptr<VerificationKernels> load_verification_kernels(const std::string& image);

class TuningOperands {
public:
    TuningOperands(const Problem& problem, const VerificationKernels& kernels, CUstream stream, std::uint64_t seed);

    // C = its starting values (beta != 0) or NaN (beta == 0, where C must not be read).
    void reset_output(CUstream stream) const;
    // Makes the current output the reference (after the reference kernel ran).
    void keep_output_as_reference(CUstream stream) const;
    // Elements of the output that differ from the reference beyond atol + rtol * |ref| or are not finite.
    std::uint64_t count_mismatches(CUstream stream, float atol, float rtol) const;

    void launch(const LoadedKernel& kernel, CUstream stream) const;

    float alpha() const { return alpha_; }
    float beta() const { return beta_; }

private:
    Problem problem_;
    const VerificationKernels& kernels_;
    float alpha_, beta_;
    BatchStrides strides_;
    driver::DeviceBuffer a_, b_, c_start_, c_, c_reference_, mismatch_;
};

// Tolerance of the candidate check by output dtype (fp32 here): |x - ref| <= atol + rtol * |ref|, with atol growing
// with k because both results round a k-term sum in a different order.
struct Tolerance {
    float atol, rtol;
};
Tolerance verification_tolerance(const Problem& problem);

}  // namespace jitgemm
