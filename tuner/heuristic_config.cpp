// The untuned default per problem.
#include "tuner/heuristic_config.h"

#include <array>

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

MmaConfig mma(int bm, int bn, int wm, int wn) {
    MmaConfig c;
    c.bm = bm;
    c.bn = bn;
    c.wm = wm;
    c.wn = wn;
    c.bk = 32;
    c.stages = 3;
    return c;
}

// The Tensor Core family's default: the largest block tile that still gives every SM a tile.
AnyConfig tensor_core_default(const Problem& p, const DeviceInfo& device) {
    const std::array<MmaConfig, 4> ladder{mma(128, 128, 2, 4), mma(128, 64, 2, 2), mma(64, 64, 2, 2),
                                          mma(32, 32, 1, 1)};
    const MmaConfig* fallback = nullptr;
    for (const auto& c : ladder) {
        if (c.validate(p, device)) continue;
        fallback = &c;
        const std::int64_t tiles = ((p.m + c.bm - 1) / c.bm) * ((p.n + c.bn - 1) / c.bn);
        if (tiles >= device.sm_count) break;
    }
    if (fallback == nullptr) return NaiveConfig{};  // a device without the Tensor Core instructions: exact, slow
    // Operands only 2-byte aligned would be fed element by element through registers; on problems of a GFLOP and
    // more, copying them to an aligned workspace first costs a small part of that.
    MmaConfig chosen = *fallback;
    if (2.0 * p.m * p.n * p.k >= 1e9) chosen.pack = (p.align_a < 4 ? 1 : 0) | (p.align_b < 4 ? 2 : 0);
    // With both packed, Hopper's bulk copies feed the stages (tuner/search_space.cpp has the measurements).
    MmaConfig bulk = chosen;
    bulk.bulk = true;
    if (chosen.pack == 3 && prefers_bulk_copies(p, device) && !bulk.validate(p, device)) chosen = bulk;
    // Even the smallest tiles leave SMs idle: split K among several blocks per tile, as many as fill the SMs while
    // each split keeps at least 16 k tiles (validate() has the last word).
    const std::int64_t tiles = ((p.m + chosen.bm - 1) / chosen.bm) * ((p.n + chosen.bn - 1) / chosen.bn);
    for (int splits = 8; splits > 1 && tiles < device.sm_count; --splits) {
        MmaConfig split = chosen;
        split.splits = splits;
        const bool fills_without_starving = tiles * splits <= device.sm_count && chosen.k_tiles(p) >= 16 * splits;
        if (fills_without_starving && !split.validate(p, device)) return split;
    }
    return chosen;
}

}  // namespace

AnyConfig heuristic_config(const Problem& p, const DeviceInfo& device) {
    if (p.k == 0) return NaiveConfig{};
    if (is_tensor_core_problem(p)) return tensor_core_default(p, device);
    // Largest first: bigger tiles reuse more (seed 004), as long as there are enough of them to occupy the GPU.
    const std::array<RegBlockConfig, 4> ladder{regblock(128, 128, 8, 8, 8), regblock(128, 64, 16, 8, 4),
                                               regblock(64, 64, 16, 4, 4), regblock(32, 32, 16, 4, 4)};
    const RegBlockConfig* fallback = nullptr;
    for (const auto& c : ladder) {
        if (c.validate(p, device)) continue;
        fallback = &c;
        const std::int64_t tiles = ((p.m + c.bm - 1) / c.bm) * ((p.n + c.bn - 1) / c.bn);
        if (tiles >= device.sm_count) return c;
    }
    if (fallback != nullptr) return *fallback;
    return TiledConfig{};
}

}  // namespace jitgemm
