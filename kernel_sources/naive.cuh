// naive.cuh — one thread per output element, reading A and B straight from global memory.
// The slowest family and the simplest to trust: it is the GPU reference that the tuner verifies against, and it
// serves the degenerate calls (k = 0 or alpha = 0: C = beta * C without reading A or B). It takes every element type
// (converted to fp32, multiplied and summed in exact fp32, also for a problem that allows TF32), so it is the
// reference of the Tensor Core family too. As the reference it is compiled with every size at run time
// (JG_SIZES_AT_RUN_TIME, common/jg_problem.cuh): one binary checks every problem of its types and layout.
#pragma once

#include "common/jg_args.cuh"
#include "common/jg_batch.cuh"
#include "common/jg_epilogue.cuh"
#include "common/jg_problem.cuh"

// ---- Tuning knobs ----
#ifndef NAIVE_BM
#define NAIVE_BM 16  // threads of a block along m (consecutive m: coalesced reads of A when not transposed, of C)
#endif
#ifndef NAIVE_BN
#define NAIVE_BN 16  // threads of a block along n
#endif

namespace jg {
namespace naive {
constexpr int BM = NAIVE_BM;
constexpr int BN = NAIVE_BN;
constexpr int THREADS = BM * BN;
static_assert(BM >= 1 && BN >= 1 && THREADS <= 1024, "a block holds at most 1024 threads");
}  // namespace naive
}  // namespace jg

// The kernel proper, on its operands; the extern "C" entry below unpacks jg_args into it.
static __device__ __forceinline__ void jg_naive_body(const jg::dims& d, const jg::a_t* __restrict__ A,
    const jg::b_t* __restrict__ B, jg::c_t* C, float alpha, float beta) {
    using namespace jg;
    using namespace jg::naive;
    const index_t tiles_m = ceil_div(d.m(), BM);
    const index_t tile_m = blockIdx.x % tiles_m;
    const index_t tile_n = blockIdx.x / tiles_m;
    const index_t m = tile_m * BM + threadIdx.x % BM;
    const index_t n = tile_n * BN + threadIdx.x / BM;
    if (m >= d.m() || n >= d.n()) return;

    float acc = 0.0f;
#pragma unroll 4
    for (index_t k = 0; k < d.k(); ++k) acc = fmaf(to_float(A[d.a_offset(m, k)]), to_float(B[d.b_offset(k, n)]), acc);

    const float out[1] = {acc};
    epilogue_store<1>(C, d.c_offset(m, n), out, 1, alpha, beta);
}

extern "C" __global__ void __launch_bounds__(jg::naive::THREADS)
    jg_naive(const __grid_constant__ jg_args args) {
    using namespace jg;
    const dims d{args};
    for_each_gemm<a_t, b_t, c_t>(args, [&](const a_t* a, const b_t* b, c_t* c) {
        jg_naive_body(d, a, b, c, args.alpha, args.beta);
    });
}
