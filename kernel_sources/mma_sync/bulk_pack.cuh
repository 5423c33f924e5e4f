// mma_sync/bulk_pack.cuh — the pack of the mma.sync family's bulk copies (mma_sync.cuh, MMA_SYNC_BULK): both operands copied
// tile by tile, every tile of op(A) and op(B) laid out, swizzle included, exactly as the GEMM's shared tile, so
// that one bulk copy fills a stage's tile. Tile (t, kt) — row of tiles t along m or n, k tile kt — is tile number
// t * K_TILES + kt: the k tiles a block walks through follow each other. Padding past M, N and K is written as zeros,
// so the GEMM's copies have no edges to mind. The copy is walked in its own order, consecutive threads on
// consecutive chunks, so each warp writes 512 contiguous bytes, and reads the few columns they come from.
#pragma once

// Compiled only along with the kernel that uses it (MMA_SYNC_BULK): the layout is counted in the tile counts known
// when compiling, TILES_M and TILES_N, which a run-time-shape variant (it has no bulk copies) does not declare.
#if MMA_SYNC_BULK
namespace jg {
namespace mma_sync {

// std::conditional, which NVRTC's headerless compiles lack.
template <bool FIRST, typename A, typename B> struct either { typedef A type; };
template <typename A, typename B> struct either<false, A, B> { typedef B type; };

template <bool IS_A>
struct packed_tiles {
    typedef typename either<IS_A, a_layout, b_layout>::type layout;
    static constexpr bool KCONTIG = IS_A ? A_KCONTIG : B_KCONTIG;
    static constexpr int BMN = IS_A ? BM : BN;
    static constexpr long long TILES_MN = IS_A ? TILES_M : TILES_N;
    static constexpr long long CHUNKS = TILES_MN * K_TILES * layout::CHUNKS;  // of the whole copy

    // The value of chunk q of the copy, from `job`'s operand (its column and first row in the operand as stored:
    // a column is one m or n where the operand is k-contiguous, one k where it is not).
    template <typename I>
    static __device__ __forceinline__ uint4 read(const jg_pack_job& job, I q) {
        const I tile = q / (I)layout::CHUNKS, position = q % (I)layout::CHUNKS;
        const I mn_tile = tile / (I)K_TILES, k_tile = tile % (I)K_TILES;
        unsigned row, chunk;
        layout::chunk_at((unsigned)position, row, chunk);
        const long long col = KCONTIG ? (long long)mn_tile * BMN + row : (long long)k_tile * BK + row;
        const long long row0 = (KCONTIG ? (long long)k_tile * BK : (long long)mn_tile * BMN) + (long long)chunk * CH;
        return col < job.cols ? jg_pack_read_at(job, col, row0, ES == 2) : make_uint4(0u, 0u, 0u, 0u);
    }
};

}  // namespace mma_sync
}  // namespace jg

// A launch like jg_pack's (src/runtime/launch/loaded_kernel.cpp: one wave of blocks, JG_PACK_CHUNKS_PER_THREAD chunks per
// thread and round, A's job first), which also zeroes the split-K counters. The host sizes each job's copy as this
// layout does (MmaSyncConfig::tile_by_tile); a launch whose counts disagree stops with an error rather than write past
// the workspace.
extern "C" __global__ void __launch_bounds__(256, 6)
    jg_pack_tiles(jg_pack_job a, jg_pack_job b, int element_bytes, unsigned* zero, int zero_words) {
    using namespace jg::mma_sync;
    constexpr long long A_CHUNKS = packed_tiles<true>::CHUNKS, ALL = A_CHUNKS + packed_tiles<false>::CHUNKS;
    if (a.chunks != A_CHUNKS || b.chunks != packed_tiles<false>::CHUNKS || element_bytes != ES) __trap();
    // 32-bit chunk indices where they fit: their divisions by the tile constants are a multiply and a shift.
    typedef typename either<(ALL < (1ll << 32)), unsigned, long long>::type index;
    jg_pack_rounds(a.dst, A_CHUNKS, b.dst, ALL, zero, zero_words, [&](long long q) {
        return q < A_CHUNKS ? packed_tiles<true>::read<index>(a, (index)q)
                            : packed_tiles<false>::read<index>(b, (index)(q - A_CHUNKS));
    });
}
#endif
