// KernelArgs: the host's mirror of kernel_sources/common/jg_args.cuh, the one argument every family's GEMM kernel
// takes. The static_asserts below state the layout; a CPU test (tests/cpu/kernel_args_test.cpp) compiles jg_args.cuh
// with NVRTC and reads every field's offset back from the PTX, so the two cannot drift apart.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/problem/problem.h"

namespace jitgemm {

struct KernelArgs {
    const void* a = nullptr;
    const void* b = nullptr;
    void* c = nullptr;
    void* workspace = nullptr;  // filled in by launch_kernel: the kernel's share of the stream's workspace
    long long m = 0, n = 0, k = 0;
    long long lda = 0, ldb = 0, ldc = 0;
    long long batch = 1;
    long long batch_stride_a = 0, batch_stride_b = 0, batch_stride_c = 0;
    const void* epilogue_operand = nullptr;
    float alpha = 1.0f, beta = 0.0f;
};

static_assert(sizeof(void*) == 8, "jitgemm's kernel ABI is for 64-bit hosts");
static_assert(sizeof(KernelArgs) == 128, "KernelArgs mirrors jg_args: 128 bytes");
static_assert(offsetof(KernelArgs, a) == 0 && offsetof(KernelArgs, b) == 8 && offsetof(KernelArgs, c) == 16 &&
                  offsetof(KernelArgs, workspace) == 24 && offsetof(KernelArgs, m) == 32 &&
                  offsetof(KernelArgs, n) == 40 && offsetof(KernelArgs, k) == 48 && offsetof(KernelArgs, lda) == 56 &&
                  offsetof(KernelArgs, ldb) == 64 && offsetof(KernelArgs, ldc) == 72 &&
                  offsetof(KernelArgs, batch) == 80 && offsetof(KernelArgs, batch_stride_a) == 88 &&
                  offsetof(KernelArgs, batch_stride_b) == 96 && offsetof(KernelArgs, batch_stride_c) == 104 &&
                  offsetof(KernelArgs, epilogue_operand) == 112 && offsetof(KernelArgs, alpha) == 120 &&
                  offsetof(KernelArgs, beta) == 124,
              "KernelArgs mirrors jg_args field for field");

// One field's name and offset, for the test that checks jg_args.cuh against this layout.
struct KernelArgsField {
    const char* name;
    std::size_t offset;
};
inline constexpr KernelArgsField kKernelArgsFields[] = {
    {"a", offsetof(KernelArgs, a)},
    {"b", offsetof(KernelArgs, b)},
    {"c", offsetof(KernelArgs, c)},
    {"workspace", offsetof(KernelArgs, workspace)},
    {"m", offsetof(KernelArgs, m)},
    {"n", offsetof(KernelArgs, n)},
    {"k", offsetof(KernelArgs, k)},
    {"lda", offsetof(KernelArgs, lda)},
    {"ldb", offsetof(KernelArgs, ldb)},
    {"ldc", offsetof(KernelArgs, ldc)},
    {"batch", offsetof(KernelArgs, batch)},
    {"batch_stride_a", offsetof(KernelArgs, batch_stride_a)},
    {"batch_stride_b", offsetof(KernelArgs, batch_stride_b)},
    {"batch_stride_c", offsetof(KernelArgs, batch_stride_c)},
    {"epilogue_operand", offsetof(KernelArgs, epilogue_operand)},
    {"alpha", offsetof(KernelArgs, alpha)},
    {"beta", offsetof(KernelArgs, beta)},
};

// Elements between consecutive GEMMs' operands of a batched problem (A and B as the problem sees them).
struct BatchStrides {
    std::int64_t a = 0, b = 0, c = 0;
};

// The arguments of one call of the canonical `problem` on these operands (A and B as the problem sees them).
KernelArgs make_kernel_args(const Problem& problem, const void* a, const void* b, void* c, float alpha, float beta,
                            BatchStrides strides = {});

}  // namespace jitgemm
