// The mma.sync family's cost estimate. Its compute term: the mma rate of its input type, or, when lower, what shared
// memory can feed — each warp reads its (warp_m + warp_n) x BK operand slice of every stage for 2 warp_m warp_n BK
// FLOPs, so small warp tiles starve the Tensor Cores (reuse moves the bottleneck on-chip) — and it counts the blocks
// of the busiest SM, which is what a grid smaller than a full wave is timed by. Packing an operand to an aligned
// copy adds a read and a write of it at the DRAM ceiling and a launch; split-K adds a write and a read of every
// split's partial sums at the L2 ceiling and the memset of its counters.
#include <algorithm>

#include "runtime/device/occupancy.h"
#include "tuner/families/mma_sync/mma_sync_config.h"

namespace jitgemm {

CostEstimate MmaSyncConfig::estimate_cost(const Problem& problem, const DeviceInfo& device,
                                          const DeviceCeilings& ceilings) const {
    using cost::ceil_div;
    const MmaSyncConfig& c = *this;
    CostEstimate e;
    const Problem p = c.kernel_problem(problem);  // packed operands are aligned for the kernel
    const double pack_seconds = cost::pack_seconds(c.launch(problem).packs, ceilings);
    const int bytes = MmaSyncConfig::element_bytes(p);
    const OccupancyLimits occupancy =
        blocks_per_sm(device, c.threads(), c.estimated_registers(p), c.shared_bytes(p));
    e.blocks_per_sm = std::max(occupancy.blocks, 1);
    const std::int64_t tiles_m = ceil_div(p.m, c.bm), tiles_n = ceil_div(p.n, c.bn);
    const std::int64_t blocks = c.blocks(p) * p.batch;  // a batch's GEMMs are the grid's third dimension
    const std::int64_t slots = static_cast<std::int64_t>(device.sm_count) * e.blocks_per_sm;
    const std::int64_t waves = ceil_div(blocks, slots);
    e.wave_efficiency = double(blocks) / double(waves * slots);

    const double warp_m = double(c.bm) / c.wm, warp_n = double(c.bn) / c.wn;
    const double flops_per_shared_byte = 2.0 * warp_m * warp_n / ((warp_m + warp_n) * bytes);
    const double per_sm_flops = std::min(ceilings.matrix_flops(p.a_type, p.compute),
                                         flops_per_shared_byte * ceilings.shared_bytes_per_s) /
                                device.sm_count;
    // The busiest SM runs ceil(blocks / SMs) blocks, up to blocks_per_sm of them at once sharing its Tensor Cores.
    // mma.sync and ldmatrix latencies want several warps per scheduler; a shallow pipeline exposes the copies'
    // latency; operands only 2-byte aligned are loaded element by element through registers.
    const std::int64_t blocks_on_busiest_sm = ceil_div(blocks, device.sm_count);
    const double resident_warps =
        double(std::min<std::int64_t>(e.blocks_per_sm, blocks_on_busiest_sm)) * c.threads() / 32.0;
    // Latency is hidden by warps (two per scheduler, so that one issues while another waits at a barrier or on
    // shared memory) and by independent mma in flight: a warp's k step has (warp_m / 8) x (warp_n / 16) of them,
    // and about 64 per SM keep the Tensor Cores fed. Fitted to the measured searches of 4096^3, 4097^3 and
    // 777 x 1111 x 3333 (bench/NOTES.md, 2026-12-03 session 5): a flat 16 warps per SM ranked 32 x 32 warp tiles
    // first and the measured best (64 x 32 and 64 x 64 warp tiles at 8 warps per SM) 80th to 385th.
    const double mma_per_step = (warp_m / 8.0) * (warp_n / 16.0);
    // A lone block per SM also stalls whole at every barrier, where a second block's warps would issue: on
    // 777 x 1111 x 3333 bf16 two 4-warp blocks of 128 x 64 per SM ran 5 % faster than one 8-warp block of 128 x 128
    // doing the same work (40.8 against 42.8 us, bench/NOTES.md session 10).
    const bool lone_block = std::min<std::int64_t>(e.blocks_per_sm, blocks_on_busiest_sm) == 1;
    const double latency_hiding = std::min(1.0, resident_warps / 8.0) *
                                  std::min(1.0, resident_warps * mma_per_step / 64.0) * (lone_block ? 0.95 : 1.0);
    const double pipeline = c.stages == 2 ? 1.25 : c.stages == 3 ? 1.05 : 1.0;
    const double register_path = (p.align_a < 4 ? 1.5 : 1.0) * (p.align_b < 4 ? 1.5 : 1.0);
    const double block_flops = 2.0 * c.bm * c.bn * double(c.k_tiles_per_block(p) * c.bk);
    e.compute_seconds = double(blocks_on_busiest_sm) * block_flops / (per_sm_flops * latency_hiding) * pipeline *
                        register_path;
    // Split-K and stream-K: every block's partial sums (about one tile's worth per block) go to the workspace and back
    // through L2, after a memset of the counters.
    const double split_seconds = c.shares_tiles() ? cost::shared_tiles_seconds(blocks, c.bm, c.bn, ceilings) : 0.0;
    e.traffic_seconds = cost::traffic_seconds(p, tiles_m, tiles_n, ceilings);
    e.seconds = std::max(e.compute_seconds, e.traffic_seconds) + cost::kLaunchSeconds + pack_seconds + split_seconds;
    return e;
}

}  // namespace jitgemm
