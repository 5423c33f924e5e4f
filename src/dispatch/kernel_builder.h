// The miss path of jitgemm::gemm, in order: a requested configuration (compiled, or its cubin from the cache); the
// scaling kernel for k = 0; the tuned entry of the cache stack (no compile); else by policy — tune now, launch the
// heuristic default and tune in the background, or launch the heuristic default and record the problem as untuned.
#pragma once

#include <memory>
#include <string>

#include "dispatch/kernel_store.h"
#include "jitgemm/gemm.h"
#include "tuner/families/registry.h"
#include "tuner/tune_options.h"

namespace jitgemm {

struct BuiltKernel {
    std::shared_ptr<const LoadedKernel> kernel;
    ServedBy served_by = ServedBy::HeuristicDefault;
    std::string why;  // for the log: where the kernel came from, or why it is untuned
};

// The configuration a call with an explicit or no request runs untuned: `requested` parsed and checked, or the
// heuristic default. Throws Error(InvalidArgument) for a name no family parses, Error(Unsupported) for one the
// device cannot run.
AnyConfig choose_config(const Problem& problem, const DeviceInfo& device, const std::string& requested);

// The search of key.problem, once across the processes of this machine (tuner/search_turns.h): when another
// process is searching it, waits for that search and loads its winner from the cache instead; tunes when there is
// none. {nullptr, HeuristicDefault} when no candidate passed or the other search outlasted the wait.
BuiltKernel search_once(const KernelKey& key, const TuneOptions& options);

// Builds the kernel of `key` in key.context, which must be current. For a key built during a capture, no policy
// tunes: the tuned entry or the heuristic default serves, compiled on the host if need be.
BuiltKernel build_kernel(const KernelKey& key, const GemmOptions& options);

}  // namespace jitgemm
