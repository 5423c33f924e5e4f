// NaiveConfig's rules, names and launch shape.
#include "tuner/naive_config.h"

#include "tuner/config_text.h"
#include "tuner/resource_limits.h"

namespace jitgemm {

std::optional<Rejection> NaiveConfig::validate(const Problem& /*problem: every element type*/,
                                               const DeviceInfo& device) const {
    if (bm < 1 || bn < 1 || threads() % 32 != 0 || threads() > 1024)
        return Rejection{PruneRule::Knobs, "bm * bn must be a multiple of 32 between 32 and 1024"};
    return check_resources(device, threads(), estimated_registers(), shared_bytes(), false);
}

KnobDefines NaiveConfig::defines() const { return {{"NAIVE_BM", bm}, {"NAIVE_BN", bn}}; }

LaunchGeometry NaiveConfig::geometry(const Problem& p) const {
    return tile_grid((p.m + bm - 1) / bm, (p.n + bn - 1) / bn, threads(), 0);
}

std::string NaiveConfig::to_string() const { return "naive_" + config_text::format_numbers("", {bm, bn}); }

std::optional<NaiveConfig> NaiveConfig::parse(std::string_view name) {
    const auto fields = config_text::split_fields(name);
    if (fields.size() != 2 || fields[0] != "naive") return std::nullopt;
    const auto dims = config_text::parse_numbers(fields[1], "", 2);
    if (!dims) return std::nullopt;
    NaiveConfig c;
    c.bm = (*dims)[0];
    c.bn = (*dims)[1];
    return c;
}

}  // namespace jitgemm
