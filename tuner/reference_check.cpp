// One kernel against the reference family on the tuner's operands.
#include "tuner/reference_check.h"

#include <random>

#include "runtime/compile/cached_compile.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "tuner/families/registry.h"
#include "tuner/tuning_operands.h"

namespace jitgemm {

std::unique_ptr<VerificationKernels> obtain_verification_kernels(const std::string& arch,
                                                                 const cache::CacheStack& caches) {
    const KernelProgram verify = make_support_program("support/jg_verify.cuh", "jg_compare", arch);
    return load_verification_kernels(obtain_cubin(verify, caches, true).image);
}

std::shared_ptr<const LoadedKernel> obtain_reference_kernel(const Problem& problem, const std::string& arch,
                                                           const cache::CacheStack& caches) {
    const KernelProgram reference = reference_program(problem, arch);
    return load_kernel(obtain_cubin(reference, caches, true).image, reference.kernel_symbol,
                       launch_description(ReferenceConfig{}, problem), reference.config_name);
}

std::uint64_t mismatches_against_reference(const LoadedKernel& kernel, const Problem& problem,
                                           const std::string& arch, const cache::CacheStack& caches) {
    const auto kernels = obtain_verification_kernels(arch, caches);
    const driver::StreamHandle stream = driver::make_stream();
    const TuningOperands operands(problem, *kernels, stream.get(), std::random_device{}());
    const auto reference_kernel = obtain_reference_kernel(problem, arch, caches);
    operands.reset_output(stream.get());
    operands.launch(*reference_kernel, stream.get());
    operands.keep_output_as_reference(stream.get());
    operands.reset_output(stream.get());
    operands.launch(kernel, stream.get());
    JITGEMM_CU_CHECK(driver::api().cuStreamSynchronize(stream.get()));
    const Tolerance tolerance = verification_tolerance(problem);
    return operands.count_mismatches(stream.get(), tolerance.atol, tolerance.rtol);
}

}  // namespace jitgemm
