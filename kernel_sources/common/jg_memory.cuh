// jg_memory.cuh — vector loads and stores of runs with a compile-time width, and their masked tails: fp32 runs
// for the SIMT families' operands, and runs of any element type (converted to and from fp32) for the epilogue.
// Shared by every family so that "may this access be 16 bytes wide" is decided in one place.
#pragma once

#include "common/jg_types.cuh"

namespace jg {

// A value of global memory that no thread writes while the kernel runs (an operand, A or B), through the read-only
// (non-coherent) data path. Kernels take their operands from one jg_args argument, where restrict-qualified kernel
// parameters used to tell the compiler this; through the argument it cannot see it, so the operand loads say it.
template <typename T>
__device__ __forceinline__ T load_read_only(const T* p) {
    return __ldg(p);
}

// The first `valid` (at most N) of N consecutive 16-bit elements at p, through the read-only path, into out (the
// rest are left as they are): one load per element, each at an immediate offset from p. load_read_only of a 16-bit
// type is inline assembly that takes the finished address, so each load paid for its own 64-bit address (a LEA
// apiece: the mma.sync register path's main loop grew from 123 to 169 instructions, 64x64x16 bf16).
template <int N, int I = 0>
__device__ __forceinline__ void load_read_only_elements(const unsigned short* p, int valid,
                                                        unsigned short (&out)[N]) {
    if constexpr (I < N) {
        if (I < valid) asm("ld.global.nc.u16 %0, [%1+%2];" : "=h"(out[I]) : "l"(p), "n"(I * 2));
        load_read_only_elements<N, I + 1>(p, valid, out);
    }
}

// Loads V consecutive floats from p, of which the first `valid` exist (0 <= valid); the rest read as zero.
// The full case is one vector instruction: callers guarantee p is aligned to V * 4 bytes whenever valid >= V.
// READ_ONLY: p is an operand of global memory that nothing writes during the kernel (load_read_only).
template <int V, bool READ_ONLY = false>
__device__ __forceinline__ void load_run(const float* __restrict__ p, int valid, float (&out)[V]) {
    static_assert(V == 1 || V == 2 || V == 4, "runs are 1, 2 or 4 floats");
    if (valid >= V) {
        if constexpr (V == 4) {
            const float4* q = reinterpret_cast<const float4*>(p);
            const float4 v = READ_ONLY ? load_read_only(q) : *q;
            out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
        } else if constexpr (V == 2) {
            const float2* q = reinterpret_cast<const float2*>(p);
            const float2 v = READ_ONLY ? load_read_only(q) : *q;
            out[0] = v.x; out[1] = v.y;
        } else {
            out[0] = READ_ONLY ? load_read_only(p) : *p;
        }
    } else {
#pragma unroll
        for (int i = 0; i < V; ++i) out[i] = i < valid ? (READ_ONLY ? load_read_only(p + i) : p[i]) : 0.0f;
    }
}

// Stores V consecutive floats to p, of which the first `valid` are written.
template <int V>
__device__ __forceinline__ void store_run(float* p, int valid, const float (&in)[V]) {
    static_assert(V == 1 || V == 2 || V == 4, "runs are 1, 2 or 4 floats");
    if (valid >= V) {
        if constexpr (V == 4) {
            *reinterpret_cast<float4*>(p) = make_float4(in[0], in[1], in[2], in[3]);
        } else if constexpr (V == 2) {
            *reinterpret_cast<float2*>(p) = make_float2(in[0], in[1]);
        } else {
            *p = in[0];
        }
    } else {
#pragma unroll
        for (int i = 0; i < V; ++i)
            if (i < valid) p[i] = in[i];
    }
}

// V elements of T as one aligned access of V * sizeof(T) bytes.
template <typename T, int V>
struct alignas(sizeof(T) * V) run_of {
    T v[V];
};

// Loads V consecutive elements of type T as fp32, of which the first `valid` exist (the rest read as zero). The
// full case is one access: callers guarantee p is aligned to V * sizeof(T) bytes whenever valid >= V.
template <int V, typename T>
__device__ __forceinline__ void load_typed_run(const T* p, int valid, float (&out)[V]) {
    if constexpr (sizeof(T) == 4) {
        load_run<V>(reinterpret_cast<const float*>(p), valid, out);
    } else if (valid >= V) {
        const run_of<T, V> r = *reinterpret_cast<const run_of<T, V>*>(p);
#pragma unroll
        for (int i = 0; i < V; ++i) out[i] = to_float(r.v[i]);
    } else {
#pragma unroll
        for (int i = 0; i < V; ++i) out[i] = i < valid ? to_float(p[i]) : 0.0f;
    }
}

// Stores V fp32 values converted to T at p, of which the first `valid` are written.
template <int V, typename T>
__device__ __forceinline__ void store_typed_run(T* p, int valid, const float (&in)[V]) {
    if constexpr (sizeof(T) == 4) {
        store_run<V>(reinterpret_cast<float*>(p), valid, in);
    } else if (valid >= V) {
        run_of<T, V> r;
#pragma unroll
        for (int i = 0; i < V; ++i) r.v[i] = from_float<T>(in[i]);
        *reinterpret_cast<run_of<T, V>*>(p) = r;
    } else {
#pragma unroll
        for (int i = 0; i < V; ++i)
            if (i < valid) p[i] = from_float<T>(in[i]);
    }
}

// The widest run (1, 2 or 4 elements) no wider than `limit` that divides `alignment_elems`.
__host__ __device__ constexpr int run_width(int limit, int alignment_elems) {
    int w = limit < alignment_elems ? limit : alignment_elems;
    return w >= 4 ? 4 : (w >= 2 ? 2 : 1);
}

}  // namespace jg
