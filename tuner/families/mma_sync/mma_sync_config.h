// The mma.sync family (kernel_sources/mma_sync/): Tensor Core GEMM with warp-level mma.sync and ldmatrix on operands
// staged through a multi-stage cp.async pipeline (or Hopper's bulk copies), for fp16, bf16 and TF32. MmaSyncConfig
// holds its knobs and is the single place their constraints live (the kernel's static_asserts repeat them only as a
// last line of defence). What the kernel needs of a problem
// is part of the rules: fp16 or bf16 inputs, or fp32 inputs with TF32 allowed; the element size sets the shared
// memory of the stages, and 2-byte aligned operands take the register path, which costs registers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/families/family.h"

namespace jitgemm {

struct MmaSyncConfig {
    static constexpr std::string_view kName = "mma_sync";
    static constexpr std::string_view kSourceHeader = "mma_sync/mma_sync.cuh";
    static constexpr std::string_view kKernelSymbol = "jg_mma_sync";
    static constexpr std::string_view kNameFormat =
        "mma_sync_<BM>x<BN>x<BK>_w<WM>x<WN>_s<S>_g<G>[_k<SPLITS>|_sk<BLOCKS>][_p<PACK>][_bulk]";
    static constexpr std::string_view kDescription =
        "Tensor Cores (mma.sync), for fp16 and bf16 inputs and fp32 inputs with --compute tf32.\n"
        "BM, BN: block tile of C, multiples of 16 from 32 to 256 (where the operand runs along m or n in memory:\n"
        "rows of 16, 32 or 64 bytes or whole 128-byte lines); BK: k depth of a stage (16, 32, 64, 128; 16, 32 for\n"
        "TF32); WM, WN: warps along m and n; S: pipeline stages (2..5); G: tile rows per rasterization group;\n"
        "SPLITS: blocks per tile, each over its share of K (split-K, 2..16); BLOCKS: stream-K, that many blocks\n"
        "share out the k tiles of all tiles evenly (instead of SPLITS); PACK: operands copied to an aligned\n"
        "workspace first, 1 A, 2 B, 3 both; bulk: both packed tile by tile and moved by bulk copies (sm_90)";

    int bm = 128;    // MMA_SYNC_BM: rows of C per block
    int bn = 128;    // MMA_SYNC_BN: columns of C per block
    int bk = 32;     // MMA_SYNC_BK: depth of one pipeline stage
    int wm = 2;      // MMA_SYNC_WM: warps along m
    int wn = 4;      // MMA_SYNC_WN: warps along n
    int stages = 3;  // MMA_SYNC_STAGES: shared-memory stages of the copy pipeline
    int group = 8;   // MMA_SYNC_GROUP: tile rows per rasterization group
    int pack = 0;    // operands copied to an aligned workspace first (common/jg_pack.cuh): bit 0 A, bit 1 B
    int splits = 1;  // MMA_SYNC_SPLITK: blocks per tile of C, each over its share of K (split-K), 1 to 16
    // MMA_SYNC_STREAMK: blocks that deal out the k tiles of all tiles evenly (stream-K; 0: off). Usually a multiple of
    // the SM count, so that every SM gets the same share where tiles x splits would leave some with one block less.
    int stream_blocks = 0;
    // MMA_SYNC_BULK: both operands packed tile by tile and moved by one bulk copy per tile (sm_90, 16-bit inputs,
    // pack 3, no stream-K), instead of every thread's cp.async.
    bool bulk = false;

    int threads() const { return 32 * wm * wn; }
    // The element size of the problem's inputs: 2 (fp16, bf16) or 4 (fp32 as TF32).
    static int element_bytes(const Problem& problem);
    int shared_bytes(const Problem& problem) const;
    // Accumulators (warp tile / 32 per thread), the operand fragments of two k steps (double-buffered), the register
    // path's staged chunks for 2-byte aligned operands, and about 40 for addresses and state.
    int estimated_registers(const Problem& problem) const;

    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    LaunchDescription launch(const Problem& problem) const;
    // The problem the kernel itself computes: packed operands with their aligned leading dimension and alignment.
    Problem kernel_problem(const Problem& problem) const;
    std::string kernel_identity(const Problem&) const { return to_string(); }
    // Lays a packed operand's copy out tile by tile for the bulk copies (launch(), when bulk).
    void tile_by_tile(const Problem& problem, int operand, OperandPack& op) const;

    // Block tiles, warp layouts, k depth and pipeline depth at group 8; for misaligned operands also packed to an
    // aligned copy first (on Hopper, where both 16-bit operands are packed, tile by tile for bulk copies); split-K
    // where the tiles alone are too few.
    static std::vector<MmaSyncConfig> enumerate(const Problem& problem, const DeviceInfo& device);
    // Other rasterization groups and stage counts; for a bulk-copy winner the same kernel fed by cp.async; for a
    // split-K winner the neighbouring split counts and stream-K over the same tiles.
    std::vector<MmaSyncConfig> refinements(const Problem& problem, const DeviceInfo& device) const;
    CostEstimate estimate_cost(const Problem& problem, const DeviceInfo& device,
                               const DeviceCeilings& ceilings) const;
    // The largest block tile that still gives every SM a tile; packed where operands are 2-byte aligned on problems
    // of a GFLOP and more; split-K where even the smallest tiles leave SMs idle.
    static std::optional<MmaSyncConfig> heuristic_default(const Problem& problem, const DeviceInfo& device);

    // Tiles of bk along K (the last one partial when bk does not divide K).
    std::int64_t k_tiles(const Problem& problem) const { return (problem.k + bk - 1) / bk; }
    // K tiles (of bk) of the largest split: the kernel deals them out so that shares differ by at most one.
    std::int64_t k_tiles_per_split(const Problem& problem) const;
    std::int64_t tiles(const Problem& problem) const;  // tiles of C
    // Whether blocks share tiles of C and meet in the workspace: split-K or stream-K.
    bool shares_tiles() const { return splits > 1 || stream_blocks > 0; }
    // Blocks in the grid, and the k tiles (of bk) of the busiest: a tile's split, or a stream-K block's run.
    std::int64_t blocks(const Problem& problem) const;
    std::int64_t k_tiles_per_block(const Problem& problem) const;
    // Stream-K: the most tiles one block's run reaches into (mma_sync.cuh's STREAM_SEGMENTS).
    std::int64_t stream_segments(const Problem& problem) const;

    // "mma_sync_128x128x32_w2x4_s3_g8"; "_k<splits>" follows when K is split, "_sk<blocks>" under stream-K, "_p<mask>"
    // when operands are packed, "_bulk" when they are packed for bulk copies.
    std::string to_string() const;
    static std::optional<MmaSyncConfig> parse(std::string_view name);

    friend bool operator==(const MmaSyncConfig& x, const MmaSyncConfig& y) {
        return x.bm == y.bm && x.bn == y.bn && x.bk == y.bk && x.wm == y.wm && x.wn == y.wn && x.stages == y.stages &&
               x.group == y.group && x.pack == y.pack && x.splits == y.splits &&
               x.stream_blocks == y.stream_blocks && x.bulk == y.bulk;
    }
};

// Whether the Tensor Core family computes this problem's types: fp16/bf16 inputs, or fp32 inputs with TF32 allowed.
bool is_tensor_core_problem(const Problem& problem);

// Whether configurations that pack both operands of this problem should take bulk copies on this device (Hopper,
// 16-bit inputs): the choice the search space and the untuned default make, within what validate() allows.
bool prefers_bulk_copies(const Problem& problem, const DeviceInfo& device);

}  // namespace jitgemm
