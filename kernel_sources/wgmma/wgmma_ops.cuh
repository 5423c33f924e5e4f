// wgmma/wgmma_ops.cuh — the wgmma family's Tensor Core instruction: wgmma.mma_async with fp32 accumulators —
// m64nNk16 for fp16 and bf16 inputs with both operands read from shared memory through matrix descriptors, m64nNk8 for
// TF32 (fp32 inputs) with the A operand from shared memory or from registers — one wrapper per instruction width N
// the family uses. The accumulators of one instruction are N / 2 registers per thread and must be named one by one in
// the asm; JG_WGMMA_D* spell those operand lists out in groups of eight.
//
// Operand order in every asm below: the accumulators (%0 .. %(N/2 - 1)), then A (a descriptor, or four registers),
// then B's descriptor, then the scale of D (0: D = A B, the first k step of a tile; 1: D += A B), then, for 16-bit
// inputs only, the two transposes as immediates. PTX has no transpose for .tf32: its shared tiles must be k-major, and
// an A operand stored otherwise comes from registers, which the kernel fills in the instruction's fragment order. Each
// JG_WGMMA_N<width> takes the operand index of the scale, the text of the operands A and B, and the transposes' text.
#pragma once

#define JG_WGMMA_D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]),     \
                       "+f"(d[i + 6]), "+f"(d[i + 7])
#define JG_WGMMA_D32(i) JG_WGMMA_D8(i), JG_WGMMA_D8(i + 8), JG_WGMMA_D8(i + 16), JG_WGMMA_D8(i + 24)
#define JG_WGMMA_D64(i) JG_WGMMA_D32(i), JG_WGMMA_D32(i + 32)
#define JG_WGMMA_D96(i) JG_WGMMA_D64(i), JG_WGMMA_D32(i + 64)
#define JG_WGMMA_D128(i) JG_WGMMA_D64(i), JG_WGMMA_D64(i + 64)

