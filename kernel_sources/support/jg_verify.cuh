// support/jg_verify.cuh — the tuner's verification kernels: filling operands with pseudo-random normal
// values (fast for big problems, where host generation and upload would eat the tuning budget) and comparing a
// candidate's output with the reference output, element by element, on the device. Both take the element type at
// run time (the codes of jg_types.cuh), so one module serves every problem.
#pragma once

#include "common/jg_types.cuh"

// Element i of an array of element type `dtype`, as fp32; and the store of a value rounded to that type.
__device__ __forceinline__ float jg_load_as_float(const void* p, long long i, int dtype) {
    if (dtype == JG_DTYPE_F16) return jg::to_float(static_cast<const jg::f16_t*>(p)[i]);
    if (dtype == JG_DTYPE_BF16) return jg::to_float(static_cast<const jg::bf16_t*>(p)[i]);
    return static_cast<const float*>(p)[i];
}
__device__ __forceinline__ void jg_store_from_float(void* p, long long i, int dtype, float v) {
    if (dtype == JG_DTYPE_F16) static_cast<jg::f16_t*>(p)[i] = jg::from_float<jg::f16_t>(v);
    else if (dtype == JG_DTYPE_BF16) static_cast<jg::bf16_t*>(p)[i] = jg::from_float<jg::bf16_t>(v);
    else static_cast<float*>(p)[i] = v;
}

// Counter-based hash (a splitmix64 finalizer): element i of stream `seed` is the same wherever it is computed.
__device__ __forceinline__ unsigned long long jg_mix(unsigned long long x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// p[i] ~ N(0, 1), rounded to the element type, for i < count (Box-Muller on two 24-bit uniforms from one hash).
extern "C" __global__ void jg_fill_normal(void* p, long long count, unsigned long long seed, int dtype) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x) {
        const unsigned long long h = jg_mix(seed ^ jg_mix((unsigned long long)i));
        const float u1 = ((float)(h >> 40) + 1.0f) * (1.0f / 16777217.0f);  // (0, 1]
        const float u2 = (float)((h >> 16) & 0xffffff) * (1.0f / 16777216.0f);
        jg_store_from_float(p, i, dtype, sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2));
    }
}

// Counts the elements of the m x n column-major matrices x and ref (leading dimension ld, element type dtype) with
// |x - ref| > atol + rtol * |ref|, or x not finite; bad[0] is the count, bad[1] the first bad linear index + 1.
extern "C" __global__ void jg_compare(const void* x, const void* ref, long long m, long long n, long long ld,
                                      float atol, float rtol, unsigned long long* bad, int dtype) {
    const long long total = m * n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
         e += (long long)gridDim.x * blockDim.x) {
        const long long i = e % m, j = e / m;
        const float got = jg_load_as_float(x, i + j * ld, dtype), want = jg_load_as_float(ref, i + j * ld, dtype);
        const float diff = fabsf(got - want);
        if (!(diff <= atol + rtol * fabsf(want))) {  // NaN fails the comparison
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)(e + 1));
        }
    }
}
