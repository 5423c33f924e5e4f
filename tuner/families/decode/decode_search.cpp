// The decode family's search space, refinements, cost estimate and untuned default.
#include <algorithm>
#include <cmath>

#include "runtime/device/occupancy.h"
#include "tuner/families/decode/decode_config.h"

namespace jitgemm {
namespace {

// The small sides its untuned default serves in fp32 (decode steps); beyond, the other families' defaults.
constexpr std::int64_t kDefaultSmall = 16;
// Bytes in flight per SM that cover DRAM's latency at its full rate. Little's law with ~0.8 us under load gives ~26 KB
// on the H200; measured, 4096 x 4096 bf16 ran at 47% of the copy rate with 32 KB in flight per SM and 56% with 64 KB,
// so the model asks for 64.
constexpr double kBytesInFlightPerSm = 64.0 * 1024;

bool is_decode_problem(const Problem& p) {
    return p.a_type == p.b_type && p.k >= 1 && decode_shape(p).small <= DecodeConfig::kMaxSmall;
}

// The most columns one block takes for this math and layout (the kernel's accumulators), and a column count that
// splits the small side into equal tiles of at most that.
int most_columns(bool mma, const Problem& p) {
    const bool along_k = decode_shape(p).w_k_contiguous;
    const int vec = 16 / size_of(p.a_type);
    if (mma) return 64;
    return along_k ? 16 : std::max(1, 64 / vec);
}
int balanced_columns(std::int64_t small, int most, bool mma) {
    const std::int64_t tiles = (small + most - 1) / most;
    std::int64_t columns = (small + tiles - 1) / tiles;
    if (mma) columns = (columns + 7) / 8 * 8;
    return static_cast<int>(columns);
}

DecodeConfig decode(bool mma, int warps, int rg, int columns, int splits, int unroll) {
    DecodeConfig c;
    c.mma = mma;
    c.warps = warps;
    c.rg = rg;
    c.columns = columns;
    c.splits = splits;
    c.unroll = unroll;
    return c;
}

}  // namespace

std::vector<DecodeConfig> DecodeConfig::enumerate(const Problem& p, const DeviceInfo& device) {
    if (!is_decode_problem(p)) return {};
    const DecodeShape d = decode_shape(p);
    std::vector<DecodeConfig> out;
    for (const bool mma : {false, true}) {
        if (mma && p.a_type == DType::F32) continue;
        const int most = most_columns(mma, p);
        std::vector<int> column_choices{balanced_columns(d.small, most, mma)};
        if (most >= 16) {
            const int narrower = balanced_columns(d.small, most / 2, mma);
            if (narrower != column_choices.front()) column_choices.push_back(narrower);
        }
        // Four or eight warps (two never won on the H200); splits only where the blocks fill at least half the SMs
        // and at most eight waves of them, so that a small problem's search stays short.
        for (const int warps : {4, 8})
            for (const int rg : {1, 2}) {
                if (rg > 1 && !d.w_k_contiguous) continue;
                for (const int columns : column_choices)
                    for (const int unroll : {2, 4, 8})  // 8: W staged in shared memory (the registers hold 2 or 4)
                        for (const int splits : {1, 2, 4, 8, 16, 32})
                            for (const bool cluster : {false, true}) {
                                DecodeConfig c = decode(mma, warps, rg, columns, splits, unroll);
                                c.cluster = cluster;
                                c.staged = unroll == 8;
                                if (c.staged && !(kSearchesStagedW && d.w_k_contiguous)) continue;
                                if (c.validate(p, device)) continue;
                                const std::int64_t blocks = c.blocks(p);
                                if (splits > 1 && (2 * blocks < device.sm_count || blocks > 8 * device.sm_count))
                                    continue;
                                out.push_back(c);
                            }
            }
    }
    return out;
}

std::vector<DecodeConfig> DecodeConfig::refinements(const Problem& p, const DeviceInfo& device) const {
    std::vector<DecodeConfig> out;
    auto add = [&](DecodeConfig c) {
        if (!(c == *this) && std::find(out.begin(), out.end(), c) == out.end() && !c.validate(p, device))
            out.push_back(c);
    };
    for (const int s : {splits * 2, splits / 2, splits * 3 / 2}) {
        DecodeConfig c = *this;
        c.splits = std::max(1, s);
        add(c);
    }
    for (const int u : {1, 8, unroll == 4 ? 2 : 4}) {
        DecodeConfig c = *this;
        c.unroll = u;
        add(c);
    }
    if (kSearchesStagedW) {
        // W's loads in flight the other way (staged in shared memory or in registers), and a staged ring twice or
        // half as deep.
        DecodeConfig other = *this;
        other.staged = !staged;
        other.unroll = staged ? std::min(unroll, 4) : 8;
        add(other);
        if (staged)
            for (const int u : {unroll * 2, unroll / 2}) {
                DecodeConfig c = *this;
                c.unroll = u;
                add(c);
            }
    }
    // The split between half and twice this one whose blocks fill their last wave most evenly (at the residency the
    // cost model estimates), where that is evener than this one's by a twentieth. Profiled on the H200 (session 22),
    // the fp32 16-token winner on 16 x 14336 x 4096 (8 splits: 896 blocks on 528 slots) ran its second wave 70% full
    // at 56% of DRAM's rate. The estimate of registers behind that residency runs high on the SIMT paths (ptxas: 127
    // for that winner, estimated 176), so this is one more candidate to measure, not a ruling.
    DecodeConfig evenest = *this;
    double best = wave_efficiency(p, device) + 0.05;
    for (int s = std::max(1, splits / 2); s <= std::min(64, 2 * splits); ++s) {
        DecodeConfig c = *this;
        c.splits = s;
        if (s == splits || c.validate(p, device)) continue;
        if (const double e = c.wave_efficiency(p, device); e > best) {
            best = e;
            evenest = c;
        }
    }
    add(evenest);
    DecodeConfig other_warps = *this;
    other_warps.warps = warps == 8 ? 4 : 8;
    add(other_warps);
    // Twice and half the row groups (validate() keeps 1, 2 and 4, k-contiguous W only): each lane's X values from
    // shared memory serve 2 x rg rows of W, so more row groups read X fewer times per byte of W (16 tokens of fp32: 8
    // float4 of X per float4 of W at one row group), for more registers. The enumeration stops at two.
    for (const int r : {rg * 2, rg / 2}) {
        DecodeConfig c = *this;
        c.rg = std::max(1, r);
        add(c);
    }
    return out;
}

int DecodeConfig::resident_blocks(const Problem& p, const DeviceInfo& device) const {
    return std::max(1, blocks_per_sm(device, threads(), estimated_registers(p), shared_bytes(p)).blocks);
}

double DecodeConfig::wave_efficiency(const Problem& p, const DeviceInfo& device) const {
    const std::int64_t all = blocks(p), slots = std::int64_t{device.sm_count} * resident_blocks(p, device);
    return double(all) / double((all + slots - 1) / slots * slots);
}

CostEstimate DecodeConfig::estimate_cost(const Problem& p, const DeviceInfo& device,
                                         const DeviceCeilings& ceilings) const {
    const DecodeShape d = decode_shape(p);
    const double element = size_of(p.a_type);
    // All GEMMs of a batch (an operand the batch shares counted each time: L2 may not keep it).
    const double w_bytes = double(d.large) * p.k * element * p.batch;
    const double x_bytes = double(d.small) * p.k * element * p.batch;
    const double c_bytes =
        double(d.large) * d.small * size_of(p.c_type) * (p.beta_mode == BetaMode::Zero ? 1 : 2) * p.batch;

    CostEstimate e;
    e.blocks_per_sm = resident_blocks(p, device);
    const std::int64_t all_blocks = blocks(p);
    const std::int64_t slots = std::int64_t{device.sm_count} * e.blocks_per_sm;
    const std::int64_t full_waves = all_blocks / slots, rest = all_blocks % slots;
    e.wave_efficiency = wave_efficiency(p, device);

    // DRAM's rate as the SMs draw on it: each SM needs enough bytes in flight to cover the latency, and about 60% of
    // the SMs so supplied saturate DRAM. Blocks run in waves: the full ones at `resident` blocks per SM, then the
    // rest spread over as many SMs as they fill.
    const double loads_per_thread = double(unroll) * (d.w_k_contiguous ? 2 * rg : 4);
    const auto drawn_rate = [&](double resident_per_sm, double busy_sms) {
        const double cover = std::min(1.0, resident_per_sm * threads() * 16.0 * loads_per_thread / kBytesInFlightPerSm);
        return ceilings.dram_bytes_per_s * cover * std::min(1.0, busy_sms / (0.6 * device.sm_count));
    };
    const double per_block = (w_bytes + x_bytes + c_bytes) / double(all_blocks);
    e.traffic_seconds = double(full_waves * slots) * per_block / drawn_rate(e.blocks_per_sm, device.sm_count);
    if (rest > 0) {
        const double busy = std::min<double>(device.sm_count, double(rest));
        e.traffic_seconds += double(rest) * per_block / drawn_rate(std::ceil(double(rest) / device.sm_count), busy);
    }
    // W again from L2 for every column tile after the first, X once per row tile.
    e.traffic_seconds = std::max(e.traffic_seconds, ((column_tiles(p) - 1) * w_bytes +
                                                     double(row_tiles(p)) * x_bytes) / ceilings.l2_bytes_per_s);

    const double padded = double(row_tiles(p) * rows(p)) * double(column_tiles(p) * columns) * p.k * 2.0 * p.batch;
    if (mma) {
        e.compute_seconds = padded / (0.5 * ceilings.matrix_flops(p.a_type, ComputeType::F32));
    } else {
        // FMAs share the issue slots with the loads and, for 16-bit inputs, the conversions.
        const double share = p.a_type == DType::F32 ? 0.6 : 0.4;
        e.compute_seconds = padded / (share * ceilings.fp32_flops);
    }

    // Where K is split, one block per tile adds the slices' sums after the others are done: from the workspace
    // (written and read through L2) or from the cluster's shared memory.
    double combine = 0.0;
    const double one_sm = ceilings.l2_bytes_per_s / device.sm_count;
    if (cluster) {
        combine = (splits - 1) * double(sums_bytes(p)) / (2.0 * one_sm);
    } else if (splits > 1) {
        const double tile_sums = double(splits) * sums_bytes(p);
        combine = std::max(2.0 * tile_sums * row_tiles(p) * column_tiles(p) / ceilings.l2_bytes_per_s,
                           tile_sums / one_sm);
    }
    e.seconds = std::max(e.traffic_seconds, e.compute_seconds) + combine + cost::kLaunchSeconds;
    return e;
}

std::optional<DecodeConfig> DecodeConfig::heuristic_default(const Problem& p, const DeviceInfo& device) {
    // Batches (batched GEMV, as in attention's decode steps) are searched but not yet a default: not yet measured.
    if (!is_decode_problem(p) || p.batch > 1) return std::nullopt;
    const DecodeShape d = decode_shape(p);
    // fp32 steps of up to 16 tokens. 16-bit steps go to the mma.sync family's skinny tile (64 x 32 x 64, K split to
    // fill the SMs):
    // - tokens 4 and 16: this family's mma.sync paths reached 0.4-0.7x cuBLAS on the H200 (session 16), the mma.sync
    //   family's tuned kernels 0.94-1.0x;
    // - weights along m or n (a row-major activation times a K x N weight), 1 token: its skinny kernels ran at
    //   0.98-1.03x where this family's default ran at 0.71-0.88x (bench/results/2026-12-04-h200-s16-decode-2-*.csv);
    // - weights along K (y = x W^T), 1 token: once split-K lost its memset (session 28), the H100's tuned mma.sync
    //   kernel ran 1 x 4096 x 4096 f16 in 16.5 us, this family's default (splits in a cluster) in 18.5-19.4 us
    //   (bench/results/2026-12-06-h100-s29.md); as the default, 18.2 -> 16.6 us (session 30, defaultcmp).
    // Weights along K not 16-byte aligned, with up to 2 tokens, stay here as before: the mma.sync family copies such
    // an operand through registers, not measured on decode steps; this family reads any alignment at full width.
    if (p.a_type != DType::F32) {
        const bool w_aligned = (d.small_n ? p.align_a : p.align_b) >= 16;
        if (!d.w_k_contiguous || w_aligned || d.small > 2) return std::nullopt;
    } else if (d.small > kDefaultSmall) {
        return std::nullopt;
    }
    // Four warps, one row group, and the fewest splits whose blocks fill every SM twice (fewer splits: fewer sums to
    // add). Against the cost model's pick of the whole space (bench/results/2026-12-04-h200-s16-decode-*-default.csv)
    // this rule was ahead on 6 of the 11 fp32 rows of bench/shapes/decode_targets.csv, level on one and 2-16% behind on
    // four, and its worst row was 0.88x cuBLAS where the model's was 0.66x.
    //
    // Weights along K and up to 4 columns: the splits' sums meet in a cluster's shared memory where the device has
    // clusters (sm_90, 2 to 8 splits). Timed in session 27's searches on the H100 (bench/results/2026-12-05-h100-s27.md),
    // that twin of this default ran 1 x 4096 x 4096 bf16 in 19.1 us against 21.1, 1 x 4096 x 14336 bf16 level (49.2
    // against 49.5) and 4 x 14336 x 4096 fp32 1-7% faster; with 8 and 16 columns it was up to a quarter slower
    // (16 x 4096 x 4096 fp32), so wider tiles keep the workspace, as do weights along l (not measured with clusters).
    //
    // (And, where `most_staged_bytes` says, whose slices of X staged in shared memory take at most that much.)
    auto fewest_splits_filling = [&](int columns, std::int64_t most_staged_bytes = 0) {
        std::optional<DecodeConfig> chosen;
        for (const int splits : {1, 2, 4, 8, 16, 32, 64}) {
            DecodeConfig c = decode(false, 4, 1, columns, splits, 4);
            c.cluster = d.w_k_contiguous && columns <= 4;
            if (c.cluster && c.validate(p, device)) c.cluster = false;  // no clusters here, or too many splits for one
            if (c.validate(p, device)) continue;  // X's staged rows of a long slice may not fit, or K is too short
            chosen = c;
            const bool staging_fits = most_staged_bytes == 0 || c.staged_x_bytes(p) <= most_staged_bytes;
            if (c.blocks(p) >= 2 * std::int64_t{device.sm_count} && staging_fits) break;
        }
        return chosen;
    };
    const int most = most_columns(false, p);
    const std::optional<DecodeConfig> widest = fewest_splits_filling(balanced_columns(d.small, most, false));
    // Weights along l, where the widest tile's K slices are short (under 512): tiles of at most 8 columns, the second
    // reading W from L2. On the H100 (session 31, defaultcmp, two rounds) 16 x 4096 x 4096 fp32 ran c8_k8 in 34.0 us
    // against 45.8 for c16_k16 (slices of 256), 12 and 9 tokens 32.7-33.3 against 36-43; but where the slices were
    // long, 16 x 4096 x 14336 (c16_k16: 896) and 16 x 14336 x 4096 (c16_k4: 1024), 8 columns lost 9-12% (121.5
    // against 111.6, 134.4 against 120.0 us). Short slices spend their time on the sums' stores and adds, and 16
    // columns' sums and W's loads in flight leave one block of 128 registers a thread per SMSP (session 22's ncu of a
    // c16 sibling: 25% occupancy, 40% of stalls on L1TEX); long slices stream W once at 65-70% of the roof.
    constexpr std::int64_t kShortSlice = 512;
    if (!d.w_k_contiguous && widest && p.k / widest->splits < kShortSlice) {
        const int narrower = balanced_columns(d.small, std::min(8, most), false);
        if (narrower < widest->columns)
            if (std::optional<DecodeConfig> narrow = fewest_splits_filling(narrower)) return narrow;
    }
    // Weights along K: also the fewest splits whose slice of X, staged in shared memory, takes at most 16 KB a block.
    // On the H100 (session 32, fixed rows, two rounds),
    // 16 x 14336 x 4096 fp32: c16_k2 (128 KB staged) 214 us, c16_k4 (64 KB) 147, c8_k4 (32 KB) 134, c16_k8 (32 KB)
    // 122 (cuBLAS 152); 16 x 4096 x 14336: c16_k8 (112 KB) 198, c16_k16 (56 KB) 130, c16_k32 (28 KB) 134, c8_k16
    // (28 KB) 126.5 (cuBLAS 135); 8 tokens, 14336 x 4096: c8_k2 (64 KB) 153, c8_k4 (32 KB) 101; 4096 x 14336: c8_k8
    // (56 KB) 118, c8_k16 (28 KB) 100. 16 x 4096 x 4096 keeps c16_k8 (32 KB, 42.5 us against 44.6 for c8_k8).
    // Four columns (session 33, H100, two rounds) lost a quarter at 28-32 KB: 4 x 14336 x 4096 c4_k2_x (32 KB) 133 us,
    // c4_k4_x (16 KB) 99, c4_k8 98 (cuBLAS 104.5); 4 x 4096 x 14336 c4_k8_x (28 KB) 157, c4_k16 (14 KB) 100, c4_k32
    // 99 (cuBLAS 113). Those grids held 3.4-3.9 blocks an SM where 6 fit, the 4-column step issuing four times the
    // 1-token step's work per byte of W (which ran 0.90-0.94x at any of its splits). Sixteen columns at 16 KB (session
    // 36, bench/results/2026-12-07-h100-s36.md): 16 x 14336 x 4096 c16_k16 115.4 us against 121.3 for c16_k8 (32 KB),
    // 16 x 4096 x 14336 c16_k64 123.8 against 133.5 for c16_k32 (28 KB); 16 x 4096 x 4096 c16_k16 43.0 against 42.6
    // (session 33); 8 x 14336 x 4096 c8_k8 100.7 against 101.2 for c8_k4.
    constexpr std::int64_t kMostStagedBytesAlongK = 16 * 1024;
    if (d.w_k_contiguous && widest && widest->columns > 1)
        if (auto capped = fewest_splits_filling(widest->columns, kMostStagedBytesAlongK)) return capped;
    return widest;
}

}  // namespace jitgemm
