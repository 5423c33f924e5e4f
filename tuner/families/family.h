// What a kernel family is to the generic code (the tuner, dispatch, `jitgemm configs`, the cache's display): one
// Config type in its own folder (tuner/families/<name>/) beside its kernel in kernel_sources/, carrying every piece
// below. registry.h lists the types; check_family<F>() refuses at compile time, with a sentence naming the piece, a
// type that lacks one, so a family cannot be registered half done.
//
// Identity and documentation (static constexpr std::string_view):
//   kName          "regblock": the first field of its configuration names, and its name in logs and the cache
//   kSourceHeader  the embedded header of kernel_sources/ that holds its kernel, "regblock.cuh"
//   kKernelSymbol  the kernel's extern "C" symbol, "jg_regblock"
//   kNameFormat    how its configuration names are written, for `jitgemm configs`
//   kDescription   its knobs, one line each, for `jitgemm configs`
// Names:
//   std::string to_string() const;  static std::optional<F> parse(std::string_view);  (round-trip tested)
// What it can compute (CUTLASS's can_implement; the only place its constraints live):
//   std::optional<Rejection> validate(const Problem&, const DeviceInfo&) const;  nullopt: it can
// What its kernel needs:
//   KnobDefines defines() const;                       the knobs as -D macros of its kernel
//   Problem kernel_problem(const Problem&) const;      the problem its kernel is specialized for (packed operands
//                                                      take their copy's leading dimension and alignment)
//   LaunchDescription launch(const Problem&) const;       grid, block, shared memory, packs, workspace
//   std::string kernel_identity(const Problem&) const; equal for two configurations that build the same kernel
//                                                      for this problem (so the search measures it once)
// The search:
//   static std::vector<F> enumerate(const Problem&, const DeviceInfo&);  its candidates (none for a problem it
//                                                                        is not searched for)
//   std::vector<F> refinements(const Problem&, const DeviceInfo&) const; variants of a measured winner
//   CostEstimate estimate_cost(const Problem&, const DeviceInfo&, const DeviceCeilings&) const;
//   static std::optional<F> heuristic_default(const Problem&, const DeviceInfo&);  its untuned choice, if any
//   friend bool operator==(const F&, const F&);
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/compile/kernel_program.h"
#include "runtime/device/device_ceilings.h"
#include "runtime/device/device_info.h"
#include "runtime/launch/launch_description.h"
#include "runtime/problem/problem.h"
#include "tuner/families/common/cost_model.h"
#include "tuner/families/common/rejection.h"

namespace jitgemm::family_checks {

// One detector per piece: value is true when F has it with the signature above.
#define JITGEMM_FAMILY_PIECE(name, expression)                                                   \
    template <typename F, typename = void>                                                       \
    struct name : std::false_type {};                                                           \
    template <typename F>                                                                        \
    struct name<F, std::void_t<decltype(expression)>> : std::true_type {};

JITGEMM_FAMILY_PIECE(has_name, std::string_view(F::kName))
JITGEMM_FAMILY_PIECE(has_source_header, std::string_view(F::kSourceHeader))
JITGEMM_FAMILY_PIECE(has_kernel_symbol, std::string_view(F::kKernelSymbol))
JITGEMM_FAMILY_PIECE(has_name_format, std::string_view(F::kNameFormat))
JITGEMM_FAMILY_PIECE(has_description, std::string_view(F::kDescription))
JITGEMM_FAMILY_PIECE(has_to_string, std::string(std::declval<const F&>().to_string()))
JITGEMM_FAMILY_PIECE(has_parse, std::optional<F>(F::parse(std::string_view())))
JITGEMM_FAMILY_PIECE(has_validate, std::optional<Rejection>(std::declval<const F&>().validate(
                                       std::declval<const Problem&>(), std::declval<const DeviceInfo&>())))
JITGEMM_FAMILY_PIECE(has_defines, KnobDefines(std::declval<const F&>().defines()))
JITGEMM_FAMILY_PIECE(has_kernel_problem, Problem(std::declval<const F&>().kernel_problem(std::declval<const Problem&>())))
JITGEMM_FAMILY_PIECE(has_launch, LaunchDescription(std::declval<const F&>().launch(std::declval<const Problem&>())))
JITGEMM_FAMILY_PIECE(has_kernel_identity,
                     std::string(std::declval<const F&>().kernel_identity(std::declval<const Problem&>())))
JITGEMM_FAMILY_PIECE(has_enumerate, std::vector<F>(F::enumerate(std::declval<const Problem&>(),
                                                                std::declval<const DeviceInfo&>())))
JITGEMM_FAMILY_PIECE(has_refinements, std::vector<F>(std::declval<const F&>().refinements(
                                          std::declval<const Problem&>(), std::declval<const DeviceInfo&>())))
JITGEMM_FAMILY_PIECE(has_estimate_cost,
                     CostEstimate(std::declval<const F&>().estimate_cost(std::declval<const Problem&>(),
                                                                         std::declval<const DeviceInfo&>(),
                                                                         std::declval<const DeviceCeilings&>())))
JITGEMM_FAMILY_PIECE(has_heuristic_default, std::optional<F>(F::heuristic_default(std::declval<const Problem&>(),
                                                                                  std::declval<const DeviceInfo&>())))
JITGEMM_FAMILY_PIECE(has_equality, bool(std::declval<const F&>() == std::declval<const F&>()))
#undef JITGEMM_FAMILY_PIECE

}  // namespace jitgemm::family_checks

namespace jitgemm {

// Compiles only for a complete family; registry.h applies it to every registered type.
template <typename F>
constexpr bool check_family() {
    using namespace family_checks;
    static_assert(has_name<F>::value, "a kernel family needs kName, the first field of its configuration names");
    static_assert(has_source_header<F>::value, "a kernel family needs kSourceHeader, its kernel's embedded header");
    static_assert(has_kernel_symbol<F>::value, "a kernel family needs kKernelSymbol, its kernel's extern \"C\" name");
    static_assert(has_name_format<F>::value, "a kernel family needs kNameFormat, for `jitgemm configs`");
    static_assert(has_description<F>::value, "a kernel family needs kDescription (its knobs), for `jitgemm configs`");
    static_assert(has_to_string<F>::value, "a kernel family needs to_string(), its configuration's canonical name");
    static_assert(has_parse<F>::value, "a kernel family needs static parse(name), the inverse of to_string()");
    static_assert(has_validate<F>::value, "a kernel family needs validate(problem, device): can it compute it?");
    static_assert(has_defines<F>::value, "a kernel family needs defines(): its knobs as -D macros");
    static_assert(has_kernel_problem<F>::value, "a kernel family needs kernel_problem(problem)");
    static_assert(has_launch<F>::value, "a kernel family needs launch(problem): grid, block, packs, workspace");
    static_assert(has_kernel_identity<F>::value, "a kernel family needs kernel_identity(problem), for duplicates");
    static_assert(has_enumerate<F>::value, "a kernel family needs static enumerate(problem, device): its search");
    static_assert(has_refinements<F>::value, "a kernel family needs refinements(problem, device)");
    static_assert(has_estimate_cost<F>::value, "a kernel family needs estimate_cost(problem, device, ceilings)");
    static_assert(has_heuristic_default<F>::value, "a kernel family needs static heuristic_default(problem, device)");
    static_assert(has_equality<F>::value, "a kernel family needs operator==");
    return true;
}

}  // namespace jitgemm
