// jg_tma.cuh — Hopper's tensor memory accelerator (TMA) and the shared-memory barriers a warp-specialized pipeline
// needs: a tile of a 2-D tensor copied into shared memory by one instruction that names a tensor map (a descriptor the
// host encodes with cuTensorMapEncodeTiled and passes as a __grid_constant__ kernel parameter), counted in at an
// mbarrier; barriers that take several arrivals (the consumers that free a stage); and the register moves between
// warpgroups (setmaxnreg). sm_90a; the host offers the families that use it nowhere else.
//
// The copy engine fills the parts of a box outside the tensor with zeros and still counts the whole box's bytes, so
// tiles that overhang M, N or K need no special case in the kernel.
#pragma once

#include "common/jg_bulk_copy.cuh"

namespace jg {
namespace tma {

// The bytes of a CUtensorMap, which the kernel only passes on by address (cuda.h is not included by kernels).
struct alignas(64) tensor_map {
    unsigned long long opaque[16];
};

// A barrier whose phase completes after `arrivals` arrivals (and the bytes any of them announced).
__device__ __forceinline__ void barrier_init(unsigned barrier, unsigned arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(barrier), "r"(arrivals) : "memory");
}

__device__ __forceinline__ void arrive(unsigned barrier) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(barrier) : "memory");
}

// Fetches the tensor map into the constant cache before its first copy.
__device__ __forceinline__ void prefetch_map(const tensor_map* map) {
    asm volatile("prefetch.tensormap [%0];" ::"l"(map) : "memory");
}

// Copies the box at (x, y) — x along the tensor's contiguous dimension — of `map` to shared memory at `dst` and
// counts its bytes in at `barrier`.
__device__ __forceinline__ void load_2d(unsigned dst, const tensor_map* map, int x, int y, unsigned barrier) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
        ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(barrier)
        : "memory");
}

// As load_2d; with CLUSTER = 2 the box lands at `dst` in both blocks of the cluster and is counted in at the barrier
// at `barrier` in each (multicast).
template <int CLUSTER>
__device__ __forceinline__ void load_2d_shared(unsigned dst, const tensor_map* map, int x, int y, unsigned barrier) {
    if constexpr (CLUSTER == 1) {
        load_2d(dst, map, x, y, barrier);
    } else {
        const unsigned short mask = (1u << CLUSTER) - 1;
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
            " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
            "l"(map), "r"(x), "r"(y), "r"(barrier), "h"(mask)
            : "memory");
    }
}

// As load_2d and load_2d_shared, for a 3-D map: (x, y) in GEMM z of a batch (common/jg_batch.cuh).
__device__ __forceinline__ void load_3d(unsigned dst, const tensor_map* map, int x, int y, int z, unsigned barrier) {
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
        "[%5];" ::"r"(dst), "l"(map), "r"(x), "r"(y), "r"(z), "r"(barrier)
        : "memory");
}
template <int CLUSTER>
__device__ __forceinline__ void load_3d_shared(unsigned dst, const tensor_map* map, int x, int y, int z,
                                               unsigned barrier) {
    if constexpr (CLUSTER == 1) {
        load_3d(dst, map, x, y, z, barrier);
    } else {
        const unsigned short mask = (1u << CLUSTER) - 1;
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
            " [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(dst),
            "l"(map), "r"(x), "r"(y), "r"(z), "r"(barrier), "h"(mask)
            : "memory");
    }
}

// Stores: the box at `src` in shared memory (laid out as a load of the same map would leave it) to (x, y) of `map`, or
// (x, y, z) of a 3-D map. The parts of the box outside the tensor are not written. Asynchronous: committed as a bulk
// group (store_commit), whose reads of shared memory store_wait_read waits for and whose writes store_wait_all does.
// Shared memory written by threads reaches the copy engine (the async proxy) only after fence_shared_to_async.
__device__ __forceinline__ void store_2d(const tensor_map* map, unsigned src, int x, int y) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%2, %3}], [%1];" ::"l"(map),
                 "r"(src), "r"(x), "r"(y)
                 : "memory");
}
__device__ __forceinline__ void store_3d(const tensor_map* map, unsigned src, int x, int y, int z) {
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%2, %3, %4}], [%1];" ::"l"(map),
                 "r"(src), "r"(x), "r"(y), "r"(z)
                 : "memory");
}
__device__ __forceinline__ void store_commit() { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
// Until at most PENDING committed groups of this thread still read their shared memory (which may then be rewritten).
template <int PENDING>
__device__ __forceinline__ void store_wait_read() {
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(PENDING) : "memory");
}
// Until every committed group of this thread has written global memory.
__device__ __forceinline__ void store_wait_all() { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
__device__ __forceinline__ void fence_shared_to_async() {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__device__ __forceinline__ unsigned cluster_rank() {
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    return rank;
}

// Arrives at the barrier at the same shared-memory offset in block `rank` of the cluster. Relaxed: the arrival
// publishes no writes of this thread (it says that reads — the wgmma instructions' — are done), and a release at
// cluster scope would wait for every earlier memory operation of the thread first.
__device__ __forceinline__ void arrive_remote(unsigned barrier, unsigned rank) {
    unsigned remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(barrier), "r"(rank));
    asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}

// The float at the same shared-memory offset as `local` in block `rank` of the cluster (distributed shared memory).
__device__ __forceinline__ float load_cluster_shared(const float* local, unsigned rank) {
    unsigned local_address, remote;
    asm volatile("{ .reg .u64 a; cvta.to.shared.u64 a, %1; cvt.u32.u64 %0, a; }" : "=r"(local_address) : "l"(local));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local_address), "r"(rank));
    float value;
    asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(value) : "r"(remote) : "memory");
    return value;
}

// The float4 at shared-memory address `address` (this block's) as block `rank` of the cluster holds it.
__device__ __forceinline__ float4 load_cluster_shared4(unsigned address, unsigned rank) {
    unsigned remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(address), "r"(rank));
    float4 v;
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(remote)
                 : "memory");
    return v;
}

// Every thread of every block of the cluster, with release and acquire of shared memory across the cluster.
__device__ __forceinline__ void cluster_sync() {
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Gives registers back (the producer warpgroup, which needs few) or takes them (the consumers, which hold the
// accumulators); COUNT is a multiple of 8 from 24 to 256, and every warp of a warpgroup executes the same one.
template <int COUNT>
__device__ __forceinline__ void release_registers() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(COUNT));
}
template <int COUNT>
__device__ __forceinline__ void claim_registers() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(COUNT));
}

}  // namespace tma
}  // namespace jg
