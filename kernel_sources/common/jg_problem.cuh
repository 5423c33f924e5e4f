// jg_problem.cuh — the one problem a kernel is specialized for, as compile-time constants, and how operands are
// addressed. A run-time-shape variant (JG_RUNTIME_DIM) takes one of m and n, and the three leading dimensions, from
// the launch's jg_args instead, so that one binary serves every size along that dimension; kernels read all sizes
// through `dims` (below), which is a constant where the size is one. A kernel compiled with JG_SIZES_AT_RUN_TIME takes
// every size and leading dimension from the launch: the GPU reference's form (one binary for every size of a given
// element types, layout and scalars: the tuner's reference check compiles it once, not once per problem). jitgemm's
// host code sets every JG_* macro
// (src/runtime/compile/kernel_program.cpp); the defaults below only let nvcc compile a family on its own, to look at
// its SASS.
//
// Storage is column-major (BLAS): element (r, c) of a matrix with leading dimension ld is at r + c * ld.
// Row-major callers are turned into this form on the host (C^T = op(B)^T op(A)^T), so kernels see one layout.
#pragma once

#include "common/jg_args.cuh"
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
#ifndef JG_RUNTIME_DIM
#define JG_RUNTIME_DIM 0  // 1: m, 2: n is a run-time size (jg_args), and so are lda, ldb and ldc; 0: all constants
#endif
#ifndef JG_SIZES_AT_RUN_TIME
#define JG_SIZES_AT_RUN_TIME 0  // 1: m, n, k, lda, ldb and ldc all from jg_args (the naive family's reference form)
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

static_assert(JG_RUNTIME_DIM >= 0 && JG_RUNTIME_DIM <= 2, "JG_RUNTIME_DIM is 0 (none), 1 (m) or 2 (n)");
constexpr bool RUNTIME_M = JG_RUNTIME_DIM == 1;
constexpr bool RUNTIME_N = JG_RUNTIME_DIM == 2;
constexpr bool RUNTIME_SHAPE = JG_RUNTIME_DIM != 0;
static_assert(!JG_SIZES_AT_RUN_TIME || JG_RUNTIME_DIM == 0, "every size at run time, or one of m and n");

// The sizes known when compiling. In a run-time-shape variant the run-time one and the leading dimensions are not
// declared at all, so that no code can use a constant the variant does not have: it reads them through `dims`.
#if JG_RUNTIME_DIM != 1 && !JG_SIZES_AT_RUN_TIME
constexpr index_t M = JG_M;
#endif
#if JG_RUNTIME_DIM != 2 && !JG_SIZES_AT_RUN_TIME
constexpr index_t N = JG_N;
#endif
#if !JG_SIZES_AT_RUN_TIME
constexpr index_t K = JG_K;
#endif
#if JG_RUNTIME_DIM == 0 && !JG_SIZES_AT_RUN_TIME
constexpr index_t LDA = JG_LDA;
constexpr index_t LDB = JG_LDB;
constexpr index_t LDC = JG_LDC;
#endif
constexpr bool TRANS_A = JG_TRANS_A != 0;
constexpr bool TRANS_B = JG_TRANS_B != 0;

// Alignment in elements: how wide a vector access to one column of the operand may be.
constexpr int ALIGN_A_ELEMS = JG_ALIGN_A / (int)sizeof(a_t);
constexpr int ALIGN_B_ELEMS = JG_ALIGN_B / (int)sizeof(b_t);
constexpr int ALIGN_C_ELEMS = JG_ALIGN_C / (int)sizeof(c_t);

__host__ __device__ constexpr index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }

// The problem's sizes and leading dimensions as a kernel reads them, and the offsets of op(A)(m, k), op(B)(k, n) and
// C(m, n). Each is the compile-time constant where the kernel has one (and folds as one), else the launch's jg_args
// field: `args` refers to the kernel's __grid_constant__ parameter, so a run-time size is a constant-bank operand and
// holds no register. Made once at a kernel's entry and passed to what needs the sizes.
struct dims {
    const jg_args& args;

    __device__ __forceinline__ index_t m() const {
#if JG_RUNTIME_DIM == 1 || JG_SIZES_AT_RUN_TIME
        return (index_t)args.m;
#else
        return M;
#endif
    }
    __device__ __forceinline__ index_t n() const {
#if JG_RUNTIME_DIM == 2 || JG_SIZES_AT_RUN_TIME
        return (index_t)args.n;
#else
        return N;
#endif
    }
    __device__ __forceinline__ index_t k() const {
#if JG_SIZES_AT_RUN_TIME
        return (index_t)args.k;
#else
        return K;
#endif
    }
#if JG_RUNTIME_DIM == 0 && !JG_SIZES_AT_RUN_TIME
    __device__ __forceinline__ index_t lda() const { return LDA; }
    __device__ __forceinline__ index_t ldb() const { return LDB; }
    __device__ __forceinline__ index_t ldc() const { return LDC; }
#else
    __device__ __forceinline__ index_t lda() const { return (index_t)args.lda; }
    __device__ __forceinline__ index_t ldb() const { return (index_t)args.ldb; }
    __device__ __forceinline__ index_t ldc() const { return (index_t)args.ldc; }
#endif
    // Whether m (n) is a whole number of `tile`s: a constant where m (n) is, so that a family's tail code folds away.
    __device__ __forceinline__ bool m_whole(index_t tile) const { return m() % tile == 0; }
    __device__ __forceinline__ bool n_whole(index_t tile) const { return n() % tile == 0; }

    __device__ __forceinline__ index_t a_offset(index_t m, index_t k) const {
        return TRANS_A ? k + m * lda() : m + k * lda();
    }
    __device__ __forceinline__ index_t b_offset(index_t k, index_t n) const {
        return TRANS_B ? n + k * ldb() : k + n * ldb();
    }
    __device__ __forceinline__ index_t c_offset(index_t m, index_t n) const { return m + n * ldc(); }
};

// Maps a linear block index to the (m, n) tile it computes, of tiles_m x tiles_n (constants where the sizes are).
// Blocks are taken GROUP tile rows at a time, m fastest inside a group, so the blocks resident at once cover a
// near-square patch of C and share their A and B panels in L2 (GROUP = 1 walks n first, GROUP >= tiles_m walks m
// first).
template <index_t GROUP>
__device__ __forceinline__ void tile_of_block(index_t block, index_t tiles_m, index_t tiles_n, index_t& tile_m,
                                              index_t& tile_n) {
    const index_t per_group = GROUP * tiles_n;
    const index_t group = block / per_group;
    const index_t first_m = group * GROUP;
    const index_t rows = tiles_m - first_m < GROUP ? tiles_m - first_m : GROUP;
    const index_t in_group = block - group * per_group;
    tile_m = first_m + in_group % rows;
    tile_n = in_group / rows;
}

}  // namespace jg
