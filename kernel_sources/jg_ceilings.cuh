// jg_ceilings.cuh — the two probes behind the roofline's ceilings (seed 004), measured once per device and driver:
// a streaming copy (DRAM bandwidth, bytes read + written) and a chain of independent FFMAs (the fp32 peak).
#pragma once

// out[i] = in[i] for n 16-byte vectors, grid-stride.
extern "C" __global__ void jg_copy(const float4* __restrict__ in, float4* __restrict__ out, long long n) {
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        out[i] = in[i];
}

// Eight independent FMA chains per thread (enough to cover the pipeline latency), `iterations` steps each:
// 16 FLOPs per step per thread. The result is stored so the compiler keeps the work.
extern "C" __global__ void jg_ffma(float* out, int iterations, float x) {
    float a[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) a[j] = x + j + threadIdx.x;
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int j = 0; j < 8; ++j) a[j] = fmaf(a[j], 0.999999f, 0.000001f);
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) sum += a[j];
    if (sum == 12345.678f) out[0] = sum;  // practically never true; keeps the chains alive
}
