// TiledConfig's rules, names and launch shape.
#include "tuner/tiled_config.h"

#include "tuner/config_text.h"
#include "tuner/resource_limits.h"

namespace jitgemm {

std::optional<Rejection> TiledConfig::validate(const Problem& problem, const DeviceInfo& device) const {
    if (const auto rejection = require_fp32_inputs_and_output(problem)) return rejection;
    if (t < 2 || t > 32) return Rejection{PruneRule::Knobs, "t must be between 2 and 32"};
    return check_resources(device, threads(), estimated_registers(), shared_bytes(), false);
}

KnobDefines TiledConfig::defines() const { return {{"TILED_T", t}}; }

LaunchGeometry TiledConfig::geometry(const Problem& p) const {
    return tile_grid((p.m + t - 1) / t, (p.n + t - 1) / t, threads(), 0);
}

std::string TiledConfig::to_string() const { return "tiled_" + config_text::format_numbers("t", {t}); }

std::optional<TiledConfig> TiledConfig::parse(std::string_view name) {
    const auto fields = config_text::split_fields(name);
    if (fields.size() != 2 || fields[0] != "tiled") return std::nullopt;
    const auto t = config_text::parse_numbers(fields[1], "t", 1);
    if (!t) return std::nullopt;
    TiledConfig c;
    c.t = (*t)[0];
    return c;
}

}  // namespace jitgemm
