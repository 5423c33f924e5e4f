// tiled.cuh — shared-memory tiling: a T x T block of threads computes a T x T tile of C, one element per thread,
// staging T x T tiles of op(A) and op(B) in shared memory so each global element is read once per tile instead of
// once per output (traffic falls by a factor of T).
#pragma once

#include "common/jg_args.cuh"
#include "common/jg_batch.cuh"
#include "common/jg_epilogue.cuh"
#include "common/jg_problem.cuh"

// ---- Tuning knobs ----
#ifndef TILED_T
#define TILED_T 16  // tile edge: T x T threads, T x T outputs, T-deep k steps
#endif

namespace jg {
namespace tiled {
constexpr int T = TILED_T;
constexpr int THREADS = T * T;
static_assert(T >= 2 && THREADS <= 1024, "T is at least 2 and T * T threads fit in a block");
static_assert(JG_A_TYPE == JG_DTYPE_F32 && JG_B_TYPE == JG_DTYPE_F32 && JG_C_TYPE == JG_DTYPE_F32,
              "the tiled family computes fp32 GEMMs only");
constexpr index_t K_TILES = ceil_div(K, T);  // k is never a run-time size; m and n may be (tiles counted from dims)
}  // namespace tiled
}  // namespace jg

// The kernel proper, on its operands; the extern "C" entry below unpacks jg_args into it.
static __device__ __forceinline__ void jg_tiled_body(const jg::dims& d, const jg::a_t* __restrict__ A,
    const jg::b_t* __restrict__ B, jg::c_t* C, float alpha, float beta) {
    using namespace jg;
    using namespace jg::tiled;
    // [k][m] and [k][n]; the +1 column keeps the transposing stores below free of bank conflicts.
    __shared__ float As[T][T + 1];
    __shared__ float Bs[T][T + 1];

    const int tx = threadIdx.x % T;
    const int ty = threadIdx.x / T;
    const index_t tiles_m = ceil_div(d.m(), T);
    const index_t m0 = (blockIdx.x % tiles_m) * T;
    const index_t n0 = (blockIdx.x / tiles_m) * T;
    const index_t m = m0 + tx;
    const index_t n = n0 + ty;

    float acc = 0.0f;
    for (index_t kt = 0; kt < K_TILES; ++kt) {
        const index_t k0 = kt * T;
        // Consecutive threads (tx) walk each operand's contiguous dimension, so the global reads coalesce.
        if constexpr (!TRANS_A) {  // A runs along m
            const index_t gm = m0 + tx, gk = k0 + ty;
            As[ty][tx] = gm < d.m() && gk < d.k() ? A[d.a_offset(gm, gk)] : 0.0f;
        } else {                   // A runs along k
            const index_t gm = m0 + ty, gk = k0 + tx;
            As[tx][ty] = gm < d.m() && gk < d.k() ? A[d.a_offset(gm, gk)] : 0.0f;
        }
        if constexpr (!TRANS_B) {  // B runs along k
            const index_t gk = k0 + tx, gn = n0 + ty;
            Bs[tx][ty] = gk < d.k() && gn < d.n() ? B[d.b_offset(gk, gn)] : 0.0f;
        } else {                   // B runs along n
            const index_t gk = k0 + ty, gn = n0 + tx;
            Bs[ty][tx] = gk < d.k() && gn < d.n() ? B[d.b_offset(gk, gn)] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < T; ++kk) acc = fmaf(As[kk][tx], Bs[kk][ty], acc);
        __syncthreads();
    }

    if (m < d.m() && n < d.n()) {
        const float out[1] = {acc};
        epilogue_store<1>(C, d.c_offset(m, n), out, 1, alpha, beta);
    }
}

extern "C" __global__ void __launch_bounds__(jg::tiled::THREADS)
    jg_tiled(const __grid_constant__ jg_args args) {
    using namespace jg;
    const dims d{args};
    for_each_gemm<a_t, b_t, c_t>(args, [&](const a_t* a, const b_t* b, c_t* c) {
        jg_tiled_body(d, a, b, c, args.alpha, args.beta);
    });
}
