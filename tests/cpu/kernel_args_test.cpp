// The kernel ABI: kernel_sources/common/jg_args.cuh, as NVRTC lays it out for the device, has every field at the
// offset of the host's KernelArgs (src/runtime/launch/kernel_args.h). One probe kernel per field stores the field's
// distance from the start of the argument, which the device compiler folds to a constant in the PTX.
#include <gtest/gtest.h>
#include <nvrtc.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "runtime/compile/kernel_sources.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "runtime/launch/kernel_args.h"
#include "support/abi_probe.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

// NVRTC's PTX of `source`, with every embedded kernel source as a header, for compute_90a (a virtual target, so
// the result is PTX rather than the real target's cubin). `options` are added to the target.
std::string ptx_of(const std::string& source, const std::vector<std::string>& options) {
    std::vector<std::string> texts, names;
    for (const auto& s : embedded_kernel_sources()) {
        texts.emplace_back(s.text);
        names.emplace_back(s.name);
    }
    std::vector<const char*> text_ptrs, name_ptrs;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        text_ptrs.push_back(texts[i].c_str());
        name_ptrs.push_back(names[i].c_str());
    }
    nvrtcProgram handle = nullptr;
    EXPECT_EQ(nvrtcCreateProgram(&handle, source.c_str(), "probe.cu", static_cast<int>(texts.size()),
                                 text_ptrs.data(), name_ptrs.data()),
              NVRTC_SUCCESS);
    std::vector<const char*> option_ptrs{"--gpu-architecture=compute_90a"};
    for (const auto& o : options) option_ptrs.push_back(o.c_str());
    const nvrtcResult compiled =
        nvrtcCompileProgram(handle, static_cast<int>(option_ptrs.size()), option_ptrs.data());
    std::size_t log_size = 0;
    nvrtcGetProgramLogSize(handle, &log_size);
    std::string log(log_size, '\0');
    nvrtcGetProgramLog(handle, log.data());
    EXPECT_EQ(compiled, NVRTC_SUCCESS) << log;
    std::size_t size = 0;
    nvrtcGetPTXSize(handle, &size);
    std::string ptx(size, '\0');
    nvrtcGetPTX(handle, ptx.data());
    nvrtcDestroyProgram(&handle);
    return ptx;
}

// The PTX of one probe kernel per field of kKernelArgsFields, each storing the distance in bytes from the start of
// its jg_args parameter to the field: the device compiler's own offsetof, a constant in the PTX.
std::string probe_ptx() {
    std::string source = "#include \"common/jg_args.cuh\"\n";
    for (const KernelArgsField& f : kKernelArgsFields)
        source += "extern \"C\" __global__ void probe_" + std::string(f.name) +
                  "(const jg_args args, unsigned long long* out) { *out = (unsigned long long)(reinterpret_cast<const "
                  "char*>(&args." +
                  f.name + ") - reinterpret_cast<const char*>(&args)); }\n";
    return ptx_of(source, {"-std=c++17"});
}

TEST(KernelArgs, DeviceLayoutOfJgArgsIsTheHostsKernelArgs) {
    const std::string ptx = probe_ptx();
    // Each probe's body, up to the next entry, holds one 64-bit constant: its offset.
    std::map<std::string, std::size_t> device_offsets;
    const std::regex entry(R"(\.entry probe_(\w+)\()");
    const std::regex constant(R"((?:mov|st\.global)\.[ub]64\s+[^,;]+,\s*(\d+);)");
    std::vector<std::pair<std::string, std::size_t>> entries;
    for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), entry); it != std::sregex_iterator(); ++it)
        entries.emplace_back((*it)[1], static_cast<std::size_t>(it->position()));
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::size_t end = i + 1 < entries.size() ? entries[i + 1].second : ptx.size();
        const std::string body = ptx.substr(entries[i].second, end - entries[i].second);
        std::smatch m;
        if (std::regex_search(body, m, constant)) device_offsets[entries[i].first] = std::stoul(m[1]);
    }
    ASSERT_EQ(device_offsets.size(), std::size(kKernelArgsFields)) << ptx;
    for (const KernelArgsField& f : kKernelArgsFields) EXPECT_EQ(device_offsets[f.name], f.offset) << f.name;
}

