// jg_split_k.cuh — tiles of C shared by several blocks, each over its own k tiles, and how their partial sums meet:
// split-K (SPLITS consecutive blocks per tile) and stream-K (STREAM_BLOCKS blocks deal out the k tiles of all tiles
// in equal runs, one run per block, so every SM gets the same share where tiles x splits would leave some a block
// short). Any family whose threads each hold ROWS x COLS float4 of accumulators can share its tiles this way.
//
// The workspace (sized the same way by the host: MmaSyncConfig::launch): one arrival counter per tile, zero at the
// launch and left zero (count_in), padded to 256 bytes; then the partial sums, ROWS x COLS float4 per thread and
// slot, stored so that consecutive threads touch consecutive float4 (coalesced, no index arithmetic beyond the
// thread's index). A slot per split of every tile under split-K; under stream-K, block b's partial sums for the j-th
// tile its run reaches into go to slot b * STREAM_SEGMENTS + j.
//
// The blocks that share a tile each leave their partial sums in the workspace and count themselves in with an atomic;
// the last to arrive adds the partials up and alone runs the epilogue. It adds them in part order, its own among
// them, so the result does not depend on which block came last (tuned runs are bitwise repeatable). No block waits
// on another, so there is no residency assumption to deadlock on.
#pragma once

namespace jg {

// Counts one of `parts` blocks in at a tile's arrival counter; true in the last. The last sets the counter back to
// zero: the counters are the head of the stream's workspace, which the host keeps at zero between launches
// (runtime/workspace/stream_workspace.h) instead of zeroing it before each: a memset node in the stream before every
// split launch, which the cost model charged 1.5 us, where a 4096 x 4096 16-bit decode step takes about 18. Every
// block of the tile has counted itself in by then, and the next kernel on the stream starts after this one ends, so
// nothing reads the counter in between.
__device__ __forceinline__ bool count_in(unsigned* counter, int parts) {
    const bool last = atomicAdd(counter, 1u) == (unsigned)(parts - 1);
    if (last) atomicExch(counter, 0u);
    return last;
}

template <long long TILES, long long K_TILES, int SPLITS, long long STREAM_BLOCKS, int ROWS, int COLS, int THREADS>
struct shared_k_tiles {
    // The counters' bytes for `tiles` tiles, before the partial sums. TILES (the count when compiling) lays out
    // stream-K; split-K takes the count at run time, so a kernel whose tile count is a run-time value (a run-time-shape
    // variant, which passes TILES = 0) still splits K.
    static __host__ __device__ constexpr long long counter_bytes(long long tiles) {
        return (tiles * 4 + 255) / 256 * 256;
    }
    static constexpr long long PARTIAL_VECTORS = (long long)ROWS * COLS * THREADS;  // float4 per slot
    static constexpr int THREADS_PER_SLOT = THREADS;  // a slot's float4 (i, j) of consecutive threads lie together

    // Stream-K: block b owns the k tiles [begin(b), begin(b + 1)) of the sequence that runs through tile 0's K_TILES
    // k tiles, then tile 1's, and so on. Its run crosses at most STREAM_SEGMENTS tiles.
    static constexpr long long STREAM_UNITS = TILES * K_TILES;
    static_assert(STREAM_BLOCKS == 0 || STREAM_BLOCKS <= STREAM_UNITS, "every stream-K block has at least one k tile");
    static_assert(STREAM_BLOCKS == 0 || SPLITS == 1, "stream-K or split-K, not both");
    static constexpr long long STREAM_RUN =
        STREAM_BLOCKS == 0 ? 0 : (STREAM_UNITS + STREAM_BLOCKS - 1) / STREAM_BLOCKS;
    static constexpr long long STREAM_SEGMENTS = STREAM_BLOCKS == 0 ? 1 : (STREAM_RUN + K_TILES - 1) / K_TILES + 1;

    static __device__ __forceinline__ long long stream_begin(long long block) {
        return block * STREAM_UNITS / (STREAM_BLOCKS > 0 ? STREAM_BLOCKS : 1);
    }
    // The block whose run holds k tile `unit` of the sequence: the last b with stream_begin(b) <= unit.
    static __device__ __forceinline__ long long stream_owner(long long unit) {
        return ((unit + 1) * STREAM_BLOCKS + STREAM_UNITS - 1) / STREAM_UNITS - 1;  // STREAM_UNITS > 0: K, M, N > 0
    }

    // The blocks that share one tile of C, in k order, and this block's place among them: the SPLITS consecutive
    // blocks of the tile under split-K, the blocks whose runs reach into the tile under stream-K.
    struct parts {
        long long tile;
        int count;              // 1: this block computes the whole tile
        int mine;               // this block's part, 0 to count - 1
        long long first_block;  // stream-K: the block of part 0

        // The workspace slot of part p's partial sums.
        __device__ __forceinline__ long long slot(int p) const {
            if constexpr (STREAM_BLOCKS == 0) {
                return tile * SPLITS + p;
            } else {
                const long long block = first_block + p;
                return block * STREAM_SEGMENTS + (tile - stream_begin(block) / K_TILES);
            }
        }
    };