// m64n64 (k16 or k8): 32 accumulators per thread.
#define JG_WGMMA_N64(SHAPE_TYPES, SCALE, OPERANDS, TRANSPOSES, INPUTS)                                                 \
    asm volatile(                                                                                                      \
        "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE ", 0;\n"                                                             \
        "wgmma.mma_async.sync.aligned.m64n64" SHAPE_TYPES " {"                                                         \
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "              \
        "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"                                                        \
        "}, " OPERANDS ", p, 1, 1" TRANSPOSES ";\n}\n"                                                                 \
        : JG_WGMMA_D32(0)                                                                                              \
        : INPUTS)
// m64n128: 64 accumulators per thread.
#define JG_WGMMA_N128(SHAPE_TYPES, SCALE, OPERANDS, TRANSPOSES, INPUTS)                                                \
    asm volatile(                                                                                                      \
        "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE ", 0;\n"                                                             \
        "wgmma.mma_async.sync.aligned.m64n128" SHAPE_TYPES " {"                                                        \
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "              \
        "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "              \
        "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "              \
        "%59, %60, %61, %62, %63"                                                                                      \
        "}, " OPERANDS ", p, 1, 1" TRANSPOSES ";\n}\n"                                                                 \
        : JG_WGMMA_D64(0)                                                                                              \
        : INPUTS)
// m64n192: 96 accumulators per thread.
#define JG_WGMMA_N192(SHAPE_TYPES, SCALE, OPERANDS, TRANSPOSES, INPUTS)                                                \
    asm volatile(                                                                                                      \
        "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE ", 0;\n"                                                             \
        "wgmma.mma_async.sync.aligned.m64n192" SHAPE_TYPES " {"                                                        \
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "              \
        "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "              \
        "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "              \
        "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, "              \
        "%78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"                     \
        "}, " OPERANDS ", p, 1, 1" TRANSPOSES ";\n}\n"                                                                 \
        : JG_WGMMA_D96(0)                                                                                              \
        : INPUTS)
// m64n256: 128 accumulators per thread.
#define JG_WGMMA_N256(SHAPE_TYPES, SCALE, OPERANDS, TRANSPOSES, INPUTS)                                                \
    asm volatile(                                                                                                      \
        "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE ", 0;\n"                                                             \
        "wgmma.mma_async.sync.aligned.m64n256" SHAPE_TYPES " {"                                                        \
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, "              \
        "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "              \
        "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, "              \
        "%59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, "              \
        "%78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, "              \
        "%97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, "                \
        "%113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"                     \
        "}, " OPERANDS ", p, 1, 1" TRANSPOSES ";\n}\n"                                                                 \
        : JG_WGMMA_D128(0)                                                                                             \
        : INPUTS)

// The asm's inputs after the accumulators, in the order above: A and B as descriptors (16-bit with the transposes, or
// TF32), or A as four registers of TF32 values and B as a descriptor.
#define JG_WGMMA_INPUTS_TRANSPOSED "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B)
#define JG_WGMMA_INPUTS "l"(desc_a), "l"(desc_b), "r"(scale_d)
#define JG_WGMMA_INPUTS_REGISTER_A "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d)

namespace jg {
namespace wgmma {

// D (64 x N, fp32) = A B or D + A B over one k step of 16: A from desc_a (64 x 16), B from desc_b (16 x N). TRANS_A,
// TRANS_B: 0 where the operand's shared tile is k-major, 1 where it is m- or n-major (16-bit types only).
template <int N, bool BF16, int TRANS_A, int TRANS_B>
__device__ __forceinline__ void mma_k16(float (&d)[N / 2], unsigned long long desc_a, unsigned long long desc_b,
                                        int scale_d) {
    static_assert(N == 64 || N == 128 || N == 192 || N == 256, "the family's instruction widths are 64, 128, 192, 256");
    if constexpr (N == 64) {
        if constexpr (BF16) JG_WGMMA_N64("k16.f32.bf16.bf16", "%34", "%32, %33", ", %35, %36",
                                         JG_WGMMA_INPUTS_TRANSPOSED);
        else JG_WGMMA_N64("k16.f32.f16.f16", "%34", "%32, %33", ", %35, %36", JG_WGMMA_INPUTS_TRANSPOSED);
    } else if constexpr (N == 128) {
        if constexpr (BF16) JG_WGMMA_N128("k16.f32.bf16.bf16", "%66", "%64, %65", ", %67, %68",
                                          JG_WGMMA_INPUTS_TRANSPOSED);
        else JG_WGMMA_N128("k16.f32.f16.f16", "%66", "%64, %65", ", %67, %68", JG_WGMMA_INPUTS_TRANSPOSED);
    } else if constexpr (N == 192) {
        if constexpr (BF16) JG_WGMMA_N192("k16.f32.bf16.bf16", "%98", "%96, %97", ", %99, %100",
                                          JG_WGMMA_INPUTS_TRANSPOSED);
        else JG_WGMMA_N192("k16.f32.f16.f16", "%98", "%96, %97", ", %99, %100", JG_WGMMA_INPUTS_TRANSPOSED);
    } else {
        if constexpr (BF16) JG_WGMMA_N256("k16.f32.bf16.bf16", "%130", "%128, %129", ", %131, %132",
                                          JG_WGMMA_INPUTS_TRANSPOSED);
        else JG_WGMMA_N256("k16.f32.f16.f16", "%130", "%128, %129", ", %131, %132", JG_WGMMA_INPUTS_TRANSPOSED);
    }
}

// D (64 x N, fp32) = A B or D + A B over one k step of 8 in TF32: A from desc_a (64 x 8), B from desc_b (8 x N), both
// k-major tiles of fp32 values of which the Tensor Cores read the TF32 part (the 13 low mantissa bits are ignored).
template <int N>
__device__ __forceinline__ void mma_tf32_k8(float (&d)[N / 2], unsigned long long desc_a, unsigned long long desc_b,
                                            int scale_d) {
    static_assert(N == 64 || N == 128 || N == 192 || N == 256, "the family's instruction widths are 64, 128, 192, 256");
    if constexpr (N == 64) JG_WGMMA_N64("k8.f32.tf32.tf32", "%34", "%32, %33", "", JG_WGMMA_INPUTS);
    else if constexpr (N == 128) JG_WGMMA_N128("k8.f32.tf32.tf32", "%66", "%64, %65", "", JG_WGMMA_INPUTS);
    else if constexpr (N == 192) JG_WGMMA_N192("k8.f32.tf32.tf32", "%98", "%96, %97", "", JG_WGMMA_INPUTS);
    else JG_WGMMA_N256("k8.f32.tf32.tf32", "%130", "%128, %129", "", JG_WGMMA_INPUTS);
}

// As mma_tf32_k8, with A (64 x 8) from registers: the warp w of the warpgroup gives rows 16 w .. 16 w + 15, each thread
// a[0] = A(16 w + g, q), a[1] = A(16 w + g + 8, q), a[2] = A(16 w + g, q + 4), a[3] = A(16 w + g + 8, q + 4) with
// g = lane / 4 and q = lane % 4 (the fp32 bits; the Tensor Cores read their TF32 part).
template <int N>
__device__ __forceinline__ void mma_tf32_k8_register_a(float (&d)[N / 2], const unsigned (&a)[4],
                                                       unsigned long long desc_b, int scale_d) {
    static_assert(N == 64 || N == 128 || N == 192 || N == 256, "the family's instruction widths are 64, 128, 192, 256");
    if constexpr (N == 64) JG_WGMMA_N64("k8.f32.tf32.tf32", "%37", "{%32, %33, %34, %35}, %36", "",
                                        JG_WGMMA_INPUTS_REGISTER_A);
    else if constexpr (N == 128) JG_WGMMA_N128("k8.f32.tf32.tf32", "%69", "{%64, %65, %66, %67}, %68", "",
                                               JG_WGMMA_INPUTS_REGISTER_A);
    else if constexpr (N == 192) JG_WGMMA_N192("k8.f32.tf32.tf32", "%101", "{%96, %97, %98, %99}, %100", "",
                                               JG_WGMMA_INPUTS_REGISTER_A);
    else JG_WGMMA_N256("k8.f32.tf32.tf32", "%133", "{%128, %129, %130, %131}, %132", "", JG_WGMMA_INPUTS_REGISTER_A);
}

}  // namespace wgmma
}  // namespace jg
