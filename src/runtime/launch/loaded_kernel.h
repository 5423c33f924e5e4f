// LoadedKernel: a cubin loaded into a context, its function and launch shape — what the hot path launches.
#pragma once

#include <memory>
#include <string>

#include "runtime/driver/driver_handles.h"
#include "runtime/launch/launch_description.h"

namespace jitgemm {

struct LoadedKernel {
    driver::ModuleHandle module;
    CUfunction function = nullptr;
    // jg_pack (or jg_pack_tiles for copies laid out tile by tile), in the same module, when geometry.packs is not
    // empty.
    CUfunction pack_function = nullptr;
    unsigned pack_wave_blocks = 0;       // jg_pack blocks the device holds at once: its launches take no more
    LaunchGeometry geometry;
    std::string config_name;
    int registers = 0;    // per thread, from the driver
    int local_bytes = 0;  // per thread; > 0 means the compiler spilled
    // Compute capability 9.0 or later: the GEMM after a pack launch is launched as its programmatic dependent, so
    // it starts while the pack's last blocks run (kernel_sources/jg_pack.cuh).
    bool programmatic_launch = false;
};

// Loads `image` into the current context, finds `symbol`, and opts the function in to its dynamic shared memory
// when that is above the default limit.
std::shared_ptr<const LoadedKernel> load_kernel(const std::string& image, const std::string& symbol,
                                                const LaunchGeometry& geometry, const std::string& config_name);

// Enqueues the kernel: every family takes (A, B, C, alpha, beta). A kernel that packs operands or needs scratch
// (split-K) gets a stream-ordered workspace: the scratch's counters are zeroed, the pack launch runs, then the GEMM
// on the packed copies (on Hopper overlapping the pack's tail: programmatic_launch).
void launch_kernel(const LoadedKernel& kernel, CUstream stream, const void* a, const void* b, void* c, float alpha,
                   float beta);

}  // namespace jitgemm
