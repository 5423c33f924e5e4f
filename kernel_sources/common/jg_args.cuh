// jg_args.cuh — the one argument every GEMM family's kernel takes: the operands, the run-time sizes, the scalars, the
// workspace, and room for batched calls and a fused epilogue's operand. Passed by value and declared
// __grid_constant__ in every kernel: it stays in the constant parameter space and is read from there. Without it
// NVVM treats the struct as a private copy, and the mma.sync family's main loop came out 12 instructions longer
// (429 -> 441 in the TF32 128x128x32 split-K kernel, 4-8% slower on the H200) than with the six scalar parameters
// the kernels took before. Families whose launch needs more — a Hopper family's tensor maps, which must be
// __grid_constant__ parameters of their own — take them after it.
//
// The host mirrors it field for field (src/runtime/launch/kernel_args.h, whose static_asserts state every offset);
// a CPU test compiles this header with NVRTC and reads each field's offset back from the PTX, so the two cannot
// drift apart.
//
// The families of this version are specialized for the exact problem (jg_problem.cuh's compile-time constants), so
// they read only the pointers, the scalars and the workspace; the sizes are there for variants compiled with run-time
// shapes.
#pragma once

struct jg_args {
    const void* a;      // op(A)'s storage (an aligned copy when the host packed it)
    const void* b;      // op(B)'s storage
    void* c;            // C, read when beta != 0, and written
    void* workspace;    // the kernel's share of the per-stream workspace (split-K partial sums; null when none)
    long long m, n, k;  // the canonical column-major problem
    long long lda, ldb, ldc;
    long long batch;    // independent GEMMs of this shape (1)
    long long batch_stride_a, batch_stride_b, batch_stride_c;  // elements between consecutive GEMMs' operands
    const void* epilogue_operand;  // a fused epilogue's vector (a bias; null: none)
    float alpha, beta;
};

static_assert(sizeof(jg_args) == 128, "jg_args is 128 bytes, as the host's KernelArgs");
