// wgmma/wgmma_ops.cuh — the wgmma family's Tensor Core instruction: wgmma.mma_async with fp32 accumulators —
// m64nNk16 for fp16 and bf16 inputs with both operands read from shared memory through matrix descriptors, m64nNk8 for
// TF32 (fp32 inputs) with the A operand from shared memory or from registers — for every instruction width N the
// family uses: the multiples of 16 from 16 to 256, so that a tile's width can fit a narrow side of C (130 rows in one
// instruction of 144, where 64-wide ones would take 192). The accumulators of one instruction are N / 2 registers per
// thread and must be named one by one in the asm: JG_WGMMA_ACC_<N / 2> spells out their text and JG_WGMMA_OUT_<N / 2>
// their operands, in groups of eight; JG_WGMMA_WIDTHS lists each width with the operand numbers that follow them.
//
// Operand order in every asm below: the accumulators (%0 .. %(N/2 - 1)), then A (a descriptor, or four registers),
// then B's descriptor, then the scale of D (0: D = A B, the first k step of a tile; 1: D += A B), then, for 16-bit
// inputs only, the two transposes as immediates. PTX has no transpose for .tf32: its shared tiles must be k-major, and
// an A operand stored otherwise comes from registers, which the kernel fills in the instruction's fragment order.
#pragma once

// The text and the operands of the first 8, 16, ..., 128 accumulators.
#define JG_WGMMA_ACC_8 "%0, %1, %2, %3, %4, %5, %6, %7"
#define JG_WGMMA_ACC_16 JG_WGMMA_ACC_8 ", %8, %9, %10, %11, %12, %13, %14, %15"
#define JG_WGMMA_ACC_24 JG_WGMMA_ACC_16 ", %16, %17, %18, %19, %20, %21, %22, %23"
#define JG_WGMMA_ACC_32 JG_WGMMA_ACC_24 ", %24, %25, %26, %27, %28, %29, %30, %31"
#define JG_WGMMA_ACC_40 JG_WGMMA_ACC_32 ", %32, %33, %34, %35, %36, %37, %38, %39"
#define JG_WGMMA_ACC_48 JG_WGMMA_ACC_40 ", %40, %41, %42, %43, %44, %45, %46, %47"
#define JG_WGMMA_ACC_56 JG_WGMMA_ACC_48 ", %48, %49, %50, %51, %52, %53, %54, %55"
#define JG_WGMMA_ACC_64 JG_WGMMA_ACC_56 ", %56, %57, %58, %59, %60, %61, %62, %63"
#define JG_WGMMA_ACC_72 JG_WGMMA_ACC_64 ", %64, %65, %66, %67, %68, %69, %70, %71"
#define JG_WGMMA_ACC_80 JG_WGMMA_ACC_72 ", %72, %73, %74, %75, %76, %77, %78, %79"
#define JG_WGMMA_ACC_88 JG_WGMMA_ACC_80 ", %80, %81, %82, %83, %84, %85, %86, %87"
#define JG_WGMMA_ACC_96 JG_WGMMA_ACC_88 ", %88, %89, %90, %91, %92, %93, %94, %95"
#define JG_WGMMA_ACC_104 JG_WGMMA_ACC_96 ", %96, %97, %98, %99, %100, %101, %102, %103"
#define JG_WGMMA_ACC_112 JG_WGMMA_ACC_104 ", %104, %105, %106, %107, %108, %109, %110, %111"
#define JG_WGMMA_ACC_120 JG_WGMMA_ACC_112 ", %112, %113, %114, %115, %116, %117, %118, %119"
#define JG_WGMMA_ACC_128 JG_WGMMA_ACC_120 ", %120, %121, %122, %123, %124, %125, %126, %127"
#define JG_WGMMA_D8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]),     \
                       "+f"(d[i + 6]), "+f"(d[i + 7])
