// The knob values of the search space.
#include "tuner/search_space.h"

#include "runtime/device/occupancy.h"

namespace jitgemm {

namespace {

// Split-K counts worth trying for a block tile: only where the tiles alone are few (under 4096 blocks in all keeps
// them below a few waves of any GPU) and each split keeps at least four k tiles of the deepest stage, enough to
// fill the pipeline. Whether the split pays is the cost model's and the measurement's call.
std::vector<int> split_counts(const Problem& problem, int bm, int bn) {
    std::vector<int> out{1};
    const std::int64_t tiles = ((problem.m + bm - 1) / bm) * ((problem.n + bn - 1) / bn);
    for (const int splits : {2, 3, 4, 6, 8})
        if (tiles * splits <= 4096 && problem.k >= std::int64_t{4} * 64 * splits) out.push_back(splits);
    return out;
}

std::vector<AnyConfig> tensor_core_candidates(const Problem& problem, const DeviceInfo& device) {
    std::vector<AnyConfig> out;
    const bool tf32 = problem.a_type == DType::F32;
    // Misaligned operands are tried both ways: read where they are (narrow copies, or the register path when only
    // 2-byte aligned) and packed to an aligned copy first. On Hopper, both 16-bit operands packed are packed tile by
    // tile for bulk copies: measured faster than the same kernels fed by cp.async on the misaligned problems of
    // bench/shapes/tensor_targets.csv (777 x 1111 x 3333 bf16: 40.5 against 43.7 us; 4097^3: 0.415 against 0.471 ms),
    // and the cp.async twin of a winner is still measured as a refinement.
    const int misaligned = (problem.align_a < 16 ? 1 : 0) | (problem.align_b < 16 ? 2 : 0);
    const bool bulk = misaligned == 3 && prefers_bulk_copies(problem, device);
    const std::vector<int> packs = misaligned != 0 ? std::vector<int>{0, misaligned} : std::vector<int>{0};
    const std::vector<int> depths = tf32 ? std::vector<int>{16, 32} : std::vector<int>{32, 64};
    for (const int bm : {32, 64, 128, 256})
        for (const int bn : {32, 64, 128, 256})
            for (const int splits : split_counts(problem, bm, bn))
                for (const int bk : depths)
                    for (const auto& [wm, wn] :
                         {std::pair{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}, {1, 4}, {2, 4}, {4, 2}, {4, 4}})
                        for (const int stages : {3, 4})
                            for (const int pack : packs) {
                                MmaConfig c;  // group 8
                                c.bm = bm;
                                c.bn = bn;
                                c.bk = bk;
                                c.wm = wm;
                                c.wn = wn;
                                c.stages = stages;
                                c.pack = pack;
                                c.bulk = bulk && pack == 3;
                                c.splits = splits;
                                out.emplace_back(c);
                            }
    return out;
}

}  // namespace

std::vector<AnyConfig> enumerate_candidates(const Problem& problem, const DeviceInfo& device) {
    if (is_tensor_core_problem(problem)) return tensor_core_candidates(problem, device);
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

std::vector<AnyConfig> refinements(const AnyConfig& winner, const Problem& problem, const DeviceInfo& device) {
    std::vector<AnyConfig> out;
    if (const auto* m = std::get_if<MmaConfig>(&winner)) {
        for (const int group : {1, 4, 16}) {
            if (group == m->group) continue;
            MmaConfig c = *m;
            c.group = group;
            out.emplace_back(c);
        }
        for (const int stages : {m->stages - 1, m->stages + 1}) {
            MmaConfig c = *m;
            c.stages = stages;  // validate() drops a count outside 2..5 or past the shared memory
            out.emplace_back(c);
        }
        if (m->bulk) {  // the same kernel fed by cp.async: on the shapes measured slower, but not everywhere known
            MmaConfig c = *m;
            c.bulk = false;
            out.emplace_back(c);
        }
        if (m->splits > 1) {  // the enumeration skips some counts (5, 7); a split winner tries its neighbours
            for (const int splits : {m->splits - 1, m->splits + 1}) {
                MmaConfig c = *m;
                c.splits = splits;  // validate() drops counts K cannot feed
                out.emplace_back(c);
            }
            // And stream-K over the same tiles: as many blocks as the SMs hold at once, and one per SM, so that every
            // SM gets the same share of k tiles where tiles x splits blocks leave some SMs a block short.
            MmaConfig stream = *m;
            stream.splits = 1;
            stream.bulk = false;  // bulk copies count each stage slot's uses from a block's first k tile
            const int resident = blocks_per_sm(device, stream.threads(), stream.estimated_registers(problem),
                                               stream.shared_bytes(problem))
                                     .blocks;
            stream.stream_blocks = device.sm_count;
            out.emplace_back(stream);
            if (resident > 1) {
                stream.stream_blocks = device.sm_count * resident;
                out.emplace_back(stream);
            }
        }
        return out;
    }
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
