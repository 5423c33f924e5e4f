// The wgmma family's search space, refinements, cost estimate and untuned default.
#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <utility>

#include "runtime/device/roofline.h"
#include "tuner/families/common/operand_packing.h"
#include "tuner/families/common/resource_limits.h"
#include "tuner/families/wgmma/wgmma_config.h"

namespace jitgemm {
namespace {

// The most stages of `c`'s tile that fit the device's shared memory, at most 8 (an fp32 stage of bk takes the bytes of
// a 16-bit stage of 2 bk: at a depth of the same rows as many fit).
int deepest_ring(WgmmaConfig c, const Problem& p, const DeviceInfo& device) {
    for (c.stages = 8; c.stages > 2; --c.stages)
        if (c.shared_bytes(p) <= device.shared_per_block_optin) break;
    return c.stages;
}

// Whether the search tries ping-pong (_pp). Its first GPU runs (session 22, bench/results/2026-12-05-h200-s22.md)
// found it correct and free of races; slower on large problems (H100: 0.55-0.89x cuBLAS against 0.96-1.00x for the
// split tiles: a block's tile is one consumer's, half the split's, so each FLOP draws 1.3-1.7x the operand traffic,
// which the cost model's L2 term charges); ahead where the epilogue dominates (H200: batch 128 of 128^3 1.06x against
// 0.94x, and the tuned 4097^3 winner, 3.78x). The tuner's measurements decide between them.
constexpr bool kSearchPingPong = true;

// A persistent grid's work in bm x bn tiles of C: its turns (the tiles over the device's SMs, rounded up) times the
// tile's area.
double turns_of_work(const Problem& p, const DeviceInfo& device, int bm, int bn) {
    const std::int64_t tiles = cost::ceil_div(p.m, bm) * cost::ceil_div(p.n, bn);
    return double(cost::ceil_div(tiles, std::max(1, device.sm_count))) * bm * bn;
}

// The most accumulators a consumer thread holds beside C staged in shared memory: a tile of more (two instruction
// rows wider than 128) stores C from the registers — staged box by box, a 16-bit C's 192 x 256 spilled 176 bytes a
// thread (session 42).
constexpr int kMostAccumulatorsStaged = 128;

// What a unit of area costs the untuned default's turned tiles (paying_tiles) against 256 x 128's: measured 1.01x on
// 3000 x 5000 x 2000 and 0.93x on 8192 x 2552 x 3000 (session 44); 1.05 keeps them out where they save less than 5%
// (8192^3 would take 256 x 144 for 1.6% fewer turns of work).
constexpr double kTurnedTilesAreaCost = 1.05;

// What a unit of area costs the untuned default's deep tiles narrower than 192 (W x 256, paying_tiles) against 256 x
// 128's, as the H100 measured them in pairs along n (bench/results/2026-12-07-h100-measured-rows.txt, sessions 42-43):
// 3000 x 5000 x 2000 tn 160 x 256 1.15x, 8192 x 2552 x 3000 f16 -> fp32 160 x 256 1.13x, 6144 x 1528 x 6144 tt 144 x
// 256 1.17x (against three consumers' 192 x 192 in the same turns). Narrow instructions read more shared memory a FLOP
// (64 + W rows for 64 W products), and their C leaves from the registers.
constexpr double kNarrowDeepTilesAreaCost = 1.15;

// Whether `blocks` give at least three quarters of the device's SMs one each, and no SM two (the small tiles of the
// untuned default).
bool nearly_a_wave(std::int64_t blocks, const DeviceInfo& device) {
    return 4 * blocks >= 3 * std::int64_t{device.sm_count} && blocks <= device.sm_count;
}

// Whether `c`'s whole waves of units over its persistent grid leave a last turn at most a quarter full, whose k blocks
// dealt out among the grid's clusters (stream-K) give each at least four, and whose idle part holds at least 64 k
// blocks' time: what dealing it out saves must outweigh what it costs, which on the H100 (session 41,
// bench/shapes/wgmma_stream_k_waves.txt) came to 25-40 us a GEMM over the turns' arithmetic — the partial sums' meeting
// and the SMs it leaves idle at the end (ncu: 88% of the cycles active against 94% for whole tiles on 4096^3). There,
// with 256 x 128 x 64 tiles, 6144 x 1528 x 6144 in pairs (96 k blocks, 82% of a turn idle) ran 0.202 -> 0.174 ms
// (0.72 -> 0.84x cuBLAS), 7168 x 3072 x 5120 (80, 91%) 0.317 -> 0.296 (0.93 -> 1.00x), 5120^3 (80, 94%) 0.369 ->
// 0.356 (0.91 -> 0.94x); 4200 x 6000 x 3504 in pairs (55 k blocks, 82%) 0.280 -> 0.287, which this leaves whole.
bool sparse_last_turn(const WgmmaConfig& c, const Problem& p) {
    if (c.grid == 0) return false;
    WgmmaConfig dealt = c;  // the units it would deal out, counted as the kernel deals them
    dealt.stream_k = true;
    const std::int64_t clusters = c.stream_clusters();
    const std::int64_t left = dealt.stream_units_left(p);
    const std::int64_t k_blocks = (p.k + c.bk - 1) / c.bk;
    return c.units(p) > clusters && left > 0 && 4 * left <= clusters && left * k_blocks >= 4 * clusters &&
           k_blocks * (clusters - left) >= 64 * clusters;
}

// A stage's k depth of one and two 128-byte rows: 64 and 128 16-bit elements, 32 and 64 fp32 ones.
int row_depth(const Problem& p) { return 128 / WgmmaConfig::element_bytes(p); }

// Rows of C's `extent` that tiles `width` wide compute past its end.
std::int64_t padding(std::int64_t extent, int width) { return (extent + width - 1) / width * width - extent; }

// The instruction widths the search tries for C's extent along them (m, or n where the rows run along m): the four
// of whole 64-row blocks, then the fitted ones (none for a run-time extent). cuBLAS runs such shapes in fitted tiles
// too (4096 x 130 x 4096 bf16 in 64 x 72, session 34's ncu).
std::vector<int> instruction_widths(std::int64_t extent, bool extent_at_run_time) {
    std::vector<int> widths{64, 128, 192, 256};
    if (extent_at_run_time || !WgmmaConfig::kSearchesFittedWidths) return widths;
    for (const int w : WgmmaConfig::fitted_widths(extent)) widths.push_back(w);
    return widths;
}

}  // namespace

std::vector<int> WgmmaConfig::fitted_widths(std::int64_t extent) {
    std::int64_t least = extent;
    for (const int w : {64, 128, 192, 256}) least = std::min(least, padding(extent, w));
    std::vector<int> fitted;
    for (std::int64_t tiles = 1; tiles <= 16; ++tiles) {
        const int w = static_cast<int>(((extent + tiles - 1) / tiles + 15) / 16 * 16);
        // 16-wide instructions only for a side that narrow: they starve on shared memory (64 + 16 rows read per k
        // step for 16 columns of C).
        if (w < 16 || w > 256 || w % 64 == 0 || padding(extent, w) >= least || (w < 32 && extent > 16)) continue;
        if (std::find(fitted.begin(), fitted.end(), w) == fitted.end()) fitted.push_back(w);
    }
    std::stable_sort(fitted.begin(), fitted.end(), [&](int x, int y) {
        return padding(extent, x) != padding(extent, y) ? padding(extent, x) < padding(extent, y) : x > y;
    });
    if (fitted.size() > 3) fitted.resize(3);
    return fitted;
}

std::vector<int> WgmmaConfig::wave_fitted_widths(std::int64_t extent, std::int64_t other_tiles, int blocks) {
    const auto work = [&](int width) {
        return cost::ceil_div(cost::ceil_div(extent, width) * other_tiles, std::max(1, blocks)) * width;
    };
    const std::int64_t standard = std::min({work(128), work(192), work(256)});
    std::vector<std::pair<std::int64_t, int>> fitted;  // (work, -width): least work, then the wider, first
    for (int width = 80; width <= 256; width += 16)
        if (width % 64 != 0 && work(width) <= standard) fitted.emplace_back(work(width), -width);
    std::sort(fitted.begin(), fitted.end());
    std::vector<int> out;
    for (std::size_t i = 0; i < fitted.size() && i < 2; ++i) out.push_back(-fitted[i].second);
    return out;
}

std::vector<WgmmaConfig> WgmmaConfig::enumerate(const Problem& problem, const DeviceInfo& device) {
    std::vector<WgmmaConfig> out;
    if (!is_wgmma_problem(problem, device) || problem.k == 0) return out;
    const int pack = operands_to_pack(problem);
    const int depth = row_depth(problem);
    WgmmaConfig packed;
    packed.pack = pack;
    const Problem kernel_problem = packed.kernel_problem(problem);
    // The instructions' widths with their orientation: along m (TF32 with op(A) stored m-contiguous: along n,
    // forced), and, for 16-bit inputs whose n a fitted width covers better than 64's do, turned along n (_m) in those.
    struct Width {
        bool along_m, turned;
        int width;
    };
    std::vector<Width> widths;
    const bool forced = forced_rows_along_m(kernel_problem);
    for (const int w : instruction_widths(forced ? kernel_problem.n : kernel_problem.m,
                                          problem.runtime_dim == (forced ? 2 : 1)))
        widths.push_back({forced, false, w});
    const bool turns = kSearchesFittedWidths && !forced && element_bytes(problem) == 2 && problem.runtime_dim != 2;
    if (turns)
        for (const int w : fitted_widths(kernel_problem.n)) widths.push_back({true, true, w});
    // Widths fitted to whole waves of the persistent grid, for the tiles of 128 and 256 rows (two consumers of one or
    // two instruction rows each), along the width's side as the kernel runs it and, for 16-bit inputs, turned.
    const auto add_wave_fitted = [&](bool along_m, bool turned) {
        const std::int64_t extent = along_m ? kernel_problem.n : kernel_problem.m;
        const std::int64_t other = along_m ? kernel_problem.m : kernel_problem.n;
        for (const int rows : {128, 256})
            for (const int w : wave_fitted_widths(extent, cost::ceil_div(other, rows) * problem.batch,
                                                  device.sm_count)) {
                const bool known = std::any_of(widths.begin(), widths.end(), [&](const Width& x) {
                    return x.along_m == along_m && x.turned == turned && x.width == w;
                });
                if (!known) widths.push_back({along_m, turned, w});
            }
    };
    if (kSearchesWaveFittedWidths && problem.runtime_dim == 0) {
        add_wave_fitted(forced, false);
        if (turns) add_wave_fitted(true, true);
    }
    for (const auto& [along_m, turned, width] : widths)
        for (const int rows : {64, 128, 192, 256})
            for (const int consumers : {1, 2, 3})
                for (const int bk : {depth, 2 * depth})
                    for (const int cluster : {1, 2})
                        for (const int grid : {0, device.sm_count / cluster * cluster})
                            for (const bool pingpong : {false, true}) {
                                // Ping-pong: two consumers, a persistent grid (validate() drops the tiles whose
                                // accumulators one consumer cannot hold).
                                if (pingpong && (!kSearchPingPong || consumers != 2 || grid == 0)) continue;
                                // Three consumers: one instruction row each of a 192-row tile.
                                if (consumers == 3 && (!kSearchesThreeConsumers || rows != 192)) continue;
                                WgmmaConfig c;
                                c.bm = along_m ? rows : width;
                                c.bn = along_m ? width : rows;
                                c.rows_m = turned;
                                c.consumers = consumers;
                                c.bk = bk;
                                c.cluster = cluster;
                                c.grid = grid;
                                c.pack = pack;
                                c.pingpong = pingpong;
                                c.start_store(c.kernel_problem(problem));
                                // Tiles of more accumulators than kMostAccumulatorsStaged also from the registers:
                                // so 192 x 256 ran 4200 x 6000 x 3504 f16 10% faster than the default.
                                std::vector<WgmmaConfig> stores{c};
                                if (c.accumulators(c.kernel_problem(problem)) > kMostAccumulatorsStaged &&
                                    (c.tma_store || c.copied_store)) {
                                    WgmmaConfig registers = c;
                                    registers.tma_store = registers.store_by_box = registers.copied_store = false;
                                    stores.push_back(registers);
                                }
                                for (WgmmaConfig& store : stores) {
                                    const int deepest = deepest_ring(store, problem, device);
                                    // The deepest ring and one stage less (whose shared memory may leave L1 room).
                                    for (const int stages : {deepest, deepest - 1}) {
                                        store.stages = stages;
                                        if (stages >= 2) out.push_back(store);
                                    }
                                }
                            }
    return out;
}

std::vector<WgmmaConfig> WgmmaConfig::refinements(const Problem& problem, const DeviceInfo& device) const {
    std::vector<WgmmaConfig> out;
    for (const int g : {1, 4, 16}) {
        if (g == group || same_tile_order(problem, bm, bn, g, group)) continue;
        WgmmaConfig c = *this;
        c.group = g;
        out.push_back(c);
    }
    for (const int s : {stages - 1, stages + 1}) {
        WgmmaConfig c = *this;
        c.stages = s;  // validate() drops a count outside 2..8 or past the shared memory
        out.push_back(c);
    }
    WgmmaConfig other_grid = *this;
    other_grid.grid = grid == 0 ? device.sm_count / cluster * cluster : 0;
    out.push_back(other_grid);
    WgmmaConfig other_cluster = *this;  // the pair sharing op(A), or each block alone
    other_cluster.cluster = cluster == 1 ? 2 : 1;
    other_cluster.pairs_m = false;
    other_cluster.grid = grid == 0 ? 0 : device.sm_count / other_cluster.cluster * other_cluster.cluster;
    out.push_back(other_cluster);
    if (kSearchesPairsAlongM && cluster == 2) {  // the pair along the other side, sharing the other operand
        WgmmaConfig other_pairing = *this;
        other_pairing.pairs_m = !pairs_m;
        out.push_back(other_pairing);
    }
    // C through the TMA: its staging area takes shared memory from the ring, so as many stages as then fit; or back
    // from the registers, with the stages that frees.
    WgmmaConfig other_store = *this;
    other_store.tma_store = !tma_store;
    other_store.store_by_box = other_store.tma_store && rows_m;  // turned tiles: round by round
    other_store.copied_store = false;
    other_store.stages = tma_store ? stages : std::min(stages, deepest_ring(other_store, problem, device));
    out.push_back(other_store);
    // A C the TMA cannot write: staged box by box and copied out by the consumers' threads, in runs along its columns
    // (with the stages its two box buffers leave), or back from the registers.
    if (!tma_store && problem.batch == 1 && tma_store_rejection(kernel_problem(problem))) {  // batches: not yet run
        WgmmaConfig other_copy = *this;
        other_copy.copied_store = !copied_store;
        other_copy.stages = copied_store ? stages : std::min(stages, deepest_ring(other_copy, problem, device));
        out.push_back(other_copy);  // validate() drops tiles of rows along m and widths off whole boxes
    }
    // Through the TMA, the tile at once or box by box: the box buffers leave room for more stages (a 256 x 128 tile
    // of bf16: 4 where a whole staging area leaves 3, as cuBLAS's kernel of that tile has), at the price of a wait for
    // the TMA between boxes; validate() drops tiles of two boxes or fewer.
    if (tma_store) {
        WgmmaConfig other_staging = *this;
        other_staging.store_by_box = !store_by_box;
        other_staging.stages = deepest_ring(other_staging, problem, device);
        out.push_back(other_staging);
    }
    // The other schedule of two consumers, each holding as many accumulators: ping-pong on half the tile (half its
    // rows of P, so the same instruction width), or the two splitting a tile twice as deep in P's rows.
    if ((kSearchPingPong || pingpong) && consumers == 2 && grid > 0 && !stream_k) {
        WgmmaConfig other_schedule = *this;
        other_schedule.pingpong = !pingpong;
        const bool p_along_n = !rows_along_m(kernel_problem(problem));
        int& p_rows = p_along_n ? other_schedule.bn : other_schedule.bm;
        p_rows = pingpong ? 2 * p_rows : p_rows / 2;
        other_schedule.stages = deepest_ring(other_schedule, problem, device);
        out.push_back(other_schedule);  // validate() drops a tile outside 64..256
    }
    // Stream-K (_sk) is tried only where a persistent grid's blocks outnumber the tiles, every tile's k blocks then
    // dealt out among all of them. There (H100, session 32, fixed rows against the mma.sync defaults) it ran 7-15%
    // faster on 14336 x 128 x 4096, 4096 x 130 x 4096 and 4096 x 128 x 14336 bf16, and 3-25% slower on three other
    // shapes of 32 tiles: the measurements decide. With a whole wave or more it ran 0-9% slower than whole tiles on
    // every shape measured on the H200 (bench/results/2026-12-05-h200-s20.md), and on an H100 4096^3 0.87x cuBLAS
    // against 0.97x, 4097^3 2.9x against 3.2x (bench/results/2026-12-05-h200-s22.md): a winner with it goes back to
    // whole tiles. Also where whole waves leave a sparse last turn (sparse_last_turn says what it ran), alone and in
    // cluster pairs: on the H100 (session 41) the 10 s searches of 1528 x 6144 x 6144 tt, 3072 x 7168 x 5120 nt and
    // 5120^3 to fp32 with this twin found 0.90x, 1.03x and 0.93x cuBLAS.
    const bool fewer_tiles_than_blocks = cluster == 1 && tiles(kernel_problem(problem)) < grid;
    const bool sparse = kSearchesSparseLastTurns && sparse_last_turn(*this, kernel_problem(problem));
    if (!stream_k && grid > 0 && (fewer_tiles_than_blocks || sparse)) {
        WgmmaConfig dealt = *this;
        dealt.stream_k = true;
        out.push_back(dealt);
    }
    if (stream_k) {
        WgmmaConfig whole = *this;
        whole.stream_k = false;
        out.push_back(whole);
    }
    // K split across a cluster (_k) where the tiles leave half the SMs or more without one: the same tile with every
    // split whose clusters fit one wave (their partial sums meet in distributed shared memory, shared out among the
    // cluster's blocks, where stream-K's last block reads all of them back from L2 alone); and from a split, the
    // splits beside it. One cluster per tile, C from the registers.
    const std::int64_t kernel_tiles = tiles(kernel_problem(problem));
    if (kSearchesClusterSplit && ksplit == 1 && 2 * kernel_tiles <= device.sm_count) {
        for (const int s : {2, 4, 8}) {
            if (kernel_tiles * s > device.sm_count) break;
            WgmmaConfig split = *this;
            split.ksplit = s;
            split.cluster = 1;
            split.grid = 0;
            split.stream_k = split.pingpong = split.tma_store = split.store_by_box = false;
            split.stages = deepest_ring(split, problem, device);
            out.push_back(split);  // validate() drops a split the tile or K cannot take
        }
    }
    if (ksplit > 1) {
        for (const int s : {ksplit / 2, ksplit * 2}) {
            WgmmaConfig other_split = *this;
            other_split.ksplit = s;
            out.push_back(other_split);
        }
    }
    // 16-bit operands whose columns start off 128-byte lines (a leading dimension of bytes not a multiple of 128, each
    // 128-byte row of a TMA box then spanning two lines): the twin that copies them to line-aligned columns first.
    // Session 32 (H100, untuned) ran large shapes with such leading dimensions at 0.57-0.64x cuBLAS
    // (bench/shapes/wgmma_any_large.csv: 6000 x 4200 x 3504 f16, 3000 x 5000 x 2000 bf16 tn, ...) where tile
    // multiples run at parity; the copy costs a read and a write of the operand, which the measurements weigh. (The
    // cluster pair, above, ran such shapes faster in session 33: 0.85-0.92x where the copies ran 0.76-0.82x.)
    if (const int unaligned = operands_off_lines(kernel_problem(problem))) {
        WgmmaConfig aligned = *this;
        aligned.pack = pack | unaligned;
        out.push_back(aligned);
    }
    // TF32 operands stored m- or n-contiguous: the other way of reading each — packed into a k-contiguous copy first,
    // or read where it is through registers (validate() drops the combinations the kernel cannot read).
    for (const int operand : {1, 2})
        if (transposable_operands(problem) & operand & ~operands_to_pack(problem)) {
            WgmmaConfig other_read = *this;
            other_read.pack = pack ^ operand;
            out.push_back(other_read);
        }
    return out;
}

// compute: the tiles of the busiest SM at the instruction rate of the input type — the measured mma.sync rate
// scaled to wgmma's (on the H200 mma.sync peaks at 632 TFLOP/s, wgmma at about 1.45x that: cuBLAS reaches 800 and the
// dense peak is 989; TF32 runs at half the 16-bit rate in both, which the ceilings' TF32 rate carries) — lowered where
// shared memory cannot feed the instructions: each consumer's k step reads a 64-row slice and a BM-row slice of 32
// bytes each for 2 x 64 x BM x (16, or 8 in TF32) FLOPs, so narrow instructions (BM = 64) starve; a TF32 slice read
// into registers costs twice its bytes (two-way bank conflicts, kernel_sources/wgmma/wgmma.cuh), and where the
// instruction's rows run along m its width is BN — or where L2 cannot deliver the tiles (below). A lone consumer
// warpgroup has no second one to issue while it waits or stores. Every tile then pays its epilogue (C written, and
// read when beta != 0) and, without a persistent grid, the pipeline's fill, which a persistent block overlaps with
// the previous tile's epilogue. Partial sums met after the k loop (stream-K, K split) come after it, not beside it.
// Operands packed first (transposed, for TF32 operands stored m- or n-contiguous) add the pack's time: each read and
// written once at the DRAM ceiling.
// The terms marked "fitted" were set against recorded H100 measurements of sessions 32-34 (now in bench/results/
// 2026-12-07-h100-measured-rows.txt, scored by tests/cpu/cost_model_ranking_test.cpp): before them the model
// ordered 38% of the pairs of those 16-bit rows measured more than 3% apart as the GPU did, and its pick among a
// problem's rows ran 1.17x the fastest; after, 76% and 1.03x (with K split's clusters counted in the waves they take,
// below). On session 36's rows, measured after the fit, its pick was the fastest on 6 of 8 new problems.
CostEstimate WgmmaConfig::estimate_cost(const Problem& problem, const DeviceInfo& device,
                                        const DeviceCeilings& ceilings) const {
    using cost::ceil_div;
    CostEstimate e;
    const Problem p = kernel_problem(problem);
    const double pack_seconds = cost::pack_seconds(packs(problem), ceilings);
    e.blocks_per_sm = 1;
    const std::int64_t tiles_m = ceil_div(p.m, bm), tiles_n = ceil_div(p.n, bn);
    // L2's delivery to each SM: the ceiling shared among the blocks that run at once, up to 48 bytes a clock (95 GB/s
    // at 1.98 GHz). Fitted: where few blocks run each gets more than 1/SMs of it — 32 whole 128 x 128 tiles of
    // 4096 x 128 x 4096 bf16 each drew 84 GB/s on the H100 (fill and epilogue included), where 1/132 of the ceiling
    // is 54.
    const double running_blocks = double(std::min<std::int64_t>(device.sm_count, blocks(p)));
    const double l2_share = std::min(48.0 * sm_clock_hz(device), ceilings.l2_bytes_per_s / running_blocks);
    // A cluster takes one unit (a tile per block) at a time; sm_count / cluster clusters run at once.
    const std::int64_t tiles_all = tiles(p), all_units = units(p);
    const std::int64_t resident = std::max<std::int64_t>(device.sm_count / cluster, 1);
    const std::int64_t clusters = grid > 0 ? std::min<std::int64_t>(grid / cluster, resident) : resident;
    double tiles_on_busiest_sm = double(ceil_div(all_units, clusters));
    // Stream-K: the whole waves, then a run of the k blocks left over; and the meeting of partial sums: the block that
    // finishes a unit last reads back the parts of every other cluster that shared it, one after another. Fitted: at
    // half the SM's share of L2 (30 GB/s on the H100: 256 x 128 tiles of 4096 x 128 x 4096, eight blocks a tile, ran
    // 40 us against 26 for 128 x 128, four a tile, and 17 for whole 64 x 64 tiles).
    double meeting_seconds = 0.0;
    if (stream_k) {
        const double k_blocks = double(ceil_div(p.k, bk));
        const std::int64_t left = stream_units_left(p);
        tiles_on_busiest_sm = double((all_units - left) / clusters) +
                              std::ceil(double(left) * k_blocks / double(clusters)) / k_blocks;
        const double parts = std::max(1.0, double(clusters) / double(std::max<std::int64_t>(left, 1)));
        meeting_seconds = parts * bm * bn * 4.0 / (l2_share / 2.0);
    }
    // K split across a cluster: the clusters that fit at once each take a tile, each block 1 / ksplit of its k; the
    // partial sums meet in distributed shared memory, a tile of fp32 per block written and read (charged at the SM's
    // share of L2's bandwidth: a guess until measured).
    if (ksplit > 1) {
        // A GPC takes whole clusters: the H100 holds 66 clusters of 2 but 30 of 4 and 15 of 8 (120 of its 132 SMs;
        // session 36, cuOccupancyMaxActiveClusters), so 32 tiles split in four ran as two waves (28.3 us for
        // 4096 x 128 x 4096 bf16 in 128 x 128 tiles, against 19.2 for 64 x 128 tiles split in two).
        const std::int64_t usable_sms = ksplit >= 4 ? device.sm_count * 10 / 11 : device.sm_count;
        const std::int64_t resident_clusters = std::max<std::int64_t>(usable_sms / ksplit, 1);
        tiles_on_busiest_sm = double(ceil_div(all_units, resident_clusters)) / ksplit;
        meeting_seconds = bm * bn * 4.0 / l2_share;
    }
    e.wave_efficiency = double(tiles_all) / (tiles_on_busiest_sm * device.sm_count);
    constexpr double kWgmmaOverMmaSync = 1.45;
    const double instruction_flops = kWgmmaOverMmaSync * ceilings.matrix_flops(p.a_type, p.compute) / device.sm_count;
    const int element_bytes = WgmmaConfig::element_bytes(p);
    // The kernel's problem has an operand stored m- or n-contiguous only where it reads one through registers.
    const double width = instruction_width(p), p_reads = transposable_operands(p) != 0 ? 2.0 : 1.0;
    const double flops_per_shared_byte = 2.0 * 64.0 * width / ((64.0 * p_reads + width) * element_bytes);
    const double feed = flops_per_shared_byte * ceilings.shared_bytes_per_s / device.sm_count;
    // And what L2 can deliver: a block's stage reads (BM / cluster + BN) x BK elements from L2 (a cluster of two loads
    // op(A) once for both; along m, op(B): BM + BN / cluster) for 2 BM BN BK FLOPs. A 16-bit operand read in place
    // whose columns start off 32-byte sectors costs more: measured on 4096^3 f16 on the H100 (session 33's LD_SWEEP),
    // +48% with op(A) so, +15-22% with op(B).
    const auto off_sectors = [&](std::int64_t ld) { return element_bytes == 2 && ld * 2 % 32 != 0; };
    const double a_cost = off_sectors(p.lda) ? 1.5 : 1.0, b_cost = off_sectors(p.ldb) ? 1.2 : 1.0;
    const double a_rows = double(bm) / cluster_n(), b_rows = double(bn) / cluster_m();
    const double l2_feed = 2.0 * bm * bn / ((a_rows * a_cost + b_rows * b_cost) * element_bytes) * l2_share;
    // Clusters of two are ranked by the L2 term alone. (They first ran 25-33% slower than single blocks, while each
    // consumer warp freed the other block's stage with a release at cluster scope; with one relaxed arrival per
    // warpgroup they run level on 4096^3 and ahead on 8192^3: bench/results/2026-12-04-h200-s15-wgmma.md.)
    // (A lone consumer's issue gaps slow the instructions and their shared-memory reads, not L2's delivery.)
    const double lone = consumers == 1 ? 0.8 : 1.0;
    const double per_sm_flops = std::min({instruction_flops * lone, feed * lone, l2_feed});
    const double tile_flops = 2.0 * bm * bn * double(ceil_div(p.k, bk) * bk);
    // Stages in flight, counted in 16-bit k (bytes / 2): the measurements behind these steps were of 16-bit inputs.
    const int ring_depth = stages * bk * element_bytes / 2;
    const double pipeline = ring_depth >= 256 ? 1.0 : ring_depth >= 192 ? 1.05 : 1.2;
    const int c_bytes = p.c_type == DType::F32 ? 4 : 2;
    const double epilogue_seconds = double(bm) * bn * c_bytes * (p.beta_mode == BetaMode::Zero ? 1.0 : 2.0) /
                                    (ceilings.dram_bytes_per_s / device.sm_count);
    const double fill_seconds = grid > 0 ? 0.2e-6 : 1.0e-6;
    // Stored through the TMA, the consumers hand the tile over and go on; C's writes then overlap the next tile's
    // instructions; in ping-pong the other consumer's instructions run meanwhile. The shares left are guesses; they
    // rank only candidates the L2 term leaves level (on large problems ping-pong's smaller tiles lose there first).
    const double epilogue_share = pingpong ? 0.1 : tma_store ? 0.25 : 0.5;
    e.compute_seconds = tiles_on_busiest_sm *
                        (tile_flops / per_sm_flops * pipeline + epilogue_seconds * epilogue_share + fill_seconds);
    // A cluster of two reads its op(A) tile from L2 once for both blocks (multicast): op(A) crosses once per pair of
    // tiles along n (op(B) once per pair along m). (Counted once per tile, the traffic bound ranked ping-pong's 256 x
    // 64 tiles of 4096^3 in clusters 65% slower than the split 256 x 128 ones, with the measured ceilings.)
    e.traffic_seconds =
        cost::traffic_seconds(p, ceil_div(tiles_m, cluster_m()), ceil_div(tiles_n, cluster_n()), ceilings);
    e.seconds = std::max(e.compute_seconds, e.traffic_seconds) + meeting_seconds + cost::kLaunchSeconds + pack_seconds;
    return e;
}

// The widest tile for the untuned default's persistent grid (one block per SM, each taking tiles in turns): of 256 x
// 128, 128 x 256 and 192 x 128, the one whose blocks take the fewest turns of work — turns (the tiles over the SMs,
// rounded up) times the tile's area, the narrower tiles' 5% more per unit of area (their fewer stages, their smaller
// share of reuse: 128 x 256 s3 ran 4000^3 3% slower than 256 x 128 s4 in equal turns on the H100, session 36's
// measured rows), ties to 256 x 128. Where tiles are whole multiples that is 256 x 128 (4096^3: 4 turns against 6 of
// 192 x 128, 4.5 in its area); where the last turn of 256 x 128 is mostly empty, a narrower tile fills it: 6144 x
// 1528 makes 288 tiles of 256 x 128 (3 turns, the last 18% full) and 384 of 192 x 128 (3 turns of 3/4 the work).
std::pair<int, int> WgmmaConfig::wave_fitted_tile(const Problem& p, const DeviceInfo& device) {
    std::pair<int, int> best{256, 128};
    double best_work = 0.0;
    for (const auto& [bm, bn, cost] : {std::tuple{256, 128, 1.0}, std::tuple{128, 256, 1.05},
                                        std::tuple{192, 128, 1.05}}) {
        const double work = turns_of_work(p, device, bm, bn) * cost;
        if (best_work == 0.0 || work < best_work) {
            best_work = work;
            best = {bm, bn};
        }
    }
    return best;
}

namespace {

// Each part of a unit that stream-K shares costs the block that meets them about the time of this many k of the
// unit's instructions (reading a 256 x 128 tile of fp32 back from L2 at ~28 bytes a clock, against the 16-bit
// instructions at ~3/4 of their peak; the clock cancels). Fitted on three dealt-out last turns of session 43
// (bench/shapes/three_consumers.txt, H100): 6144 x 1528 x 6144 in pairs (5.5 parts a unit) 12.5 us over its arithmetic,
// 7168 x 3072 x 5120 (11 parts) 21.7, 1792 x 2552 x 4416 in pairs (16.5 parts) 43.7: 49-66 GB/s a block.
constexpr double kMeetingPartK = 221.0;

// A rung of the untuned default's ladder as it starts: `c`'s tile at 128-byte k rows, a persistent grid of one block
// per SM, the operands that need it packed first, and a cluster pair — which loads op(A) once for both blocks, where a
// 16-bit operand the kernel reads in place starts its columns off 128-byte lines: the TMA's loads of such boxes, not
// the Tensor Cores, then set the pace. On the H100 (session 33, bench/results/2026-12-06-h100-s33.md), 4096^3 f16 with
// one leading dimension 8 elements past 4096 (off 32-byte sectors): op(A) 0.267 ms against 0.181, op(B) 0.208-0.220;
// with the pair 0.184-0.188. 16 elements past (on sectors, off lines): 0.182-0.193, with the pair 0.182-0.183. Large
// shapes: 4200 x 6000 x 3504 f16 nn (lda 4200) 0.401 -> 0.282 ms (0.60 -> 0.85x cuBLAS), 5000 x 3000 x 2000 bf16 nt
// (both) 0.155 -> 0.111 (0.66 -> 0.92x), 6144 x 1528 x 6144 bf16 tt (ldb 1528) 0.233 -> 0.204, where copies aligned
// first ran 0.318, 0.123 and 0.204. With aligned operands the pair ran 4096^3 level (0.1814 against 0.1810 ms), so it
// stays where they are off lines.
// Packed operands too (kPairsPackedOperands), measured on 4097^3 bf16 (H100, session 39, two alternated rounds): 256 x
// 128 tiles 0.337 ms in pairs against 0.361 alone, and with C copied out by the threads (heuristic_default) 0.273
// against 0.304-0.306 (3.72x cuBLAS against 3.35x).
// The pair runs along n, sharing op(A), or along m, sharing op(B), where op(B) alone starts its columns off 128-byte
// lines (kPairsAlongMOverOffLinesB): the operand whose boxes cost more to load is then the one each pair loads once.
WgmmaConfig ladder_rung(WgmmaConfig c, const Problem& p, const DeviceInfo& device) {
    c.bk = row_depth(p);
    c.grid = device.sm_count;
    c.pack = WgmmaConfig::operands_to_pack(p);
    const int off_lines = WgmmaConfig::operands_off_lines(c.kernel_problem(p));
    if (off_lines != 0 || (WgmmaConfig::kPairsPackedOperands && c.pack != 0)) {
        c.cluster = 2;
        c.pairs_m = WgmmaConfig::kPairsAlongMOverOffLinesB && c.pack == 0 && off_lines == 2;
    }
    return c;
}

// A rung's turns of work (turns_of_work) as its persistent grid takes them: its units (a tile, or a cluster pair's two)
// over the clusters that run at once. A pair can take another turn: with an odd count of tiles along its side the
// last pair of each row is half empty — 2552 x 1792 x 4416 nn (op(A) off lines) makes 130 turned 256 x 144 tiles, one
// turn alone, but 70 pairs along n, two turns of 66 (where 192 x 256 makes 50 pairs, one turn). Alone, the operand
// off lines would cost its loads more than the turn saves (session 33: 0.57-0.64x cuBLAS against 0.85-0.92x in pairs).
double rung_work(const WgmmaConfig& rung, const Problem& p, const DeviceInfo& device) {
    const std::int64_t clusters = std::max<std::int64_t>(device.sm_count / rung.cluster, 1);
    return double(cost::ceil_div(rung.units(rung.kernel_problem(p)), clusters)) * rung.bm * rung.bn;
}

// The work of the tile the ladder takes without the paying tiles (paying_tiles): 256 x 128 where its tiles give every
// SM one, else 128 x 128 — its turns times its area, or, where it deals out a sparse last turn (sparse_last_turn), its
// whole turns, the dealt turn's share of the clusters and the meeting of each unit's parts (kMeetingPartK).
double ladder_work(const Problem& p, const DeviceInfo& device) {
    WgmmaConfig standard;
    standard.bm = 256;
    standard.bn = 128;
    if (standard.tiles(p) < device.sm_count) standard.bm = 128;
    const WgmmaConfig c = ladder_rung(standard, p, device);
    if (!WgmmaConfig::kDealsOutASparseLastTurn || !sparse_last_turn(c, p))
        return rung_work(c, p, device);
    WgmmaConfig dealt = c;
    dealt.stream_k = true;
    const double clusters = double(c.stream_clusters()), left = double(dealt.stream_units_left(p));
    const double whole = (double(c.units(p)) - left) / clusters;
    return (whole + left / clusters + clusters / left * kMeetingPartK / double(p.k)) * c.bm * c.bn;
}

// The tiles past 256 x 128's reach that the untuned default takes where they take the persistent grid less work than
// the ladder's tile (ladder_work) — turns (tiles over the SMs, rounded up) times the tile's area, times what a unit of
// area costs them more — least work first (none: an empty list):
// - where `deep` allows: 192 x 256 (two consumers of two instruction rows 192 wide: 192 accumulators a thread), 5%
//   slower a unit of area. On the H100 (session 42, bench/shapes/wave_fitted_large.txt, two alternated rounds)
//   4200 x 6000 x 3504 f16 nn in pairs ran 0.252-0.254 ms in 4 turns of 192 x 256 (C from the registers) against
//   0.281-0.282 in 7 of 256 x 128 (0.85 -> 0.95x cuBLAS); 1792 x 2552 x 4416 tt in pairs (100 tiles, one turn:
//   session 43) 0.070 against 0.094 for 256 x 128 with the last turn dealt out (0.59 -> 0.79x). Narrower deep tiles
//   (W x 256, W 144-176, kDefaultsToNarrowDeepTiles) at 1.15 (kNarrowDeepTilesAreaCost), as cuBLAS's tiles take
//   turns of work (session 45's ncu): 1792 x 2552 tt in 126 tiles of 128 x 288, 55 us against our 71 in 100 of 192 x
//   256, where 120 of 160 x 256 make 60 pairs along m, one turn of 5/6 the area (at 1.15: 9% less work).
// - where `three` allows: three consumers of one instruction row each (c3), 192 x 192 at the rate a unit of area of
//   256 x 128 (kThreeConsumersAreaCost), and 96 x 192 at 1.2 times it (narrow instructions read more shared memory a
//   FLOP; measured only where it saved 44%). On the H100 (session 43, bench/shapes/three_consumers.txt, two
//   alternated rounds): 3072 x 1536 x 4096 f16 nt 0.0864 -> 0.0534 ms (0.61 -> 1.00x cuBLAS), 3072^2 x 4096
//   0.78 -> 0.99x, 5120 x 2560 x 4096 tn 0.86 -> 0.99x, 6144 x 1528 x 6144 tt in pairs 0.174 (dealt out) -> 0.167
//   (0.85 -> 0.88x), bf16 -> fp32 3072 x 7168 x 2048 0.96 -> 1.00x (box by box; 0.95x from the registers);
//   1536^2 x 1024 in 96 x 192 15.3 -> 12.1-12.3 us (0.76 -> 0.97-0.98x; in pairs 0.78-0.81x); 4096^3 (4 turns of
//   each) 0.198 against 0.175 ms, as their areas; 7168 x 3072 x 5120, whose dealt-out last turn 256 x 128 finishes
//   in 0.2995 ms, 0.307 in 5 turns of 192 x 192 (which ladder_work leaves to stream-K).
// - where `turned` allows (op(B) stored k-contiguous: stored n-contiguous it would arrive in boxes of 64 n, 160 of them
//   as 192): 256 x W tiles turned (_m: the instructions' rows along m, their width W along n), W from 144 to 192, C
//   through the TMA round by round, 5% slower a unit of area than 256 x 128 (kTurnedTilesAreaCost). On the
//   H100 (session 44, bench/shapes/turned_through_tma.txt, two alternated rounds): 3000 x 5000 x 2000 bf16 tn in pairs
//   0.0926 ms in 3 turns of 256 x 160 against 0.0975 in 4 of 256 x 128 (0.89 -> 0.94x cuBLAS; a unit of area at
//   1.01x); 8192 x 2552 x 3000 f16 -> fp32, 4 turns of each, 0.200 against 0.216 (0.93x as much a unit of area; not
//   taken: no fewer turns of work).
std::vector<WgmmaConfig> paying_tiles(const Problem& p, const DeviceInfo& device, bool deep, bool three, bool turned) {
    if (!deep && !three && !turned) return {};
    const double standard = ladder_work(p, device);
    std::vector<std::pair<double, WgmmaConfig>> paying;
    const auto consider = [&](int bm, int bn, int consumers, double area_cost, bool rows_m) {
        WgmmaConfig c;
        c.bm = bm;
        c.bn = bn;
        c.consumers = consumers;
        c.rows_m = rows_m;
        const double work = area_cost * rung_work(ladder_rung(c, p, device), p, device);
        if (work < standard) paying.emplace_back(work, c);
    };
    if (deep) consider(192, 256, 2, 1.05, false);
    if (three) {
        consider(192, 192, 3, WgmmaConfig::kThreeConsumersAreaCost, false);
        consider(96, 192, 3, 1.2 * WgmmaConfig::kThreeConsumersAreaCost, false);
    }
    if (turned)
        for (int width = 144; width <= 192; width += 16) consider(256, width, 2, kTurnedTilesAreaCost, true);
    // After the turned tiles, which take a tie: they store C through the TMA, these from the registers.
    if (deep && WgmmaConfig::kDefaultsToNarrowDeepTiles)
        for (int width = 144; width < 192; width += 16) consider(width, 256, 2, kNarrowDeepTilesAreaCost, false);
    std::stable_sort(paying.begin(), paying.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<WgmmaConfig> out;
    for (const auto& [work, c] : paying) out.push_back(c);
    return out;
}

// The untuned default where the ladder of two-consumer tiles (heuristic_default) gives fewer 128 x 128 tiles than
// three quarters of the SMs, or where the GEMM is under a GFLOP, in a 16-bit GEMM whose narrow side fills a 64-wide
// tile: one-consumer tiles small enough to give the SMs a wave without splitting K (128 x 64, then 64 x 64), else
// 64-row tiles with K split across a cluster of two, the narrowest whose clusters fill a wave. On the H100 (session
// 34, bench/results/2026-12-06-h100-s34.md, two alternated rounds against cuBLAS) where the mma.sync default ran
// 0.41-0.84x: 4096 x 128 x 4096 bf16 in 64 x 64 tiles 16.6-17.3 us (0.97-1.03x; tn 0.89-0.95x, f16 nt 0.84x),
// 4096 x 128 x 14336 1.08-1.12x, 1024^3 in 128 x 64 0.96-0.98x (nn, tn), 4096 x 64 x 4096 in 64 x 64 split in two
// 0.95x, 4096 x 64 x 14336 1.03-1.04x, 4096 x 130 x 4096 in 64 x 192 split in two 0.77x. C from the registers, as
// measured. Exact problems only: run-time-shape variants of these tiles have not run on a GPU.
std::optional<WgmmaConfig> small_tile_default(const Problem& p, const DeviceInfo& device) {
    if (p.batch > 1 || p.runtime_dim != 0 || WgmmaConfig::element_bytes(p) != 2 || std::min(p.m, p.n) < 64)
        return std::nullopt;
    const auto small = [&](int bm, int bn, int ksplit) {
        WgmmaConfig c;
        c.bm = bm;
        c.bn = bn;
        c.consumers = 1;
        c.bk = row_depth(p);
        c.ksplit = ksplit;
        c.pack = WgmmaConfig::operands_to_pack(p);
        c.stages = deepest_ring(c, p, device);
        return c;
    };
    // Under a GFLOP, the smaller of the two whose blocks take at most a wave, down to a quarter of one: on the H100
    // (session 38, bench/shapes/small_wgmma_rule.txt, two alternated rounds) 64 x 64 tiles ran 384^3 bf16 (36 of them)
    // in 5.7-5.8 us against 7.7-7.9 for the mma.sync default (0.97x cuBLAS against 0.70x), 512^3 in 6.0 against 9.3-9.4
    // (1.00-1.02x against 0.65x; f16 tn 0.99-1.02x against 0.64x), 640^3 (100) in 6.3-6.4 against 10.5-10.7 (1.03-
    // 1.05x against 0.62x), where K split in two ran 0.81-0.86x; 768^3 128 x 64 (72) 7.7 us against 12.5-12.6 (0.91x
    // against 0.55x; 64 x 64 tiles, 144 of them, 9.5). Over a GFLOP, as session 34 measured: the larger tile first,
    // where its blocks nearly make a wave.
    const bool under_a_gflop = problem_flops(p) < 1e9;
    const auto within_a_wave = [&](std::int64_t blocks) {
        return blocks <= device.sm_count && 4 * blocks >= device.sm_count;
    };
    const auto nearly_one = [&](std::int64_t blocks) { return nearly_a_wave(blocks, device); };
    const std::pair<int, int> larger{128, 64}, smaller{64, 64};
    // Whole 128 x 64 tiles of an operand whose columns start off 128-byte lines: in a cluster pair, as the ladder's
    // tiles. On the H100 (session 38, two alternated rounds): 1000^3 bf16 nn 12.9-13.0 us against 15.0-15.2 alone
    // (0.83-0.84x cuBLAS against 0.72x; f16 tn 0.81-0.84x against 0.72x), 200 x 4096 x 4096 nn 26.6-27.0 against
    // 38.1 (0.89-0.90x against 0.63x), 2000 x 500 x 1000 level (12.6-12.8 against 12.9-13.1). Pairs of 64 x 64 tiles
    // lost wherever measured: 96 x 4096 x 4096 nn (off lines) 21.1 us against 19.6-19.7, 512^3 and 640^3 (on lines)
    // 7.1-7.6 against 6.0-6.4. On lines, 1024^3 in 128 x 64 pairs 11.1-11.2 against 8.7-8.8 alone.
    const auto paired_off_lines = [&](const WgmmaConfig& c) {
        if (!WgmmaConfig::kPairsSmallTilesOffLines || c.bm != larger.first ||
            WgmmaConfig::operands_off_lines(c.kernel_problem(p)) == 0)
            return c;
        WgmmaConfig paired = c;
        paired.cluster = 2;
        return paired.validate(p, device) ? c : paired;
    };
    // The first whole one-consumer tile of `order` whose blocks `fill` the SMs, paired where its operands are off
    // 128-byte lines (below).
    const auto first_whole = [&](std::array<std::pair<int, int>, 2> order,
                                 const auto& fill) -> std::optional<WgmmaConfig> {
        for (const auto& [bm, bn] : order) {
            const WgmmaConfig c = small(bm, bn, 1);
            if (fill(c.blocks(c.kernel_problem(p))) && !c.validate(p, device)) return paired_off_lines(c);
        }
        return std::nullopt;
    };
    if (under_a_gflop) return first_whole({smaller, larger}, within_a_wave);
    // Over a GFLOP, the larger tile first where its blocks nearly make a wave; the fitted and split tiles below were
    // measured over a GFLOP only.
    const std::optional<WgmmaConfig> whole = first_whole({larger, smaller}, nearly_one);
    // A narrow side that one fitted instruction width covers with less padding than 64's (130: 144, where 64-row
    // blocks compute 192): one tile across it, 64 deep along the other side, split in two — turned (_m) where the
    // narrow side is n. Each block then reads its 1 / 2 of op(B)'s columns once, as cuBLAS's 64 x 72 tiles in
    // clusters of two do (4096 x 130 x 4096, session 34's ncu). Ahead of whole tiles on the H100 (session 36,
    // bench/results/2026-12-07-h100-s36.md): 4096 x 130 x 4096 nn and tn 18.5-18.7 us against 24.8 for session
    // 34's default (1.00-1.03x cuBLAS against 0.76x), 4096 x 200 19.5 against 31.0 for whole 128 x 64 tiles
    // (1.05x against 0.66x), 4096 x 96 17.6 against 20.1-21.2, 130 x 4096 tn 19.4 against 34.5 (2.1x against
    // 1.18x), nn (op(A) packed) 30.3 against 38.6. Where the operand along the narrow side is stored along it, its
    // boxes of 64 pad the fitted tile's reads as whole tiles' (208 rows of op(A) read as 256), and the fitted tile
    // gains only where the whole tiles' last one is mostly empty: 200 x 4096 nn ran 40.1 us against 38.4 for
    // whole 128 x 64 tiles (the last 72 rows full), 96 x 4096 nn 20.1 against 19.7.
    const bool narrow_n = p.n < p.m;
    const std::int64_t side = narrow_n ? p.n : p.m;
    const std::vector<int> fitted = WgmmaConfig::fitted_widths(side);
    if (WgmmaConfig::kDefaultsToFittedTiles && !fitted.empty() && fitted.front() >= side) {
        WgmmaConfig split = small(narrow_n ? 64 : fitted.front(), narrow_n ? fitted.front() : 64, 2);
        split.rows_m = narrow_n;
        split.stages = deepest_ring(split, p, device);
        const bool stored_along_side = narrow_n ? p.trans_b == Transpose::Yes : p.trans_a == Transpose::No;
        const int whole_width = !whole ? 64 : narrow_n ? whole->bn : whole->bm;
        const bool last_whole_tile_mostly_empty = 2 * (side % whole_width) < whole_width;
        if ((!whole || !stored_along_side || last_whole_tile_mostly_empty) &&
            nearly_a_wave(split.blocks(split.kernel_problem(p)), device) && !split.validate(p, device))
            return split;
    }
    if (whole) return whole;
    // Whole tiles whose blocks take at most a wave and at least a quarter of one, as under a GFLOP: ahead of K split
    // in two up to K of 4096, and ahead of the mma.sync default everywhere. On the H100 (session 39,
    // bench/shapes/mid_wgmma_candidates.txt, two alternated rounds): 512 x 512 x 2048 bf16 in whole 64 x 64 tiles
    // 8.8-8.9 us against 9.9 split (0.97-0.99x cuBLAS against 0.89-0.91x), 512 x 512 x 4096 12.8-13.0 against
    // 13.7-13.9 (0.86x against 0.81x), 4096 x 64 x 4096 16.2-16.4 against 17.1-17.2 (0.98-0.99x against 0.94x),
    // 64 x 4096 x 4096 tn 16.9-17.0 against 17.4-17.5; 768 x 768 x 2048, where no split fills a wave, in 128 x 64
    // (72 blocks) 10.7-10.8 us against 24.9-25.3 for the mma.sync default (0.85-0.86x against 0.37x). Longer K
    // keeps the split, as session 34 measured it (4096 x 64 x 14336 1.03-1.04x).
    const std::optional<WgmmaConfig> within = first_whole({smaller, larger}, within_a_wave);
    if (within && p.k <= 4096) return within;
    for (const int bn : {64, 128, 192, 256}) {
        const WgmmaConfig split = small(64, bn, 2);
        if (nearly_a_wave(split.blocks(split.kernel_problem(p)), device) && !split.validate(p, device))
            return split;
    }
    return within;  // none: too few tiles, and the mma.sync family's default splits K
}

}  // namespace

std::optional<WgmmaConfig> WgmmaConfig::heuristic_default(const Problem& p, const DeviceInfo& device) {
    // A GFLOP and more, and K deep enough to fill the ring a few times — or, with shorter K (bound by C's traffic),
    // tiles for three waves and more, a batch's or one GEMM's: the persistent blocks' producer loads the next tiles
    // while the consumers store one. On bf16 512 x 512 x 64 x 64 (3.9 waves of 256 x 128 tiles) the tuned winner was
    // this default's tile, 0.79x cuBLAS, against 0.38x for the mma.sync default (session 17), and 0.99x once C went
    // through the TMA (session 22); shortk_8192x8192x64_bf16 (15.5 waves) ran the mma.sync default at 0.35x (session
    // 30). Single GEMMs on the H100 (session 32, bench/shapes/wgmma_short_k_fixed.txt): 8192 x 8192 x 64 bf16 in 52 us
    // against 151 for the mma.sync default, 4096 x 4096 x 128 in 15 against 45 (1.00-1.12x cuBLAS); shortk untuned
    // at 1.01x.
    const bool batched = p.batch > 1;
    if (!is_wgmma_problem(p, device)) return std::nullopt;
    if (p.k < 256 && !batched) {
        WgmmaConfig widest;
        if (widest.tiles(p) < 3 * std::int64_t{device.sm_count}) return std::nullopt;
    }
    // Under a GFLOP, with K of 256 and more: whole small tiles (small_tile_default says where and what they ran).
    if (problem_flops(p) < 1e9)
        return batched || !kDefaultsToSmallTilesUnderAGflop ? std::nullopt : small_tile_default(p, device);
    // TF32 operands stored m- or n-contiguous are read through registers, one of the two packed only where both are:
    // on 4096^3 the default tile ran nn at 0.96x cuBLAS so against 0.87x with op(A) copied transposed first, and 8192^3
    // within 3% either way (bench/results/2026-12-05-h200-s20.md).
    // From the widest tile down to the first whose tiles give every SM one.
    std::vector<WgmmaConfig> ladder(2);
    ladder[0].bm = 256;
    ladder[0].bn = 128;
    if (kDefaultsToWaveFittedTiles && !batched) {
        const auto [bm, bn] = wave_fitted_tile(p, device);
        ladder[0].bm = bm;
        ladder[0].bn = bn;
    }
    ladder[1].bm = 128;
    ladder[1].bn = 128;
    // Before them the tiles that pay (paying_tiles), taken where their blocks give at least three quarters of the SMs
    // one: 3072 x 1536 in 128 tiles of 192 x 192 (one turn) against 144 of 256 x 128 (two). (Only over operands read
    // in place and a C the TMA can write: packed 4097^3 runs 256 x 128 with C copied out by the threads, which
    // 192 x 256 cannot hold beside its accumulators. Exact problems, with K as measured: 2048 and more for 192 x 256,
    // whose store from the registers would weigh with short K, where C's traffic bounds the GEMM, and 1024 and more
    // for three consumers; the run-time-shape variants of these tiles have not run on a GPU.)
    const bool larger = !batched && p.runtime_dim == 0 && element_bytes(p) == 2 && operands_to_pack(p) == 0 &&
                        !tma_store_rejection(p);
    const std::vector<WgmmaConfig> paying =
        paying_tiles(p, device, larger && kDefaultsToDeepTiles && p.k >= 2048,
                     larger && kDefaultsToThreeConsumers && p.k >= 1024,
                     larger && kDefaultsToTurnedTiles && p.k >= 1024 && k_contiguous(p, 1));
    ladder.insert(ladder.begin(), paying.begin(), paying.end());
    for (std::size_t rung = 0; rung < ladder.size(); ++rung) {
        WgmmaConfig c = ladder_rung(ladder[rung], p, device);
        const bool pays = rung < paying.size();
        // C through the TMA where its layout takes it. A 16-bit C: on the H200 the 10 s searches of
        // bench/shapes/wgmma_targets.csv picked it for 14 of the 15 16-bit rows it can store, 0.98-1.03x cuBLAS
        // where this default without it ran 0.95-1.01x, and batched 512 x 512 x 64 x 64 ran 0.99x against 0.79x
        // (bench/results/2026-12-05-h200-s22.md). An fp32 C box by box: on the H100 (session 31,
        // bench/results/2026-12-06-h100-s31.md, two alternated rounds) bf16 -> fp32 4096^3 nn and tn ran 0.184 ms
        // against 0.194-0.198 from the registers (0.99x cuBLAS against 0.92-0.94x), 6144^3 0.610 against 0.640,
        // 2048 x 14336 x 4096 0.324-0.326 against 0.345-0.346, 8192 x 4096 x 14336 nt 1.23-1.27 against 1.32 and
        // TF32 4096^3 nt 0.348 against 0.362-0.363; 8192^3 f16 -> fp32 tn 1.52-1.55 against 1.56.
        c.start_store(c.kernel_problem(p));
        // Box by box where the tile has more than two boxes of C: the staging it frees holds another stage. On the
        // H100 (session 24, bench/results/2026-12-05-h100-s24.md) 256 x 128 with 4 stages so ran 0.5-3.5% faster
        // than with the whole tile staged and 3 stages on 13 of 14 alternated pairs of 4096^3 (nn, tn, f16),
        // 6144^3, 8192^3, 4096 x 8192 x 14336 and 14336 x 2048 x 4096: 1.00-1.03x cuBLAS against 0.97-1.01x.
        // Batches keep a 16-bit C's whole tile and an fp32 C's store from the registers until a batch has run
        // either way on the GPU (the search reaches them as refinements).
        if (batched && size_of(p.c_type) == 4) c.tma_store = false;
        c.store_by_box = c.tma_store && (c.rows_m || c.c_boxes(p) > 2) && !batched;
        c.stages = deepest_ring(c, p, device);
        // TF32 tiles whose operand fragments sit in registers may not hold them beside C's staging: from the registers.
        if (c.tma_store && c.validate(p, device)) {
            c.tma_store = c.store_by_box = false;
            c.stages = deepest_ring(c, p, device);
        }
        // A single GEMM's C that the TMA cannot write (off 16 bytes, as 4097 rows of 16 bits): staged box by box and
        // copied out by the threads, in runs along its columns, as start_store() begins, where from the registers
        // each warp store writes two elements in each of eight columns. On the H100 (session 39,
        // bench/shapes/copied_c_fixed.txt, two alternated rounds): 4097^3 bf16 (both operands packed) 0.304-0.306 ms
        // against 0.366 (3.35x cuBLAS against 2.79x), 6143 x 2048 x 4096 (op(A) packed) 0.178 against 0.240-0.241,
        // 1001 x 4096 x 4096 tn 0.051 against 0.075-0.076, 4095^3 f16 tn 0.239 against 0.325-0.326; 777 x 1111 x 3333
        // (one-consumer 128 x 64 tiles) level, 35.4-35.9 us. (Exact problems only: start_store() leaves run-time-shape
        // variants, which have not run so on a GPU, to the registers.)
        if (c.copied_store && (!kCopiesUnalignedC || c.validate(p, device))) {
            c.copied_store = false;
            c.stages = deepest_ring(c, p, device);
        }
        // Tiles of more accumulators than kMostAccumulatorsStaged (paying_tiles) store C from the registers, as
        // measured (an fp32 C's box buffers, which would not spill, leave room for only two stages of 192 x 256),
        // but for turned ones, whose rounds of C take 16 KB at most.
        const bool deep = c.accumulators(c.kernel_problem(p)) > kMostAccumulatorsStaged;
        if (deep && !c.rows_m) {
            c.tma_store = c.store_by_box = c.copied_store = false;
            c.stages = deepest_ring(c, p, device);
        }
        if (c.cluster != 1 && c.validate(p, device)) c.cluster = 1;  // a pair this problem's launch cannot take
        if (kDealsOutASparseLastTurn && !batched && !deep && sparse_last_turn(c, c.kernel_problem(p))) {
            WgmmaConfig dealt = c;
            dealt.stream_k = true;
            if (!dealt.validate(p, device)) return dealt;
        }
        // A batch cannot split K: its last step is taken whatever its tile count.
        const bool last = c.bm == ladder.back().bm && c.bn == ladder.back().bn;
        const bool enough_tiles = c.tiles(p) >= device.sm_count || (pays && 4 * c.tiles(p) >= 3 * device.sm_count);
        if ((enough_tiles || (batched && last)) && !c.validate(p, device)) return c;
        // Nearly a wave of the last step's tiles (at least three quarters of the SMs): stream-K deals their k blocks
        // out among all of the grid's blocks. On the H100 (session 33, bench/shapes/wgmma_skinny_fixed.txt) the 128
        // tiles of 128 x 16384 x 16384 bf16 so ran in 200-203 us (0.89-0.91x cuBLAS, 93-95% of the roof) against 300
        // for the mma.sync default, and session 32's 112 tiles of 14336 x 128 x 4096 in 53.3-53.5 against 60.5-61.4
        // (0.82x against 0.71x); with 32 or 64 tiles (4096 x 128 x 4096, 1024^3) stream-K ran level with that
        // default, not ahead: those shapes take the small tiles below. Only where the problem fills its tiles (seven
        // eighths and more of them: not a decode step's few columns, for which the other families have kernels).
        const bool fills_its_tiles = 8 * p.m * p.n >= 7 * c.tiles(p) * c.bm * c.bn;
        if (last && !batched && fills_its_tiles && 4 * c.tiles(p) >= 3 * std::int64_t{device.sm_count}) {
            // A narrow n (one 128-wide tile across it): whole one-consumer tiles of the instruction width, a multiple
            // of 16 under 128, whose tiles along m come nearest a wave without passing it. On the H100 (sessions 38
            // and 39, five alternated rounds) 14336 x 128 x 4096 bf16 in 112 x 128 tiles (128 of them) ran 45.6-46.1
            // us against 52.8-54.3 for stream-K over 112 tiles of 128 x 128 (0.99-1.01x cuBLAS against 0.84-0.87x).
            // Where that width is 128 (16384 x 128: 128 tiles either way), stream-K stays (0.89-0.92x, session 33).
            const std::int64_t width = (p.m + device.sm_count - 1) / device.sm_count;
            if (kDefaultsToWaveFittedWidths && p.n <= 128 && width < 112) {
                WgmmaConfig fitted = c;
                fitted.bm = static_cast<int>((width + 15) / 16 * 16);
                fitted.bn = 128;
                fitted.consumers = 1;
                fitted.cluster = 1;
                fitted.grid = 0;
                // C from the registers, as measured.
                fitted.tma_store = fitted.store_by_box = fitted.copied_store = false;
                fitted.stages = std::min(6, deepest_ring(fitted, p, device));  // as measured
                if (!fitted.validate(p, device)) return fitted;
            }
            WgmmaConfig dealt = c;
            dealt.cluster = 1;
            dealt.stream_k = true;
            if (!dealt.validate(p, device)) return dealt;
        }
    }
    return small_tile_default(p, device);
}

}  // namespace jitgemm