#define JG_WGMMA_OUT_8 JG_WGMMA_D8(0)
#define JG_WGMMA_OUT_16 JG_WGMMA_OUT_8, JG_WGMMA_D8(8)
#define JG_WGMMA_OUT_24 JG_WGMMA_OUT_16, JG_WGMMA_D8(16)
#define JG_WGMMA_OUT_32 JG_WGMMA_OUT_24, JG_WGMMA_D8(24)
#define JG_WGMMA_OUT_40 JG_WGMMA_OUT_32, JG_WGMMA_D8(32)
#define JG_WGMMA_OUT_48 JG_WGMMA_OUT_40, JG_WGMMA_D8(40)
#define JG_WGMMA_OUT_56 JG_WGMMA_OUT_48, JG_WGMMA_D8(48)
#define JG_WGMMA_OUT_64 JG_WGMMA_OUT_56, JG_WGMMA_D8(56)
#define JG_WGMMA_OUT_72 JG_WGMMA_OUT_64, JG_WGMMA_D8(64)
#define JG_WGMMA_OUT_80 JG_WGMMA_OUT_72, JG_WGMMA_D8(72)
#define JG_WGMMA_OUT_88 JG_WGMMA_OUT_80, JG_WGMMA_D8(80)
#define JG_WGMMA_OUT_96 JG_WGMMA_OUT_88, JG_WGMMA_D8(88)
#define JG_WGMMA_OUT_104 JG_WGMMA_OUT_96, JG_WGMMA_D8(96)
#define JG_WGMMA_OUT_112 JG_WGMMA_OUT_104, JG_WGMMA_D8(104)
#define JG_WGMMA_OUT_120 JG_WGMMA_OUT_112, JG_WGMMA_D8(112)
#define JG_WGMMA_OUT_128 JG_WGMMA_OUT_120, JG_WGMMA_D8(120)

// Each width N with R = N / 2, the number of the first operand after the accumulators, and the five after it.
#define JG_WGMMA_WIDTHS(CASE) CASE(16, 8, 9, 10, 11, 12, 13) CASE(32, 16, 17, 18, 19, 20, 21)                          \
    CASE(48, 24, 25, 26, 27, 28, 29) CASE(64, 32, 33, 34, 35, 36, 37) CASE(80, 40, 41, 42, 43, 44, 45)                 \
    CASE(96, 48, 49, 50, 51, 52, 53) CASE(112, 56, 57, 58, 59, 60, 61) CASE(128, 64, 65, 66, 67, 68, 69)               \
    CASE(144, 72, 73, 74, 75, 76, 77) CASE(160, 80, 81, 82, 83, 84, 85) CASE(176, 88, 89, 90, 91, 92, 93)              \
    CASE(192, 96, 97, 98, 99, 100, 101) CASE(208, 104, 105, 106, 107, 108, 109)                                        \
    CASE(224, 112, 113, 114, 115, 116, 117) CASE(240, 120, 121, 122, 123, 124, 125)                                    \
    CASE(256, 128, 129, 130, 131, 132, 133)

// The number of an operand in the asm's text.
#define JG_WGMMA_OPERAND(i) "%" #i

// One instruction m64n<N> of R = N / 2 accumulators: the text of its types, of the scale's operand, of its A and B
// operands and of its transposes ("" for TF32), and its inputs.
#define JG_WGMMA(N, R, SHAPE_TYPES, SCALE, OPERANDS, TRANSPOSES, INPUTS)                                               \
    asm volatile(                                                                                                      \
        "{\n.reg .pred p;\nsetp.ne.b32 p, " SCALE ", 0;\n"                                                             \
        "wgmma.mma_async.sync.aligned.m64n" #N SHAPE_TYPES " {" JG_WGMMA_ACC_##R "}, " OPERANDS ", p, 1, 1" TRANSPOSES \
        ";\n}\n"                                                                                                       \
        : JG_WGMMA_OUT_##R                                                                                             \
        : INPUTS)

// The asm's inputs after the accumulators, in the order above: A and B as descriptors (16-bit with the transposes, or
// TF32), or A as four registers of TF32 values and B as a descriptor.
#define JG_WGMMA_INPUTS_TRANSPOSED "l"(desc_a), "l"(desc_b), "r"(scale_d), "n"(TRANS_A), "n"(TRANS_B)
#define JG_WGMMA_INPUTS "l"(desc_a), "l"(desc_b), "r"(scale_d)
#define JG_WGMMA_INPUTS_REGISTER_A "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(scale_d)

// The operands' text after R accumulators: two descriptors (%R, %R+1) then the scale (%R+2) and, for 16-bit inputs,
// the transposes (%R+3, %R+4); or A's four registers (%R .. %R+3), B's descriptor (%R+4) and the scale (%R+5).
#define JG_WGMMA_DESCRIPTORS(R, R1) JG_WGMMA_OPERAND(R) ", " JG_WGMMA_OPERAND(R1)
#define JG_WGMMA_TRANSPOSES(R3, R4) ", " JG_WGMMA_OPERAND(R3) ", " JG_WGMMA_OPERAND(R4)
#define JG_WGMMA_REGISTER_A(R, R1, R2, R3, R4)                                                                         \
    "{" JG_WGMMA_OPERAND(R) ", " JG_WGMMA_OPERAND(R1) ", " JG_WGMMA_OPERAND(R2) ", " JG_WGMMA_OPERAND(R3) "}, "        \
        JG_WGMMA_OPERAND(R4)

