// jg_read_roof.cuh — a read of n 16-byte vectors and nothing else: the roof, at that many bytes, of a GEMM that only
// streams its operands once, such as a decode step (bench/read_roof.cpp times it the way `jitgemm bench` times a
// GEMM). The copy ceiling is measured on 2 GiB; at tens of MB the launch and the first and last microseconds of the
// stream weigh as much as the bytes, for any kernel.
#pragma once

#ifndef READ_UNROLL
#define READ_UNROLL 4  // loads in flight per thread
#endif

// Grid-stride, past L1; the words are folded and stored only if they equal a value no contents give, so that the
// loads stay.
extern "C" __global__ void jg_read(const uint4* __restrict__ in, long long n, unsigned* sink) {
    const long long stride = (long long)gridDim.x * blockDim.x;
    unsigned folded = 0;
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    for (; i + (READ_UNROLL - 1) * stride < n; i += READ_UNROLL * stride) {
        uint4 v[READ_UNROLL];
#pragma unroll
        for (int u = 0; u < READ_UNROLL; ++u) v[u] = __ldcg(in + i + u * stride);
#pragma unroll
        for (int u = 0; u < READ_UNROLL; ++u) folded ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < n; i += stride) {
        const uint4 v = __ldcg(in + i);
        folded ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (folded == 0x9e3779b9u) *sink = folded;
}
