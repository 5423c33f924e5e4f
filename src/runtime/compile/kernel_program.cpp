// Builds the NVRTC program of a (Problem, Config): problem constants and knobs become -D options.
#include "runtime/compile/kernel_program.h"

#include "cache/content_hash.h"
#include "runtime/compile/kernel_sources.h"
#include "runtime/compile/nvrtc_compiler.h"

namespace jitgemm {
namespace {

void define(std::vector<std::string>& options, const std::string& name, long long value) {
    options.push_back("-D" + name + "=" + std::to_string(value));
}

}  // namespace

std::string KernelProgram::cubin_key() const {
    std::string identity = source_hash + "|" + config_name + "|" + arch + "|nvrtc" + nvrtc_version();
    for (const auto& option : options) identity += "|" + option;
    return content_hash_hex(identity);
}

KernelProgram make_kernel_program(const Problem& p, const FamilyKernel& kernel, const std::string& arch,
                                  bool sizes_at_run_time) {
    KernelProgram program;
    program.config_name = kernel.config_name;
    program.file_name = program.config_name + "__" + p.key() + ".cu";
    program.source = "#include \"" + kernel.source_header + "\"\n";
    program.kernel_symbol = kernel.kernel_symbol;
    program.source_hash = jitgemm::source_hash(kernel.source_header);
    program.arch = arch;

    auto& o = program.options;
    o.push_back("--gpu-architecture=" + arch);
    o.push_back("-std=c++17");
    // One per field, then JG_INDEX64 (and JG_SIZES_AT_RUN_TIME).
    for (const auto& [name, value] : sizes_at_run_time ? p.defines_with_sizes_at_run_time() : p.defines())
        define(o, name, value);
    for (const auto& [name, value] : kernel.knobs) define(o, name, value);
    return program;
}

}  // namespace jitgemm

namespace jitgemm {

KernelProgram make_support_program(const std::string& header, const std::string& entry_kernel,
                                   const std::string& arch) {
    KernelProgram program;
    const std::string file = header.substr(header.rfind('/') + 1);  // "support/jg_verify.cuh" -> "jg_verify"
    program.config_name = file.substr(0, file.find('.'));
    program.file_name = program.config_name + ".cu";
    program.kernel_symbol = entry_kernel;
    program.source = "#include \"" + header + "\"\n";
    program.source_hash = jitgemm::source_hash(header);
    program.arch = arch;
    program.options = {"--gpu-architecture=" + arch, "-std=c++17"};
    program.support = true;
    return program;
}

}  // namespace jitgemm
