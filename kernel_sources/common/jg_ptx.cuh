// jg_ptx.cuh — thin wrappers of the PTX instructions the Tensor Core families share: shared-memory addresses,
// cp.async copies with zero fill and their groups, ldmatrix (plain and transposing) and 32-bit shared loads. Every
// wrapper is __forceinline__ volatile asm, so the compiler keeps them in program order where a family interleaves
// them with its math.
#pragma once

namespace jg {


__device__ __forceinline__ unsigned shared_address(const void* p) {
    unsigned address;
    asm("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(address) : "l"(p));
    return address;
}

// Copies `bytes` (0 to W) of the W bytes at src to shared memory and zero-fills the rest.
template <int W>
__device__ __forceinline__ void cp_async(unsigned dst, const void* src, int bytes) {
    if constexpr (W == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(dst), "l"(src), "n"(W), "r"(bytes)
                     : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int PENDING>
__device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory");
}

__device__ __forceinline__ void ldmatrix_x4(unsigned address, unsigned (&r)[4]) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned address, unsigned (&r)[4]) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
}
__device__ __forceinline__ unsigned load_shared_u32(unsigned address) {
    unsigned v;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(address));
    return v;
}

}  // namespace jg
