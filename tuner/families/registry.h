// The registry of kernel families: AnyConfig, a candidate of any family, lists them — one line per family — and
// every family-independent operation the tuner, dispatch and the command need goes through it. Adding a family is its
// folder, its kernel source, its line below and its tests (docs/architecture.md has the checklist); check_family()
// rejects at compile time a family that lacks a piece (family.h lists them).
//
// Why a std::variant rather than an interface with virtual functions: a configuration is a small value that is
// compared, copied into candidate lists by the thousand, hashed by name and parsed from text; a variant keeps it a
// value with no allocation, and std::visit fails to compile for a family that lacks an operation.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "tuner/families/decode/decode_config.h"
#include "tuner/families/mma_sync/mma_sync_config.h"
#include "tuner/families/naive/naive_config.h"
#include "tuner/families/regblock/regblock_config.h"
#include "tuner/families/tiled/tiled_config.h"
#include "tuner/families/wgmma/wgmma_config.h"

namespace jitgemm {

// From the most general family to the most specialized: the untuned default is the first, from the end, that offers
// one for the problem.
using AnyConfig = std::variant<NaiveConfig,     // one thread per output; the GPU reference
                               TiledConfig,     // shared-memory tiles, fp32
                               RegBlockConfig,  // register-blocked outer products, fp32
                               MmaSyncConfig,   // Tensor Cores through mma.sync: fp16, bf16, TF32
                               WgmmaConfig,     // Hopper: TMA-fed wgmma, warp-specialized, fp16 and bf16
                               DecodeConfig>;   // one side of C at most 64: one pass over the large operand

// The family the tuner verifies candidates against and that serves C = beta * C (k = 0): exact for every type.
using ReferenceConfig = NaiveConfig;

namespace registry_detail {
template <typename... F>
constexpr bool complete(const std::variant<F...>*) {
    return (check_family<F>() && ...);
}
template <typename Visit, typename... F>
void visit_each(Visit& visit, const std::variant<F...>*) {
    (visit(F{}), ...);
}
}  // namespace registry_detail

static_assert(registry_detail::complete(static_cast<const AnyConfig*>(nullptr)), "every family is complete");

// Calls visit(family_tag) for every registered family, in registry order; family_tag is a default-constructed
// configuration of that family (its static pieces are reached through its type).
template <typename Visit>
void for_each_family(Visit&& visit) {
    registry_detail::visit_each(visit, static_cast<const AnyConfig*>(nullptr));
}

std::string_view family_name(const AnyConfig& config);
std::string to_string(const AnyConfig& config);
// Any family's canonical name; nullopt when no family parses it.
std::optional<AnyConfig> parse_config(std::string_view name);

// Why `config` cannot compute `problem` on `device` (element types, knobs, the device's limits), or nullopt.
std::optional<Rejection> validate(const AnyConfig& config, const Problem& problem, const DeviceInfo& device);
KnobDefines knob_defines(const AnyConfig& config);
LaunchDescription launch_description(const AnyConfig& config, const Problem& problem);
// Whether the configuration's blocks share tiles of C, their partial sums meeting in the workspace (split-K,
// stream-K): the candidates that pruning and the search's calibration treat apart.
bool shares_tiles(const AnyConfig& config, const Problem& problem);
// The problem the kernel is specialized for: `problem` itself, except where the config packs operands to an aligned
// copy first (their leading dimension and alignment are the copy's).
Problem kernel_problem(const AnyConfig& config, const Problem& problem);
// The NVRTC program of `config` for `problem` on `arch`: the family's kernel specialized for kernel_problem().
KernelProgram kernel_program(const AnyConfig& config, const Problem& problem, const std::string& arch);
// The GPU reference's program (ReferenceConfig) for `problem`: compiled with every size at run time, so that every
// problem of the same element types, layout, scalars, batch and index width shares its binary — the tuner's check of
// each new problem finds it in the cache instead of compiling it (0.5-0.9 s of a search's setup on the H100 machine).
KernelProgram reference_program(const Problem& problem, const std::string& arch);
std::string kernel_identity(const AnyConfig& config, const Problem& problem);
CostEstimate estimate_cost(const AnyConfig& config, const Problem& problem, const DeviceInfo& device,
                           const DeviceCeilings& ceilings);

// Every family's candidates for the problem, before pruning.
std::vector<AnyConfig> enumerate_candidates(const Problem& problem, const DeviceInfo& device);
// Variants of a measured winner worth measuring too (its family's refinements).
std::vector<AnyConfig> refinements(const AnyConfig& winner, const Problem& problem, const DeviceInfo& device);
// The configuration of a problem nobody has tuned: the reference family for k = 0 (the scaling kernel), else the
// first family from the end of the registry whose heuristic_default offers one.
AnyConfig heuristic_config(const Problem& problem, const DeviceInfo& device);

}  // namespace jitgemm