namespace jg {
namespace wgmma {

// The family's instruction widths.
template <int N>
constexpr bool is_instruction_width = N >= 16 && N <= 256 && N % 16 == 0;

// D (64 x N, fp32) = A B or D + A B over one k step of 16: A from desc_a (64 x 16), B from desc_b (16 x N). TRANS_A,
// TRANS_B: 0 where the operand's shared tile is k-major, 1 where it is m- or n-major (16-bit types only).
template <int N, bool BF16, int TRANS_A, int TRANS_B>
__device__ __forceinline__ void mma_k16(float (&d)[N / 2], unsigned long long desc_a, unsigned long long desc_b,
                                        int scale_d) {
    static_assert(is_instruction_width<N>, "the family's instruction widths are the multiples of 16 up to 256");
#define JG_WGMMA_K16(W, R, R1, R2, R3, R4, R5)                                                                         \
    if constexpr (N == W) {                                                                                            \
        if constexpr (BF16)                                                                                            \
            JG_WGMMA(W, R, "k16.f32.bf16.bf16", JG_WGMMA_OPERAND(R2), JG_WGMMA_DESCRIPTORS(R, R1),                     \
                     JG_WGMMA_TRANSPOSES(R3, R4), JG_WGMMA_INPUTS_TRANSPOSED);                                         \
        else                                                                                                           \
            JG_WGMMA(W, R, "k16.f32.f16.f16", JG_WGMMA_OPERAND(R2), JG_WGMMA_DESCRIPTORS(R, R1),                       \
                     JG_WGMMA_TRANSPOSES(R3, R4), JG_WGMMA_INPUTS_TRANSPOSED);                                         \
    }
    JG_WGMMA_WIDTHS(JG_WGMMA_K16)
#undef JG_WGMMA_K16
}

// D (64 x N, fp32) = A B or D + A B over one k step of 8 in TF32: A from desc_a (64 x 8), B from desc_b (8 x N), both
// k-major tiles of fp32 values of which the Tensor Cores read the TF32 part (the 13 low mantissa bits are ignored).
template <int N>
__device__ __forceinline__ void mma_tf32_k8(float (&d)[N / 2], unsigned long long desc_a, unsigned long long desc_b,
                                            int scale_d) {
    static_assert(is_instruction_width<N>, "the family's instruction widths are the multiples of 16 up to 256");
#define JG_WGMMA_TF32(W, R, R1, R2, R3, R4, R5)                                                                        \
    if constexpr (N == W)                                                                                              \
        JG_WGMMA(W, R, "k8.f32.tf32.tf32", JG_WGMMA_OPERAND(R2), JG_WGMMA_DESCRIPTORS(R, R1), "", JG_WGMMA_INPUTS);
    JG_WGMMA_WIDTHS(JG_WGMMA_TF32)
#undef JG_WGMMA_TF32
}

// As mma_tf32_k8, with A (64 x 8) from registers: the warp w of the warpgroup gives rows 16 w .. 16 w + 15, each thread
// a[0] = A(16 w + g, q), a[1] = A(16 w + g + 8, q), a[2] = A(16 w + g, q + 4), a[3] = A(16 w + g + 8, q + 4) with
// g = lane / 4 and q = lane % 4 (the fp32 bits; the Tensor Cores read their TF32 part).
template <int N>
__device__ __forceinline__ void mma_tf32_k8_register_a(float (&d)[N / 2], const unsigned (&a)[4],
                                                       unsigned long long desc_b, int scale_d) {
    static_assert(is_instruction_width<N>, "the family's instruction widths are the multiples of 16 up to 256");
#define JG_WGMMA_TF32_REGISTER_A(W, R, R1, R2, R3, R4, R5)                                                             \
    if constexpr (N == W)                                                                                              \
        JG_WGMMA(W, R, "k8.f32.tf32.tf32", JG_WGMMA_OPERAND(R5), JG_WGMMA_REGISTER_A(R, R1, R2, R3, R4), "",           \
                 JG_WGMMA_INPUTS_REGISTER_A);
    JG_WGMMA_WIDTHS(JG_WGMMA_TF32_REGISTER_A)
#undef JG_WGMMA_TF32_REGISTER_A
}

}  // namespace wgmma
}  // namespace jg
