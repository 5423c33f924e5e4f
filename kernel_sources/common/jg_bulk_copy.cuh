// jg_bulk_copy.cuh — Hopper's bulk copies (cp.async.bulk, the TMA engine without a tensor map) and the shared-memory
// barriers (mbarrier) that count their bytes in. One thread asks for a whole operand tile, laid out in global memory
// exactly as the shared tile is (jg_pack.cuh's tiled copies), and every thread waits on the tile's barrier: the
// threads issue no copy instructions and work out no source addresses, which on a latency-bound main loop of few warps
// is issue time given back to the Tensor Cores. sm_90 and later; the host offers it nowhere else.
#pragma once

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define JG_HAS_BULK_COPY 1
#else
#define JG_HAS_BULK_COPY 0
#endif

namespace jg {
namespace bulk {

// A barrier that completes a phase when one thread has arrived and `expect`ed bytes have landed.
__device__ __forceinline__ void barrier_init(unsigned barrier) {
#if JG_HAS_BULK_COPY
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(barrier) : "memory");
#endif
}

// Makes initialized barriers visible to the copy engine (the async proxy) before any copy names them.
__device__ __forceinline__ void barrier_init_fence() {
#if JG_HAS_BULK_COPY
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

// The calling thread arrives and announces `bytes` of copies that complete the phase.
__device__ __forceinline__ void arrive_expect(unsigned barrier, unsigned bytes) {
#if JG_HAS_BULK_COPY
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(bytes) : "memory");
#endif
}

// Copies `bytes` (a multiple of 16; both addresses 16-byte aligned) from global memory to shared memory and counts
// them in at `barrier` when they have landed.
__device__ __forceinline__ void copy(unsigned dst, const void* src, unsigned bytes, unsigned barrier) {
#if JG_HAS_BULK_COPY
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(barrier)
                 : "memory");
#endif
}

// Waits until the barrier's phase of parity `parity` has completed (the copies it counted are visible).
__device__ __forceinline__ void wait(unsigned barrier, unsigned parity) {
#if JG_HAS_BULK_COPY
    asm volatile(
        "{\n"
        ".reg .pred done;\n"
        "wait_again:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra wait_again;\n"
        "}\n" ::"r"(barrier),
        "r"(parity)
        : "memory");
#endif
}

}  // namespace bulk
}  // namespace jg
