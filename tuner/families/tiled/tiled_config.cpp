// The tiled family's rules, names, launch, search and cost.
#include "tuner/families/tiled/tiled_config.h"

#include "tuner/families/common/config_text.h"
#include "tuner/families/common/resource_limits.h"

namespace jitgemm {

std::optional<Rejection> TiledConfig::validate(const Problem& problem, const DeviceInfo& device) const {
    if (const auto rejection = require_fp32_inputs_and_output(problem)) return rejection;
    if (t < 2 || t > 32) return Rejection{PruneRule::Knobs, "t must be between 2 and 32"};
    return check_resources(device, threads(), estimated_registers(), shared_bytes(), false);
}

KnobDefines TiledConfig::defines() const { return {{"TILED_T", t}}; }

LaunchDescription TiledConfig::launch(const Problem& p) const {
    return tile_grid((p.m + t - 1) / t, (p.n + t - 1) / t, threads(), 0, p.batch);
}

std::string TiledConfig::to_string() const { return "tiled_" + config_text::format_numbers("t", {t}); }

std::optional<TiledConfig> TiledConfig::parse(std::string_view name) {
    const auto fields = config_text::family_fields(name, kName);
    if (!fields || fields->size() != 1) return std::nullopt;
    const auto t = config_text::parse_numbers((*fields)[0], "t", 1);
    if (!t) return std::nullopt;
    TiledConfig c;
    c.t = (*t)[0];
    return c;
}

std::vector<TiledConfig> TiledConfig::enumerate(const Problem& p, const DeviceInfo& /*device*/) {
    if (!is_simt_problem(p)) return {};
    std::vector<TiledConfig> out;
    for (const int t : {8, 16, 32}) {
        TiledConfig c;
        c.t = t;
        out.push_back(c);
    }
    return out;
}

CostEstimate TiledConfig::estimate_cost(const Problem& p, const DeviceInfo& device,
                                        const DeviceCeilings& ceilings) const {
    return estimate_simt_cost({t, t, t, threads(), estimated_registers(), shared_bytes(), 1.0 / 4.0, 1.1}, p, device,
                              ceilings);
}

std::optional<TiledConfig> TiledConfig::heuristic_default(const Problem& p, const DeviceInfo& device) {
    if (!is_simt_problem(p) || TiledConfig{}.validate(p, device)) return std::nullopt;
    return TiledConfig{};
}

}  // namespace jitgemm
