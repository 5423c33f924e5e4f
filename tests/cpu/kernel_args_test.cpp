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

namespace jitgemm {
namespace {

std::string embedded(const std::string& name) {
    for (const auto& s : embedded_kernel_sources())
        if (s.name == name) return std::string(s.text);
    return {};
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
    const std::string header = embedded("common/jg_args.cuh");
    const char* headers[] = {header.c_str()};
    const char* names[] = {"common/jg_args.cuh"};
    nvrtcProgram program = nullptr;
    EXPECT_EQ(nvrtcCreateProgram(&program, source.c_str(), "probe.cu", 1, headers, names), NVRTC_SUCCESS);
    const char* options[] = {"--gpu-architecture=compute_80", "-std=c++17"};
    const nvrtcResult compiled = nvrtcCompileProgram(program, 2, options);
    std::size_t log_size = 0;
    nvrtcGetProgramLogSize(program, &log_size);
    std::string log(log_size, '\0');
    nvrtcGetProgramLog(program, log.data());
    EXPECT_EQ(compiled, NVRTC_SUCCESS) << log;
    std::size_t ptx_size = 0;
    nvrtcGetPTXSize(program, &ptx_size);
    std::string ptx(ptx_size, '\0');
    nvrtcGetPTX(program, ptx.data());
    nvrtcDestroyProgram(&program);
    return ptx;
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
