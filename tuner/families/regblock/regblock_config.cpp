// The register-blocked family's rules, names and launch.
#include "tuner/families/regblock/regblock_config.h"

#include <algorithm>

#include "tuner/families/common/config_text.h"
#include "tuner/families/common/resource_limits.h"

namespace jitgemm {
namespace {

bool valid_thread_tile(int t) { return t == 1 || t == 2 || (t % 4 == 0 && t <= 16); }

}  // namespace

int RegBlockConfig::estimated_registers() const {
    const int staged = threads() > 0 ? (bm * bk + bn * bk) / threads() : 0;
    const int main_loop = tm * tn + tm + tn + staged + 24;
    if (splits == 1) return main_loop;
    // A split tile's last block adds up one column at a time: its accumulators stay live while every split's float4
    // runs of that column (splits x tm / 4 of them) are loaded at once (common/jg_split_k.cuh, partials::sum_row).
    return std::max(main_loop, tm * tn + splits * tm + 24);
}

std::optional<Rejection> RegBlockConfig::validate(const Problem& problem, const DeviceInfo& device) const {
    if (const auto rejection = require_fp32_inputs_and_output(problem)) return rejection;
    if (!valid_thread_tile(tm) || !valid_thread_tile(tn))
        return Rejection{PruneRule::Knobs, "tm and tn must be 1, 2, 4, 8, 12 or 16"};
    if (bm < 1 || bn < 1 || bk < 1 || bm > 256 || bn > 256 || bk > 64)
        return Rejection{PruneRule::Knobs, "bm and bn must be 1..256 and bk 1..64"};
    if (bm % tm != 0 || bn % tn != 0) return Rejection{PruneRule::Knobs, "tm must divide bm and tn divide bn"};
    const int t = threads();
    if (t < 32 || t > 1024 || t % 32 != 0)
        return Rejection{PruneRule::Knobs, "(bm/tm)*(bn/tn) = " + std::to_string(t) +
                                               " threads must be a multiple of 32 between 32 and 1024"};
    if (vec != 1 && vec != 2 && vec != 4) return Rejection{PruneRule::Knobs, "vec must be 1, 2 or 4"};
    if (bm % vec != 0 || bn % vec != 0 || bk % vec != 0)
        return Rejection{PruneRule::Knobs, "vec must divide bm, bn and bk"};
    if ((bm * bk / vec) % t != 0 || (bn * bk / vec) % t != 0)
        return Rejection{PruneRule::Knobs, "each thread must load the same whole number of vectors of each tile"};
    if (stages != 1 && stages != 2) return Rejection{PruneRule::Knobs, "stages must be 1 or 2"};
    if (group < 1 || group > 64) return Rejection{PruneRule::Knobs, "group must be 1..64"};
    if (splits < 1 || splits > 16) return Rejection{PruneRule::Knobs, "splits must be 1..16"};
    if (splits > 1 && tm % 4 != 0)
        return Rejection{PruneRule::Knobs,
                         "split-K moves partial sums in runs of four rows: tm must be 4, 8, 12 or 16"};
    if (splits > 1 && splits > (problem.k + bk - 1) / bk)
        return Rejection{PruneRule::Knobs, "every split needs a k tile: at most " +
                                               std::to_string((problem.k + bk - 1) / bk) + " splits"};
    if (splits > 1 && problem.batch > 1)
        return Rejection{PruneRule::Batch, "a batched problem's GEMMs do not split K (splits 1)"};
    return check_resources(device, t, estimated_registers(), shared_bytes(), true);
}

KnobDefines RegBlockConfig::defines() const {
    return {{"RB_BM", bm},   {"RB_BN", bn},         {"RB_BK", bk},       {"RB_TM", tm},         {"RB_TN", tn},
            {"RB_VEC", vec}, {"RB_STAGES", stages}, {"RB_GROUP", group}, {"RB_SPLITS", splits}};
}

LaunchDescription RegBlockConfig::launch(const Problem& p) const {
    const std::int64_t tiles = tiles_of_c(p, bm, bn);
    // The splits of a tile are consecutive blocks.
    LaunchDescription g = tile_grid(tiles * splits, 1, threads(), shared_bytes(), p.batch);
    if (splits > 1) {
        // As kernel_sources/regblock.cuh lays it out (common/jg_split_k.cuh): a zeroed arrival counter per tile,
        // padded to 256 bytes, then one bm x bn slot of fp32 partial sums per split of every tile.
        g.partial_sums_zeroed_bytes = arrival_counter_bytes(tiles);
        g.partial_sums_bytes = g.partial_sums_zeroed_bytes + tiles * splits * std::int64_t{bm} * bn * 4;
    }
    return g;
}

std::string RegBlockConfig::kernel_identity(const Problem& p) const {
    RegBlockConfig c = *this;
    const int widest = std::max(std::min(4, p.align_a / 4), std::min(4, p.align_b / 4));
    c.vec = std::min(c.vec, widest);
    return c.to_string();
}

std::string RegBlockConfig::to_string() const {
    using config_text::format_numbers;
    return "regblock_" + format_numbers("", {bm, bn, bk}) + "_" + format_numbers("t", {tm, tn}) + "_" +
           format_numbers("v", {vec}) + "_" + format_numbers("s", {stages}) + "_" + format_numbers("g", {group}) +
           (splits != 1 ? "_" + format_numbers("k", {splits}) : "");
}

std::optional<RegBlockConfig> RegBlockConfig::parse(std::string_view name) {
    using config_text::parse_numbers;
    const auto fields = config_text::family_fields(name, kName);
    if (!fields || (fields->size() != 5 && fields->size() != 6)) return std::nullopt;
    const auto block = parse_numbers((*fields)[0], "", 3);
    const auto thread = parse_numbers((*fields)[1], "t", 2);
    const auto vec = parse_numbers((*fields)[2], "v", 1);
    const auto stages = parse_numbers((*fields)[3], "s", 1);
    const auto group = parse_numbers((*fields)[4], "g", 1);
    if (!block || !thread || !vec || !stages || !group) return std::nullopt;
    int split_count = 1;
    if (fields->size() == 6) {  // "_k<splits>" is written only where it is not 1, so "_k1" is not a canonical name
        const auto splits = parse_numbers((*fields)[5], "k", 1);
        if (!splits || (*splits)[0] == 1) return std::nullopt;
        split_count = (*splits)[0];
    }
    RegBlockConfig c;
    c.bm = (*block)[0];
    c.bn = (*block)[1];
    c.bk = (*block)[2];
    c.tm = (*thread)[0];
    c.tn = (*thread)[1];
    c.vec = (*vec)[0];
    c.stages = (*stages)[0];
    c.group = (*group)[0];
    c.splits = split_count;
    return c;
}

}  // namespace jitgemm
