// The analytic cost of a candidate (see cost_model.h).
#include "tuner/cost_model.h"

#include <algorithm>
#include <cmath>

#include "runtime/device/occupancy.h"

namespace jitgemm {
namespace {

constexpr double kLaunchSeconds = 3e-6;
constexpr double kMemsetSeconds = 1.5e-6;  // a small cuMemsetD32Async in the stream

struct TileShape {
    int bm, bn, bk;
    int threads, registers, shared_bytes;
    double ffma_share;  // FFMAs over all issued instructions in the main loop
    double stage_penalty;
};

// Issue slots per k step and thread: TM*TN FFMAs, the fragment loads (one per 4-wide run), the thread's share of the
// global loads and shared stores of the next tile, and about two of loop and address arithmetic.
TileShape tile_shape(const AnyConfig& config, const Problem& p) {
    if (const auto* r = std::get_if<RegBlockConfig>(&config)) {
        const int va = std::min(r->vec, std::max(1, p.align_a / 4));
        const int vb = std::min(r->vec, std::max(1, p.align_b / 4));
        const double t = r->threads();
        const double ffma = r->tm * r->tn;
        const double fragments = std::ceil(r->tm / 4.0) + std::ceil(r->tn / 4.0);
        const double staging = (r->bm / (t * va) + r->bn / (t * vb)) * 2.0;  // load + store per run
        const double share = ffma / (ffma + fragments + staging + 2.0);
        return {r->bm, r->bn, r->bk, r->threads(), r->estimated_registers(), r->shared_bytes(), share,
                r->stages == 1 ? 1.15 : 1.0};
    }
    if (const auto* t = std::get_if<TiledConfig>(&config)) {
        // Per k step and output: two shared loads and one FFMA.
        return {t->t, t->t, t->t, t->threads(), t->estimated_registers(), t->shared_bytes(), 1.0 / 4.0, 1.1};
    }
    const auto& n = std::get<NaiveConfig>(config);
    // Two global loads per FFMA, mostly from L1/L2.
    return {n.bm, n.bn, 1, n.threads(), n.estimated_registers(), 0, 1.0 / 12.0, 1.0};
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Compulsory DRAM bytes: A and B read once, C written once (and read once when beta != 0).
double compulsory_bytes(const Problem& p) {
    const double c_passes = p.beta_mode == BetaMode::Zero ? 1.0 : 2.0;
    return size_of(p.a_type) * double(p.m) * p.k + size_of(p.b_type) * double(p.k) * p.n +
           c_passes * size_of(p.c_type) * double(p.m) * p.n;
}

// Traffic: compulsory bytes at the DRAM ceiling, or the tile re-reads (A read once per column of tiles, B once per
// row of tiles) at the L2 ceiling, whichever takes longer.
double traffic_seconds(const Problem& p, std::int64_t tiles_m, std::int64_t tiles_n, const DeviceCeilings& c) {
    const double tile_reads = size_of(p.a_type) * double(p.m) * p.k * tiles_n + size_of(p.b_type) * double(p.k) * p.n * tiles_m;
    return std::max(compulsory_bytes(p) / c.dram_bytes_per_s, tile_reads / c.l2_bytes_per_s);
}

CostEstimate estimate_mma_cost(const MmaConfig& c, const Problem& problem, const DeviceInfo& device,
                               const DeviceCeilings& ceilings) {
    CostEstimate e;
    const Problem p = c.kernel_problem(problem);  // packed operands are aligned for the kernel
    double pack_seconds = 0.0;  // one launch copies every packed operand
    for (const OperandPack& op : c.geometry(problem).packs)
        pack_seconds += (double(op.rows) * op.cols + double(op.ld_to) * op.cols_to) * op.element_bytes /
                        ceilings.dram_bytes_per_s;
    if (c.pack != 0) pack_seconds += kLaunchSeconds;
    const int bytes = MmaConfig::element_bytes(p);
    const OccupancyLimits occupancy =
        blocks_per_sm(device, c.threads(), c.estimated_registers(p), c.shared_bytes(p));
    e.blocks_per_sm = std::max(occupancy.blocks, 1);
    const std::int64_t tiles_m = ceil_div(p.m, c.bm), tiles_n = ceil_div(p.n, c.bn);
    const std::int64_t blocks = c.blocks(p);
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
    // Split-K and stream-K: every block's partial sums (about one tile's worth per block) go to scratch and back
    // through L2, after a memset of the counters.
    const double split_seconds =
        c.shares_tiles() ? 2.0 * double(blocks) * c.bm * c.bn * 4.0 / ceilings.l2_bytes_per_s + kMemsetSeconds : 0.0;
    e.traffic_seconds = traffic_seconds(p, tiles_m, tiles_n, ceilings);
    e.seconds = std::max(e.compute_seconds, e.traffic_seconds) + kLaunchSeconds + pack_seconds + split_seconds;
    return e;
}

}  // namespace

double arithmetic_intensity(const Problem& p) { return 2.0 * p.m * p.n * p.k / compulsory_bytes(p); }

double roofline_floor_seconds(const Problem& p, const DeviceCeilings& c) {
    const double flops = 2.0 * p.m * p.n * p.k;
    return std::max(flops / c.matrix_flops(p.a_type, p.compute), compulsory_bytes(p) / c.dram_bytes_per_s);
}

CostEstimate estimate_cost(const AnyConfig& config, const Problem& p, const DeviceInfo& device,
                           const DeviceCeilings& ceilings) {
    if (const auto* mma = std::get_if<MmaConfig>(&config)) return estimate_mma_cost(*mma, p, device, ceilings);
    const TileShape s = tile_shape(config, p);
    CostEstimate e;
    const OccupancyLimits occupancy = blocks_per_sm(device, s.threads, s.registers, s.shared_bytes);
    e.blocks_per_sm = std::max(occupancy.blocks, 1);
    const std::int64_t tiles_m = ceil_div(p.m, s.bm), tiles_n = ceil_div(p.n, s.bn);
    const std::int64_t tiles = tiles_m * tiles_n;
    const std::int64_t slots = static_cast<std::int64_t>(device.sm_count) * e.blocks_per_sm;
    const std::int64_t waves = ceil_div(tiles, slots);
    e.wave_efficiency = double(tiles) / double(waves * slots);

    // Four schedulers want several warps each to cover FFMA and shared-memory latency; a lone block per SM also
    // stalls whole at every barrier.
    const double resident_warps = double(e.blocks_per_sm) * s.threads / 32.0;
    const double latency_hiding = std::min(1.0, resident_warps / 16.0) * (e.blocks_per_sm == 1 ? 0.8 : 1.0);
    const double per_sm_flops = ceilings.fp32_flops / device.sm_count * s.ffma_share * latency_hiding;
    const double padded_k = double(ceil_div(std::max<std::int64_t>(p.k, 1), s.bk) * s.bk);
    const double tile_flops = 2.0 * s.bm * s.bn * padded_k;
    // An SM's resident blocks share its issue rate: a full wave takes blocks_per_sm tiles' worth of time.
    e.compute_seconds = double(waves) * e.blocks_per_sm * tile_flops / per_sm_flops * s.stage_penalty;

    e.traffic_seconds = traffic_seconds(p, tiles_m, tiles_n, ceilings);

    e.seconds = std::max(e.compute_seconds, e.traffic_seconds) + kLaunchSeconds;
    return e;
}

}  // namespace jitgemm
