// jg_ceilings.cuh — the probes behind the roofline's ceilings, measured once per device and driver:
// a streaming copy (DRAM bandwidth, bytes read + written), chains of independent FFMAs (the fp32 peak) and of
// independent mma.sync (the Tensor Core rate per input type).
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

// Tensor Core rate of mma.sync for one input type: eight independent accumulator tiles per warp, `iterations`
// steps each, on operands held in registers (the rate of the instruction, not of a GEMM's data movement).
// 4096 FLOPs per m16n8k16 (fp16, bf16) and 2048 per m16n8k8 (TF32). kind: 0 fp16, 1 bf16, 2 TF32.
extern "C" __global__ void jg_mma_rate(float* out, int iterations, int kind) {
#if __CUDA_ARCH__ >= 800
    float d[8][4];
#pragma unroll
    for (int j = 0; j < 8; ++j)
#pragma unroll
        for (int v = 0; v < 4; ++v) d[j][v] = 0.0f;
    // Small operands (0x3c00 is 1.0 in fp16, 0x3f80 in bf16; 0x3f800000 is 1.0f) keep the sums finite.
    const unsigned h = kind == 0 ? 0x3c003c00u : 0x3f803f80u, f = 0x3f800000u;
    if (kind == 2) {
        for (int i = 0; i < iterations; ++i) {
#pragma unroll
            for (int j = 0; j < 8; ++j)
                asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %4, %4, %4}, "
                             "{%4, %4}, {%0, %1, %2, %3};"
                             : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
                             : "r"(f));
        }
    } else if (kind == 1) {
        for (int i = 0; i < iterations; ++i) {
#pragma unroll
            for (int j = 0; j < 8; ++j)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %4, %4, %4}, "
                             "{%4, %4}, {%0, %1, %2, %3};"
                             : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
                             : "r"(h));
        }
    } else {
        for (int i = 0; i < iterations; ++i) {
#pragma unroll
            for (int j = 0; j < 8; ++j)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %4, %4, %4}, "
                             "{%4, %4}, {%0, %1, %2, %3};"
                             : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
                             : "r"(h));
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; ++j) sum += d[j][0] + d[j][1] + d[j][2] + d[j][3];
    if (sum == 12345.678f) out[0] = sum;  // practically never true; keeps the chains alive
#endif
}
