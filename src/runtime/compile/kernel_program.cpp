// Builds the NVRTC program of a (Problem, Config): problem constants and knobs become -D options.
#include "runtime/compile/kernel_program.h"

#include "runtime/compile/kernel_sources.h"
#include "runtime/compile/nvrtc_compiler.h"

namespace jitgemm {
namespace {

void define(std::vector<std::string>& options, const std::string& name, long long value) {
    options.push_back("-D" + name + "=" + std::to_string(value));
}

}  // namespace

std::string KernelProgram::cubin_key() const {
    std::string identity = kernel_sources_hash() + "|" + config_name + "|" + arch + "|nvrtc" + nvrtc_version();
    for (const auto& option : options) identity += "|" + option;
    return fnv1a_hex(identity);
}

KernelProgram make_kernel_program(const Problem& p, const FamilyKernel& kernel, const std::string& arch) {
    KernelProgram program;
    program.config_name = kernel.config_name;
    program.file_name = program.config_name + "__" + p.key() + ".cu";
    program.source = "#include \"" + kernel.source_header + "\"\n";
    program.kernel_symbol = kernel.kernel_symbol;
    program.arch = arch;

    auto& o = program.options;
    o.push_back("--gpu-architecture=" + arch);
    o.push_back("-std=c++17");
    define(o, "JG_M", p.m);
    define(o, "JG_N", p.n);
    define(o, "JG_K", p.k);
    define(o, "JG_LDA", p.lda);
    define(o, "JG_LDB", p.ldb);
    define(o, "JG_LDC", p.ldc);
    define(o, "JG_TRANS_A", p.trans_a == Transpose::Yes);
    define(o, "JG_TRANS_B", p.trans_b == Transpose::Yes);
    define(o, "JG_ALIGN_A", p.align_a);
    define(o, "JG_ALIGN_B", p.align_b);
    define(o, "JG_ALIGN_C", p.align_c);
    define(o, "JG_A_TYPE", static_cast<int>(p.a_type));  // the codes of jg_types.cuh
    define(o, "JG_B_TYPE", static_cast<int>(p.b_type));
    define(o, "JG_C_TYPE", static_cast<int>(p.c_type));
    define(o, "JG_COMPUTE_TF32", p.compute == ComputeType::TF32);
    define(o, "JG_INDEX64", p.needs_index64());
    define(o, "JG_ALPHA_ONE", p.alpha_one);
    define(o, "JG_BETA_MODE", static_cast<int>(p.beta_mode));
    for (const auto& [name, value] : kernel.knobs) define(o, name, value);
    return program;
}

}  // namespace jitgemm

namespace jitgemm {

KernelProgram make_support_program(const std::string& header, const std::string& arch) {
    KernelProgram program;
    const std::string file = header.substr(header.rfind('/') + 1);  // "support/jg_verify.cuh" -> "jg_verify"
    program.config_name = file.substr(0, file.find('.'));
    program.file_name = program.config_name + ".cu";
    program.source = "#include \"" + header + "\"\n";
    program.arch = arch;
    program.options = {"--gpu-architecture=" + arch, "-std=c++17"};
    return program;
}

}  // namespace jitgemm
