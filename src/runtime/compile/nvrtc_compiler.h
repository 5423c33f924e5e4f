// NVRTC: compiles a KernelProgram straight to a cubin for its real target (no PTX, no driver JIT). A rejected
// program throws Error(CompileError) whose message carries the NVRTC log and the options.
//
// Where NVRTC runs: in a compile worker process when one is at hand (runtime/compile/compile_workers.h), else in this
// process. One process's NVRTC compiles do not run in parallel beyond about two at once (16 threads of a 16-core
// machine compiled 5 times slower each than one thread, 16 processes 1.2 times: bench/results/2026-12-05-h100-s26.md),
// and a search is mostly waiting for compiles, so the tuner's compile threads each hand theirs to a worker.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/compile/kernel_program.h"

namespace jitgemm {

struct Cubin {
    std::string image;  // the ELF, as bytes
    std::string log;    // NVRTC's log (warnings), possibly empty
    double seconds = 0.0;
};

// Everything NVRTC is given for one compile: what a worker process needs, and all it gets (so its cubin depends on
// nothing of its own but its NVRTC, which the pool checks is this process's).
struct NvrtcRequest {
    std::string file_name;
    std::string source;
    std::vector<std::string> options;
    std::vector<std::pair<std::string, std::string>> headers;  // name as #include-d, text
};

// The request for `program`: its source and options, and every embedded kernel source as a header.
NvrtcRequest nvrtc_request(const KernelProgram& program);

class CompileAbandonment;  // runtime/compile/compile_workers.h

// Compiles in a worker where one is at hand (its image checked as the cache checks a stored one:
// cache/cubin_check.h), else in this process.
Cubin compile_to_cubin(const KernelProgram& program);

// compile_to_cubin, but throws Error(CompileError) instead once `abandonment` is abandoned (a worker's compile is
// ended at once; one in this process runs to its end): a search's compiles.
Cubin compile_unless_abandoned(const KernelProgram& program, CompileAbandonment& abandonment);

// Compiles in this process, whatever workers there are.
Cubin compile_in_this_process(const NvrtcRequest& request);

// The line of a compile log where ptxas says it serialized wgmma instructions (warning C7510, or information C7511
// where the wgmma pipeline lacks registers: the kernel is correct but its Tensor Core instructions wait for each
// other), or nullopt. The tuner rejects such a candidate.
std::optional<std::string> serialization_warning(const std::string& log);

// What ptxas reports of the kernel in a log compiled with "--ptxas-options=-v" (tests and bench/compile_scan ask for
// it; the tuner reads spills from the loaded kernel instead): the bytes it spilled to local memory and the registers
// per thread it used, or nullopt where the log does not say.
struct PtxasResources {
    int spilled_bytes = 0;
    int registers = 0;
};
std::optional<PtxasResources> ptxas_resources(const std::string& log);

// NVRTC compiles of GEMM kernels this process has run (successful or not): what "served without compiling" is
// checked against. Support kernels (KernelProgram::support: the L2 flush a bench or search times with, compiled once
// per process) are not counted: a bench of 200 sizes all served by stored kernels said "1 NVRTC compiles", the flush.
std::uint64_t nvrtc_compile_count();

// "13.0"
const std::string& nvrtc_version();

// The SM numbers this NVRTC can compile for (e.g. 75, 80, ..., 90, 100, 120).
const std::vector<int>& nvrtc_supported_sms();

// Throws Error(Unsupported) when NVRTC cannot target `arch` ("sm_90a").
void require_supported_arch(const std::string& arch);

}  // namespace jitgemm
