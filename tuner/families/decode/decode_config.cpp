// The decode family's rules, names and launch.
#include "tuner/families/decode/decode_config.h"

#include <algorithm>
#include <cstdint>

#include "tuner/families/common/config_text.h"
#include "tuner/families/common/operand_packing.h"
#include "tuner/families/common/resource_limits.h"

namespace jitgemm {
namespace {


int elements_per_load(const Problem& p) { return 16 / size_of(p.a_type); }

// k a block advances per step, and the k of one split (a whole number of steps), as decode.cuh works them out.
std::int64_t window(const DecodeConfig& c, const Problem& p) {
    if (decode_shape(p).w_k_contiguous) return c.lanes_k * elements_per_load(p);
    return c.mma ? 16 : 4 * c.warps;
}
std::int64_t slice(const DecodeConfig& c, const Problem& p) {
    const std::int64_t unit = std::max<std::int64_t>(window(c, p), elements_per_load(p));  // powers of two
    return ((p.k + c.splits - 1) / c.splits + unit - 1) / unit * unit;
}

// Bytes between X's staged rows: the slice rounded to 128 bytes, padded for the mma paths' bank-conflict-free reads.
std::int64_t x_pitch(const DecodeConfig& c, const Problem& p) {
    const std::int64_t padding = c.mma ? (decode_shape(p).w_k_contiguous ? 64 : 16) : 0;
    return (slice(c, p) * size_of(p.a_type) + 127) / 128 * 128 + padding;
}

// Accumulators per thread, by the kind of math and W's layout.
int accumulators(const DecodeConfig& c, const Problem& p) {
    if (!decode_shape(p).w_k_contiguous) return c.mma ? 4 * (c.columns / 8) * 4 : elements_per_load(p) * c.columns;
    return c.mma ? c.rg * (c.columns / 8) * 4 : 2 * c.rg * c.columns;
}

}  // namespace

DecodeShape decode_shape(const Problem& p) {
    DecodeShape d;
    d.small_n = p.n <= p.m;
    d.small = d.small_n ? p.n : p.m;
    d.large = d.small_n ? p.m : p.n;
    d.w_k_contiguous = k_contiguous(p, d.small_n ? 0 : 1);
    return d;
}

std::int64_t DecodeConfig::rows(const Problem& p) const {
    if (decode_shape(p).w_k_contiguous) return std::int64_t{warps} * 2 * (32 / lanes_k) * rg;
    return mma ? std::int64_t{warps} * 64 : 32 * elements_per_load(p);
}
std::int64_t DecodeConfig::row_tiles(const Problem& p) const {
    return (decode_shape(p).large + rows(p) - 1) / rows(p);
}
std::int64_t DecodeConfig::column_tiles(const Problem& p) const {
    return (decode_shape(p).small + columns - 1) / columns;
}
std::int64_t DecodeConfig::blocks(const Problem& p) const {
    return row_tiles(p) * splits * column_tiles(p) * p.batch;  // a batch's GEMMs are the grid's third dimension
}

std::int64_t DecodeConfig::sums_bytes(const Problem& p) const {
    return rows(p) * (columns + 1) * 4;  // the block's sums, rows padded to an odd length
}

std::int64_t DecodeConfig::staged_x_bytes(const Problem& p) const { return columns * x_pitch(*this, p); }

std::int64_t DecodeConfig::w_ring_bytes(const Problem& p) const {
    // Each thread's chunks of `unroll` steps: two rows per row group where W is along k (decode.cuh: W_RING_BYTES).
    return staged ? std::int64_t{unroll} * (decode_shape(p).w_k_contiguous ? 2 * rg : 4) * threads() * 16 : 0;
}

int DecodeConfig::shared_bytes(const Problem& p) const {
    // X's rows of the block's slice, staged, W's ring, then the block's sums (more than a block may have: validate
    // refuses it).
    const std::int64_t bytes = staged_x_bytes(p) + w_ring_bytes(p) + sums_bytes(p);
    return static_cast<int>(std::min<std::int64_t>(bytes, INT32_MAX));
}

int DecodeConfig::estimated_registers(const Problem& p) const {
    const bool along_k = decode_shape(p).w_k_contiguous;
    const int vec = elements_per_load(p);
    // The 16-byte loads of W, 4 registers each: all steps in flight, or where they are staged the step computed.
    const int in_flight = (staged ? 1 : unroll) * 4 * (along_k ? 2 * rg : 4);
    // What a step converts to fp32 (simt: W's chunks and X's) or hands to mma.sync (X's chunk; the permuted words).
    const int operands = mma ? (along_k ? 4 : 18) : (along_k ? 2 * rg * vec + vec : 4 * vec + 4);
    return accumulators(*this, p) + in_flight + operands + 60;  // 60: addresses, loop state (ptxas, sm_90)
}

std::optional<Rejection> DecodeConfig::validate(const Problem& p, const DeviceInfo& device) const {
    if (p.a_type != p.b_type) return Rejection{PruneRule::Dtype, "the decode family needs A and B of one type"};
    const DecodeShape d = decode_shape(p);
    // A run-time-shape variant's kernel takes its run-time dimension for the small side (decode.cuh: SMALL_N), so it
    // computes only the calls whose small side that is; launch() orients the grid by this call's sizes.
    if (p.runtime_dim == 1 && d.small_n)
        return Rejection{PruneRule::RuntimeShape, "a decode kernel with m at run time needs m to be the small side "
                                                  "(m < n), not m = " + std::to_string(p.m) + ", n = " +
                                                  std::to_string(p.n)};
    if (p.runtime_dim == 2 && !d.small_n)
        return Rejection{PruneRule::RuntimeShape, "a decode kernel with n at run time needs n to be the small side "
                                                  "(n <= m), not m = " + std::to_string(p.m) + ", n = " +
                                                  std::to_string(p.n)};
    if (d.small > kMaxSmall)
        return Rejection{PruneRule::Knobs, "the decode family needs min(m, n) <= " + std::to_string(kMaxSmall) +
                                               ", not " + std::to_string(d.small)};
    if (p.k < 1) return Rejection{PruneRule::Knobs, "k = 0 is served by the reference family"};
    if (mma) {
        if (p.a_type == DType::F32) return Rejection{PruneRule::Dtype, "mma decode takes fp16 or bf16 inputs"};
        if (columns % 8 != 0) return Rejection{PruneRule::Knobs, "mma decode takes columns in eights"};
        if (device.cc_major < 8) return Rejection{PruneRule::Dtype, "mma.sync on 16-bit inputs needs sm_80 or newer"};
    }
    if (warps != 1 && warps != 2 && warps != 4 && warps != 8)
        return Rejection{PruneRule::Knobs, "warps must be 1, 2, 4 or 8"};
    if (rg != 1 && rg != 2 && rg != 4) return Rejection{PruneRule::Knobs, "row groups must be 1, 2 or 4"};
    if (lanes_k != 4 && lanes_k != 8 && lanes_k != 16 && lanes_k != 32)
        return Rejection{PruneRule::Knobs, "lanes along k must be 4, 8, 16 or 32"};
    if (lanes_k != 4 && (mma || !d.w_k_contiguous))
        return Rejection{PruneRule::Knobs, "lanes along k other than 4: the simt math on W stored along k only"};
    if (!d.w_k_contiguous && rg != 1)
        return Rejection{PruneRule::Knobs, "one row group where the large operand is stored along its rows"};
    // More columns than the small side are work wasted, so the search offers none; a run-time-shape variant tuned
    // for a larger small side still computes a smaller one (its columns past the side are zeros it does not store).
    const std::int64_t needed = p.runtime_dim != 0 ? kMaxSmall : mma ? (d.small + 7) / 8 * 8 : d.small;
    if (columns < 1 || columns > needed)
        return Rejection{PruneRule::Knobs, "columns must be 1 to " + std::to_string(needed) + " for a small side of " +
                                               std::to_string(d.small)};
    if (accumulators(*this, p) > 128)
        return Rejection{PruneRule::Registers, std::to_string(accumulators(*this, p)) +
                                                   " accumulators per thread, at most 128 (fewer columns)"};
    if (!staged && (unroll < 1 || unroll > 8)) return Rejection{PruneRule::Knobs, "unroll must be 1 to 8"};
    if (staged) {
        if (unroll < 2 || unroll > 16)
            return Rejection{PruneRule::Knobs, "unroll must be 2 to 16 where W is staged (_s)"};
        if (!d.w_k_contiguous)
            return Rejection{PruneRule::Knobs, "W staged (_s) where it is stored along k only"};
        if (device.cc_major < 8) return Rejection{PruneRule::Knobs, "W staged (_s) needs cp.async (sm_80 or newer)"};
        if ((d.small_n ? p.align_a : p.align_b) < 4)
            return Rejection{PruneRule::Knobs, "W staged (_s) copies at least 4 bytes at a time: W must be "
                                                   "4-byte aligned"};
    }
    if (splits < 1 || splits > 64) return Rejection{PruneRule::Knobs, "splits must be 1 to 64"};
    if (cluster && (splits < 2 || splits > 8))
        return Rejection{PruneRule::Knobs, "a cluster of the splits takes 2 to 8 of them"};
    if (cluster && device.cc_major < 9) return Rejection{PruneRule::Knobs, "clusters need sm_90 or newer"};
    if (p.batch > 1 && splits > 1 && !cluster)
        return Rejection{PruneRule::Batch, "a batch's slices of K meet only within a cluster (_x): the workspace's "
                                           "sums are laid out for one GEMM"};
    if ((splits - 1) * slice(*this, p) >= p.k)
        return Rejection{PruneRule::Knobs, "K = " + std::to_string(p.k) + " leaves a split of the " +
                                               std::to_string(splits) + " with no k"};
    return check_resources(device, threads(), estimated_registers(p), shared_bytes(p), true);
}

KnobDefines DecodeConfig::defines() const {
    return {{"DECODE_MMA", mma ? 1 : 0}, {"DECODE_WARPS", warps},   {"DECODE_ROW_GROUPS", rg},
            {"DECODE_COLUMNS", columns}, {"DECODE_SPLITS", splits}, {"DECODE_UNROLL", unroll},
            {"DECODE_CLUSTER", cluster ? 1 : 0}, {"DECODE_STAGED_W", staged ? 1 : 0},
            {"DECODE_LANES_K", lanes_k}};
}

LaunchDescription DecodeConfig::launch(const Problem& p) const {
    LaunchDescription g = tile_grid(row_tiles(p) * splits, 1, threads(), shared_bytes(p), p.batch);
    g.grid.y = static_cast<std::uint32_t>(column_tiles(p));
    if (cluster) {
        g.cluster.x = static_cast<std::uint32_t>(splits);  // blockIdx.x = row tile x splits + split
    } else if (splits > 1) {
        // One arrival counter per tile, then a slot of the block's padded sums per split of every tile.
        const std::int64_t tiles = row_tiles(p) * column_tiles(p);
        g.partial_sums_zeroed_bytes = arrival_counter_bytes(tiles);
        g.partial_sums_bytes = g.partial_sums_zeroed_bytes + tiles * splits * sums_bytes(p);
    }
    return g;
}

std::string DecodeConfig::to_string() const {
    using config_text::format_numbers;
    return std::string("decode_") + (mma ? "mma" : "simt") + "_" + format_numbers("w", {warps}) + "_" +
           format_numbers("r", {rg}) + "_" + format_numbers("c", {columns}) + "_" + format_numbers("k", {splits}) +
           "_" + format_numbers("u", {unroll}) + (lanes_k != 4 ? "_" + format_numbers("l", {lanes_k}) : "") +
           (staged ? "_s" : "") + (cluster ? "_x" : "");
}

std::optional<DecodeConfig> DecodeConfig::parse(std::string_view name) {
    using config_text::parse_numbers;
    const auto fields = config_text::family_fields(name, kName);
    if (!fields || fields->size() < 6 || fields->size() > 9) return std::nullopt;
    DecodeConfig c;
    // The optional fields after the unroll, in their order: "l<LANES>" (never "l4", the default), "s", then "x".
    std::size_t next = 6;
    if (next < fields->size() && !(*fields)[next].empty() && (*fields)[next][0] == 'l') {
        const auto lanes = parse_numbers((*fields)[next], "l", 1);
        if (!lanes || (*lanes)[0] == 4) return std::nullopt;
        c.lanes_k = (*lanes)[0];
        ++next;
    }
    if (next < fields->size() && (*fields)[next] == "s") {
        c.staged = true;
        ++next;
    }
    if (next < fields->size() && (*fields)[next] == "x") {
        c.cluster = true;
        ++next;
    }
    if (next != fields->size()) return std::nullopt;
    if ((*fields)[0] == "mma") c.mma = true;
    else if ((*fields)[0] != "simt") return std::nullopt;
    const auto warps = parse_numbers((*fields)[1], "w", 1);
    const auto rg = parse_numbers((*fields)[2], "r", 1);
    const auto columns = parse_numbers((*fields)[3], "c", 1);
    const auto splits = parse_numbers((*fields)[4], "k", 1);
    const auto unroll = parse_numbers((*fields)[5], "u", 1);
    if (!warps || !rg || !columns || !splits || !unroll) return std::nullopt;
    c.warps = (*warps)[0];
    c.rg = (*rg)[0];
    c.columns = (*columns)[0];
    c.splits = (*splits)[0];
    c.unroll = (*unroll)[0];
    return c;
}

}  // namespace jitgemm