// The ABI probe the GPU test launches in clusters compiles for Hopper: jg_args, a __grid_constant__ parameter after
// it, and the cluster special registers.
TEST(KernelArgs, AbiProbeCompilesForSm90a) {
    const Cubin cubin = compile_to_cubin(testing::abi_probe_program("sm_90a"));
    EXPECT_GT(cubin.image.size(), 0u);
    EXPECT_EQ(cubin.image.substr(0, 4), std::string("\x7f" "ELF"));
}

// The PTX of a family's kernel for a problem.
std::string kernel_ptx(const AnyConfig& config, const Problem& problem) {
    const KernelProgram program = kernel_program(config, problem, "sm_90a");
    std::vector<std::string> options;  // the program's, but its real target
    for (const auto& o : program.options)
        if (o.rfind("--gpu-architecture", 0) != 0) options.push_back(o);
    return ptx_of(program.source, options);
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Operands come through jg_args, where restrict-qualified kernel parameters used to tell the compiler that nothing
// writes them during the kernel: their loads must still take the read-only path (ld.global.nc). Session 11's SASS
// comparison on the H200 found the register-blocked family's and the mma.sync register path's loads had lost it;
// session 12's found the latter's main loop 37% longer, from one address computation per element load.
TEST(KernelArgs, OperandLoadsTakeTheReadOnlyPath) {
    Problem fp32;
    fp32.m = fp32.n = fp32.k = fp32.lda = fp32.ldb = fp32.ldc = 4096;
    fp32.alpha_one = true;
    const std::string regblock = kernel_ptx(RegBlockConfig{}, fp32);
    EXPECT_GE(count_of(regblock, "ld.global.nc"), 4u);
    EXPECT_EQ(count_of(regblock, "ld.global.nc"), count_of(regblock, "ld.global."));  // beta = 0: C is not read

    Problem odd = fp32;  // 2-byte aligned bf16 operands: the register path's element loads
    odd.a_type = odd.b_type = odd.c_type = DType::BF16;
    odd.m = 777;
    odd.lda = 777;
    odd.align_a = odd.align_b = odd.align_c = 2;
    const std::string register_path = kernel_ptx(MmaSyncConfig{}, odd);
    EXPECT_GE(count_of(register_path, "ld.global.nc"), 16u);
    // A chunk's eight element loads share one address, each at its own immediate offset (jg_memory.cuh,
    // load_read_only_elements), rather than one computed address per element.
    EXPECT_TRUE(std::regex_search(register_path, std::regex(R"(ld\.global\.nc\.u16\s+%rs\d+, \[%rd\d+\+14\])")));
}

// Every family's kernel declares its jg_args __grid_constant__ (jg_args.cuh says why: without it NVVM copied the
// struct and the mma.sync main loop grew by 12 instructions). The PTX looks the same either way, so the declaration
// is read from the family's embedded source.
TEST(KernelArgs, EveryFamilyKernelTakesItsArgumentsAsGridConstant) {
    for_each_family([](auto tag) {
        using Family = decltype(tag);
        std::string text;
        for (const auto& s : embedded_kernel_sources())
            if (std::string(s.name) == Family::kSourceHeader) text = s.text;
        ASSERT_FALSE(text.empty()) << Family::kSourceHeader;
        const std::regex declaration(std::string(Family::kKernelSymbol) +
                                     R"(\s*\(\s*const __grid_constant__ jg_args )");
        EXPECT_TRUE(std::regex_search(text, declaration)) << Family::kName << ": " << Family::kSourceHeader;
    });
}

TEST(KernelArgs, ArgumentsOfACallCarryItsProblem) {
    Problem p;
    p.m = 7;
    p.n = 9;
    p.k = 11;
    p.lda = 13;
    p.ldb = 15;
    p.ldc = 17;
    int a = 0, b = 0, c = 0;
    const KernelArgs args = make_kernel_args(p, &a, &b, &c, 0.5f, -2.0f);
    EXPECT_EQ(args.a, &a);
    EXPECT_EQ(args.b, &b);
    EXPECT_EQ(args.c, &c);
    EXPECT_EQ(args.workspace, nullptr);  // launch_kernel fills it in
    EXPECT_EQ(args.m, 7);
    EXPECT_EQ(args.n, 9);
    EXPECT_EQ(args.k, 11);
    EXPECT_EQ(args.lda, 13);
    EXPECT_EQ(args.ldb, 15);
    EXPECT_EQ(args.ldc, 17);
    EXPECT_EQ(args.batch, 1);
    EXPECT_EQ(args.alpha, 0.5f);
    EXPECT_EQ(args.beta, -2.0f);
}

}  // namespace
}  // namespace jitgemm
