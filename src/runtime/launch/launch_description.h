// The launch of a GEMM kernel as a family describes it for one problem: grid, block and dynamic shared memory, the
// operands to pack to an aligned copy first, and the workspace the kernel takes. The runtime launches what this says
// (loaded_kernel.h); a family fills it in (tuner/families).
#pragma once

#include <cstdint>
#include <vector>

namespace jitgemm {

// An operand copied to an aligned workspace before the GEMM kernel runs (kernel_sources/jg_pack.cuh): `rows`
// elements along its contiguous dimension in each of `cols` columns, from leading dimension ld_from to ld_to (the
// copy's column length), in cols_to columns (cols, or more: the copy's are zero past cols). `tiled`: the copy's
// chunks are laid out tile by tile for the Tensor Core family's bulk copies (kernel_sources/mma_bulk_pack.cuh, whose
// tiles cover ld_to x cols_to), not column by column.
struct OperandPack {
    int operand = 0;  // 0: A, 1: B (of the canonical problem)
    std::int64_t rows = 0, cols = 0, ld_from = 0, ld_to = 0, cols_to = 0;
    int element_bytes = 2;
    bool tiled = false;
    std::int64_t bytes() const { return cols_to * ld_to * element_bytes; }
};

// 1-D grid of 1-D blocks; every family linearizes its tiles into blockIdx.x. `packs` lists the operands to copy to
// aligned workspace first (none for most kernels). Every kernel takes (A, B, C, alpha, beta); the Tensor Core
// family's takes a sixth, its scratch (split-K partial sums): `scratch_bytes` of stream-ordered workspace, of which
// the first `scratch_zeroed_bytes` are zeroed before the launch (none when scratch_bytes is 0).
struct LaunchGeometry {
    std::uint32_t grid = 0;
    std::uint32_t block = 0;
    std::uint32_t dynamic_shared_bytes = 0;
    std::vector<OperandPack> packs;
    std::int64_t scratch_bytes = 0;
    std::int64_t scratch_zeroed_bytes = 0;
};

}  // namespace jitgemm
