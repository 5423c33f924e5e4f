// Dispatch of the family-independent operations over AnyConfig.
#include "tuner/any_config.h"

namespace jitgemm {

Family family_of(const AnyConfig& config) {
    return std::visit([](const auto& c) { return std::decay_t<decltype(c)>::kFamily; }, config);
}

std::string to_string(const AnyConfig& config) {
    return std::visit([](const auto& c) { return c.to_string(); }, config);
}

std::optional<AnyConfig> parse_config(std::string_view name) {
    if (auto c = NaiveConfig::parse(name)) return AnyConfig{*c};
    if (auto c = TiledConfig::parse(name)) return AnyConfig{*c};
    if (auto c = RegBlockConfig::parse(name)) return AnyConfig{*c};
    if (auto c = MmaConfig::parse(name)) return AnyConfig{*c};
    return std::nullopt;
}

std::optional<Rejection> validate(const AnyConfig& config, const Problem& problem, const DeviceInfo& device) {
    return std::visit([&](const auto& c) { return c.validate(problem, device); }, config);
}

KnobDefines knob_defines(const AnyConfig& config) {
    return std::visit([](const auto& c) { return c.defines(); }, config);
}

Problem kernel_problem(const AnyConfig& config, const Problem& problem) {
    if (const auto* mma = std::get_if<MmaConfig>(&config)) return mma->kernel_problem(problem);
    return problem;
}

KernelProgram kernel_program(const AnyConfig& config, const Problem& problem, const std::string& arch) {
    const Family family = family_of(config);
    const FamilyKernel kernel{std::string(source_header(family)), std::string(kernel_symbol(family)),
                              to_string(config), knob_defines(config)};
    return make_kernel_program(kernel_problem(config, problem), kernel, arch);
}

LaunchGeometry launch_geometry(const AnyConfig& config, const Problem& problem) {
    return std::visit([&](const auto& c) { return c.geometry(problem); }, config);
}

}  // namespace jitgemm
