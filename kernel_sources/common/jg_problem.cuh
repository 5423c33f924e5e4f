// jg_problem.cuh — the one problem a kernel is specialized for, as compile-time constants, and how operands are
// addressed. jitgemm's host code sets every JG_* macro (src/runtime/compile/kernel_program.cpp); the defaults below only
// let nvcc compile a family on its own, to look at its SASS.
//
// Storage is column-major (BLAS): element (r, c) of a matrix with leading dimension ld is at r + c * ld.
// Row-major callers are turned into this form on the host (C^T = op(B)^T op(A)^T), so kernels see one layout.
#pragma once

#include "common/jg_types.cuh"

#ifndef JG_M
#define JG_M 512        // rows of op(A) and C
#endif
#ifndef JG_N
#define JG_N 512        // columns of op(B) and C
#endif
#ifndef JG_K
#define JG_K 512        // columns of op(A), rows of op(B)
#endif
#ifndef JG_TRANS_A
#define JG_TRANS_A 0    // 1: op(A) = A^T, A is stored k x m
#endif
#ifndef JG_TRANS_B
#define JG_TRANS_B 0    // 1: op(B) = B^T, B is stored n x k
#endif
#ifndef JG_LDA
#define JG_LDA 512      // leading dimension of A in elements
#endif
#ifndef JG_LDB
#define JG_LDB 512      // leading dimension of B in elements
#endif
#ifndef JG_LDC
#define JG_LDC 512      // leading dimension of C in elements
#endif
#ifndef JG_ALIGN_A
#define JG_ALIGN_A 16   // bytes: A's pointer and every column start are aligned to this (2 up to 16)
#endif
#ifndef JG_ALIGN_B
#define JG_ALIGN_B 16   // bytes, as JG_ALIGN_A, for B
#endif
#ifndef JG_ALIGN_C
#define JG_ALIGN_C 16   // bytes, as JG_ALIGN_A, for C
#endif
#ifndef JG_INDEX64
#define JG_INDEX64 0    // 1: offsets need 64-bit arithmetic (the host decides from sizes and leading dimensions)
#endif

namespace jg {

#if JG_INDEX64
typedef long long index_t;
#else
typedef int index_t;
#endif

typedef dtype_of<JG_A_TYPE>::type a_t;  // element types (jg_types.cuh); the SIMT families take fp32 only
typedef dtype_of<JG_B_TYPE>::type b_t;
typedef dtype_of<JG_C_TYPE>::type c_t;

constexpr index_t M = JG_M;
constexpr index_t N = JG_N;
constexpr index_t K = JG_K;
constexpr index_t LDA = JG_LDA;
constexpr index_t LDB = JG_LDB;
constexpr index_t LDC = JG_LDC;
constexpr bool TRANS_A = JG_TRANS_A != 0;
constexpr bool TRANS_B = JG_TRANS_B != 0;

// Alignment in elements: how wide a vector access to one column of the operand may be.
constexpr int ALIGN_A_ELEMS = JG_ALIGN_A / (int)sizeof(a_t);
constexpr int ALIGN_B_ELEMS = JG_ALIGN_B / (int)sizeof(b_t);
constexpr int ALIGN_C_ELEMS = JG_ALIGN_C / (int)sizeof(c_t);

// Offsets of op(A)(m, k), op(B)(k, n) and C(m, n).
__device__ __forceinline__ index_t a_offset(index_t m, index_t k) { return TRANS_A ? k + m * LDA : m + k * LDA; }
__device__ __forceinline__ index_t b_offset(index_t k, index_t n) { return TRANS_B ? n + k * LDB : k + n * LDB; }
__device__ __forceinline__ index_t c_offset(index_t m, index_t n) { return m + n * LDC; }

__host__ __device__ constexpr index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }

// Maps a linear block index to the (m, n) tile it computes. Blocks are taken GROUP tile rows at a time, m fastest
// inside a group, so the blocks resident at once cover a near-square patch of C and share their A and B panels in
// L2 (GROUP = 1 walks n first, GROUP >= TILES_M walks m first).
template <index_t TILES_M, index_t TILES_N, index_t GROUP>
__device__ __forceinline__ void tile_of_block(index_t block, index_t& tile_m, index_t& tile_n) {
    constexpr index_t PER_GROUP = GROUP * TILES_N;
    const index_t group = block / PER_GROUP;
    const index_t first_m = group * GROUP;
    const index_t rows = TILES_M - first_m < GROUP ? TILES_M - first_m : GROUP;
    const index_t in_group = block - group * PER_GROUP;
    tile_m = first_m + in_group % rows;
    tile_n = in_group / rows;
}

}  // namespace jg
