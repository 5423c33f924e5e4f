// The family-independent operations, each a visit over AnyConfig or a walk over the registered families.
#include "tuner/families/registry.h"

#include <type_traits>

#include "cache/cache_records.h"

namespace jitgemm {
namespace {

template <typename F>
using family_t = std::decay_t<F>;

}  // namespace

std::string_view family_name(const AnyConfig& config) {
    return std::visit([](const auto& c) { return std::string_view(family_t<decltype(c)>::kName); }, config);
}

std::string to_string(const AnyConfig& config) {
    return std::visit([](const auto& c) { return c.to_string(); }, config);
}

std::optional<AnyConfig> parse_config(std::string_view name) {
    std::optional<AnyConfig> out;
    for_each_family([&](auto tag) {
        if (out) return;
        if (auto c = decltype(tag)::parse(name)) out = AnyConfig{*c};
    });
    return out;
}

std::optional<Rejection> validate(const AnyConfig& config, const Problem& problem, const DeviceInfo& device) {
    return std::visit([&](const auto& c) { return c.validate(problem, device); }, config);
}

KnobDefines knob_defines(const AnyConfig& config) {
    return std::visit([](const auto& c) { return c.defines(); }, config);
}

LaunchDescription launch_description(const AnyConfig& config, const Problem& problem) {
    return std::visit([&](const auto& c) { return c.launch(problem); }, config);
}

Problem kernel_problem(const AnyConfig& config, const Problem& problem) {
    return std::visit([&](const auto& c) { return c.kernel_problem(problem); }, config);
}

namespace {

// The kernel of `c` for a launch on `problem`, named `name`: the family's header and symbol, the knobs, and the one
// copy kernel its launch uses. A module holds only that one (common/jg_pack*.cuh), if any: compiled into every module,
// they took 60-80% of a candidate's compile (wgmma 1.9 s against 0.75 s, mma_sync 0.87 against 0.19).
template <typename Config>
FamilyKernel family_kernel(const Config& c, const Problem& problem, std::string name) {
    using F = family_t<Config>;
    KnobDefines defines = c.defines();
    defines.emplace_back("JG_PACKS", static_cast<int>(pack_kernel_of(c.launch(problem).packs)));
    return {std::string(F::kSourceHeader), std::string(F::kKernelSymbol), std::move(name), std::move(defines)};
}

}  // namespace

KernelProgram kernel_program(const AnyConfig& config, const Problem& problem, const std::string& arch) {
    return std::visit(
        [&](const auto& c) {
            // A run-time-shape variant's binary goes by its own name (cache/cache_records.h: kept without a selection).
            std::string name = c.to_string();
            if (problem.runtime_dim != 0)
                name += std::string(cache::kRuntimeVariantMarker) + (problem.runtime_dim == 1 ? "m" : "n");
            return make_kernel_program(c.kernel_problem(problem), family_kernel(c, problem, std::move(name)), arch);
        },
        config);
}

KernelProgram reference_program(const Problem& problem, const std::string& arch) {
    const ReferenceConfig reference{};
    Problem exact = problem.with_runtime_dim(0);
    // The reference reads and writes element by element, so it claims only the elements' own alignment: operands of
    // every alignment class share the binary too.
    exact.align_a = static_cast<std::uint8_t>(size_of(exact.a_type));
    exact.align_b = static_cast<std::uint8_t>(size_of(exact.b_type));
    exact.align_c = static_cast<std::uint8_t>(size_of(exact.c_type));
    // Named as a variant (cache/cache_records.h): no selection names it, and the cache keeps it.
    return make_kernel_program(
        exact,
        family_kernel(reference, exact, reference.to_string() + std::string(cache::kRuntimeVariantMarker) + "sizes"),
        arch, true);
}

bool shares_tiles(const AnyConfig& config, const Problem& problem) {
    return launch_description(config, problem).partial_sums_bytes > 0;
}

std::string kernel_identity(const AnyConfig& config, const Problem& problem) {
    return std::visit([&](const auto& c) { return c.kernel_identity(problem); }, config);
}

CostEstimate estimate_cost(const AnyConfig& config, const Problem& problem, const DeviceInfo& device,
                           const DeviceCeilings& ceilings) {
    return std::visit([&](const auto& c) { return c.estimate_cost(problem, device, ceilings); }, config);
}

std::vector<AnyConfig> enumerate_candidates(const Problem& problem, const DeviceInfo& device) {
    std::vector<AnyConfig> out;
    // The most specialized families first: on a tie in the cost model the earlier candidate ranks first.
    std::vector<std::vector<AnyConfig>> per_family;
    for_each_family([&](auto tag) {
        std::vector<AnyConfig> mine;
        for (auto& c : decltype(tag)::enumerate(problem, device)) mine.emplace_back(std::move(c));
        per_family.push_back(std::move(mine));
    });
    for (auto it = per_family.rbegin(); it != per_family.rend(); ++it)
        for (auto& c : *it) out.push_back(std::move(c));
    return out;
}

std::vector<AnyConfig> refinements(const AnyConfig& winner, const Problem& problem, const DeviceInfo& device) {
    return std::visit(
        [&](const auto& c) {
            std::vector<AnyConfig> out;
            for (auto& r : c.refinements(problem, device)) out.emplace_back(std::move(r));
            return out;
        },
        winner);
}

AnyConfig heuristic_config(const Problem& problem, const DeviceInfo& device) {
    if (problem.k == 0) return ReferenceConfig{};
    std::optional<AnyConfig> chosen;  // the last offer in registry order wins
    for_each_family([&](auto tag) {
        if (auto c = decltype(tag)::heuristic_default(problem, device)) chosen = AnyConfig{*c};
    });
    return chosen ? *chosen : AnyConfig{ReferenceConfig{}};
}

}  // namespace jitgemm
