// The miss path of jitgemm::gemm: choose the configuration (requested or heuristic), check it against the device,
// specialize, compile with NVRTC and load. (The tuner and the SQLite cache slot in here.)
#pragma once

#include <cuda.h>

#include <memory>
#include <string>

#include "dispatch/loaded_kernel.h"
#include "jitgemm/gemm.h"
#include "problem/problem.h"
#include "tuner/any_config.h"

namespace jitgemm {

struct BuiltKernel {
    std::shared_ptr<const LoadedKernel> kernel;
    ServedBy served_by = ServedBy::HeuristicDefault;
};

// The configuration a call runs with: `requested` parsed and checked, or the heuristic default. Throws
// Error(InvalidArgument) for a name no family parses, Error(Unsupported) for one the device cannot run.
AnyConfig choose_config(const Problem& problem, const DeviceInfo& device, const std::string& requested);

// Builds the kernel in `context`, which must be current.
BuiltKernel build_kernel(CUcontext context, const Problem& problem, const std::string& requested_config);

}  // namespace jitgemm
