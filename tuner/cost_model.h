// The cost model that ranks candidates before anything is compiled, so a tuning budget goes to likely winners
// first. Time = max(compute, traffic) + launch, where
//   compute: the FLOPs of the padded tiles, in waves of (SMs x blocks per SM), at the fp32 peak scaled by the
//            share of issue slots that are FFMAs (shared-memory loads, global loads and loop overhead per k step
//            take the rest) and by latency hiding (fewer than 16 resident warps per SM, or a lone block
//            stalling at its barriers, lose throughput);
//   traffic: compulsory DRAM bytes (A, B read once, C written once; read too when beta != 0) at the DRAM ceiling,
//            and the tile re-reads (A read N/BN times, B read M/BM times: seed 000's traffic 8n^3/t + 4n^2) at the
//            L2 ceiling.
// The Tensor Core family's compute term is different: the mma rate of its input type, or, when lower, what shared
// memory can feed — each warp reads its (warp_m + warp_n) x BK operand slice of every stage for 2 warp_m warp_n BK
// FLOPs, so small warp tiles starve the Tensor Cores (seed 000: reuse moves the bottleneck on-chip) — and it counts
// the blocks of the busiest SM, which is what a grid smaller than a full wave is timed by. Packing an operand to an
// aligned copy adds a read and a write of it at the DRAM ceiling and a launch; split-K adds a write and a read of
// every split's partial sums at the L2 ceiling and the memset of its counters.
// Absolute times are rough; the ranking is what matters, and the tuner measures the top of it.
#pragma once

#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"
#include "tuner/any_config.h"
#include "runtime/device/device_ceilings.h"

namespace jitgemm {

struct CostEstimate {
    double seconds = 0.0;
    double compute_seconds = 0.0;
    double traffic_seconds = 0.0;
    double wave_efficiency = 0.0;  // useful tiles / (waves x resident slots)
    int blocks_per_sm = 0;
};

CostEstimate estimate_cost(const AnyConfig& config, const Problem& problem, const DeviceInfo& device,
                           const DeviceCeilings& ceilings);

// Arithmetic intensity of the problem itself (FLOPs over compulsory bytes) and its roofline floor.
double arithmetic_intensity(const Problem& problem);
double roofline_floor_seconds(const Problem& problem, const DeviceCeilings& ceilings);

}  // namespace jitgemm
