// The decode family (kernel_sources/decode/decode.cuh): GEMMs one side of whose output is small (at most 64 — the
// tokens of a decoding step), which are one pass over the large operand W. A block reads ROWS rows of W in 16-byte
// loads, `unroll` steps of them in flight per thread, against `columns` rows of the small operand X, over one of
// `splits` slices of K; the slices' sums meet in the workspace, added in a fixed order. fp32 (computed exactly, also
// where TF32 is allowed), fp16 and bf16, with FMAs (`simt`) or, for 16-bit inputs, mma.sync fed
// straight from the loaded registers (`mma`). This type is the single place its constraints live.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/families/family.h"

namespace jitgemm {

struct DecodeConfig {
    static constexpr std::string_view kName = "decode";
    static constexpr std::string_view kSourceHeader = "decode/decode.cuh";
    static constexpr std::string_view kKernelSymbol = "jg_decode";
    static constexpr std::string_view kNameFormat =
        "decode_<simt|mma>_w<WARPS>_r<RG>_c<COLUMNS>_k<SPLITS>_u<UNROLL>[_l<LANES>][_s][_x]";
    static constexpr std::string_view kDescription =
        "for min(m, n) <= 64: simt (fp32 FMAs) or mma (mma.sync on 16-bit inputs);\n"
        "WARPS: warps per block; RG: groups of 64 / LANES rows of W per warp where W is stored along k (else 1);\n"
        "COLUMNS: columns of the small side per block; SPLITS: slices of K; UNROLL: 16-byte loads in flight;\n"
        "LANES: lanes of a warp along k where W is stored along k (simt: 4 to 32; default 4);\n"
        "_s: those loads land in a ring in shared memory (cp.async; W along k, sm_80), not registers;\n"
        "_x: a tile's SPLITS (2 to 8) blocks form a cluster and add their sums in shared memory (sm_90)";

    // The largest small side the kernel computes (its accumulators and the X rows it stages); the search covers all
    // of it: beyond, the Tensor Core families' tiles reuse W enough to win.
    static constexpr std::int64_t kMaxSmall = 64;

    bool mma = false;  // DECODE_MMA
    int warps = 4;     // DECODE_WARPS
    int rg = 1;        // DECODE_ROW_GROUPS
    int columns = 8;   // DECODE_COLUMNS
    int splits = 1;    // DECODE_SPLITS
    int unroll = 4;    // DECODE_UNROLL
    bool cluster = false;  // DECODE_CLUSTER: the splits' sums meet in the cluster's shared memory, not the workspace
    // DECODE_STAGED_W: W's loads in flight land in a ring in shared memory (cp.async) rather than registers, so that
    // the registers no longer bound the bytes in flight (where W is stored along k).
    bool staged = false;
    // DECODE_LANES_K: where W is stored along k, the lanes of a warp side by side along k (SIMT math: 4, 8, 16 or 32;
    // mma.sync: 4). Each of a warp's loads reads 16 x lanes contiguous bytes of 32 / lanes rows of W.
    int lanes_k = 4;
    // Whether the search tries W staged: off, measured slower than W's loads in registers on every decode row tried
    // (H100, session 38: 16 x 14336 x 4096 fp32 133.7 us against 115.4; bench/results/2026-12-07-h100-s38.md).
    static constexpr bool kSearchesStagedW = false;

    int threads() const { return 32 * warps; }
    std::int64_t rows(const Problem& problem) const;           // of W per block
    std::int64_t row_tiles(const Problem& problem) const;      // blocks along W's rows (per split and column tile)
    std::int64_t column_tiles(const Problem& problem) const;   // blocks along the small side
    std::int64_t blocks(const Problem& problem) const;
    std::int64_t sums_bytes(const Problem& problem) const;  // the block's sums: shared memory, a workspace slot
    std::int64_t staged_x_bytes(const Problem& problem) const;  // X's rows of the block's slice, staged
    std::int64_t w_ring_bytes(const Problem& problem) const;    // W's loads in flight where staged, else 0
    int shared_bytes(const Problem& problem) const;         // X's staged rows, W's ring, then the sums
    int estimated_registers(const Problem& problem) const;
    // Blocks resident on an SM at once (by the estimated registers and the shared memory; at least 1), and the share of
    // the waves' slots that the blocks fill (1: the last wave full).
    int resident_blocks(const Problem& problem, const DeviceInfo& device) const;
    double wave_efficiency(const Problem& problem, const DeviceInfo& device) const;

    std::string to_string() const;  // "decode_mma_w4_r1_c8_k2_u4"
    static std::optional<DecodeConfig> parse(std::string_view name);

    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    Problem kernel_problem(const Problem& problem) const { return problem; }
    LaunchDescription launch(const Problem& problem) const;
    std::string kernel_identity(const Problem&) const { return to_string(); }

    // Both kinds of math where they apply, warps, row groups, column tiles, splits that fill the GPU, unroll depths.
    static std::vector<DecodeConfig> enumerate(const Problem& problem, const DeviceInfo& device);
    // Twice and half the splits, the other unroll depth and warp count, twice and half the row groups.
    std::vector<DecodeConfig> refinements(const Problem& problem, const DeviceInfo& device) const;
    // W (and X, C) at the DRAM ceiling, slowed where too few bytes are in flight per SM to cover DRAM's latency;
    // against the FMAs (simt) and the split sums' round trip through L2.
    CostEstimate estimate_cost(const Problem& problem, const DeviceInfo& device,
                               const DeviceCeilings& ceilings) const;
    // SIMT math for fp32 decode steps of up to 16 tokens and 16-bit ones of up to 2, four warps, the fewest splits
    // whose blocks fill every SM twice (decode_search.cpp has the measurements behind it).
    static std::optional<DecodeConfig> heuristic_default(const Problem& problem, const DeviceInfo& device);

    friend bool operator==(const DecodeConfig& x, const DecodeConfig& y) {
        return x.mma == y.mma && x.warps == y.warps && x.rg == y.rg && x.columns == y.columns &&
               x.splits == y.splits && x.unroll == y.unroll && x.cluster == y.cluster && x.staged == y.staged &&
               x.lanes_k == y.lanes_k;
    }
};

// The problem as the decode kernel sees it: the small side (n unless m is smaller), the large side, and whether the
// large operand W is stored along k. Equal to the kernel's own reading (decode.cuh: SMALL_N, W_K_CONTIGUOUS); a
// run-time-shape variant reads its run-time dimension as the small side, which validate() requires it to be.
struct DecodeShape {
    bool small_n = true;
    std::int64_t small = 0, large = 0;
    bool w_k_contiguous = true;
};
DecodeShape decode_shape(const Problem& problem);

}  // namespace jitgemm
