// jg_l2_flush.cuh — the L2 flush between timed runs: a read of a buffer twice the L2's size, so that what the timed
// kernel will read is not in L2 and what L2 holds is clean. (A memset flush left L2 full of dirty lines, whose
// write-back to DRAM the timed kernel then paid for: up to 60 MB on the H200, about 9 us added to a 32 MB decode.)
#pragma once

// Reads n 16-byte vectors, grid-stride, past L1; the words are folded into one that is stored only if it equals a
// value the buffer's contents never give, so that the loads are kept.
extern "C" __global__ void jg_l2_read(const uint4* __restrict__ buffer, long long n, unsigned* sink) {
    unsigned folded = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const uint4 v = __ldcg(buffer + i);
        folded ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (folded == 0x9e3779b9u) *sink = folded;
}
