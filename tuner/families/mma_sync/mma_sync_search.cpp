// The mma.sync family's search space, refinements and untuned default.
#include <algorithm>
#include <array>
#include <utility>

#include "runtime/device/occupancy.h"
#include "tuner/families/common/resource_limits.h"
#include "tuner/families/mma_sync/mma_sync_config.h"

namespace jitgemm {
namespace {

// Split-K counts worth trying for a block tile: only where the tiles alone are few (under 4096 blocks in all keeps
// them below a few waves of any GPU) and each split keeps at least four k tiles of the deepest stage, enough to
// fill the pipeline. Whether the split pays is the cost model's and the measurement's call.
std::vector<int> split_counts(const Problem& problem, int bm, int bn) {
    std::vector<int> out{1};
    if (problem.batch > 1) return out;  // a batch's GEMMs fill the SMs by themselves (validate refuses splits)
    const std::int64_t tiles = tiles_of_c(problem, bm, bn);
    for (const int splits : {2, 3, 4, 6, 8})
        if (tiles * splits <= 4096 && problem.k >= std::int64_t{4} * 64 * splits) out.push_back(splits);
    return out;
}

MmaSyncConfig ladder_step(int bm, int bn, int wm, int wn) {
    MmaSyncConfig c;
    c.bm = bm;
    c.bn = bn;
    c.wm = wm;
    c.wn = wn;
    c.bk = 32;
    c.stages = 3;
    return c;
}

}  // namespace

std::vector<MmaSyncConfig> MmaSyncConfig::enumerate(const Problem& problem, const DeviceInfo& device) {
    std::vector<MmaSyncConfig> out;
    if (!is_tensor_core_problem(problem)) return out;
    const bool tf32 = problem.a_type == DType::F32;
    // Misaligned operands are tried both ways: read where they are (narrow copies, or the register path when only
    // 2-byte aligned) and packed to an aligned copy first. On Hopper, both 16-bit operands packed are packed tile by
    // tile for bulk copies: measured faster than the same kernels fed by cp.async on the misaligned problems of
    // bench/shapes/tensor_targets.csv (777 x 1111 x 3333 bf16: 40.5 against 43.7 us; 4097^3: 0.415 against 0.471 ms),
    // and the cp.async twin of a winner is still measured as a refinement.
    const int misaligned = (problem.align_a < 16 ? 1 : 0) | (problem.align_b < 16 ? 2 : 0);
    const bool bulk = misaligned == 3 && prefers_bulk_copies(problem, device);
    const std::vector<int> packs =
        misaligned != 0 && problem.batch == 1 ? std::vector<int>{0, misaligned} : std::vector<int>{0};
    const std::vector<int> depths = tf32 ? std::vector<int>{16, 32} : std::vector<int>{32, 64};
    for (const int bm : {32, 64, 128, 256})
        for (const int bn : {32, 64, 128, 256})
            for (const int splits : split_counts(problem, bm, bn))
                for (const int bk : depths)
                    for (const auto& [wm, wn] :
                         {std::pair{1, 1}, {2, 1}, {1, 2}, {2, 2}, {4, 1}, {1, 4}, {2, 4}, {4, 2}, {4, 4}})
                        for (const int stages : {3, 4})
                            for (const int pack : packs) {
                                MmaSyncConfig c;  // group 8
                                c.bm = bm;
                                c.bn = bn;
                                c.bk = bk;
                                c.wm = wm;
                                c.wn = wn;
                                c.stages = stages;
                                c.pack = pack;
                                c.bulk = bulk && pack == 3;
                                c.splits = splits;
                                out.push_back(c);
                            }
    return out;
}

std::vector<MmaSyncConfig> MmaSyncConfig::refinements(const Problem& problem, const DeviceInfo& device) const {
    std::vector<MmaSyncConfig> out;
    for (const int g : {1, 4, 16}) {
        if (g == group || same_tile_order(problem, bm, bn, g, group)) continue;
        MmaSyncConfig c = *this;
        c.group = g;
        out.push_back(c);
    }
    for (const int s : {stages - 1, stages + 1}) {
        MmaSyncConfig c = *this;
        c.stages = s;  // validate() drops a count outside 2..5 or past the shared memory
        out.push_back(c);
    }
    if (bulk) {  // the same kernel fed by cp.async: on the shapes measured slower, but not everywhere known
        MmaSyncConfig c = *this;
        c.bulk = false;
        out.push_back(c);
    }
    if (splits > 1 && problem.batch == 1) {  // the enumeration skips some counts (5, 7); a split winner tries its neighbours
        for (const int s : {splits - 1, splits + 1}) {
            MmaSyncConfig c = *this;
            c.splits = s;  // validate() drops counts K cannot feed
            out.push_back(c);
        }
        // And stream-K over the same tiles: as many blocks as the SMs hold at once, and one per SM, so that every
        // SM gets the same share of k tiles where tiles x splits blocks leave some SMs a block short.
        MmaSyncConfig stream = *this;
        stream.splits = 1;
        stream.bulk = false;  // bulk copies count each stage slot's uses from a block's first k tile
        const int resident = blocks_per_sm(device, stream.threads(), stream.estimated_registers(problem),
                                           stream.shared_bytes(problem))
                                 .blocks;
        stream.stream_blocks = device.sm_count;
        out.push_back(stream);
        if (resident > 1) {
            stream.stream_blocks = device.sm_count * resident;
            out.push_back(stream);
        }
    }
    return out;
}

namespace {

// `c` with K split among blocks until its tiles' blocks fill every SM about twice: at most 8 splits, each of at least
// `min_k_tiles` k tiles, as validate() allows; `c` itself where no split is taken.
MmaSyncConfig split_to_fill_sms_twice(const MmaSyncConfig& c, const Problem& p, const DeviceInfo& device,
                                      int min_k_tiles) {
    const std::int64_t tiles = tiles_of_c(p, c.bm, c.bn);
    MmaSyncConfig chosen = c;
    for (int s = 2; s <= 8 && tiles * (s - 1) * 10 < 19 * std::int64_t{device.sm_count}; ++s) {
        MmaSyncConfig split = c;
        split.splits = s;
        if (c.k_tiles(p) < min_k_tiles * s || split.validate(p, device)) break;
        chosen = split;
    }
    return chosen;
}

// A skinny problem (one side of C at most 64, as in decode): one pass over the large operand, whose tiles the tuned
// winners on the H200 (session 16, 16-bit, 1 to 16 tokens) took 64 deep along it and 32 along the small side, four
// warps, k tiles of 64 in four stages, with K split until the blocks fill every SM about twice; nullopt where the
// device refuses that tile.
std::optional<MmaSyncConfig> skinny_default(const Problem& p, const DeviceInfo& device) {
    if (std::min(p.m, p.n) > 64) return std::nullopt;
    MmaSyncConfig c = p.n <= p.m ? ladder_step(64, 32, 2, 2) : ladder_step(32, 64, 2, 2);
    c.bk = 64;
    c.stages = 4;
    if (c.validate(p, device)) return std::nullopt;
    return split_to_fill_sms_twice(c, p, device, 8);
}

// 128 x 64 tiles (`wide`) with K split among blocks, about two blocks per SM (splits of at least 16 k tiles); nullopt
// where K is too short for two splits or the device refuses them. Small tiles read the operands again for every
// tile. Measured on the H100 (session 30, bf16, 128 tokens through a 4096-wide layer;
// bench/results/2026-12-06-h100-s30-medium-m-fixed.log): 128 x 64 tiles with K in four ran K 4096 in 25.4 us and
// K 14336 in 60.5, where the ladder's 32 x 32 tiles took 46.9 and 150.6 (cuBLAS 17.0 and 48.9); 130 tokens in
// 35.2 / 29.8 us (K in two / four), where its 64 x 64 took 45.8. Where 128 x 64 tiles alone fill the SMs
// (128 x 14336 x 4096: 61.6 us), splitting them was slower (81.8-87.7).
std::optional<MmaSyncConfig> wide_tiles_split(const Problem& p, const DeviceInfo& device, const MmaSyncConfig& wide) {
    if (p.batch != 1 || wide.validate(p, device)) return std::nullopt;
    const MmaSyncConfig split = split_to_fill_sms_twice(wide, p, device, 16);
    if (split.splits == 1) return std::nullopt;
    return split;
}

}  // namespace

std::optional<MmaSyncConfig> MmaSyncConfig::heuristic_default(const Problem& p, const DeviceInfo& device) {
    if (!is_tensor_core_problem(p)) return std::nullopt;
    if (const auto skinny = skinny_default(p, device)) return skinny;
    const std::array<MmaSyncConfig, 4> ladder{ladder_step(128, 128, 2, 4), ladder_step(128, 64, 2, 2),
                                              ladder_step(64, 64, 2, 2), ladder_step(32, 32, 1, 1)};
    const MmaSyncConfig* fallback = nullptr;
    for (const auto& c : ladder) {
        if (c.validate(p, device)) continue;
        fallback = &c;
        const std::int64_t tiles = tiles_of_c(p, c.bm, c.bn) * p.batch;
        if (tiles >= device.sm_count) break;
    }
    if (fallback == nullptr) return std::nullopt;  // a device without these Tensor Core instructions
    // Operands only 2-byte aligned would be fed element by element through registers; on problems of a GFLOP and
    // more, copying them to an aligned workspace first costs a small part of that.
    const bool packs = p.batch == 1 && 2.0 * p.m * p.n * p.k >= 1e9 && (p.align_a < 4 || p.align_b < 4);
    // Where even 64 x 64 tiles are too few for the SMs: 128 x 64 ones with K split (packed copies with splits: not
    // measured). Where 64 x 64 ones fill them (130 tokens above) the ladder's pick stays until the rule is measured
    // on more shapes (1024^3, 512 tokens: 64 x 64 unsplit against 128 x 64 in two).
    if (!packs && fallback == &ladder.back())
        if (const auto split = wide_tiles_split(p, device, ladder[1])) return split;
    MmaSyncConfig chosen = *fallback;
    if (packs) chosen.pack = (p.align_a < 4 ? 1 : 0) | (p.align_b < 4 ? 2 : 0);
    // With both packed, Hopper's bulk copies feed the stages (enumerate() has the measurements).
    MmaSyncConfig bulk_copies = chosen;
    bulk_copies.bulk = true;
    if (chosen.pack == 3 && prefers_bulk_copies(p, device) && !bulk_copies.validate(p, device)) chosen = bulk_copies;
    // Even the smallest tiles leave SMs idle: split K among several blocks per tile, as many as fill the SMs while
    // each split keeps at least 16 k tiles (validate() has the last word).
    const std::int64_t tiles = tiles_of_c(p, chosen.bm, chosen.bn) * p.batch;
    for (int s = 8; s > 1 && tiles < device.sm_count; --s) {
        MmaSyncConfig split = chosen;
        split.splits = s;
        const bool fills_without_starving = tiles * s <= device.sm_count && chosen.k_tiles(p) >= 16 * s;
        if (fills_without_starving && !split.validate(p, device)) return split;
    }
    return chosen;
}

}  // namespace jitgemm
