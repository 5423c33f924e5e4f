// jg_epilogue.cuh — the one place where accumulators become outputs: C = alpha * acc + beta * C, converted to C's
// type. Every family stores through epilogue_store, so a bias or an activation added here reaches all of them.
//
// JG_BETA_MODE 0 means beta == 0: C is never read (it may hold NaN). JG_ALPHA_ONE skips the multiply by alpha.
#pragma once

#include "common/jg_memory.cuh"
#include "common/jg_problem.cuh"

#ifndef JG_ALPHA_ONE
#define JG_ALPHA_ONE 0  // 1: alpha == 1
#endif
#ifndef JG_BETA_MODE
#define JG_BETA_MODE 2  // 0: beta == 0 (C not read), 1: beta == 1, 2: any other beta
#endif

namespace jg {

constexpr bool ALPHA_ONE = JG_ALPHA_ONE != 0;
constexpr int BETA_MODE = JG_BETA_MODE;
static_assert(BETA_MODE >= 0 && BETA_MODE <= 2, "JG_BETA_MODE is 0, 1 or 2");

__device__ __forceinline__ float epilogue_value(float acc, float old_c, float alpha, float beta) {
    const float scaled = ALPHA_ONE ? acc : alpha * acc;
    if constexpr (BETA_MODE == 0) return scaled;
    else if constexpr (BETA_MODE == 1) return scaled + old_c;
    else return fmaf(beta, old_c, scaled);
}

// The V consecutive outputs of one column at C[offset], of which the first `valid` (at least one) exist, before their
// conversion to C's type; C is read only for those, and only where beta needs it. C's alignment must allow a V-wide
// load. epilogue_store's, and a kernel's that stores them another way (through shared memory and the TMA).
template <int V>
__device__ __forceinline__ void epilogue_values(const c_t* C, index_t offset, const float (&acc)[V], int valid,
                                                float alpha, float beta, float (&out)[V]) {
    float old_c[V];
    if constexpr (BETA_MODE != 0) load_typed_run<V>(C + offset, valid, old_c);
#pragma unroll
    for (int i = 0; i < V; ++i) out[i] = epilogue_value(acc[i], BETA_MODE != 0 ? old_c[i] : 0.0f, alpha, beta);
}

// Writes the V consecutive outputs C[offset], ..., C[offset + V - 1] of one column, of which the first `valid`
// exist, converted to C's type. The access is one vector instruction when C's alignment allows it and the run is
// whole.
template <int V>
__device__ __forceinline__ void epilogue_store(c_t* C, index_t offset, const float (&acc)[V], int valid, float alpha,
                                               float beta) {
    constexpr int W = run_width(V, ALIGN_C_ELEMS) == V ? V : 1;
    if constexpr (W == V) {
        float out[V];
        epilogue_values<V>(C, offset, acc, valid, alpha, beta, out);
        store_typed_run<V>(C + offset, valid, out);
    } else {
#pragma unroll
        for (int i = 0; i < V; ++i) {
            if (i < valid) {
                const float old_c = BETA_MODE != 0 ? to_float(C[offset + i]) : 0.0f;
                C[offset + i] = from_float<c_t>(epilogue_value(acc[i], old_c, alpha, beta));
            }
        }
    }
}

}  // namespace jg
