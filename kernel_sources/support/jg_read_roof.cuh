// jg_read_roof.cuh — a read of n 16-byte vectors and nothing else: the roof, at that many bytes, of a GEMM that only
// streams its operands once, such as a decode step (bench/read_roof.cpp times it the way `jitgemm bench` times a
// GEMM). The copy ceiling is measured on 2 GiB; at tens of MB the launch and the first and last microseconds of the
// stream weigh as much as the bytes, for any kernel.
#pragma once

#include "support/jg_l2_flush.cuh"

#ifndef READ_UNROLL
#define READ_UNROLL 4  // loads in flight per thread
#endif

// The flush's read with READ_UNROLL loads in flight; the folded words are stored only if they equal a value no
// contents give, so that the loads stay.
extern "C" __global__ void jg_read(const uint4* __restrict__ in, long long n, unsigned* sink) {
    const unsigned folded = fold_grid_stride_reads<READ_UNROLL>(in, n);
    if (folded == 0x9e3779b9u) *sink = folded;
}
