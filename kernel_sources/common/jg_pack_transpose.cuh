// jg_pack_transpose.cuh — copies 32-bit operands into a workspace through 64 x 64 tiles of shared memory, transposing
// those that ask for it: the pack of a kernel that can only read an operand k-contiguous (the wgmma family in TF32,
// whose instruction has no transpose for .tf32). The copy's columns start 128-byte aligned (the host rounds its
// leading dimension up to 32 elements) and its padding is zero-filled, as jg_pack's are. Sizes are run-time arguments,
// so one kernel serves any problem; it is compiled into the module of every kernel that may pack this way, and one
// launch copies both operands (each transposed or not).
//
// Why tiles: a transposing copy that reads along the source's columns writes across the copy's, and the other way
// round; staging a 64 x 64 tile in shared memory lets both the reads and the writes run along columns, 16 lanes of a
// warp covering 256 contiguous bytes with 16-byte accesses. Its cost matters as much as the GEMM's tail: a 4096 x 4096
// fp32 operand is 64 MiB read and 64 MiB written, about 35 us at the H200's copy bandwidth.
#pragma once

#include "common/jg_packs.cuh"

// One operand's copy: the source is `rows` (contiguous) x `cols` elements, ld_src apart; the copy's columns are
// ld_dst elements long (a multiple of 32). transpose = 1: column i of the copy is row i of the source (rows columns of
// `cols` elements, zeros from cols to ld_dst); transpose = 0: the copy is the source (cols columns, zeros from rows to
// ld_dst). tiles_down: 64-element tiles along the source's rows (tiles_down x tiles_across of them, `tiles` in all;
// 0: no copy). Every field is 8 bytes, so the host's mirror of it (src/runtime/launch/loaded_kernel.cpp) has the same
// layout.
struct jg_pack_transpose_job {
    const void* src;
    void* dst;
    long long ld_src, rows, cols, ld_dst, transpose, tiles_down, tiles;
};

namespace jg_transpose {

constexpr int TILE = 64;                // elements of a tile along each side
constexpr int THREADS = 256;            // per block: 16 per 64-element column, 16 columns per round
constexpr int ROUNDS = TILE / (THREADS / 16);  // rounds of 16 columns per tile: each thread keeps 4 vectors in flight

// Where 16-byte chunk q of tile row r lies in the shared tile, in floats. The chunks of a row are permuted (XOR with
// the row's group of four) so that the transposed read — one float of each of 16 rows four apart, two columns per
// warp — falls on 16 banks twice at worst instead of on 4 eight times; a row written or read whole stays
// conflict-free.
__device__ __forceinline__ int chunk_at(int r, int q) { return r * TILE + 4 * (q ^ ((r >> 2) & 15)); }

// The four floats of the source at rows i .. i + 3 of column j (zeros past its edges), streamed: the source is read
// once, so its lines need not stay in L2 (the copy, which the GEMM reads next, should). vector: the source's pointer
// and leading dimension allow 16-byte loads.
__device__ __forceinline__ float4 read_four(const jg_pack_transpose_job& job, long long i, long long j, bool vector) {
    if (j >= job.cols) return make_float4(0.f, 0.f, 0.f, 0.f);
    const float* column = static_cast<const float*>(job.src) + j * job.ld_src;
    if (vector && i + 4 <= job.rows) return __ldcs(reinterpret_cast<const float4*>(column + i));
    float v[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) v[e] = i + e < job.rows ? __ldcs(column + i + e) : 0.f;
    return make_float4(v[0], v[1], v[2], v[3]);
}

// Where a tile's first source row and column are (i0, j0).
__device__ __forceinline__ void tile_origin(const jg_pack_transpose_job& job, long long tile, long long& i0,
                                            long long& j0) {
    const long long tj = tile / job.tiles_down;
    i0 = (tile - tj * job.tiles_down) * TILE;
    j0 = tj * TILE;
}

// Issues the loads of tile `tile` of one job: this thread's four vectors, source column j0 + c, rows i0 + 4 q .. + 3,
// for c = column16 + 16 r (q: the thread's place among 16). They are in flight while the block writes the tile before.
__device__ __forceinline__ void read_tile(const jg_pack_transpose_job& job, long long tile, float4 (&in)[ROUNDS]) {
    long long i0, j0;
    tile_origin(job, tile, i0, j0);
    const int lane16 = threadIdx.x % 16, column16 = threadIdx.x / 16;
    const bool vector = (reinterpret_cast<unsigned long long>(job.src) & 15) == 0 && job.ld_src % 4 == 0;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r) in[r] = read_four(job, i0 + 4 * lane16, j0 + column16 + 16 * r, vector);
}

