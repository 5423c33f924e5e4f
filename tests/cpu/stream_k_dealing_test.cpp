// The stream-K arithmetic of kernel_sources/common/jg_split_k.cuh — how a persistent grid's blocks (in the wgmma
// family, its clusters) deal out the k blocks of the tiles left over after the whole waves — compiled for the host,
// with stand-ins for the CUDA names that its other members use. Every k block of every tile dealt out reaches exactly
// one run; each piece's parts name the blocks that share its tile; and every workspace slot a piece writes lies
// within the slots the host sizes (stream_k_segments, src/runtime/launch/launch_description.h), no two pieces
// sharing one. A slot past them would be a write past the stream's workspace, which no GPU test need catch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "runtime/launch/launch_description.h"

// Stand-ins for the CUDA names the header's device code uses; only its integer arithmetic runs here.
#define __device__
#define __host__
#define __forceinline__ inline
struct float4 {
    float x, y, z, w;
};
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
inline float4 __ldcg(const float4* p) { return *p; }
inline void __stcg(float4* p, float4 v) { *p = v; }
inline unsigned atomicAdd(unsigned* p, unsigned v) {
    const unsigned old = *p;
    *p += v;
    return old;
}
inline unsigned atomicExch(unsigned* p, unsigned v) {
    const unsigned old = *p;
    *p = v;
    return old;
}
inline void __threadfence() {}
inline void __syncthreads() {}

// (Its `#pragma unroll` means nothing to the host compiler: tests/CMakeLists.txt quiets that for this file.)
#include "../../kernel_sources/common/jg_split_k.cuh"

namespace jitgemm {
namespace {

// Walks every block's run as the kernels do (wgmma.cuh's for_each_piece: a piece per tile the run reaches into)
// and checks what each piece's parts and slot say. TILES: the tiles (wgmma: units) left over; BLOCKS: the grid's
// blocks (wgmma: clusters) among which they are dealt out.
template <long long TILES, long long K_TILES, long long BLOCKS>
void expect_sound_dealing() {
    typedef jg::shared_k_tiles<TILES, K_TILES, 1, BLOCKS, 1, 1, 128> shares;
    SCOPED_TRACE(testing::Message() << TILES << " tiles of " << K_TILES << " k blocks on " << BLOCKS << " blocks");
    // The host sizes the workspace with this many slots per block.
    ASSERT_EQ(shares::STREAM_SEGMENTS, stream_k_segments(TILES, K_TILES, BLOCKS));
    std::map<long long, std::vector<int>> covered;  // tile -> how often each of its k blocks was reached
    std::map<long long, std::set<long long>> blocks_of_tile;
    std::set<long long> slots;
    struct Piece {
        long long tile, block;
        typename shares::parts parts;
    };
    std::vector<Piece> pieces;
    for (long long block = 0; block < BLOCKS; ++block) {
        const long long end = shares::stream_begin(block + 1);
        EXPECT_LT(shares::stream_begin(block), end) << "block " << block << " has no k block";
        for (long long u = shares::stream_begin(block); u < end;) {
            const long long tile = u / K_TILES, stop = std::min(end, (tile + 1) * K_TILES);
            std::vector<int>& ks = covered[tile];
            ks.resize(K_TILES);
            for (long long k = u - tile * K_TILES; k < stop - tile * K_TILES; ++k) ++ks[static_cast<std::size_t>(k)];
            blocks_of_tile[tile].insert(block);
            pieces.push_back({tile, block, shares::stream_parts(tile, block)});
            u = stop;
        }
    }
    ASSERT_EQ(covered.size(), static_cast<std::size_t>(TILES));
    for (const auto& [tile, ks] : covered)
        for (std::size_t k = 0; k < ks.size(); ++k) EXPECT_EQ(ks[k], 1) << "tile " << tile << ", k block " << k;
    for (const Piece& piece : pieces) {
        const std::set<long long>& sharing = blocks_of_tile[piece.tile];
        EXPECT_EQ(piece.parts.count, static_cast<int>(sharing.size())) << "tile " << piece.tile;
        EXPECT_EQ(piece.parts.first_block, *sharing.begin()) << "tile " << piece.tile;
        EXPECT_EQ(piece.parts.mine, piece.block - *sharing.begin()) << "tile " << piece.tile;
        // The slot of this block's part, as the tile's last block reads it back (slot(p) for each part p).
        const long long slot = piece.parts.slot(piece.parts.mine);
        EXPECT_GE(slot, piece.block * shares::STREAM_SEGMENTS);
        EXPECT_LT(slot, (piece.block + 1) * shares::STREAM_SEGMENTS) << "block " << piece.block << ": past its slots";
        EXPECT_TRUE(slots.insert(slot).second) << "slot " << slot << " written twice";
    }
}

// The shapes of sessions 32-40 (wgmma, 256 x 128 tiles unless said): 6144 x 1528 x 6144 in cluster pairs (144 units
// on 66 clusters, 12 left, 96 k blocks each), 5120^3 in pairs (4 units left on 66) and alone (8 on 132), 4096^3 (116
// tiles left on 132), 14336 x 128 x 4096 in 128 x 128 tiles (112 tiles, fewer than the 132 blocks, all dealt out),
// the last whole wave dealt out as well (248 of 4096^3), and small odd counts where runs end and start mid-tile.
TEST(StreamKDealing, EveryKBlockReachesOneRunAndEverySlotLiesInTheWorkspace) {
    expect_sound_dealing<12, 96, 66>();
    expect_sound_dealing<4, 80, 66>();
    expect_sound_dealing<8, 80, 132>();
    expect_sound_dealing<116, 64, 132>();
    expect_sound_dealing<112, 64, 132>();
    expect_sound_dealing<248, 64, 132>();
    expect_sound_dealing<7, 5, 20>();
    expect_sound_dealing<3, 7, 21>();
    expect_sound_dealing<1, 1, 1>();
}

// A run that ends exactly where a tile ends reaches into no tile past it: 4 tiles of 8 k blocks on 4 blocks are four
// whole tiles, one block each, nothing met; on 3 blocks the runs of 10 or 11 share tiles 1 and 2.
TEST(StreamKDealing, RunsOnTileBoundariesShareNothing) {
    typedef jg::shared_k_tiles<4, 8, 1, 4, 1, 1, 128> whole;
    for (long long tile = 0; tile < 4; ++tile) {
        EXPECT_EQ(whole::stream_parts(tile, tile).count, 1);
        EXPECT_EQ(whole::stream_parts(tile, tile).first_block, tile);
    }
    typedef jg::shared_k_tiles<4, 8, 1, 3, 1, 1, 128> shared;
    EXPECT_EQ(shared::stream_parts(0, 0).count, 1);
    EXPECT_EQ(shared::stream_parts(1, 0).count, 2);
    EXPECT_EQ(shared::stream_parts(2, 1).count, 2);
    EXPECT_EQ(shared::stream_parts(3, 2).count, 1);
    expect_sound_dealing<4, 8, 4>();
    expect_sound_dealing<4, 8, 3>();
}

}  // namespace
}  // namespace jitgemm
