// jg_batch.cuh — strided batched calls: which GEMMs of a batch a block computes and where their operands lie.
//
// A batched problem (JG_BATCH GEMMs of one shape) is launched with the batch in the grid's third dimension: block
// (x, y, z) computes tile x of GEMM z. The distances between the GEMMs' operands are run-time arguments (jg_args'
// batch_stride_*: calls that differ only in their strides share a kernel); only their alignment is compiled in
// (JG_ALIGN_*). Offsets between GEMMs are 64-bit whatever JG_INDEX64 says, since they add up over the batch.
#pragma once

#include "common/jg_args.cuh"

#ifndef JG_BATCH
#define JG_BATCH 1  // independent GEMMs of this shape in one call
#endif

namespace jg {

constexpr long long BATCH = JG_BATCH;
// The most GEMMs the grid's third dimension holds; a larger batch is taken in turns (the host's grid says so too).
constexpr long long MAX_GRID_Z = 65535;

// Calls body(A, B, C) with the operands of each GEMM of the batch this block computes: GEMM blockIdx.z, and then
// every gridDim.z-th where the batch outgrows the grid (after a barrier, so that the next GEMM's copies into shared
// memory wait for every thread to finish the last one). One GEMM: the operands as given, nothing else, so an
// unbatched kernel is the same code as before batches existed.
template <typename A_T, typename B_T, typename C_T, typename Body>
__device__ __forceinline__ void for_each_gemm(const jg_args& args, Body body) {
    const A_T* const a = static_cast<const A_T*>(args.a);
    const B_T* const b = static_cast<const B_T*>(args.b);
    C_T* const c = static_cast<C_T*>(args.c);
    if constexpr (BATCH == 1) {
        body(a, b, c);
    } else if constexpr (BATCH <= MAX_GRID_Z) {
        const long long z = blockIdx.z;
        body(a + z * args.batch_stride_a, b + z * args.batch_stride_b, c + z * args.batch_stride_c);
    } else {
        for (long long z = blockIdx.z; z < BATCH; z += gridDim.z) {
            if (z != blockIdx.z) __syncthreads();
            body(a + z * args.batch_stride_a, b + z * args.batch_stride_b, c + z * args.batch_stride_c);
        }
    }
}

}  // namespace jg
