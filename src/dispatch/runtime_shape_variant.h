// Serving a problem that has no tuned entry without compiling for it: the run-time-shape variant (Problem::
// runtime_dim) of a configuration tuned for a nearby problem of the same layer (dispatch/nearest_problem.h): the one
// expected fastest at the problem's size.
// One binary per variant serves every size along its run-time dimension: it is loaded once per context and shared by
// the kernels of all those sizes, each with its own launch shape.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cache/cache_stack.h"
#include "dispatch/nearest_problem.h"
#include "runtime/device/device_info.h"
#include "runtime/launch/loaded_kernel.h"
#include "runtime/problem/problem.h"
#include "tuner/families/registry.h"

namespace jitgemm {

struct VariantKernel {
    std::shared_ptr<const LoadedKernel> kernel;  // launches `problem` (the call's sizes)
    std::string why;                             // for the log: which variant, tuned for which problem
};

// A kernel that could lend its variant: a nearby tuned problem's winner, or another candidate its search measured.
struct Lender {
    AnyConfig config;
    NearbyProblem nearby;
    double time_ms = 0.0;  // measured on nearby.tuned (SelectionRecord or MeasurementRecord); 0 where unknown
    bool winner = true;    // a winner's variant may be compiled on the call path; another's serves only if stored
};

// `lenders` (nearest first) ordered by the time each is expected to take on `problem`: its measured time on its own
// problem, scaled by the cost model's estimate for `problem` over its estimate there. The measurement carries what
// the model gets wrong of a kernel, the model what changes with the size (tiles, waves): a kernel tuned for 64 rows
// takes two tile rows at 65 and about twice the time, where one tuned for 256 rows, further away, still takes one.
// Equals keep their order, and those without a time come last.
std::vector<Lender> fastest_first(std::vector<Lender> lenders, const Problem& problem, const DeviceInfo& device);

// The measured candidates of a search whose variants `jitgemm tune` stores beside its winner's, for the sizes between
// tuned ones: for each of a few sizes around the tuned one along `runtime_dim` (half, two thirds, three halves and
// twice it), the candidate expected fastest there (fastest_first over the winner and every candidate that passed),
// where that is not the winner and its knobs take a variant; each once. Near a tuned size whose winner's tiles just
// fill the SMs, another tile can run the next size in fewer waves (1058 tokens: 192 x 128 tiles where the 1024-token
// winner's 256 x 128 take two waves).
std::vector<AnyConfig> neighbour_variants(const Problem& tuned, std::uint8_t runtime_dim, const AnyConfig& winner,
                                          double winner_ms, const std::vector<cache::MeasurementRecord>& measured,
                                          const DeviceInfo& device);

// The variant that can compute `problem` (the family's checks with the run-time dimension set, so knobs sized by the
// problem — split K, packed copies — are passed over), among those the nearest tuned problems of its layer lend —
// their winners', and the stored ones of other candidates their searches measured — of the kernel expected fastest
// at its size (fastest_first), in the current context. Its binary comes from the caches; only a winner's, where none
// is stored and `may_compile`, is compiled, once, and kept (so the next process finds it). nullopt when no tuned
// problem of the layer lends one.
std::optional<VariantKernel> nearest_tuned_variant(const Problem& problem, const DeviceInfo& device,
                                                   bool may_compile);

// Records `problem` as a size served untuned in this process, so that later sizes of its layer know which of m and n
// varies (default_variant).
void remember_untuned_size(const Problem& problem);

// The configuration of the heuristic default's variant along `runtime_dim` for `problem`: the default of the variant
// problem, where it is of the family the exact problem's default is of; nullopt otherwise. Two layers can look like
// one whose other size varies (fp32 decode steps of 16 tokens through weights of 4096 and of 14336 rows: the same n
// and k, m apart), and the default along that size may be another family, far slower than the exact default: run
// with JITGEMM_RUNTIME_SHAPES=on, 1-16 x 4096 x 4096 fp32 steps were served by regblock's variant in 163 us where the
// decode default takes 28-46 (session 30, H100). The exact default is compiled for such a problem instead.
std::optional<AnyConfig> default_variant_config(const Problem& problem, std::uint8_t runtime_dim,
                                                const DeviceInfo& device);

// The heuristic default's run-time-shape variant for `problem`, along the size in which it differs from a size of
// its layer served untuned before in this process (remember_untuned_size); nullopt where there is none, or the default
// has no variant of the exact default's family (default_variant_config). As nearest_tuned_variant, compiled (and
// checked) only where it is not stored and `may_compile`.
std::optional<VariantKernel> default_variant(const Problem& problem, const DeviceInfo& device, bool may_compile);

// The run-time-shape variant of `config` for `problem` along `runtime_dim`, loaded (or found loaded) in the current
// context, with `problem`'s launch shape. Its binary comes from `caches`, or where `may_compile` is compiled, checked
// against the reference family at `problem`'s size (the tuner's check) and only then kept there; nullptr when it is
// not stored and compiling is not allowed, or when it failed the check. The caller has checked that the
// configuration computes the variant (validate with runtime_dim set). For `jitgemm tune` too, which stores the variants
// of the winners of a range of sizes.
std::shared_ptr<const LoadedKernel> runtime_shape_kernel(const AnyConfig& config, const Problem& problem,
                                                         std::uint8_t runtime_dim, const DeviceInfo& device,
                                                         const cache::CacheStack& caches, bool may_compile);

}  // namespace jitgemm
