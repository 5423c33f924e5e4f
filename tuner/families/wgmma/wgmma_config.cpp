// The wgmma family's rules, names and launch.
#include "tuner/families/wgmma/wgmma_config.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <tuple>

#include "tuner/families/common/config_text.h"
#include "tuner/families/common/operand_packing.h"
#include "tuner/families/common/resource_limits.h"
#include "tuner/families/wgmma/wgmma_tensor_maps.h"

namespace jitgemm {

namespace {

// fp16 or bf16 inputs (to any output), or fp32 inputs that the caller lets the Tensor Cores multiply in TF32, to fp32.
bool is_wgmma_input(const Problem& p) {
    if (p.a_type != p.b_type) return false;
    if (p.a_type == DType::F32) return p.compute == ComputeType::TF32 && p.c_type == DType::F32;
    return true;
}

bool is_tf32(const Problem& p) { return p.a_type == DType::F32; }

}  // namespace

bool is_wgmma_problem(const Problem& p, const DeviceInfo& device) {
    return device.cc_major == 9 && device.cc_minor == 0 && is_wgmma_input(p);
}

int WgmmaConfig::element_bytes(const Problem& p) { return is_tf32(p) ? 4 : 2; }

int WgmmaConfig::transposable_operands(const Problem& p) {
    return is_tf32(p) ? (k_contiguous(p, 0) ? 0 : 1) | (k_contiguous(p, 1) ? 0 : 2) : 0;
}

int WgmmaConfig::operands_to_pack(const Problem& p) {
    const int mask = (p.align_a < 16 ? 1 : 0) | (p.align_b < 16 ? 2 : 0);
    return transposable_operands(p) == 3 ? mask | 1 : mask;
}

int WgmmaConfig::operands_off_lines(const Problem& p) {
    if (element_bytes(p) != 2 || p.batch != 1) return 0;
    const auto off_lines = [](std::int64_t ld) { return ld * 2 % 128 != 0; };
    return (off_lines(p.lda) ? 1 : 0) | (off_lines(p.ldb) ? 2 : 0);
}

bool WgmmaConfig::forced_rows_along_m(const Problem& kernel_problem) {
    return is_tf32(kernel_problem) && !k_contiguous(kernel_problem, 0);
}

int WgmmaConfig::fragment_registers(const Problem& kernel_problem) const {
    // P is op(A) where the rows run along m, else op(B)^T; TF32 reads it through registers where it is stored across k.
    const int p_operand = rows_along_m(kernel_problem) ? 0 : 1;
    const bool p_in_registers = is_tf32(kernel_problem) && !k_contiguous(kernel_problem, p_operand);
    return p_in_registers ? 2 * consumer_rows(kernel_problem) / 64 * (bk / 8) * 4 : 0;
}

std::int64_t WgmmaConfig::tiles(const Problem& p) const {
    return tiles_of_c(p, bm, bn) * p.batch;
}

std::int64_t WgmmaConfig::units(const Problem& p) const {
    // A cluster's blocks share one unit: neighbouring tiles along n, or along m.
    return tiles_of_c(p, std::int64_t{bm} * cluster_m(), std::int64_t{bn} * cluster_n()) * p.batch;
}

std::int64_t WgmmaConfig::stream_clusters() const { return std::max(grid / cluster, 1); }

std::int64_t WgmmaConfig::stream_units_left(const Problem& p) const {
    return stream_k && grid > 0 ? units(p) % stream_clusters() : 0;
}

std::int64_t WgmmaConfig::stream_segments(const Problem& p) const {
    return stream_k_segments(stream_units_left(p), (p.k + bk - 1) / bk, stream_clusters());
}

std::int64_t WgmmaConfig::blocks(const Problem& p) const {
    // Stream-K deals the k blocks of the units left over among all of the grid's blocks, also where the units are
    // fewer than the blocks (no whole wave): every block launches.
    if (stream_k && grid > 0) return grid;
    if (ksplit > 1) return units(p) * ksplit;  // a cluster per unit
    const std::int64_t clusters = grid > 0 ? std::min<std::int64_t>(grid / cluster, units(p)) : units(p);
    return clusters * cluster;
}

std::optional<Rejection> WgmmaConfig::tma_store_rejection(const Problem& p) {
    if (forced_rows_along_m(p))
        return Rejection{PruneRule::Knobs, "with op(A) read through registers (TF32, A stored m-contiguous) C is "
                                           "stored from the registers (no _ts)"};
    if (p.align_c < 16)
        return Rejection{PruneRule::Knobs, "the TMA writes C only where its pointer and leading dimension are 16-byte "
                                           "aligned: store it from the registers (no _ts)"};
    // Measured on the H200: where a column of C ends inside a 16-byte chunk, the TMA's store wrote the chunk's rest,
    // C's padding (bench/results/2026-12-05-h200-s20.md).
    if (p.runtime_dim == 1 || p.m * size_of(p.c_type) % 16 != 0)
        return Rejection{PruneRule::Knobs, "the TMA writes whole 16-byte chunks of C's columns: m must fill them (m "
                                           "times C's element size a multiple of 16, m not a run-time size)"};
    return std::nullopt;
}

int WgmmaConfig::tile_rows(const Problem& problem, int operand) const {
    const int box = 128 / element_bytes(problem), rows = operand == 0 ? bm : bn;
    return k_contiguous(kernel_problem(problem), operand) ? rows : (rows + box - 1) / box * box;
}

void WgmmaConfig::start_store(const Problem& kernel_problem) {
    // Turned tiles (rows_m) round by round, each consumer's rows whole boxes of m.
    const int boxed_rows = rows_m ? consumer_rows(kernel_problem) : bm;
    tma_store = !tma_store_rejection(kernel_problem) && boxed_rows % c_box_elements(kernel_problem) == 0;
    store_by_box = tma_store && (rows_m || (size_of(kernel_problem.c_type) == 4 && c_boxes(kernel_problem) > 2));
    // A single GEMM's C that the TMA cannot write (off 16 bytes): staged and copied out by the threads, as the untuned
    // default does (wgmma_search.cpp says what it ran); the store from the registers is the refinement.
    copied_store = !tma_store && !rows_m && !forced_rows_along_m(kernel_problem) && kernel_problem.batch == 1 &&
                   kernel_problem.runtime_dim == 0 && tma_store_rejection(kernel_problem) &&
                   bm % c_box_elements(kernel_problem) == 0;
}

std::optional<Rejection> WgmmaConfig::validate(const Problem& problem, const DeviceInfo& device) const {
    if (!is_wgmma_input(problem))
        return Rejection{PruneRule::Dtype, "the wgmma family takes fp16 or bf16 inputs, or fp32 inputs with compute "
                                           "tf32 to an fp32 output"};
    if (device.cc_major != 9 || device.cc_minor != 0)
        return Rejection{PruneRule::Dtype, std::string(is_tf32(problem) ? "TF32 " : "") +
                                               "wgmma, TMA and setmaxnreg need the sm_90a target (compute capability "
                                               "9.0)"};
    if (bk * element_bytes(problem) != 128 && bk * element_bytes(problem) != 256)
        return Rejection{PruneRule::Knobs, is_tf32(problem) ? "bk must be 32 or 64 for TF32 (rows of 128 or 256 bytes)"
                                                            : "bk must be 64 or 128 (rows of 128 or 256 bytes)"};
    if (consumers < 1 || consumers > 3) return Rejection{PruneRule::Knobs, "consumers must be 1, 2 or 3"};
    if (pingpong && (consumers != 2 || stream_k || grid == 0))
        return Rejection{PruneRule::Knobs, "ping-pong (_pp) takes two consumers (c2) that take whole tiles of a "
                                           "persistent grid (_q<grid>) in turn, no stream-K (_sk)"};
    if (stages < 2 || stages > 8) return Rejection{PruneRule::Knobs, "stages must be 2 to 8"};
    if (group < 1 || group > 64) return Rejection{PruneRule::Knobs, "group must be 1..64"};
    if (cluster != 1 && cluster != 2) return Rejection{PruneRule::Knobs, "cluster must be 1 or 2"};
    if (pairs_m && cluster != 2)
        return Rejection{PruneRule::Knobs, "pairs along m (_y) are clusters of two (_y2)"};
    if (grid < 0 || grid % cluster != 0)
        return Rejection{PruneRule::Knobs, "grid must be 0 (one block per tile) or a block count, a multiple of the "
                                           "cluster"};
    if (pack < 0 || pack > 3) return Rejection{PruneRule::Knobs, "pack is 0 (none), 1 (A), 2 (B) or 3 (both)"};
    if (ksplit != 1) {
        if (ksplit < 2 || ksplit > 8)
            return Rejection{PruneRule::Knobs, "ksplit (_k) is 2 to 8 blocks"};
        if (cluster != 1 || stream_k || pingpong || grid != 0 || staged_store())
            return Rejection{PruneRule::Knobs, "K split across a cluster (_k) takes one cluster per tile (no _q, _sk, "
                                               "_pp or _x) and stores C from the registers (no _ts, _tb or _tc)"};
    }
    if (problem.batch > 1 && pack != 0)
        return Rejection{PruneRule::Batch, "a batched problem's operands are read where they are (pack 0): the TMA "
                                           "needs them 16-byte aligned, and in TF32 one of them stored along k"};
    if (problem.runtime_dim != 0 && pack != 0)
        return Rejection{PruneRule::RuntimeShape, "a run-time-shape variant reads its operands where they are "
                                                  "(pack 0): a packed copy is sized by the problem"};
    const Problem p = kernel_problem(problem);
    if (rows_m && is_tf32(p))
        return Rejection{PruneRule::Knobs, "the instructions' rows turn along m by choice (_m) for 16-bit inputs only "
                                           "(TF32 turns them where op(A) is stored m-contiguous)"};
    if (rows_m && (copied_store || (tma_store && !store_by_box)))
        return Rejection{PruneRule::Knobs, "with the instructions' rows along m (_m) C is stored from the registers or "
                                           "through the TMA round by round (_tb; no _ts or _tc)"};
    // The instruction's width (bm, or bn where the rows run along m) is any multiple of 16 up to 256 (an extent that
    // fits a narrow side of C); its rows (bn, or bm) come 64 per instruction.
    const int width = instruction_width(p), rows = rows_along_m(p) ? bm : bn;
    if (width < 16 || width > 256 || width % 16 != 0 || rows < 64 || rows > 256 || rows % 64 != 0)
        return Rejection{PruneRule::Knobs, rows_along_m(p) ? "with the instructions' rows along m (_m, or TF32 with A "
                                                             "stored m-contiguous) bn is their width, a multiple of "
                                                             "16 up to 256, and bm 64, 128, 192 or 256"
                                                           : "bm is the instruction's width, a multiple of 16 up to "
                                                             "256, and bn 64, 128, 192 or 256"};
    if (is_tf32(p) && !k_contiguous(p, 0) && !k_contiguous(p, 1))
        return Rejection{PruneRule::Knobs, "TF32 wgmma reads one operand from registers and the other k-contiguous "
                                           "from shared memory (PTX has no transpose for .tf32): A and B are both "
                                           "stored m- or n-contiguous here, so one must be packed first (_p1 or _p2)"};
    // The consumers split the instruction's rows: BN's (BM's where they run along m) 64 per instruction.
    if (consumer_rows(p) % 64 != 0)
        return Rejection{PruneRule::Knobs, rows_along_m(p) ? "with the instructions' rows along m (_m, or TF32 with A "
                                                             "stored m-contiguous) the consumers split bm: a multiple "
                                                             "of 64 per consumer warpgroup"
                                                           : "bn must be a multiple of 64 per consumer warpgroup"};
    if (stream_k) {
        if (grid == 0 || grid % cluster != 0)
            return Rejection{PruneRule::Knobs, "stream-K (_sk) deals out k blocks among a persistent grid's clusters "
                                               "(_q<grid>, whole clusters)"};
        if (problem.runtime_dim != 0)
            return Rejection{PruneRule::RuntimeShape, "stream-K lays out its workspace for the exact problem"};
        const std::int64_t k_blocks = (p.k + bk - 1) / bk;
        if (stream_units_left(p) == 0 || stream_units_left(p) * k_blocks < stream_clusters())
            return Rejection{PruneRule::Knobs, "stream-K needs units left over after the whole waves (all of them where "
                                               "they are fewer than the grid's clusters) with at least a k block per "
                                               "cluster of the grid"};
    }
    if (ksplit > 1) {
        if (fragment_registers(p) > 0)
            return Rejection{PruneRule::Knobs, "K split across a cluster (_k) reads both operands from shared memory "
                                               "(not TF32 with one stored across k, read through registers)"};
        if (instruction_width(p) / 16 < ksplit)
            return Rejection{PruneRule::Knobs, "ksplit (_k) is 2 to 8 blocks, each storing at least 16 of the "
                                               "instruction's width (bm, or bn with _m)"};
        if ((p.k + bk - 1) / bk < ksplit)
            return Rejection{PruneRule::Knobs, "K split across a cluster (_k) gives each block at least one k block"};
        // Each consumer thread's accumulators as float4, in the ring (kernel_sources/wgmma/wgmma.cuh).
        if (accumulators(p) * 4 * 128 * consumers > ring_bytes(p))
            return Rejection{PruneRule::Knobs, "K split across a cluster (_k) leaves the partial sums in the ring: "
                                               "more stages"};
    }
    if (accumulators(p) > 192)
        return Rejection{PruneRule::Registers, std::to_string(accumulators(p)) +
                                                   " accumulators per consumer thread; at most 192 leave room for "
                                                   "addresses within the 232 registers a consumer gets" +
                                                   (pingpong ? " (in ping-pong a consumer holds a whole tile)" : "")};
    // (A whole tile of C staged beside them spilled: 32 bytes of 192 x 192 bf16 on sm_90a.)
    if (consumers == 3 && tma_store && !store_by_box)
        return Rejection{PruneRule::Registers, "three consumers (c3) store C from the registers or box by box (_tb): "
                                               "with the whole tile staged (_ts) their 152 registers spill"};
    if (consumers == 3 && accumulators(p) > kMostAccumulatorsOfThree)
        return Rejection{PruneRule::Registers, std::to_string(accumulators(p)) +
                                                   " accumulators per consumer thread of three (c3); at most " +
                                                   std::to_string(kMostAccumulatorsOfThree) +
                                                   " fit the 152 registers each of three consumers gets"};
    // Compiled for sm_90a (4096^3, every TF32 layout: 2,664 candidates of the search and its refinements): every tile
    // whose consumers held at most 192 of these registers kept its wgmma pipeline, and every one that held 256 or more
    // had it serialized by ptxas (warning C7511) — a compile the search spent for nothing. With C through the TMA and
    // operand fragments in registers, half the tiles of 160 and nearly all of 192 spilled, none of 128 or fewer.
    const int register_limit = staged_store() && fragment_registers(p) > 0 ? 128 : 192;
    if (accumulators(p) + fragment_registers(p) > register_limit)
        return Rejection{PruneRule::Registers,
                         std::to_string(accumulators(p)) + " accumulators and " + std::to_string(fragment_registers(p)) +
                             " registers of operand fragments per consumer thread: above " +
                             std::to_string(register_limit) +
                             (staged_store() ? ", with C staged, they spill" : ", ptxas serializes the wgmma "
                                                                                   "instructions (C7511)")};
    if (tma_store)
        if (auto why = tma_store_rejection(p)) return why;
    if (tma_store && bm % c_box_elements(p) != 0)
        return Rejection{PruneRule::Knobs, "C goes through the TMA (_ts, _tb) in whole boxes of 128 bytes of m: bm a "
                                           "multiple of " + std::to_string(c_box_elements(p))};
    if (tma_store && rows_m && consumer_rows(p) % c_box_elements(p) != 0)
        return Rejection{PruneRule::Knobs, "with the instructions' rows along m (_m) each consumer's rows of C go "
                                           "through the TMA (_tb) in whole boxes of 128 bytes of m: " +
                                               std::to_string(c_box_elements(p)) + " m and more"};
    if (store_by_box && !tma_store)
        return Rejection{PruneRule::Knobs, "box by box (_tb) is a way of storing C through the TMA"};
    if (copied_store && tma_store)
        return Rejection{PruneRule::Knobs, "C goes through the TMA (_ts, _tb) or is copied out by the threads (_tc), "
                                           "not both"};
    if (copied_store && forced_rows_along_m(p))
        return Rejection{PruneRule::Knobs, "with op(A) read through registers (TF32, A stored m-contiguous) C is "
                                           "stored from the registers (no _tc)"};
    if (copied_store && bm % c_box_elements(p) != 0)
        return Rejection{PruneRule::Knobs, "C is staged (_tc) in whole boxes of 128 bytes of m: bm a multiple of " +
                                               std::to_string(c_box_elements(p))};
    if (store_by_box && !rows_m && c_boxes(p) <= 2)
        return Rejection{PruneRule::Knobs, "a tile of " + std::to_string(c_boxes(p)) +
                                               " boxes of C takes no more shared memory whole (_ts) than box by box"};
    for (const auto& [name, align] : {std::pair{'A', p.align_a}, {'B', p.align_b}})
        if (align < 16)
            return Rejection{PruneRule::Knobs, std::string("the TMA reads ") + name +
                                                   " only where its pointer and leading dimension are 16-byte "
                                                   "aligned: pack it first (_p" + (name == 'A' ? "1" : "2") + ")"};
    constexpr std::int64_t kCoordinateLimit = std::numeric_limits<std::int32_t>::max() - 256;
    if (p.m > kCoordinateLimit || p.n > kCoordinateLimit || p.k > kCoordinateLimit)
        return Rejection{PruneRule::Knobs, "the TMA's coordinates are 32-bit: m, n and k must stay below 2^31"};
    if (p.k == 0) return Rejection{PruneRule::Knobs, "k = 0 is the reference family's scaling kernel"};
    if (units(p) > std::numeric_limits<std::int32_t>::max())
        return Rejection{PruneRule::Knobs, "more tiles than a grid holds"};
    // One block per SM by design (__launch_bounds__(threads, 1)); the registers per thread are what that leaves.
    return check_resources(device, threads(), std::min(248, device.registers_per_block / threads() / 8 * 8),
                           shared_bytes(problem), true);
}

KnobDefines WgmmaConfig::defines() const {
    return {{"WGMMA_BM", bm},         {"WGMMA_BN", bn},         {"WGMMA_BK", bk},
            {"WGMMA_CONSUMERS", consumers}, {"WGMMA_STAGES", stages}, {"WGMMA_GROUP", group},
            {"WGMMA_CLUSTER", cluster}, {"WGMMA_CLUSTER_M", pairs_m ? 1 : 0},
            {"WGMMA_STORE", tma_store ? (store_by_box ? 2 : 1) : copied_store ? 3 : 0},
            {"WGMMA_STREAMK", stream_k ? grid : 0}, {"WGMMA_PINGPONG", pingpong ? 1 : 0},
            {"WGMMA_KSPLIT", ksplit}, {"WGMMA_ROWS_M", rows_m ? 1 : 0}};
}

// TF32 copies are k-contiguous whatever the operand's layout (the instruction reads no other); 16-bit copies keep it.
Problem WgmmaConfig::kernel_problem(const Problem& problem) const {
    return is_tf32(problem) ? k_major_packed_problem(problem, pack, 4) : packed_problem(problem, pack, 2);
}

std::vector<OperandPack> WgmmaConfig::packs(const Problem& problem) const {
    std::vector<OperandPack> out;
    for (int operand = 0; operand < 2; ++operand)
        if (pack & (1 << operand))
            out.push_back(is_tf32(problem) ? k_major_pack(problem, operand, 4) : column_pack(problem, operand, 2));
    return out;
}

LaunchDescription WgmmaConfig::launch(const Problem& problem) const {
    LaunchDescription g = tile_grid(blocks(problem), 1, threads(), shared_bytes(problem));
    g.packs = packs(problem);
    g.cluster = {static_cast<std::uint32_t>(cluster * ksplit), 1, 1};  // one of them is 1
    // A persistent grid's clusters take every (grid's clusters)-th unit; stream-K's runs are dealt out among the
    // clusters of the grid as compiled.
    g.grid_strided = grid > 0 && !stream_k;
    // C's boxes, where it goes through the TMA: one 128-byte row of m by a consumer's columns, or (rows along m) by a
    // round's.
    const int c_rows = !tma_store ? 0 : rows_m ? turned_round_columns(problem) : bn / stage_readers();
    g.preparation =
        std::make_shared<WgmmaTensorMaps>(kernel_problem(problem),
                                          TensorMapBoxes{bm / cluster_n(), bn / cluster_m(), bk, c_rows});
    if (stream_k) {
        // As kernel_sources/wgmma/wgmma.cuh lays it out (common/jg_split_k.cuh): a zeroed arrival counter per tile
        // of the units dealt out, then a BM x BN tile of fp32 partial sums per block and unit its cluster's run
        // reaches into.
        const Problem p = kernel_problem(problem);
        g.partial_sums_zeroed_bytes = arrival_counter_bytes(stream_units_left(p) * cluster);
        g.partial_sums_bytes = g.partial_sums_zeroed_bytes + std::int64_t{grid} * stream_segments(p) * bm * bn * 4;
    }
    return g;
}

std::string WgmmaConfig::to_string() const {
    using config_text::format_numbers;
    return "wgmma_" + format_numbers("", {bm, bn, bk}) + "_" + format_numbers("c", {consumers}) + "_" +
           format_numbers("s", {stages}) + "_" + format_numbers("g", {group}) + (rows_m ? "_m" : "") +
           (cluster != 1 ? "_" + format_numbers(pairs_m ? "y" : "x", {cluster}) : "") +
           (ksplit != 1 ? "_" + format_numbers("k", {ksplit}) : "") +
           (grid != 0 ? "_" + format_numbers("q", {grid}) : "") + (stream_k ? "_sk" : "") + (pingpong ? "_pp" : "") +
           (pack != 0 ? "_" + format_numbers("p", {pack}) : "") +
           (tma_store ? (store_by_box ? "_tb" : "_ts") : copied_store ? "_tc" : "");
}

std::optional<WgmmaConfig> WgmmaConfig::parse(std::string_view name) {
    using config_text::parse_numbers;
    const auto parsed = config_text::family_fields(name, kName);
    if (!parsed || parsed->size() < 4 || parsed->size() > 12) return std::nullopt;
    const std::vector<std::string_view>& fields = *parsed;
    const auto block = parse_numbers(fields[0], "", 3);
    const auto consumers = parse_numbers(fields[1], "c", 1);
    const auto stages = parse_numbers(fields[2], "s", 1);
    const auto group = parse_numbers(fields[3], "g", 1);
    if (!block || !consumers || !stages || !group) return std::nullopt;
    WgmmaConfig c;
    c.bm = (*block)[0];
    c.bn = (*block)[1];
    c.bk = (*block)[2];
    c.consumers = (*consumers)[0];
    c.stages = (*stages)[0];
    c.group = (*group)[0];
    // Optional fields, in this order and only where they differ from the default (a default spelled out would give
    // one kernel two names): "_m" (rows along m), "_x<cluster>" or "_y<cluster>" (not 1; pairs along n or m),
    // "_k<ksplit>" (not 1), "_q<grid>" (not 0),
    // "_sk" (stream-K), "_pp" (ping-pong), "_p<mask>" (not 0), "_ts" or "_tb" (C through the TMA, the tile at once or
    // box by box) or "_tc" (C staged box by box and copied out by the threads).
    std::size_t next = 4;
    if (next < fields.size() && fields[next] == "m") {
        c.rows_m = true;
        ++next;
    }
    if (next < fields.size() && !fields[next].empty() && (fields[next][0] == 'x' || fields[next][0] == 'y')) {
        c.pairs_m = fields[next][0] == 'y';
        const auto cluster = parse_numbers(fields[next++], c.pairs_m ? "y" : "x", 1);
        if (!cluster || (*cluster)[0] == 1) return std::nullopt;
        c.cluster = (*cluster)[0];
    }
    if (next < fields.size() && !fields[next].empty() && fields[next][0] == 'k') {
        const auto ksplit = parse_numbers(fields[next++], "k", 1);
        if (!ksplit || (*ksplit)[0] == 1) return std::nullopt;
        c.ksplit = (*ksplit)[0];
    }
    if (next < fields.size() && !fields[next].empty() && fields[next][0] == 'q') {
        const auto grid = parse_numbers(fields[next++], "q", 1);
        if (!grid) return std::nullopt;
        c.grid = (*grid)[0];
    }
    if (next < fields.size() && fields[next] == "sk") {
        c.stream_k = true;
        ++next;
    }
    if (next < fields.size() && fields[next] == "pp") {
        c.pingpong = true;
        ++next;
    }
    if (next < fields.size() && !fields[next].empty() && fields[next][0] == 'p') {
        const auto pack = parse_numbers(fields[next++], "p", 1);
        if (!pack) return std::nullopt;
        c.pack = (*pack)[0];
    }
    if (next < fields.size() && (fields[next] == "ts" || fields[next] == "tb")) {
        c.tma_store = true;
        c.store_by_box = fields[next] == "tb";
        ++next;
    } else if (next < fields.size() && fields[next] == "tc") {
        c.copied_store = true;
        ++next;
    }
    if (next != fields.size()) return std::nullopt;
    return c;
}

}  // namespace jitgemm
