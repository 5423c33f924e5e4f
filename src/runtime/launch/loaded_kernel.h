// LoadedKernel: a cubin loaded into a context, its function and launch shape — what the hot path launches.
#pragma once

#include <memory>
#include <string>

#include "runtime/driver/driver_handles.h"
#include "runtime/launch/kernel_args.h"
#include "runtime/launch/launch_description.h"

namespace jitgemm {

struct LoadedKernel {
    // Shared by the kernels of one run-time-shape variant, one per call size (with_launch), unloaded with the last.
    std::shared_ptr<const driver::ModuleHandle> module;
    CUfunction function = nullptr;
    // jg_pack (or jg_pack_tiles for copies laid out tile by tile, jg_pack_transpose where a copy is transposed), in
    // the same module, when launch.packs is not empty.
    CUfunction pack_function = nullptr;
    unsigned pack_wave_blocks = 0;       // pack blocks the device holds at once: its launches take no more
    LaunchDescription launch;
    std::string config_name;
    int registers = 0;    // per thread, from the driver
    int local_bytes = 0;  // per thread; > 0 means the compiler spilled
    // Clusters of launch.cluster blocks the device holds at once (cuOccupancyMaxActiveClusters: whole clusters go
    // to one GPC each, so this can be fewer than SMs / cluster size); 0 for a launch without clusters.
    int resident_clusters = 0;
    // Compute capability 9.0 or later: the GEMM after a pack launch is launched as its programmatic dependent, so
    // it starts while the pack's last blocks run (kernel_sources/common/jg_pack.cuh).
    bool programmatic_launch = false;
};

// "30 clusters of 4 resident, 32 launched" for a kernel launched in clusters (where fewer are resident than its grid
// holds, the rest run as a later wave; a grid-strided one is cut to those resident instead); "" without clusters.
std::string resident_clusters_text(const LoadedKernel& kernel);

// Loads `image` into the current context, finds `symbol`, and opts the function in to its dynamic shared memory
// when that is above the default limit.
std::shared_ptr<const LoadedKernel> load_kernel(const std::string& image, const std::string& symbol,
                                                const LaunchDescription& launch, const std::string& config_name);

// The same module and function with another launch shape: a run-time-shape variant's kernel for the sizes of another
// call (its grid, workspace and preparation are the call's). Raises the function's dynamic shared memory limit where
// the new launch needs more.
std::shared_ptr<const LoadedKernel> with_launch(const LoadedKernel& kernel, const LaunchDescription& launch);

// Enqueues the kernel with `args` (its workspace is filled in here). A kernel that packs operands or needs partial
// sums (split-K) gets its share of the stream's workspace: the counters are zeroed, the pack launch runs, then the
// GEMM on the packed copies (on Hopper overlapping the pack's tail: programmatic_launch). The family's preparation,
// if any, adds its parameters after the KernelArgs. The launch goes through cuLaunchKernelEx when the kernel runs in
// clusters or as a programmatic dependent, else through cuLaunchKernel.
void launch_kernel(const LoadedKernel& kernel, CUstream stream, KernelArgs args);

}  // namespace jitgemm
