// jg_types.cuh — the element types a kernel is specialized for, and their conversions to and from fp32.
//
// The 16-bit types are jitgemm's own bit containers with conversions in inline PTX, not cuda_fp16.h / cuda_bf16.h:
// the kernels then need no header outside kernel_sources/, so NVRTC compiles them wherever it runs (those headers
// live in a toolkit path that moved in CUDA 13, and a deployment may not have them at all).
//
// The codes match jitgemm::DType on the host (include/jitgemm/types.h): 0 f32, 1 f16, 2 bf16.
#pragma once

#define JG_DTYPE_F32 0
#define JG_DTYPE_F16 1
#define JG_DTYPE_BF16 2

#ifndef JG_A_TYPE
#define JG_A_TYPE JG_DTYPE_F32  // element type of A
#endif
#ifndef JG_B_TYPE
#define JG_B_TYPE JG_DTYPE_F32  // element type of B
#endif
#ifndef JG_C_TYPE
#define JG_C_TYPE JG_DTYPE_F32  // element type of C (the output; C and D are one matrix)
#endif
#ifndef JG_COMPUTE_TF32
#define JG_COMPUTE_TF32 0       // 1: fp32 inputs may be multiplied as TF32 (asked for by the caller)
#endif

namespace jg {

struct f16_t {
    unsigned short bits;
};
struct bf16_t {
    unsigned short bits;
};

template <int CODE> struct dtype_of;
template <> struct dtype_of<JG_DTYPE_F32> { typedef float type; };
template <> struct dtype_of<JG_DTYPE_F16> { typedef f16_t type; };
template <> struct dtype_of<JG_DTYPE_BF16> { typedef bf16_t type; };

__device__ __forceinline__ float to_float(float x) { return x; }
__device__ __forceinline__ float to_float(f16_t x) {
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x.bits));
    return f;
}
__device__ __forceinline__ float to_float(bf16_t x) {
    return __uint_as_float((unsigned)x.bits << 16);  // bf16 is the upper half of an fp32
}

// Round to nearest even, as every conversion to a narrower type in jitgemm.
template <typename T> __device__ __forceinline__ T from_float(float x);
template <> __device__ __forceinline__ float from_float<float>(float x) { return x; }
template <> __device__ __forceinline__ f16_t from_float<f16_t>(float x) {
    f16_t h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h.bits) : "f"(x));
    return h;
}
template <> __device__ __forceinline__ bf16_t from_float<bf16_t>(float x) {
    bf16_t h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h.bits) : "f"(x));
    return h;
}

// fp32 rounded to TF32 (10 explicit mantissa bits, to nearest, ties away), in an fp32 container.
__device__ __forceinline__ unsigned to_tf32(float x) {
    unsigned t;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(x));
    return t;
}

}  // namespace jg
