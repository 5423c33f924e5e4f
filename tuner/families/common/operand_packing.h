// Packing a misaligned operand to an aligned copy first (kernel_sources/common/jg_pack.cuh), as the Tensor Core
// families offer it, or to a k-contiguous copy (kernel_sources/common/jg_pack_transpose.cuh) for a kernel that reads
// operands no other way: which extent of an operand is contiguous, the copy's leading dimension, the problem the
// kernel then sees, and the copy's description for the launch.
#pragma once

#include <cstdint>
#include <utility>

#include "runtime/launch/launch_description.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

// Whether operand 0 (A) or 1 (B) of the canonical problem is stored k-contiguous (A transposed, B not).
bool k_contiguous(const Problem& p, int operand);

// Rows (the contiguous extent) and columns of the stored matrix of operand 0 (A) or 1 (B) of the canonical problem.
std::pair<std::int64_t, std::int64_t> stored_extent(const Problem& p, int operand);

// Columns of a packed copy start on 128-byte lines, not merely 16-byte boundaries: a tile row of 32 or 64 bytes
// then touches as few 32-byte L2 sectors and lines as in an aligned problem (at a 16-byte offset a 64-byte row
// spans three sectors, not two), which a main loop reading every operand tile from L2 pays for on every tile.
std::int64_t aligned_leading_dimension(std::int64_t rows, int element_bytes);

// The problem a kernel computes when the operands of `pack` (bit 0 A, bit 1 B) are packed: their leading dimension
// is the copy's and their alignment 16 bytes.
Problem packed_problem(const Problem& problem, int pack, int element_bytes);

// The column-by-column copy of `operand` that packed_problem() describes, for LaunchDescription::packs.
OperandPack column_pack(const Problem& problem, int operand, int element_bytes);

// For a kernel that reads both operands only k-contiguous (the wgmma family in TF32): the problem it computes when the
// operands of `pack` are copied k-contiguous first, transposed where they are stored m- or n-contiguous. Their
// transpose says k-contiguous (A transposed, B not), their leading dimension is the copy's (k rounded up to 128
// bytes) and their alignment 16 bytes.
Problem k_major_packed_problem(const Problem& problem, int pack, int element_bytes);

// The copy of `operand` that k_major_packed_problem() describes: column_pack() where the operand is k-contiguous
// already, else its transpose (OperandPack::transposed), whose columns are the operand's rows of k.
OperandPack k_major_pack(const Problem& problem, int operand, int element_bytes);

}  // namespace jitgemm
