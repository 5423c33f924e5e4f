// The register-blocked family's search space, refinements, cost estimate and untuned default.
#include <algorithm>
#include <array>
#include <cmath>

#include "tuner/families/common/resource_limits.h"
#include "tuner/families/regblock/regblock_config.h"

namespace jitgemm {
namespace {

RegBlockConfig regblock(int bm, int bn, int bk, int tm, int tn) {
    RegBlockConfig c;
    c.bm = bm;
    c.bn = bn;
    c.bk = bk;
    c.tm = tm;
    c.tn = tn;
    return c;
}

// Split-K counts worth trying for a block tile: only where the tiles alone are fewer than the SMs, up to two blocks
// per SM in all (more would multiply the search for little), each split keeping at least eight k tiles so that its
// main loop outlasts its share of the partial sums' trip through L2. fp32 decode and small-M shapes are the ones:
// 64 x 4096 x 4096 has 64 tiles of 64 x 64 for 132 SMs. Whether a split pays is the cost model's and the
// measurement's call.
std::vector<int> split_counts(const Problem& p, const DeviceInfo& device, int bm, int bn, int bk) {
    std::vector<int> out{1};
    if (p.batch > 1) return out;  // a batch's GEMMs fill the SMs by themselves (validate refuses splits)
    const std::int64_t tiles = tiles_of_c(p, bm, bn), k_tiles = (p.k + bk - 1) / bk;
    for (const int splits : {2, 3, 4, 6, 8})
        if (tiles * splits <= 2 * std::int64_t{device.sm_count} && k_tiles >= 8 * splits) out.push_back(splits);
    return out;
}

}  // namespace

std::vector<RegBlockConfig> RegBlockConfig::enumerate(const Problem& p, const DeviceInfo& device) {
    if (!is_simt_problem(p)) return {};
    std::vector<RegBlockConfig> out;
    for (const int bm : {32, 64, 128, 256})
        for (const int bn : {32, 64, 128, 256})
            for (const int bk : {8, 16, 32})
                for (const int splits : split_counts(p, device, bm, bn, bk))
                    for (const auto& [tm, tn] : {std::pair{4, 4}, {4, 8}, {8, 4}, {8, 8}, {8, 16}, {16, 8}}) {
                        RegBlockConfig c = regblock(bm, bn, bk, tm, tn);
                        c.splits = splits;
                        out.push_back(c);
                    }
    return out;
}

std::vector<RegBlockConfig> RegBlockConfig::refinements(const Problem& problem,
                                                        const DeviceInfo& /*device*/) const {
    std::vector<RegBlockConfig> out;
    for (const int g : {1, 4, 16}) {
        if (g == group || same_tile_order(problem, bm, bn, g, group)) continue;
        RegBlockConfig c = *this;
        c.group = g;
        out.push_back(c);
    }
    RegBlockConfig single = *this;
    single.stages = stages == 2 ? 1 : 2;
    out.push_back(single);
    if (vec == 4) {  // narrower loads can pay where 4-wide ones leave threads idle
        RegBlockConfig narrow = *this;
        narrow.vec = 2;
        out.push_back(narrow);
    }
    if (splits > 1) {  // the enumeration skips some counts (5, 7); a split winner tries its neighbours
        for (const int s : {splits - 1, splits + 1}) {
            RegBlockConfig c = *this;
            c.splits = s;  // validate() drops counts K cannot feed
            out.push_back(c);
        }
    }
    return out;
}

CostEstimate RegBlockConfig::estimate_cost(const Problem& p, const DeviceInfo& device,
                                           const DeviceCeilings& ceilings) const {
    const int va = std::min(vec, std::max(1, p.align_a / 4));
    const int vb = std::min(vec, std::max(1, p.align_b / 4));
    const double t = threads();
    const double ffma = tm * tn;
    const double fragments = std::ceil(tm / 4.0) + std::ceil(tn / 4.0);
    const double staging = (bm / (t * va) + bn / (t * vb)) * 2.0;  // load + store per run
    const double share = ffma / (ffma + fragments + staging + 2.0);
    return estimate_simt_cost({bm, bn, bk, threads(), estimated_registers(), shared_bytes(), share,
                               stages == 1 ? 1.15 : 1.0, splits},
                              p, device, ceilings);
}

std::optional<RegBlockConfig> RegBlockConfig::heuristic_default(const Problem& p, const DeviceInfo& device) {
    if (!is_simt_problem(p)) return std::nullopt;
    const std::array<RegBlockConfig, 4> ladder{regblock(128, 128, 8, 8, 8), regblock(128, 64, 16, 8, 4),
                                               regblock(64, 64, 16, 4, 4), regblock(32, 32, 16, 4, 4)};
    std::optional<RegBlockConfig> fallback;
    for (const auto& c : ladder) {
        if (c.validate(p, device)) continue;
        fallback = c;
        const std::int64_t tiles = tiles_of_c(p, c.bm, c.bn) * p.batch;
        if (tiles >= device.sm_count) break;
    }
    // Even 64 x 64 tiles fewer than the SMs: those tiles with K split, the most splits of split_counts (up to two
    // blocks per SM) that keep 32 k tiles each, instead of 32 x 32 tiles that read the operands again for every
    // tile. Measured on the H100 (session 29, bench/results/2026-12-06-h100-s29-counters-fixed.log) 64 x 4096 x 4096
    // fp32 ran regblock_64x64x16_t4x4_v4_s2_g8_k4 in 73.5 us (0.84x cuBLAS); 32 x 32 tiles, tuned, took 178 on the
    // H200 (session 12, before regblock split K); as the mma.sync family's 128 x 64 split tiles (session 30).
    if (fallback && p.batch == 1 && *fallback == ladder.back()) {
        const RegBlockConfig& wide = ladder[2];
        const std::int64_t k_tiles = (p.k + wide.bk - 1) / wide.bk;
        const std::vector<int> counts = split_counts(p, device, wide.bm, wide.bn, wide.bk);
        for (auto s = counts.rbegin(); s != counts.rend() && *s > 1; ++s) {
            RegBlockConfig split = wide;
            split.splits = *s;
            if (k_tiles >= 32 * *s && !split.validate(p, device)) return split;
        }
    }
    return fallback;
}

}  // namespace jitgemm
