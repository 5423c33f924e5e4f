// The decode family's search space, refinements, cost estimate and untuned default.
#include <algorithm>
#include <cmath>

#include "runtime/device/occupancy.h"
#include "tuner/families/decode/decode_config.h"

namespace jitgemm {
namespace {

// The small sides the family is searched for: beyond 64 the Tensor Core tiles reuse W enough to win.
constexpr std::int64_t kSearchedSmall = 64;
// The small sides its untuned default serves (decode steps); between 16 and 64 the other families' defaults.
constexpr std::int64_t kDefaultSmall = 16;
// Bytes in flight per SM that cover DRAM's latency at its full rate (Little's law: ~0.8 us under load x 4.3 TB/s
// over 132 SMs is ~26 KB; a little more, since not every load is in flight all the time).
constexpr double kBytesInFlightPerSm = 32.0 * 1024;

bool is_decode_problem(const Problem& p) {
    return p.a_type == p.b_type && p.k >= 1 && decode_shape(p).small <= kSearchedSmall;
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
        for (const int warps : {4, 8})
            for (const int rg : {1, 2}) {
                if (rg > 1 && !d.w_k_contiguous) continue;
                for (const int columns : column_choices)
                    for (const int unroll : {2, 4})
                        for (const int splits : {1, 2, 4, 8, 16, 32}) {
                            const DecodeConfig c = decode(mma, warps, rg, columns, splits, unroll);
                            if (!c.validate(p, device)) out.push_back(c);
                        }
            }
    }
    return out;
}

std::vector<DecodeConfig> DecodeConfig::refinements(const Problem& p, const DeviceInfo& device) const {
    std::vector<DecodeConfig> out;
    auto add = [&](DecodeConfig c) {
        if (!(c == *this) && !c.validate(p, device)) out.push_back(c);
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
    DecodeConfig other_warps = *this;
    other_warps.warps = warps == 8 ? 4 : 8;
    add(other_warps);
    return out;
}

CostEstimate DecodeConfig::estimate_cost(const Problem& p, const DeviceInfo& device,
                                         const DeviceCeilings& ceilings) const {
    const DecodeShape d = decode_shape(p);
    const double element = size_of(p.a_type);
    const double w_bytes = double(d.large) * p.k * element;
    const double x_bytes = double(d.small) * p.k * element;
    const double c_bytes = double(d.large) * d.small * size_of(p.c_type) * (p.beta_mode == BetaMode::Zero ? 1 : 2);

    CostEstimate e;
    const int registers = estimated_registers(p);
    e.blocks_per_sm = std::max(1, blocks_per_sm(device, threads(), registers, shared_bytes(p)).blocks);
    const std::int64_t all_blocks = blocks(p);
    const double resident = std::min<double>(e.blocks_per_sm, std::ceil(double(all_blocks) / device.sm_count));
    const double loads = double(unroll) * (d.w_k_contiguous ? 2 * rg : 1);
    const double in_flight = resident * threads() * 16.0 * loads;
    // An SM alone cannot draw the whole of DRAM: about 60% of the SMs, each with enough in flight, saturate it.
    const double busy_sms = std::min<double>(device.sm_count, double(all_blocks));
    const double latency_cover = std::min(1.0, in_flight / kBytesInFlightPerSm);
    const double sm_share = std::min(1.0, busy_sms / (0.6 * device.sm_count));
    const double waves = std::ceil(double(all_blocks) / (double(device.sm_count) * e.blocks_per_sm));
    e.wave_efficiency = double(all_blocks) / (waves * device.sm_count * e.blocks_per_sm);
    const double dram = (w_bytes + x_bytes + c_bytes) / ceilings.dram_bytes_per_s;
    e.traffic_seconds = dram / (latency_cover * sm_share);
    // W again from L2 for every column tile after the first, X once per row tile.
    e.traffic_seconds = std::max(e.traffic_seconds, ((column_tiles(p) - 1) * w_bytes +
                                                     double(row_tiles(p)) * x_bytes) / ceilings.l2_bytes_per_s);

    const double padded = double(row_tiles(p) * rows(p)) * double(column_tiles(p) * columns) * p.k * 2.0;
    if (mma) {
        e.compute_seconds = padded / (0.5 * ceilings.matrix_flops(p.a_type, ComputeType::F32));
    } else {
        // FMAs share the issue slots with the loads and, for 16-bit inputs, the conversions.
        const double share = p.a_type == DType::F32 ? 0.6 : 0.4;
        e.compute_seconds = padded / (share * ceilings.fp32_flops);
    }
    double combine = 0.0;
    if (splits > 1) {
        const double slots = double(row_tiles(p) * column_tiles(p)) * splits * sums_bytes(p);
        combine = 2.0 * slots / ceilings.l2_bytes_per_s + cost::kMemsetSeconds;
    }
    e.seconds = std::max(e.traffic_seconds, e.compute_seconds) + combine + cost::kLaunchSeconds;
    return e;
}

std::optional<DecodeConfig> DecodeConfig::heuristic_default(const Problem& p, const DeviceInfo& device) {
    if (!is_decode_problem(p)) return std::nullopt;
    const DecodeShape d = decode_shape(p);
    if (d.small > kDefaultSmall) return std::nullopt;
    const bool mma = p.a_type != DType::F32 && d.small > 2 && device.cc_major >= 8;
    const int columns = balanced_columns(d.small, most_columns(mma, p), mma);
    std::optional<DecodeConfig> chosen;
    // The fewest splits that fill every SM twice (fewer splits: less to add up) among those the device can hold (X's
    // staged rows of a long slice may not fit in shared memory) and K has k for.
    for (const int splits : {1, 2, 4, 8, 16, 32, 64}) {
        const DecodeConfig c = decode(mma, 4, 1, columns, splits, 4);
        if (c.validate(p, device)) continue;
        chosen = c;
        if (c.blocks(p) >= 2 * std::int64_t{device.sm_count}) break;
    }
    return chosen;
}

}  // namespace jitgemm