    static __device__ __forceinline__ parts split_parts(long long tile, int split) {
        return parts{tile, SPLITS, split, 0};
    }

    static __device__ __forceinline__ parts stream_parts(long long tile, long long block) {
        const long long first = stream_owner(tile * K_TILES), last = stream_owner(tile * K_TILES + K_TILES - 1);
        return parts{tile, (int)(last - first + 1), (int)(block - first), first};
    }

    // The partial sums of one tile's parts, as the tile's last block reads them back.
    struct partials {
        float4* base;  // this thread's first float4 of slot 0
        parts shares;

        // This thread's float4 of row i, summed over the parts in order. Under split-K the loads of all parts are
        // issued before the first sum is used and before any store to C: loaded one by one between the epilogue's
        // stores (which loads cannot be moved across), each cost a full round trip to L2, and the tile's last block
        // kept its SM busy for ROWS x COLS of them while its partners' SMs sat idle; a row at a time it is ROWS,
        // within the registers the main loop's accumulators held. Under stream-K the count of parts is known only at
        // run time: one part's row at a time, this block's own read back too (the values it stored). Taken from its
        // accumulators instead, inside the loop over the parts, they made ptxas spill 240 bytes per thread of the
        // wgmma family's 256 x 128 tiles and 16 of the mma.sync family's 256 x 128 ones.
        __device__ __forceinline__ void sum_row(int i, float4 (&row)[COLS]) const {
            if constexpr (STREAM_BLOCKS > 0) {
                // Two parts' rows loaded before either is added: a tile shared by many blocks (few tiles, K long)
                // costs half the round trips to L2, which its last block makes while the other blocks' SMs wait. An
                // odd count's last round loads its part twice and adds it once (no branch around the loads). The sums
                // keep the parts' order.
                for (int p = 0; p < shares.count; p += 2) {
                    const bool pair = p + 1 < shares.count;
                    float4 x[COLS], y[COLS];
                    const float4* slot = base + shares.slot(p) * PARTIAL_VECTORS;
                    const float4* next = base + shares.slot(pair ? p + 1 : p) * PARTIAL_VECTORS;
#pragma unroll
                    for (int j = 0; j < COLS; ++j) x[j] = __ldcg(slot + (i * COLS + j) * THREADS);
#pragma unroll
                    for (int j = 0; j < COLS; ++j) y[j] = __ldcg(next + (i * COLS + j) * THREADS);
#pragma unroll
                    for (int j = 0; j < COLS; ++j) {
                        row[j] = p == 0 ? x[j]
                                        : make_float4(row[j].x + x[j].x, row[j].y + x[j].y, row[j].z + x[j].z,
                                                      row[j].w + x[j].w);
                        if (pair)
                            row[j] = make_float4(row[j].x + y[j].x, row[j].y + y[j].y, row[j].z + y[j].z,
                                                 row[j].w + y[j].w);
                    }
                }
            } else {
                float4 x[SPLITS][COLS];
#pragma unroll
                for (int s = 0; s < SPLITS; ++s)
#pragma unroll
                    for (int j = 0; j < COLS; ++j)
                        x[s][j] = __ldcg(base + shares.slot(s) * PARTIAL_VECTORS + (i * COLS + j) * THREADS);
#pragma unroll
                for (int j = 0; j < COLS; ++j) {
                    row[j] = x[0][j];
#pragma unroll
                    for (int s = 1; s < SPLITS; ++s)
                        row[j] = make_float4(row[j].x + x[s][j].x, row[j].y + x[s][j].y, row[j].z + x[s][j].z,
                                             row[j].w + x[s][j].w);
                }
            }
        }
    };

    // Stores this block's partial sums (own(i, j)) in `workspace`, laid out for `tiles` tiles, and counts it in; true
    // in the last block of the tile to arrive. `smem` is a word of shared memory no warp uses any more.
    template <typename Own>
    static __device__ __forceinline__ bool arrive_last(void* workspace, long long tiles, unsigned char* smem,
                                                       const parts& shares, int tid, Own own, partials& sums) {
        unsigned* const counters = static_cast<unsigned*>(workspace);
        sums.base = reinterpret_cast<float4*>(static_cast<unsigned char*>(workspace) + counter_bytes(tiles)) + tid;
        sums.shares = shares;
        float4* const mine = sums.base + shares.slot(shares.mine) * PARTIAL_VECTORS;
#pragma unroll
        for (int i = 0; i < ROWS; ++i)
#pragma unroll
            for (int j = 0; j < COLS; ++j) __stcg(mine + (i * COLS + j) * THREADS, own(i, j));
        __threadfence();  // this thread's partials reach L2 before the count that announces them
        __syncthreads();  // every thread's have; and every warp is past the main loop, so shared memory is free
        volatile unsigned* const last = reinterpret_cast<volatile unsigned*>(smem);
        if (tid == 0) *last = count_in(counters + shares.tile, shares.count);
        __syncthreads();
        const bool is_last = *last;
        if (is_last) __threadfence();  // the other blocks' partials, announced by their counts, are read after this
        return is_last;
    }
};

}  // namespace jg
