// The knob values of the search space.
#include "tuner/search_space.h"

namespace jitgemm {

std::vector<AnyConfig> enumerate_candidates(const Problem& /*problem*/) {
    std::vector<AnyConfig> out;
    for (const int bm : {32, 64, 128, 256})
        for (const int bn : {32, 64, 128, 256})
            for (const int bk : {8, 16, 32})
                for (const auto& [tm, tn] : {std::pair{4, 4}, {4, 8}, {8, 4}, {8, 8}, {8, 16}, {16, 8}}) {
                    RegBlockConfig c;  // vec 4 (the kernel narrows it to the alignment), 2 stages, group 8
                    c.bm = bm;
                    c.bn = bn;
                    c.bk = bk;
                    c.tm = tm;
                    c.tn = tn;
                    out.emplace_back(c);
                }
    for (const int t : {8, 16, 32}) {
        TiledConfig c;
        c.t = t;
        out.emplace_back(c);
    }
    for (const auto& [bm, bn] : {std::pair{16, 16}, {32, 8}, {64, 4}}) {
        NaiveConfig c;
        c.bm = bm;
        c.bn = bn;
        out.emplace_back(c);
    }
    return out;
}

std::vector<AnyConfig> refinements(const AnyConfig& winner) {
    std::vector<AnyConfig> out;
    const auto* r = std::get_if<RegBlockConfig>(&winner);
    if (r == nullptr) return out;
    for (const int group : {1, 4, 16}) {
        if (group == r->group) continue;
        RegBlockConfig c = *r;
        c.group = group;
        out.emplace_back(c);
    }
    RegBlockConfig single = *r;
    single.stages = r->stages == 2 ? 1 : 2;
    out.emplace_back(single);
    if (r->vec == 4) {  // narrower loads can pay where 4-wide ones leave threads idle
        RegBlockConfig narrow = *r;
        narrow.vec = 2;
        out.emplace_back(narrow);
    }
    return out;
}

}  // namespace jitgemm
