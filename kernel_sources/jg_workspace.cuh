// jg_workspace.cuh — device-side helpers of the tuner's workspace: filling operands with pseudo-random normal
// values (fast for big problems, where host generation and upload would eat the tuning budget) and comparing a
// candidate's output with the reference output, element by element, on the device.
#pragma once

// Counter-based hash (a splitmix64 finalizer): element i of stream `seed` is the same wherever it is computed.
__device__ __forceinline__ unsigned long long jg_mix(unsigned long long x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// p[i] ~ N(0, 1) for i < count (Box-Muller on two 24-bit uniforms from one hash).
extern "C" __global__ void jg_fill_normal(float* p, long long count, unsigned long long seed) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < count;
         i += (long long)gridDim.x * blockDim.x) {
        const unsigned long long h = jg_mix(seed ^ jg_mix((unsigned long long)i));
        const float u1 = ((float)(h >> 40) + 1.0f) * (1.0f / 16777217.0f);  // (0, 1]
        const float u2 = (float)((h >> 16) & 0xffffff) * (1.0f / 16777216.0f);
        p[i] = sqrtf(-2.0f * logf(u1)) * cospif(2.0f * u2);
    }
}

// Counts the elements of the m x n column-major matrices x and ref (leading dimension ld) with
// |x - ref| > atol + rtol * |ref|, or x not finite; bad[0] is the count, bad[1] the first bad linear index + 1.
extern "C" __global__ void jg_compare(const float* x, const float* ref, long long m, long long n, long long ld,
                                      float atol, float rtol, unsigned long long* bad) {
    const long long total = m * n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
         e += (long long)gridDim.x * blockDim.x) {
        const long long i = e % m, j = e / m;
        const float got = x[i + j * ld], want = ref[i + j * ld];
        const float diff = fabsf(got - want);
        if (!(diff <= atol + rtol * fabsf(want))) {  // NaN fails the comparison
            atomicAdd(&bad[0], 1ull);
            atomicMin(&bad[1], (unsigned long long)(e + 1));
        }
    }
}
