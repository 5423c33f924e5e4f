// NVRTC compile to cubin, with the embedded kernel sources as in-memory headers.
#include "runtime/compile/nvrtc_compiler.h"

#include <nvrtc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>

#include "cache/cubin_check.h"
#include "jitgemm/error.h"
#include "log/log.h"
#include "runtime/compile/compile_workers.h"
#include "runtime/compile/kernel_sources.h"

#define JITGEMM_NVRTC_CHECK(call) ::jitgemm::check_nvrtc((call), #call, __FILE__, __LINE__)

namespace jitgemm {
namespace {

void check_nvrtc(nvrtcResult result, const char* call, const char* file, int line) {
    if (result != NVRTC_SUCCESS)
        throw Error(ErrorCode::CompileError, "jitgemm: NVRTC call " + std::string(call) + " failed with " +
                                                 nvrtcGetErrorString(result) + " at " + file + ":" +
                                                 std::to_string(line));
}

struct ProgramDeleter {
    void operator()(nvrtcProgram* program) const noexcept {
        nvrtcDestroyProgram(program);
        delete program;
    }
};
using ProgramHandle = std::unique_ptr<nvrtcProgram, ProgramDeleter>;

std::string program_log(nvrtcProgram program) {
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return {};
    std::string log(size, '\0');
    if (nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return {};
    log.resize(size - 1);  // drop the terminating NUL
    return log;
}

std::string joined(const std::vector<std::string>& options) {
    std::string out;
    for (const auto& o : options) out += (out.empty() ? "" : " ") + o;
    return out;
}

std::atomic<std::uint64_t> compile_count{0};

}  // namespace

std::uint64_t nvrtc_compile_count() { return compile_count.load(); }

NvrtcRequest nvrtc_request(const KernelProgram& program) {
    NvrtcRequest request;
    request.file_name = program.file_name;
    request.source = program.source;
    request.options = program.options;
    for (const auto& s : embedded_kernel_sources()) request.headers.emplace_back(s.name, s.text);
    return request;
}

namespace {

// Both entry points: in a worker where one is at hand (its image checked), else in this process.
Cubin compile(const KernelProgram& program, CompileAbandonment* abandonment) {
    if (abandonment != nullptr && abandonment->abandoned()) throw_compile_abandoned();
    if (!program.support) ++compile_count;
    const NvrtcRequest request = nvrtc_request(program);
    if (std::optional<Cubin> cubin = compile_in_worker(request, abandonment)) {
        // A worker's bytes are checked as a stored cubin's are before they may reach the driver; bytes that fail are
        // thrown away and the program compiled here.
        if (const auto defect = cache::cubin_image_defect(cubin->image, program.kernel_symbol, program.arch); !defect)
            return std::move(*cubin);
        else
            log::warn_once("worker image " + program.file_name, "a compile worker returned an image of " +
                                                                    program.file_name + " that is no cubin of it (" +
                                                                    *defect + "); compiling it in this process");
    }
    return compile_in_this_process(request);
}

}  // namespace

Cubin compile_to_cubin(const KernelProgram& program) { return compile(program, nullptr); }

Cubin compile_unless_abandoned(const KernelProgram& program, CompileAbandonment& abandonment) {
    return compile(program, &abandonment);
}

Cubin compile_in_this_process(const NvrtcRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    // NVRTC copies header texts at creation, so the pointers need only live until then.
    std::vector<const char*> text_ptrs, name_ptrs;
    for (const auto& [name, text] : request.headers) {
        name_ptrs.push_back(name.c_str());
        text_ptrs.push_back(text.c_str());
    }

    ProgramHandle handle(new nvrtcProgram(nullptr));
    JITGEMM_NVRTC_CHECK(nvrtcCreateProgram(handle.get(), request.source.c_str(), request.file_name.c_str(),
                                           static_cast<int>(request.headers.size()), text_ptrs.data(),
                                           name_ptrs.data()));
    std::vector<const char*> options;
    for (const auto& o : request.options) options.push_back(o.c_str());
    const nvrtcResult compiled = nvrtcCompileProgram(*handle, static_cast<int>(options.size()), options.data());
    Cubin cubin;
    cubin.log = program_log(*handle);
    if (compiled != NVRTC_SUCCESS)
        throw Error(ErrorCode::CompileError, "jitgemm: NVRTC could not compile " + request.file_name + " (" +
                                                 nvrtcGetErrorString(compiled) + ")\noptions: " +
                                                 joined(request.options) + "\nlog:\n" + cubin.log);
    std::size_t size = 0;
    JITGEMM_NVRTC_CHECK(nvrtcGetCUBINSize(*handle, &size));
    cubin.image.resize(size);
    JITGEMM_NVRTC_CHECK(nvrtcGetCUBIN(*handle, cubin.image.data()));
    cubin.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return cubin;
}

const std::string& nvrtc_version() {
    static const std::string version = [] {
        int major = 0, minor = 0;
        if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return std::string("unknown");
        return std::to_string(major) + "." + std::to_string(minor);
    }();
    return version;
}

const std::vector<int>& nvrtc_supported_sms() {
    static const std::vector<int> sms = [] {
        int count = 0;
        std::vector<int> out;
        if (nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) return out;
        out.resize(static_cast<std::size_t>(count));
        if (nvrtcGetSupportedArchs(out.data()) != NVRTC_SUCCESS) out.clear();
        return out;
    }();
    return sms;
}

void require_supported_arch(const std::string& arch) {
    // "sm_90a" -> 90
    std::string digits;
    for (const char c : arch)
        if (c >= '0' && c <= '9') digits += c;
    const int sm = digits.empty() ? -1 : std::stoi(digits);
    const auto& supported = nvrtc_supported_sms();
    if (std::find(supported.begin(), supported.end(), sm) == supported.end())
        throw Error(ErrorCode::Unsupported, "jitgemm: NVRTC " + nvrtc_version() + " cannot compile for " + arch +
                                                "; use a CUDA toolkit that supports this GPU");
}

std::optional<std::string> serialization_warning(const std::string& log) {
    // C7510 (a warning: serialized for a reason in the code) and C7511 (information: serialized for want of
    // registers for the wgmma pipeline) both mean instructions that wait for each other.
    std::size_t at = log.find("C7510");
    if (at == std::string::npos) at = log.find("C7511");
    if (at == std::string::npos) return std::nullopt;
    const std::size_t newline_before = log.rfind('\n', at);
    const std::size_t begin = newline_before == std::string::npos ? 0 : newline_before + 1;
    const std::size_t end = log.find('\n', at);  // npos: the line runs to the end
    return log.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::optional<PtxasResources> ptxas_resources(const std::string& log) {
    // "ptxas         .     96 bytes stack frame, 92 bytes spill stores, 92 bytes spill loads"
    // "ptxas info    : Used 168 registers, used 16 barriers"
    const std::size_t spill = log.find(" bytes spill stores");
    const std::size_t used = log.find("Used ");
    if (spill == std::string::npos || used == std::string::npos) return std::nullopt;
    const std::size_t number = log.rfind(' ', spill - 1) + 1;
    PtxasResources r;
    r.spilled_bytes = std::atoi(log.c_str() + number);
    r.registers = std::atoi(log.c_str() + used + 5);
    return r;
}

}  // namespace jitgemm
