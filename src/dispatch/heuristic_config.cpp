// The untuned default per problem.
#include "dispatch/heuristic_config.h"

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

}  // namespace

AnyConfig heuristic_config(const Problem& p, const DeviceInfo& device) {
    if (p.k == 0) return NaiveConfig{};
    // Largest first: bigger tiles reuse more (seed 004), as long as there are enough of them to occupy the GPU.
    const std::array<RegBlockConfig, 4> ladder{regblock(128, 128, 8, 8, 8), regblock(128, 64, 16, 8, 4),
                                               regblock(64, 64, 16, 4, 4), regblock(32, 32, 16, 4, 4)};
    const RegBlockConfig* fallback = nullptr;
    for (const auto& c : ladder) {
        if (c.validate(device)) continue;
        fallback = &c;
        const std::int64_t tiles = ((p.m + c.bm - 1) / c.bm) * ((p.n + c.bn - 1) / c.bn);
        if (tiles >= device.sm_count) return c;
    }
    if (fallback != nullptr) return *fallback;
    return TiledConfig{};
}

}  // namespace jitgemm
