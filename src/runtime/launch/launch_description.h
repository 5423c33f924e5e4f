// The launch of a GEMM kernel as a family describes it for one problem: a 3-D grid of 3-D blocks, optionally in
// clusters, dynamic shared memory, the operands to pack to an aligned copy first, the workspace the kernel takes,
// and the family's per-call host step. The runtime launches what this says (loaded_kernel.h); a family fills it in
// (tuner/families).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/launch/launch_preparation.h"

namespace jitgemm {

// An operand copied to an aligned workspace before the GEMM kernel runs (kernel_sources/common/jg_pack.cuh): `rows`
// elements along its contiguous dimension in each of `cols` columns, from leading dimension ld_from to ld_to (the
// copy's column length), in cols_to columns (cols, or more: the copy's are zero past cols). `tiled`: the copy's
// chunks are laid out tile by tile for the mma.sync family's bulk copies (kernel_sources/mma_sync/bulk_pack.cuh, whose
// tiles cover ld_to x cols_to), not column by column. `transposed`: the copy is the operand's transpose (32-bit
// elements, kernel_sources/common/jg_pack_transpose.cuh): its cols_to = rows columns hold the operand's rows, ld_to >=
// cols elements each; a launch with a transposed copy makes both of its copies through that kernel.
struct OperandPack {
    int operand = 0;  // 0: A, 1: B (of the canonical problem)
    std::int64_t rows = 0, cols = 0, ld_from = 0, ld_to = 0, cols_to = 0;
    int element_bytes = 2;
    bool tiled = false;
    bool transposed = false;
    std::int64_t bytes() const { return cols_to * ld_to * element_bytes; }
};

// The kernel that makes a launch's copies, which its module holds: the numbering is the JG_PACKS macro's of
// kernel_sources/common/jg_pack.cuh (a module holds no copy kernel it does not launch: compiled into every module,
// they were most of a candidate's compile).
enum class PackKernel { None = 0, Columns = 1, Transposing = 2, Tiles = 3 };
// A launch with a transposed copy makes both copies through jg_pack_transpose; tiled copies go through jg_pack_tiles.
inline PackKernel pack_kernel_of(const std::vector<OperandPack>& packs) {
    if (packs.empty()) return PackKernel::None;
    for (const OperandPack& op : packs)
        if (op.transposed) return PackKernel::Transposing;
    return packs.front().tiled ? PackKernel::Tiles : PackKernel::Columns;
}
inline const char* pack_kernel_symbol(PackKernel kernel) {
    switch (kernel) {
        case PackKernel::Columns: return "jg_pack";
        case PackKernel::Transposing: return "jg_pack_transpose";
        case PackKernel::Tiles: return "jg_pack_tiles";
        case PackKernel::None: break;
    }
    return nullptr;
}

struct Dim3 {
    std::uint32_t x = 1, y = 1, z = 1;
    std::uint64_t count() const { return std::uint64_t{x} * y * z; }
    friend bool operator==(const Dim3& p, const Dim3& q) { return p.x == q.x && p.y == q.y && p.z == q.z; }
};

// Every kernel takes a KernelArgs (kernel_args.h), then whatever `preparation` adds per call. The workspace of a call
// (from the stream's, src/runtime/workspace/stream_workspace.h) holds the kernel's partial sums — split-K's arrival
// counters and sums: `partial_sums_bytes`, of which the first `partial_sums_zeroed_bytes` are zero at the launch
// and left zero by the kernel (the stream's workspace keeps them so) — and then each packed operand's copy.
// The zeroed head of that workspace where a kernel's tiles meet through it (common/jg_split_k.cuh): a 4-byte arrival
// counter per tile, padded to 256 bytes so that the partial sums after it stay aligned.
inline std::int64_t arrival_counter_bytes(std::int64_t tiles) { return (tiles * 4 + 255) / 256 * 256; }
// Stream-K there: `blocks` deal out the k tiles of `tiles` tiles (k_tiles each) in runs of ceil(all / blocks); a run
// reaches into at most ceil(run / k_tiles) + 1 tiles, a slot of partial sums each.
inline std::int64_t stream_k_segments(std::int64_t tiles, std::int64_t k_tiles, std::int64_t blocks) {
    const std::int64_t run = (tiles * k_tiles + blocks - 1) / blocks;
    return (run + k_tiles - 1) / k_tiles + 1;
}

struct LaunchDescription {
    Dim3 grid{0, 1, 1};
    Dim3 block{0, 1, 1};
    Dim3 cluster;  // blocks per cluster along each dimension; 1 x 1 x 1 is no cluster
    std::uint32_t dynamic_shared_bytes = 0;
    // The kernel's blocks (or clusters) loop over its work with a stride of the grid, as a persistent grid's do along
    // x: a smaller grid along x covers all of it. Loading such a kernel in clusters shrinks a grid of more clusters
    // than the device holds at once to those it holds, which would otherwise wait and run as a second wave.
    bool grid_strided = false;
    std::vector<OperandPack> packs;
    std::int64_t partial_sums_bytes = 0;
    std::int64_t partial_sums_zeroed_bytes = 0;
    // The family's per-call step (null for none): shared, as it may keep state across calls (encoded tensor maps).
    std::shared_ptr<const LaunchPreparation> preparation;

    std::uint32_t threads_per_block() const { return block.x * block.y * block.z; }
    bool clustered() const { return cluster.count() > 1; }
};

}  // namespace jitgemm
