// jg_swizzle.cuh — the XOR swizzle of shared-memory tiles that ldmatrix, scalar fragment loads and the copies into
// them (cp.async, bulk copies, and the tile-by-tile pack that lays global memory out the same way) all address
// without bank conflicts. A tile is ROWS x COLS elements of ES bytes, COLS contiguous, stored as 16-byte chunks.
#pragma once

namespace jg {

// A ROWS x COLS tile, COLS contiguous, stored as 16-byte chunks. Chunk c of row r goes to position c ^ f(r) within
// its aligned group of eight (eight chunks span the 32 banks once): f(r) = r for ldmatrix, whose eight row
// addresses per matrix then hit eight different groups of banks; f(r) = 2r for the TF32 scalar reads, whose 32
// lanes touch four consecutive rows at two chunks each. Rows narrower than 128 bytes are swizzled by their
// 128-byte line instead, which spreads eight consecutive rows the same way.
template <int ROWS, int COLS, int STEP, int ES>
struct swizzled_tile {
    static constexpr int CH = 16 / ES;  // elements per 16-byte chunk
    static constexpr int ROW_CHUNKS = COLS / CH;
    static constexpr int CHUNKS = ROWS * ROW_CHUNKS;
    static constexpr int BYTES = ROWS * COLS * ES;
    static_assert(ROW_CHUNKS >= 8 || STEP == 1, "the scalar-read swizzle needs rows of at least 128 bytes");
    static_assert(ROW_CHUNKS == 1 || ROW_CHUNKS == 2 || ROW_CHUNKS == 4 || ROW_CHUNKS % 8 == 0,
                  "rows of 16, 32 or 64 bytes, or whole 128-byte lines");
    static_assert(CHUNKS % 8 == 0, "the narrow-row swizzle permutes whole groups of eight chunks");

    static __device__ __forceinline__ unsigned chunk_offset(int row, int chunk) {
        if constexpr (ROW_CHUNKS >= 8) {
            return (unsigned)(row * ROW_CHUNKS + (chunk ^ ((row * STEP) & 7))) * 16u;
        } else {
            const int linear = row * ROW_CHUNKS + chunk;
            return (unsigned)(linear ^ ((linear >> 3) & 7)) * 16u;
        }
    }
    // The inverse: the row and chunk stored at chunk position `position` of the tile (both swizzles change only
    // the low three bits of row * ROW_CHUNKS + chunk, by a value that the higher bits decide, so each undoes itself).
    static __device__ __forceinline__ void chunk_at(unsigned position, unsigned& row, unsigned& chunk) {
        if constexpr (ROW_CHUNKS >= 8) {
            row = position / ROW_CHUNKS;
            chunk = (position % ROW_CHUNKS) ^ ((row * STEP) & 7u);
        } else {
            const unsigned linear = position ^ ((position >> 3) & 7u);
            row = linear / ROW_CHUNKS;
            chunk = linear % ROW_CHUNKS;
        }
    }
    static __device__ __forceinline__ unsigned element_offset(int row, int col) {
        return chunk_offset(row, col / CH) + (unsigned)((col % CH) * ES);
    }
};

}  // namespace jg
