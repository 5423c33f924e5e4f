// KernelProgram: everything NVRTC needs to build the kernel of one (Problem, Config) for one target — the source,
// the options with the problem's and the knobs' -D constants — and the cubin key that names its binary.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "runtime/problem/problem.h"

namespace jitgemm {

// Knob macros of a family as NVRTC -D definitions, e.g. {"RB_BM", 128}.
using KnobDefines = std::vector<std::pair<std::string, long long>>;

struct KernelProgram {
    std::string file_name;      // shown in NVRTC logs: "<config>__<problem key>.cu"
    std::string source;         // the family's header, #include-d
    std::string source_hash;    // of that header and what it includes (kernel_sources.h: source_hash)
    std::string kernel_symbol;  // extern "C" name of the kernel
    std::string arch;           // "sm_90a"
    std::vector<std::string> options;
    std::string config_name;
    // A support kernel (make_support_program: the L2 flush, verification, the ceilings' probes), no GEMM: compiled
    // once per process for measuring and checking, so not among the compiles statistics() counts.
    bool support = false;

    // What makes the binary stale if it changes: the source hash, the config, the arch, the NVRTC version and every
    // option (the problem is in the -D options). 32 hex digits (XXH3-128).
    std::string cubin_key() const;
};

// What a kernel family contributes to a program: the embedded header that holds its kernel, the kernel's extern "C"
// symbol, the configuration's canonical name and its knob defines.
struct FamilyKernel {
    std::string source_header;  // "regblock.cuh", "mma_sync/mma_sync.cuh"
    std::string kernel_symbol;  // "jg_regblock"
    std::string config_name;
    KnobDefines knobs;
};

// The program of `kernel` specialized for `problem` (the problem's fields become -D constants beside the knobs), or,
// with sizes_at_run_time, for every problem that differs from it only in its sizes and leading dimensions
// (Problem::defines_with_sizes_at_run_time; the naive family's reference form).
KernelProgram make_kernel_program(const Problem& problem, const FamilyKernel& kernel, const std::string& arch,
                                  bool sizes_at_run_time = false);

// The program of a support header of kernel_sources/ that is no GEMM family — "support/jg_verify.cuh" (the tuner's
// operand fill and result comparison), "support/jg_ceilings.cuh" (the roofline probes). Its module holds several
// kernels; kernel_symbol is `entry_kernel`, one of them, so that a stored cubin of it passes the cache's check that
// an image defines its row's kernel (cache/cubin_check.h), which refuses a row without one.
KernelProgram make_support_program(const std::string& header, const std::string& entry_kernel,
                                   const std::string& arch);

}  // namespace jitgemm
