// The cost model's shared terms: what every family's estimate_cost() returns, and the parts of it that do not depend
// on how a family computes a tile. The model ranks candidates before anything is compiled, so that a tuning budget
// goes to likely winners first: time = max(compute, traffic) + launch, where
//   traffic: compulsory DRAM bytes (A, B read once, C written once; read too when beta != 0) at the DRAM ceiling, or
//            the tile re-reads (A read once per column of tiles, B once per row of tiles: traffic 8n^3/t + 4n^2 for
//            an n^3 fp32 problem with t x t tiles) at the L2 ceiling, whichever takes longer;
//   compute: the family's own term (the SIMT families': estimate_simt_cost below; the Tensor Core families' in
//            their folders).
// Absolute times are rough; the ranking is what matters, and the tuner measures the top of it.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/device/device_ceilings.h"
#include "runtime/device/device_info.h"
#include "runtime/launch/launch_description.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

struct CostEstimate {
    double seconds = 0.0;
    double compute_seconds = 0.0;
    double traffic_seconds = 0.0;
    double wave_efficiency = 0.0;  // useful tiles / (waves x resident slots)
    int blocks_per_sm = 0;
};

namespace cost {

constexpr double kLaunchSeconds = 3e-6;

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The traffic term for tiles_m x tiles_n tiles of C.
double traffic_seconds(const Problem& p, std::int64_t tiles_m, std::int64_t tiles_n, const DeviceCeilings& c);

// Tiles of C shared by several blocks (split-K, stream-K): each of `blocks` blocks writes about one bm x bn tile of
// fp32 partial sums to the workspace and the tile's last block reads them back, all through L2. (The arrival
// counters need no memset before the launch: the stream's workspace keeps them zero.)
inline double shared_tiles_seconds(std::int64_t blocks, int bm, int bn, const DeviceCeilings& c) {
    return 2.0 * double(blocks) * bm * bn * 4.0 / c.l2_bytes_per_s;
}

// Copying operands to aligned copies first (LaunchDescription::packs): each read and written at the DRAM ceiling, in
// one launch; 0 when there are none.
double pack_seconds(const std::vector<OperandPack>& packs, const DeviceCeilings& c);

}  // namespace cost

// How a SIMT kernel (fp32 FFMA, one block per tile of C) spends its issue slots, as the SIMT families describe it.
struct SimtTileShape {
    int bm, bn, bk;
    int threads, registers, shared_bytes;
    double ffma_share;     // FFMAs over all issued instructions in the main loop
    double stage_penalty;  // > 1 where global loads are not overlapped with the math
    int splits = 1;        // blocks per tile of C, each over its share of the k tiles (split-K)
};

// compute: the FLOPs of the padded tiles, in waves of (SMs x blocks per SM), at the fp32 peak scaled by the share
// of issue slots that are FFMAs and by latency hiding (fewer than 16 resident warps per SM, or a lone block stalling
// at its barriers, lose throughput). Under split-K a tile's blocks each take their share of its k tiles, the waves
// count all of them, and the partial sums' trip through L2 is added (shared_tiles_seconds).
CostEstimate estimate_simt_cost(const SimtTileShape& shape, const Problem& problem, const DeviceInfo& device,
                                const DeviceCeilings& ceilings);

}  // namespace jitgemm
