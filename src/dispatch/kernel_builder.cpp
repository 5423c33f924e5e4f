// Configuration choice, specialization, compile and load of one kernel.
#include "dispatch/kernel_builder.h"

#include "compile/kernel_program.h"
#include "compile/nvrtc_compiler.h"
#include "device/device_info.h"
#include "dispatch/heuristic_config.h"
#include "driver/context.h"
#include "jitgemm/error.h"

namespace jitgemm {

AnyConfig choose_config(const Problem& problem, const DeviceInfo& device, const std::string& requested) {
    // k = 0 is "C = beta * C": the scaling kernel serves it whatever was asked for.
    if (requested.empty() || problem.k == 0) return heuristic_config(problem, device);
    const auto parsed = parse_config(requested);
    if (!parsed)
        throw Error(ErrorCode::InvalidArgument,
                    "jitgemm: \"" + requested +
                        "\" is not a kernel configuration (examples: naive_16x16, tiled_t16, "
                        "regblock_128x128x8_t8x8_v4_s2_g8)");
    if (const auto rejection = validate(*parsed, device))
        throw Error(ErrorCode::Unsupported, "jitgemm: configuration " + requested + " cannot run on " + device.name +
                                                ": " + rejection->reason + " (" +
                                                std::string(to_string(rejection->rule)) + ")");
    return *parsed;
}

BuiltKernel build_kernel(CUcontext context, const Problem& problem, const std::string& requested_config) {
    const DeviceInfo& device = cached_device_info(driver::device_of(context));
    const AnyConfig config = choose_config(problem, device, requested_config);
    const std::string arch = device.arch();
    require_supported_arch(arch);
    const KernelProgram program = make_kernel_program(problem, config, arch);
    const LaunchGeometry geometry = launch_geometry(config, problem);
    const Cubin cubin = compile_to_cubin(program);
    BuiltKernel built;
    built.kernel = load_kernel(cubin.image, program.kernel_symbol, geometry, program.config_name);
    built.served_by = requested_config.empty() || problem.k == 0 ? ServedBy::HeuristicDefault : ServedBy::Requested;
    return built;
}

}  // namespace jitgemm
