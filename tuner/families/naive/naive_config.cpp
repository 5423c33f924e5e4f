// The naive family's rules, names, launch, search and cost.
#include "tuner/families/naive/naive_config.h"

#include "tuner/families/common/config_text.h"
#include "tuner/families/common/resource_limits.h"

namespace jitgemm {

std::optional<Rejection> NaiveConfig::validate(const Problem& /*problem: every element type*/,
                                               const DeviceInfo& device) const {
    if (bm < 1 || bn < 1 || threads() % 32 != 0 || threads() > 1024)
        return Rejection{PruneRule::Knobs, "bm * bn must be a multiple of 32 between 32 and 1024"};
    return check_resources(device, threads(), estimated_registers(), shared_bytes(), false);
}

KnobDefines NaiveConfig::defines() const { return {{"NAIVE_BM", bm}, {"NAIVE_BN", bn}}; }

LaunchDescription NaiveConfig::launch(const Problem& p) const {
    return tile_grid((p.m + bm - 1) / bm, (p.n + bn - 1) / bn, threads(), 0, p.batch);
}

std::string NaiveConfig::to_string() const { return "naive_" + config_text::format_numbers("", {bm, bn}); }

std::optional<NaiveConfig> NaiveConfig::parse(std::string_view name) {
    const auto fields = config_text::family_fields(name, kName);
    if (!fields || fields->size() != 1) return std::nullopt;
    const auto dims = config_text::parse_numbers((*fields)[0], "", 2);
    if (!dims) return std::nullopt;
    NaiveConfig c;
    c.bm = (*dims)[0];
    c.bn = (*dims)[1];
    return c;
}

std::vector<NaiveConfig> NaiveConfig::enumerate(const Problem& p, const DeviceInfo& /*device*/) {
    if (!is_simt_problem(p)) return {};
    std::vector<NaiveConfig> out;
    for (const auto& [bm, bn] : {std::pair{16, 16}, {32, 8}, {64, 4}}) {
        NaiveConfig c;
        c.bm = bm;
        c.bn = bn;
        out.push_back(c);
    }
    return out;
}

CostEstimate NaiveConfig::estimate_cost(const Problem& p, const DeviceInfo& device,
                                        const DeviceCeilings& ceilings) const {
    return estimate_simt_cost({bm, bn, 1, threads(), estimated_registers(), 0, 1.0 / 12.0, 1.0}, p, device,
                              ceilings);
}

std::optional<NaiveConfig> NaiveConfig::heuristic_default(const Problem& /*problem*/, const DeviceInfo& /*device*/) {
    return NaiveConfig{};
}

}  // namespace jitgemm
