// A probe of the kernel ABI (tests/gpu/launch_abi_test.cpp runs it; tests/cpu/kernel_args_test.cpp compiles it): a
// kernel that takes jg_args and a 128-byte __grid_constant__ parameter after it, as a Hopper family's kernel takes
// its tensor maps, and writes out what it received and where each block sits in its cluster.
#pragma once

#include <string>

#include "runtime/compile/kernel_program.h"
#include "cache/content_hash.h"
#include "runtime/compile/kernel_sources.h"

namespace jitgemm::testing {

inline constexpr char kAbiProbeSource[] = R"(#include "common/jg_args.cuh"
struct alignas(64) probe_tensor_map { unsigned char bytes[128]; };
// out = args.c: per block (linear index) its cluster rank and cluster size; then, from 4096 bytes in, what block 0
// received: the tensor map's 128 bytes, then m, n, k, lda and the bits of alpha and beta.
extern "C" __global__ void abi_probe(const __grid_constant__ jg_args args,
                                     const __grid_constant__ probe_tensor_map map) {
    unsigned rank, size;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
    const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned* out = static_cast<unsigned*>(args.c);
    if (thread == 0) {
        out[2 * block] = rank;
        out[2 * block + 1] = size;
    }
    if (block != 0) return;
    unsigned char* received = reinterpret_cast<unsigned char*>(out) + 4096;
    if (thread < 128) received[thread] = map.bytes[thread];
    if (thread == 0) {
        long long* sizes = reinterpret_cast<long long*>(received + 128);
        sizes[0] = args.m; sizes[1] = args.n; sizes[2] = args.k; sizes[3] = args.lda;
        unsigned* scalars = reinterpret_cast<unsigned*>(sizes + 4);
        scalars[0] = __float_as_uint(args.alpha);
        scalars[1] = __float_as_uint(args.beta);
    }
}
)";

inline KernelProgram abi_probe_program(const std::string& arch) {
    KernelProgram program;
    program.file_name = "abi_probe.cu";
    program.source = kAbiProbeSource;
    program.source_hash = content_hash_hex(kAbiProbeSource);
    program.kernel_symbol = "abi_probe";
    program.arch = arch;
    program.config_name = "abi_probe";
    program.options = {"--gpu-architecture=" + arch, "-std=c++17"};
    return program;
}

}  // namespace jitgemm::testing