// Puts this thread's four vectors of a tile into `shared` (TILE x TILE floats), as read_tile read them.
__device__ __forceinline__ void stage_tile(const float4 (&in)[ROUNDS], float* shared) {
    const int lane16 = threadIdx.x % 16, column16 = threadIdx.x / 16;
#pragma unroll
    for (int r = 0; r < ROUNDS; ++r)
        *reinterpret_cast<float4*>(shared + chunk_at(column16 + 16 * r, lane16)) = in[r];
}

// Writes tile `tile` of one job from `shared` to the copy.
__device__ __forceinline__ void write_tile(const jg_pack_transpose_job& job, long long tile, const float* shared) {
    long long i0, j0;
    tile_origin(job, tile, i0, j0);
    const int lane16 = threadIdx.x % 16, column16 = threadIdx.x / 16;
    float* dst = static_cast<float*>(job.dst);
    if (job.transpose) {
        // Copy column i0 + c (a source row), rows j0 + 4 q .. + 3 (source columns), for c = column16 + 16 r.
        const long long first_row = j0 + 4 * lane16;
#pragma unroll
        for (int r = 0; r < ROUNDS; ++r) {
            const int c = column16 + 16 * r;
            float v[4];
#pragma unroll
            for (int e = 0; e < 4; ++e) v[e] = shared[chunk_at(4 * lane16 + e, c / 4) + c % 4];
            if (i0 + c < job.rows && first_row < job.ld_dst)
                *reinterpret_cast<float4*>(dst + (i0 + c) * job.ld_dst + first_row) =
                    make_float4(v[0], v[1], v[2], v[3]);
        }
    } else {
        // The chunks as they were read: copy column j0 + c, rows i0 + 4 q .. + 3.
        const long long first_row = i0 + 4 * lane16;
#pragma unroll
        for (int r = 0; r < ROUNDS; ++r) {
            const int c = column16 + 16 * r;
            if (j0 + c < job.cols && first_row < job.ld_dst)
                *reinterpret_cast<float4*>(dst + (j0 + c) * job.ld_dst + first_row) =
                    *reinterpret_cast<const float4*>(shared + chunk_at(c, lane16));
        }
    }
}

}  // namespace jg_transpose

// The tiles of both jobs, the first's then the second's, a grid's width apart; the same launch zeroes `zero_words`
// 32-bit words at `zero` (a split-K kernel's arrival counters), as jg_pack does. On sm_90 the GEMM that follows may
// start at once as this grid's programmatic dependent and waits (griddepcontrol.wait) for its copies (see jg_pack).
// The host launches at most one wave of blocks (src/runtime/launch/loaded_kernel.cpp), which loop over the tiles.
#if JG_PACKS == 2
extern "C" __global__ void __launch_bounds__(jg_transpose::THREADS)
    jg_pack_transpose(jg_pack_transpose_job first, jg_pack_transpose_job second, unsigned* zero, int zero_words) {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    __shared__ __align__(16) float shared[jg_transpose::TILE * jg_transpose::TILE];
    const long long start = blockIdx.x, width = gridDim.x;
    for (long long q = start * blockDim.x + threadIdx.x; q < zero_words; q += width * blockDim.x) zero[q] = 0u;
    // Tile t of the two jobs: the first's, then the second's.
    const long long tiles = first.tiles + second.tiles;
    const auto read = [&](long long t, float4 (&in)[jg_transpose::ROUNDS]) {
        if (t < first.tiles) jg_transpose::read_tile(first, t, in);
        else jg_transpose::read_tile(second, t - first.tiles, in);
    };
    float4 in[jg_transpose::ROUNDS];
    if (start < tiles) read(start, in);
    for (long long tile = start; tile < tiles; tile += width) {
        jg_transpose::stage_tile(in, shared);
        __syncthreads();
        // The next tile's loads go out before this one's writes, so that each block keeps reads in flight throughout.
        if (tile + width < tiles) read(tile + width, in);
        if (tile < first.tiles) jg_transpose::write_tile(first, tile, shared);
        else jg_transpose::write_tile(second, tile - first.tiles, shared);
        __syncthreads();  // the next tile overwrites the shared tile
    }
}
#endif
