// The cost model's shared terms and the SIMT families' estimate (see cost_model.h).
#include "tuner/families/common/cost_model.h"

#include <algorithm>

#include "runtime/device/occupancy.h"
#include "runtime/device/roofline.h"

namespace jitgemm {

double cost::pack_seconds(const std::vector<OperandPack>& packs, const DeviceCeilings& c) {
    double seconds = 0.0;
    for (const OperandPack& op : packs)
        seconds += (double(op.rows) * op.cols + double(op.ld_to) * op.cols_to) * op.element_bytes / c.dram_bytes_per_s;
    return packs.empty() ? 0.0 : seconds + kLaunchSeconds;
}

double cost::traffic_seconds(const Problem& p, std::int64_t tiles_m, std::int64_t tiles_n, const DeviceCeilings& c) {
    const double tile_reads =
        (size_of(p.a_type) * double(p.m) * p.k * tiles_n + size_of(p.b_type) * double(p.k) * p.n * tiles_m) * p.batch;
    return std::max(compulsory_bytes(p) / c.dram_bytes_per_s, tile_reads / c.l2_bytes_per_s);
}

CostEstimate estimate_simt_cost(const SimtTileShape& s, const Problem& p, const DeviceInfo& device,
                                const DeviceCeilings& ceilings) {
    using cost::ceil_div;
    CostEstimate e;
    const OccupancyLimits occupancy = blocks_per_sm(device, s.threads, s.registers, s.shared_bytes);
    e.blocks_per_sm = std::max(occupancy.blocks, 1);
    const std::int64_t tiles_m = ceil_div(p.m, s.bm), tiles_n = ceil_div(p.n, s.bn);
    const std::int64_t blocks = tiles_m * tiles_n * p.batch * s.splits;
    const std::int64_t slots = static_cast<std::int64_t>(device.sm_count) * e.blocks_per_sm;
    const std::int64_t waves = ceil_div(blocks, slots);
    e.wave_efficiency = double(blocks) / double(waves * slots);

    // Four schedulers want several warps each to cover FFMA and shared-memory latency; a lone block per SM also
    // stalls whole at every barrier.
    const double resident_warps = double(e.blocks_per_sm) * s.threads / 32.0;
    const double latency_hiding = std::min(1.0, resident_warps / 16.0) * (e.blocks_per_sm == 1 ? 0.8 : 1.0);
    const double per_sm_flops = ceilings.fp32_flops / device.sm_count * s.ffma_share * latency_hiding;
    // The k tiles of a block: its split's share, the largest of them (regblock deals them out as evenly as it can).
    const std::int64_t k_tiles = ceil_div(std::max<std::int64_t>(p.k, 1), s.bk);
    const double block_flops = 2.0 * s.bm * s.bn * double(ceil_div(k_tiles, s.splits) * s.bk);
    // An SM's resident blocks share its issue rate: a full wave takes blocks_per_sm blocks' worth of time.
    e.compute_seconds = double(waves) * e.blocks_per_sm * block_flops / per_sm_flops * s.stage_penalty;

    e.traffic_seconds = cost::traffic_seconds(p, tiles_m, tiles_n, ceilings);

    const double split_seconds = s.splits > 1 ? cost::shared_tiles_seconds(blocks, s.bm, s.bn, ceilings) : 0.0;
    e.seconds = std::max(e.compute_seconds, e.traffic_seconds) + cost::kLaunchSeconds + split_seconds;
    return e;
}

}  // namespace jitgemm
