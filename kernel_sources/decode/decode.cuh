// decode/decode.cuh — the decode family: C = op(A) op(B) where one side of C is small (at most 64 — the tokens of
// one decoding step) and the other large. Such a GEMM is one pass over the large operand, the weights W: it is
// bound by how fast W streams from DRAM, and everything here serves that stream.
//
//   W (L x K) is the large operand seen as rows: op(A) when n is the small side, op(B)^T when m is.
//   X (S x K) is the small operand seen as rows: op(B)^T, or op(A). C(l, s) is C(l, s) or C(s, l).
//
// A block owns ROWS rows of W, BS columns of X and one of SPLITS consecutive slices of K; it reads its part of W
// once, in 16-byte loads, UNROLL steps of them in flight per thread ahead of the math (in registers, or with
// STAGED_W in a ring in shared memory, filled by cp.async). Its BS rows of X over its slice are copied to shared
// memory first (while W's first loads are in flight). The block's ROWS x BS sums then meet in shared memory; where
// K is split, the slices' sums meet in the workspace, added in slice order by the slice that finishes last (the
// result does not depend on which one that is: runs are bitwise repeatable), which then alone stores the tile. On
// Hopper the slices of a tile may instead form a cluster (DECODE_CLUSTER) whose first block adds the others' sums
// from their shared memory: no workspace, no round trip through L2.
//
// A batch (JG_BATCH > 1, common/jg_batch.cuh) puts its GEMMs in the grid's third dimension, each one of them as
// above; its slices of K meet only within a cluster, since the workspace's sums are laid out for one GEMM.
//
// A run-time-shape variant (JG_RUNTIME_DIM, common/jg_problem.cuh) takes S and the leading dimensions from the
// launch, so that one binary serves a weight matrix at every token count. What S decides (the column tiles, the
// bytes of the split sums' counters, the bounds) is then worked out from the launch's sizes, as the host works out
// the grid and the workspace for the call (tuner/families/decode/decode_config.cpp); everything else stays constant.
//
// How W's rows are read depends on which way they are stored:
//   k-contiguous (the usual y = x W^T of a linear layer): lane (g = lane / KQ, q = lane % KQ) of a warp reads the
//     16 bytes at k0 + VEC q of rows g and g + G of each of its warp's RG groups of 2 G rows (G = 32 / KQ; KQ, the
//     lanes along k, is 4 but for the SIMT math's DECODE_LANES_K) — 16 KQ contiguous bytes per row and step, whole
//     sectors. The math is either
//       SIMT: fp32 FMAs on those VEC elements against X's same VEC elements, each lane a partial sum over its own
//             share of the k, the KQ shares added with log2(KQ) shuffles at the end; or
//       MMA (16-bit inputs): mma.sync m16n8k16 straight from these registers, no shared memory. A dot product does
//             not care in which order its k terms come, so the instruction's logical k positions of a lane
//             (2q, 2q+1, 2q+8, 2q+9) are mapped onto the lane's contiguous physical ones (k0 + 8q ... + 3, then
//             + 4 ... + 7 for a second instruction) — the same map for W's rows (the A fragment) and X's rows (the B
//             fragment, whose lane holds the same q), so their products pair up exactly.
//   l-contiguous (y = x W with W stored k x n, row-major): a warp's loads read 128 to 512 contiguous bytes of one k.
//       SIMT: lane reads the VEC rows at VEC lane of the block's 32 VEC rows, at four consecutive k; the warps of a
//             block take turns along k and add their sums in warp order.
//       MMA: lane reads 8 rows at k, k + 1, k + 8 and k + 9, and byte permutes pair each row's two k into the words
//             of the A fragment (see l_contiguous_mma_sums).
#pragma once

#include "common/jg_args.cuh"
#include "common/jg_batch.cuh"
#include "common/jg_epilogue.cuh"
#include "common/jg_problem.cuh"
#include "common/jg_ptx.cuh"
#include "common/jg_split_k.cuh"
#include "common/jg_tma.cuh"

#ifndef DECODE_MMA
#define DECODE_MMA 0         // 1: mma.sync on 16-bit inputs; 0: fp32 FMAs
#endif
#ifndef DECODE_WARPS
#define DECODE_WARPS 4       // warps per block
#endif
#ifndef DECODE_ROW_GROUPS
#define DECODE_ROW_GROUPS 1  // k-contiguous W: groups of 16 rows per warp (1 where W is l-contiguous)
#endif
#ifndef DECODE_COLUMNS
#define DECODE_COLUMNS 8     // columns of X (the small side) per block
#endif
#ifndef DECODE_SPLITS
#define DECODE_SPLITS 1      // slices of K, each its own block
#endif
#ifndef DECODE_UNROLL
#define DECODE_UNROLL 4      // steps of W's loads in flight per thread
#endif
#ifndef DECODE_CLUSTER
#define DECODE_CLUSTER 0     // 1: a tile's SPLITS blocks form a cluster and add their sums in shared memory (sm_90)
#endif
#ifndef DECODE_LANES_K
#define DECODE_LANES_K 4     // k-contiguous W, SIMT math: lanes of a warp side by side along k (4 to 32; mma: 4)
#endif
#ifndef DECODE_STAGED_W
#define DECODE_STAGED_W 0    // 1: W's loads in flight land in a ring in shared memory (cp.async), not registers
#endif

namespace jg {
namespace decode {

static_assert(JG_A_TYPE == JG_B_TYPE, "the decode family multiplies operands of one type");
typedef a_t e_t;

// The small side is n unless m is smaller (tuner/families/decode/decode_config.cpp decides the same way). A
// run-time-shape variant's run-time dimension is its small side (what varies between decoding steps is the tokens),
// so L stays a constant in every kernel: JG_RUNTIME_DIM 2 reads n as S, 1 reads m (validate refuses the others).
#if JG_RUNTIME_DIM == 0
constexpr bool SMALL_N = N <= M;
#else
constexpr bool SMALL_N = RUNTIME_N;
#endif
constexpr bool W_K_CONTIGUOUS = SMALL_N ? TRANS_A : !TRANS_B;
constexpr bool X_K_CONTIGUOUS = SMALL_N ? !TRANS_B : TRANS_A;
constexpr int W_ALIGN = SMALL_N ? ALIGN_A_ELEMS : ALIGN_B_ELEMS;  // elements
constexpr int X_ALIGN = SMALL_N ? ALIGN_B_ELEMS : ALIGN_A_ELEMS;

// L, the rows of W: a constant in every decode kernel (a variant's run-time dimension is S).
#if JG_RUNTIME_DIM == 1
constexpr index_t W_ROWS = N;
#elif JG_RUNTIME_DIM == 2
constexpr index_t W_ROWS = M;
#else
constexpr index_t W_ROWS = SMALL_N ? M : N;
#endif

// The problem in W's and X's terms, through `dims`: constants where the sizes are (always L; S and the leading
// dimensions unless the kernel is a variant), so that a kernel without run-time sizes folds them as before.
__device__ __forceinline__ index_t w_rows(const dims& d) { return SMALL_N ? d.m() : d.n(); }  // L
__device__ __forceinline__ index_t x_rows(const dims& d) { return SMALL_N ? d.n() : d.m(); }  // S
__device__ __forceinline__ index_t w_ld(const dims& d) { return SMALL_N ? d.lda() : d.ldb(); }
__device__ __forceinline__ index_t w_offset(const dims& d, index_t l, index_t k) {
    return SMALL_N ? d.a_offset(l, k) : d.b_offset(k, l);  // W(l, k) is op(A)(l, k) or op(B)(k, l)
}
__device__ __forceinline__ index_t x_offset(const dims& d, index_t s, index_t k) {
    return SMALL_N ? d.b_offset(k, s) : d.a_offset(s, k);
}
__device__ __forceinline__ index_t out_offset(const dims& d, index_t l, index_t s) {
    return SMALL_N ? d.c_offset(l, s) : d.c_offset(s, l);
}

constexpr bool MMA = DECODE_MMA != 0;
constexpr int WARPS = DECODE_WARPS;
constexpr int THREADS = 32 * WARPS;
constexpr int RG = DECODE_ROW_GROUPS;
constexpr int BS = DECODE_COLUMNS;
constexpr int SPLITS = DECODE_SPLITS;
constexpr int UNROLL = DECODE_UNROLL;
constexpr bool CLUSTER = DECODE_CLUSTER != 0;
constexpr bool STAGED_W = DECODE_STAGED_W != 0;
constexpr int KQ = DECODE_LANES_K;  // k-contiguous W: lanes along k, and the rows one load instruction covers
constexpr int G = 32 / KQ;
constexpr bool TWO_BYTE = sizeof(e_t) == 2;
constexpr int VEC = 16 / (int)sizeof(e_t);  // elements of one 16-byte load

// Rows of W per block and the k a block advances per step, by W's layout and the math (host: decode_config.cpp).
constexpr index_t ROWS = W_K_CONTIGUOUS ? (index_t)WARPS * 2 * G * RG : (MMA ? (index_t)WARPS * 64 : 32 * VEC);
constexpr index_t WINDOW = W_K_CONTIGUOUS ? KQ * VEC : (MMA ? 16 : 4 * WARPS);
// k per split: whole steps, and whole 16-byte chunks of X's staged rows (WINDOW and VEC are powers of two).
constexpr index_t SLICE_UNIT = WINDOW > VEC ? WINDOW : VEC;
constexpr index_t SLICE = ceil_div(ceil_div(K, SPLITS), SLICE_UNIT) * SLICE_UNIT;
constexpr int TILE_STRIDE = BS + 1;  // floats per row of the block's sums in shared memory (odd: no bank conflicts)
constexpr index_t TILE_FLOATS = ROWS * TILE_STRIDE;
// The grid's tiles (row tiles x SPLITS along x, column tiles along y; jg_decode_gemm numbers the blocks), and the
// bytes of the workspace's arrival counters, one per tile, before the split sums' slots: as decode_config.cpp's
// launch() sizes them for the call.
// (Divided here, not by ceil_div: with these calls as well, ceil_div's calls in the main loops were inlined otherwise,
// and kernels whose sizes are all constants compiled to different code.)
__device__ __forceinline__ index_t row_tiles(const dims& d) { return (w_rows(d) + ROWS - 1) / ROWS; }
__device__ __forceinline__ index_t column_tiles(const dims& d) { return (x_rows(d) + BS - 1) / BS; }
__device__ __forceinline__ long long counter_bytes(const dims& d) {
    return ((long long)row_tiles(d) * column_tiles(d) * 4 + 255) / 256 * 256;
}
// X's BS rows of the block's slice are staged in shared memory first (zeros past K and S), so that the math reads
// them at shared-memory latency: read from global memory at each step, an L2 round trip stalled every step. Rows are
// X_PITCH bytes apart, padded so that the mma paths' reads are free of bank conflicts: along k, the eight lanes of a
// 16-byte phase (rows g, g + 1; chunks q) hit eight different 16-byte banks when the pitch is 64 mod 128; along rows,
// the 32 lanes' words (rows g, words q) hit 32 banks when it is 16 mod 32.
constexpr int X_PITCH = (int)((SLICE * (index_t)sizeof(e_t) + 127) / 128 * 128) + (MMA ? (W_K_CONTIGUOUS ? 64 : 16) : 0);
constexpr int X_STAGE_BYTES = BS * X_PITCH;
// Where W is staged (STAGED_W, k-contiguous W only), each thread's UNROLL steps of loads in flight land in a ring
// after X's rows: slot (u, j, h) holds the thread's chunk of row group j, half h for the step u mod UNROLL, the
// block's threads' chunks side by side (a warp's reads of its slot: 512 contiguous bytes, no bank conflicts).
// Held in registers instead, the loads in flight took 32 of a 16-token fp32 kernel's 104 registers (4 steps, one
// row group): four blocks an SM, 64 KB in flight; at 2 TB/s the H100's loads then took ~4 us to return (Little's
// law on session 33's ncu: 16 warps x 4 KB per SM), so the bytes in flight, not DRAM, set the rate.
constexpr int W_SLOT_BYTES = THREADS * 16;
constexpr int W_RING_BYTES = STAGED_W ? UNROLL * RG * 2 * W_SLOT_BYTES : 0;

// The last line of defence; tuner/families/decode/decode_config.cpp states these rules for pruning before a compile.
#if JG_RUNTIME_DIM == 0
// (A variant's S is each call's, checked by validate; nothing here depends on S being small, only the speed.)
static_assert((SMALL_N ? N : M) <= 64, "the small side of C is at most 64");
#endif
static_assert(BATCH == 1 || SPLITS == 1 || CLUSTER,
              "a batch's slices of K meet within a cluster (the host refuses the others)");
static_assert(!MMA || (TWO_BYTE && BS % 8 == 0), "mma: 16-bit inputs, columns in eights");
static_assert(W_K_CONTIGUOUS || RG == 1, "l-contiguous W: one row group");
static_assert(KQ == 4 || (!MMA && W_K_CONTIGUOUS && (KQ == 8 || KQ == 16 || KQ == 32)),
              "lanes along k: 4, or 8 to 32 for the SIMT math on k-contiguous W");
static_assert((SPLITS - 1) * SLICE < K, "every split has some k");
static_assert(UNROLL >= 1 && UNROLL <= (STAGED_W ? 16 : 8), "1 to 8 steps in flight (2 to 16 staged)");
static_assert(!STAGED_W || (UNROLL >= 2 && W_K_CONTIGUOUS && W_ALIGN * (int)sizeof(e_t) >= 4),
              "W staged: k-contiguous, 4-byte aligned, a ring of 2 or more steps");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
static_assert(!STAGED_W, "cp.async needs sm_80");
#endif
static_assert(!CLUSTER || (SPLITS >= 2 && SPLITS <= 8), "a cluster of the splits: 2 to 8 blocks");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
static_assert(!CLUSTER, "clusters need sm_90");
#endif

// ---- loads ----

__device__ __forceinline__ index_t clamp_index(index_t i, index_t last) { return i < last ? i : last; }

// A run of elements at the operand's edge is described by `left`, the elements from its start to the end of what
// exists (0 or less: none; VEC or more: all), and every test compares `left` itself; none clamps it first. Clamped to
// 0 ... VEC and compared with VEC, the test "is the chunk whole" compiled (NVRTC 13, sm_90a) to one VIMNMX.RELU whose
// predicate sent the lanes with fewer than VEC elements left down the whole-chunk path: they read up to 12 bytes
// past the end of W (session 30, on the H100: with the tests' NaN guards after the operands, the last row of C was
// NaN wherever K was not a multiple of 16 and the main loop was unrolled; the unclamped test compiles to ISETPs).

// The VEC elements at p, of which the first `left` exist (zeros past them; left <= 0 reads nothing), as 16 bytes.
// ALIGN: the elements p's address is a multiple of, which decides how wide the loads may be.
template <int ALIGN>
__device__ __forceinline__ uint4 load_chunk(const e_t* p, index_t left) {
    if (left >= VEC) {
        if constexpr (ALIGN >= VEC) {
            return __ldg(reinterpret_cast<const uint4*>(p));
        } else if constexpr (ALIGN * (int)sizeof(e_t) >= 8) {
            const uint2* v = reinterpret_cast<const uint2*>(p);
            const uint2 lo = __ldg(v), hi = __ldg(v + 1);
            return make_uint4(lo.x, lo.y, hi.x, hi.y);
        } else if constexpr (ALIGN * (int)sizeof(e_t) >= 4) {
            const unsigned* w = reinterpret_cast<const unsigned*>(p);
            return make_uint4(__ldg(w), __ldg(w + 1), __ldg(w + 2), __ldg(w + 3));
        }
    }
    unsigned word[4] = {0, 0, 0, 0};
    if constexpr (TWO_BYTE) {
        const unsigned short* h = reinterpret_cast<const unsigned short*>(p);
#pragma unroll
        for (int i = 0; i < VEC; ++i)
            if (i < left) word[i / 2] |= (unsigned)__ldg(h + i) << (16 * (i % 2));
    } else {
        const unsigned* w = reinterpret_cast<const unsigned*>(p);
#pragma unroll
        for (int i = 0; i < VEC; ++i)
            if (i < left) word[i] = __ldg(w + i);
    }
    return make_uint4(word[0], word[1], word[2], word[3]);
}

// One element through the read-only path (the 16-bit containers as their bits).
__device__ __forceinline__ float load_element(const float* p) { return __ldg(p); }
template <typename H>
__device__ __forceinline__ H load_element(const H* p) {
    H e;
    e.bits = __ldg(reinterpret_cast<const unsigned short*>(p));
    return e;
}

// The VEC elements at p, all of which exist: load_chunk without its tests, for the steps that are whole (all but
// the edges). Tested per chunk, every load sat in its own branch with the element-by-element path beside it: 35
// instructions a chunk, and the loads of a step could not be issued together.
// Measured on the H200 (session 16) it took the 16-bit SIMT path from 80% to 87% of the copy bandwidth, but slowed
// the mma paths by a fifth (their registers rose from 140 to 152): they keep the tests per chunk.
constexpr bool WHOLE_STEPS = !MMA;
template <int ALIGN>
__device__ __forceinline__ uint4 load_whole_chunk(const e_t* p) {
    if constexpr (ALIGN >= VEC) return __ldg(reinterpret_cast<const uint4*>(p));
    else return load_chunk<ALIGN>(p, VEC);
}

// X(s, k ... k + VEC - 1), of which the first `left` exist, as 16 bytes: one chunk where X's rows run along k, VEC
// strided elements where they run along s.
__device__ __forceinline__ uint4 load_x_chunk(const dims& d, const e_t* X, index_t s, index_t k, index_t left) {
    if constexpr (X_K_CONTIGUOUS) {
        return load_chunk<X_ALIGN>(X + x_offset(d, s, k), left);
    } else {
        unsigned word[4] = {0, 0, 0, 0};
#pragma unroll
        for (int i = 0; i < VEC; ++i) {
            if (i < left) {
                if constexpr (TWO_BYTE)
                    word[i / 2] |= (unsigned)__ldg(reinterpret_cast<const unsigned short*>(X + x_offset(d, s, k + i)))
                                   << (16 * (i % 2));
                else
                    word[i] = __ldg(reinterpret_cast<const unsigned*>(X + x_offset(d, s, k + i)));
            }
        }
        return make_uint4(word[0], word[1], word[2], word[3]);
    }
}

// The 16 / sizeof(T) elements of a chunk as fp32 (a template so that only T's branch is compiled).
template <typename T>
__device__ __forceinline__ void chunk_floats(const uint4& c, float (&f)[16 / sizeof(T)]) {
    const unsigned w[4] = {c.x, c.y, c.z, c.w};
    if constexpr (sizeof(T) == 4) {
#pragma unroll
        for (int i = 0; i < 4; ++i) f[i] = __uint_as_float(w[i]);
    } else {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            T lo, hi;
            lo.bits = (unsigned short)(w[i] & 0xffffu);
            hi.bits = (unsigned short)(w[i] >> 16);
            f[2 * i] = to_float(lo);
            f[2 * i + 1] = to_float(hi);
        }
    }
}

// d += a * b for one 16 x 8 tile (rows: W's, columns: X's), 16 k deep.
__device__ __forceinline__ void mma_16x8x16(float (&d)[4], unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                            unsigned b0, unsigned b1) {
    if constexpr (JG_A_TYPE == JG_DTYPE_BF16)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    else
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// ---- X staged in shared memory ----

// Copies X(s0 + c, k_begin + j) for c < BS, j < SLICE into the stage (zeros past S and past k_end), 16 bytes per
// thread and turn.
//
// Where X's rows run along k and are 16-byte aligned (sm_80 on), the copies are cp.async (stage_x_async): all of a
// thread's chunks are in flight at once. As loads and stores (stage_x_loads), each chunk's store waits for its load
// and the next load is issued only then: 16 columns of a 512-k slice took 16 L2 round trips per thread before the
// main loop could start (SASS of decode_simt_w4_r1_c16_k8_u2, session 25).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
constexpr bool STAGE_X_ASYNC = X_K_CONTIGUOUS && X_ALIGN >= VEC;
#else
constexpr bool STAGE_X_ASYNC = false;
#endif
constexpr int X_CHUNKS_PER_ROW = (int)(SLICE / VEC);

// Chunk i of the stage: where it goes, X's row s and k there, and the elements left from k (none past S).
struct x_chunk {
    int stage_offset;
    index_t s, k;
    index_t left;
};
__device__ __forceinline__ x_chunk x_chunk_of(int i, index_t s0, index_t k_begin, index_t k_end, index_t S) {
    const int c = i / X_CHUNKS_PER_ROW, j = i % X_CHUNKS_PER_ROW;
    const index_t s = s0 + c, k = k_begin + (index_t)VEC * j;
    return {c * X_PITCH + j * 16, s, k, s < S ? k_end - k : 0};
}

__device__ __forceinline__ void stage_x_loads(const dims& d, const e_t* X, index_t s0, index_t k_begin,
                                              index_t k_end, unsigned char* stage) {
    const index_t S = x_rows(d);
    for (int i = threadIdx.x; i < BS * X_CHUNKS_PER_ROW; i += THREADS) {
        const x_chunk x = x_chunk_of(i, s0, k_begin, k_end, S);
        *reinterpret_cast<uint4*>(stage + x.stage_offset) = load_x_chunk(d, X, x.s < S ? x.s : S - 1, x.k, x.left);
    }
}

// A chunk cut short by K's end is loaded element by element instead: a cut-short cp.async reads its whole 16 bytes,
// past X's end for its last chunk (mma_sync.cuh's copy_run). The copies are one group of cp.async, which the caller
// waits for (stage_x, or the staged-W ring's prologue).
__device__ __forceinline__ void stage_x_async(const dims& d, const e_t* X, index_t s0, index_t k_begin,
                                              index_t k_end, unsigned char* stage) {
    const index_t S = x_rows(d);
    for (int i = threadIdx.x; i < BS * X_CHUNKS_PER_ROW; i += THREADS) {
        const x_chunk x = x_chunk_of(i, s0, k_begin, k_end, S);
        unsigned char* dst = stage + x.stage_offset;
        const bool whole = x.left >= VEC;
        if (whole || x.left <= 0)
            cp_async<16>(shared_address(dst), whole ? (const void*)(X + x_offset(d, x.s, x.k)) : (const void*)X,
                         whole ? 16 : 0);
        else
            *reinterpret_cast<uint4*>(dst) = load_x_chunk(d, X, x.s, x.k, x.left);
    }
    cp_async_commit();
}

// Starts X's copies: complete for this thread once no cp.async group older than those it issues after is pending.
__device__ __forceinline__ void stage_x_begin(const dims& d, const e_t* X, index_t s0, index_t k_begin,
                                              index_t k_end, unsigned char* stage) {
    if constexpr (STAGE_X_ASYNC) stage_x_async(d, X, s0, k_begin, k_end, stage);
    else stage_x_loads(d, X, s0, k_begin, k_end, stage);
}
__device__ __forceinline__ void stage_x(const dims& d, const e_t* X, index_t s0, index_t k_begin, index_t k_end,
                                        unsigned char* stage) {
    stage_x_begin(d, X, s0, k_begin, k_end, stage);
    if constexpr (STAGE_X_ASYNC) cp_async_wait<0>();
}

// The VEC elements at p, all of which exist, copied to shared memory at `dst` with cp.async in pieces as wide as p's
// alignment allows (16 bytes through L2 only; 8 or 4 through L1).
template <int ALIGN>
__device__ __forceinline__ void copy_whole_chunk(unsigned dst, const e_t* p) {
    constexpr int PIECE = ALIGN * (int)sizeof(e_t) >= 16 ? 16 : ALIGN * (int)sizeof(e_t) >= 8 ? 8 : 4;
#pragma unroll
    for (int b = 0; b < 16; b += PIECE)
        cp_async<PIECE>(dst + b, reinterpret_cast<const unsigned char*>(p) + b, PIECE);
}

// The staged chunk of row c at k_rel (a multiple of VEC), the VEC elements there.
__device__ __forceinline__ uint4 staged_chunk(const unsigned char* stage, int c, index_t k_rel) {
    return *reinterpret_cast<const uint4*>(stage + c * X_PITCH + k_rel * (index_t)sizeof(e_t));
}

// The staged elements k_rel ... k_rel + 3 of row c as fp32 (k_rel a multiple of 4).
template <typename T>
__device__ __forceinline__ void staged_four(const unsigned char* stage, int c, index_t k_rel, float (&x)[4]) {
    const unsigned char* p = stage + c * X_PITCH + k_rel * (index_t)sizeof(T);
    if constexpr (sizeof(T) == 4) {
        const float4 v = *reinterpret_cast<const float4*>(p);
        x[0] = v.x; x[1] = v.y; x[2] = v.z; x[3] = v.w;
    } else {
        const uint2 v = *reinterpret_cast<const uint2*>(p);
        const unsigned w[2] = {v.x, v.y};
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            T lo, hi;
            lo.bits = (unsigned short)(w[i] & 0xffffu);
            hi.bits = (unsigned short)(w[i] >> 16);
            x[2 * i] = to_float(lo);
            x[2 * i + 1] = to_float(hi);
        }
    }
}

// The staged word of two 16-bit elements of row c at k_rel (even).
__device__ __forceinline__ unsigned staged_pair(const unsigned char* stage, int c, index_t k_rel) {
    return *reinterpret_cast<const unsigned*>(stage + c * X_PITCH + k_rel * 2);
}


// ---- the main loops: each leaves this block's sums of its slice in `tile` (ROWS x BS, TILE_STRIDE apart) ----

// The main loops' register ring: the first UNROLL steps of W's loads issued, X staged (`stage_x_now`) while they are
// in flight, then each step computed and its registers loaded again UNROLL steps ahead (`load_w(step, chunks)`,
// `compute(step, chunks)`; steps past the last load nothing).
template <typename Chunks, typename LoadW, typename StageX, typename Compute>
__device__ __forceinline__ void stream_through_registers(Chunks (&w)[UNROLL], int steps, LoadW&& load_w,
                                                         StageX&& stage_x_now, Compute&& compute) {
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) load_w(u, w[u]);
    stage_x_now();
    __syncthreads();
    for (int step = 0; step < steps; step += UNROLL) {
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
            if (step + u < steps) compute(step + u, w[u]);
            load_w(step + u + UNROLL, w[u]);
        }
    }
}

// k-contiguous W. Rows past L and columns past S read the last row or column instead (their sums are never stored).
// Where L is a whole number of row tiles no row is past it, and the rows of two or more row groups are not clamped:
// a thread's rows then lie at fixed distances from its first, and a step's loads take those as immediate offsets
// from one address (SASS of a 16-token fp32 step: its four 16-byte loads in ~22 instructions instead of ~35, each
// row's address computed again; on the H100, decode_simt_w4_r2_c8_k4_u2_x 56.7 -> 55.6 us). With one row group a
// thread has two rows, and unclamped they cost more than they saved: decode_simt_w4_r1_c1_k8_u4_x (1 x 4096 x 4096
// bf16) rose from 56 to 64 registers and 1400 to 1728 instructions, and from 18.45 to 19.1 us (session 29).
constexpr bool W_ROWS_WHOLE = RG >= 2 && W_ROWS % ROWS == 0;
__device__ __forceinline__ void k_contiguous_sums(const dims& d, const e_t* W, const e_t* X, unsigned char* stage,
                                                  index_t row0, index_t s0, index_t k_begin, index_t k_end,
                                                  float* tile) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane / KQ, q = lane % KQ;
    const index_t warp_row = (index_t)warp * 2 * G * RG;
    const e_t* rows[RG][2];
#pragma unroll
    for (int j = 0; j < RG; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const index_t l = row0 + warp_row + 2 * G * j + G * h + g;
            rows[j][h] = W + w_offset(d, W_ROWS_WHOLE ? l : clamp_index(l, w_rows(d) - 1), 0);
        }
    const int steps = (int)ceil_div(k_end - k_begin, WINDOW);
    const index_t lane_k = k_begin + VEC * q;

    constexpr int TILES_N = MMA ? BS / 8 : 1;
    float mma_acc[MMA ? RG : 1][TILES_N][4];
    float simt_acc[MMA ? 1 : RG][2][MMA ? 1 : BS];
    if constexpr (MMA) {
#pragma unroll
        for (int j = 0; j < RG; ++j)
#pragma unroll
            for (int t = 0; t < TILES_N; ++t)
#pragma unroll
                for (int i = 0; i < 4; ++i) mma_acc[j][t][i] = 0.0f;
    } else {
#pragma unroll
        for (int j = 0; j < RG; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int c = 0; c < BS; ++c) simt_acc[j][h][c] = 0.0f;
    }

    uint4 w[UNROLL][RG][2];
    auto load_w = [&](int step, uint4 (&dst)[RG][2]) {
        const index_t k = lane_k + (index_t)step * WINDOW;
        const index_t left = step < steps ? k_end - k : 0;
        if (WHOLE_STEPS && left >= VEC) {
#pragma unroll
            for (int j = 0; j < RG; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h) dst[j][h] = load_whole_chunk<W_ALIGN>(rows[j][h] + k);
        } else {
#pragma unroll
            for (int j = 0; j < RG; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h) dst[j][h] = load_chunk<W_ALIGN>(rows[j][h] + k, left);
        }
    };
    auto compute = [&](int step, const uint4 (&wc)[RG][2]) {
        const index_t k = lane_k + (index_t)step * WINDOW;
        if constexpr (MMA) {
#pragma unroll
            for (int t = 0; t < TILES_N; ++t) {
                const uint4 x = staged_chunk(stage, 8 * t + g, k - k_begin);
#pragma unroll
                for (int j = 0; j < RG; ++j) {
                    mma_16x8x16(mma_acc[j][t], wc[j][0].x, wc[j][1].x, wc[j][0].y, wc[j][1].y, x.x, x.y);
                    mma_16x8x16(mma_acc[j][t], wc[j][0].z, wc[j][1].z, wc[j][0].w, wc[j][1].w, x.z, x.w);
                }
            }
        } else {
            float wf[RG][2][VEC];
#pragma unroll
            for (int j = 0; j < RG; ++j)
#pragma unroll
                for (int h = 0; h < 2; ++h) chunk_floats<e_t>(wc[j][h], wf[j][h]);
#pragma unroll
            for (int c = 0; c < BS; ++c) {
                float xf[VEC];
                chunk_floats<e_t>(staged_chunk(stage, c, k - k_begin), xf);
#pragma unroll
                for (int j = 0; j < RG; ++j)
#pragma unroll
                    for (int h = 0; h < 2; ++h)
#pragma unroll
                        for (int v = 0; v < VEC; ++v) simt_acc[j][h][c] = fmaf(wf[j][h][v], xf[v], simt_acc[j][h][c]);
            }
        }
    };

    if constexpr (STAGED_W) {
        // The ring (W_RING_BYTES): step s in slot s mod UNROLL; while step s is computed, steps s + 1 to
        // s + UNROLL - 1 are in flight. A thread reads back only its own chunks, so the ring needs no barrier: a slot
        // is refilled one step after its chunks were read (those loads were issued before the copy that overwrites
        // them).
        unsigned char* const ring = stage + X_STAGE_BYTES;
        const unsigned ring_address = shared_address(ring);
        auto offset = [&](int u, int j, int h) {
            return ((u * RG + j) * 2 + h) * W_SLOT_BYTES + (int)threadIdx.x * 16;
        };
        // Step `step` into slot u: cp.async where a chunk is whole, through registers at K's end (zeros past it);
        // past the last step nothing, but a group is committed all the same, so that every wait counts alike.
        auto copy_w = [&](int step, int u) {
            if (step < steps) {
                const index_t k = lane_k + (index_t)step * WINDOW;
                const index_t left = k_end - k;
                if (left >= VEC) {  // (one test for the step's chunks: the copies of a step issue together)
#pragma unroll
                    for (int j = 0; j < RG; ++j)
#pragma unroll
                        for (int h = 0; h < 2; ++h)
                            copy_whole_chunk<W_ALIGN>(ring_address + offset(u, j, h), rows[j][h] + k);
                } else {
                    uint4 edge[RG][2];
                    load_w(step, edge);
#pragma unroll
                    for (int j = 0; j < RG; ++j)
#pragma unroll
                        for (int h = 0; h < 2; ++h) *reinterpret_cast<uint4*>(ring + offset(u, j, h)) = edge[j][h];
                }
            }
            cp_async_commit();
        };
        stage_x_begin(d, X, s0, k_begin, k_end, stage);  // its group (if cp.async) is the oldest
#pragma unroll
        for (int u = 0; u + 1 < UNROLL; ++u) copy_w(u, u);
        cp_async_wait<UNROLL - 1>();
        __syncthreads();
        for (int step = 0; step < steps; step += UNROLL) {
#pragma unroll
            for (int u = 0; u < UNROLL; ++u) {
                copy_w(step + u + UNROLL - 1, (u + UNROLL - 1) % UNROLL);
                cp_async_wait<UNROLL - 1>();
                if (step + u < steps) {
                    uint4 wc[RG][2];
#pragma unroll
                    for (int j = 0; j < RG; ++j)
#pragma unroll
                        for (int h = 0; h < 2; ++h)
                            wc[j][h] = *reinterpret_cast<const uint4*>(ring + offset(u, j, h));
                    compute(step + u, wc);
                }
            }
        }
        cp_async_wait<0>();
    } else {
        stream_through_registers(w, steps, load_w, [&] { stage_x(d, X, s0, k_begin, k_end, stage); }, compute);
    }

    if constexpr (MMA) {
        // Accumulator i of tile t: row g + 8 (i / 2) of the group, column 8 t + 2 q + i % 2.
#pragma unroll
        for (int j = 0; j < RG; ++j)
#pragma unroll
            for (int t = 0; t < TILES_N; ++t)
#pragma unroll
                for (int i = 0; i < 4; ++i)
                    tile[(warp_row + 16 * j + g + 8 * (i / 2)) * TILE_STRIDE + 8 * t + 2 * q + i % 2] = mma_acc[j][t][i];
    } else {
        // The KQ lanes of a row hold a share of the k each: added pairwise (each pair's sum the same in both lanes, so
        // every lane ends with the same bits), then each stores every KQ-th column.
#pragma unroll
        for (int j = 0; j < RG; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
#pragma unroll
                for (int c = 0; c < BS; ++c) {
                    float v = simt_acc[j][h][c];
#pragma unroll
                    for (int o = 1; o < KQ; o *= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
                    if (c % KQ == q) tile[(warp_row + 2 * G * j + G * h + g) * TILE_STRIDE + c] = v;
                }
    }
}

// l-contiguous W, fp32 FMAs: lane reads the VEC rows at VEC lane of the block's 32 VEC rows, at four consecutive k;
// the warps of a block take such groups of k in turns (warp w: k0 + 4 w ... + 3 of each window of 4 WARPS).
__device__ __forceinline__ void l_contiguous_simt_sums(const dims& d, const e_t* W, const e_t* X, unsigned char* stage,
                                                       index_t row0, index_t s0, index_t k_begin, index_t k_end,
                                                       float* tile) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const index_t l = row0 + (index_t)VEC * lane;
    const index_t rows_left = w_rows(d) - l;
    const e_t* const column = W + w_offset(d, rows_left > 0 ? l : 0, 0);
    const index_t warp_k = k_begin + 4 * warp;
    const int steps = (int)ceil_div(k_end - k_begin, WINDOW);

    float acc[VEC][BS];
#pragma unroll
    for (int v = 0; v < VEC; ++v)
#pragma unroll
        for (int c = 0; c < BS; ++c) acc[v][c] = 0.0f;

    uint4 w[UNROLL][4];
    auto load_w = [&](int step, uint4 (&dst)[4]) {
        const index_t k = warp_k + (index_t)step * WINDOW;
        if (step < steps && k + 3 < k_end && rows_left >= VEC) {
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) dst[kk] = load_whole_chunk<W_ALIGN>(column + (k + kk) * w_ld(d));
        } else {
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
                dst[kk] = load_chunk<W_ALIGN>(column + (k + kk) * w_ld(d),
                                              step < steps && k + kk < k_end ? rows_left : 0);
        }
    };
    auto compute = [&](int step, const uint4 (&wc)[4]) {
        const index_t k = warp_k + (index_t)step * WINDOW;
        float wf[4][VEC];
#pragma unroll
        for (int kk = 0; kk < 4; ++kk) chunk_floats<e_t>(wc[kk], wf[kk]);
#pragma unroll
        for (int c = 0; c < BS; ++c) {
            float x[4];
            staged_four<e_t>(stage, c, k - k_begin, x);
#pragma unroll
            for (int kk = 0; kk < 4; ++kk)
#pragma unroll
                for (int v = 0; v < VEC; ++v) acc[v][c] = fmaf(wf[kk][v], x[kk], acc[v][c]);
        }
    };

    stream_through_registers(w, steps, load_w, [&] { stage_x(d, X, s0, k_begin, k_end, stage); }, compute);

    // The warps' sums added in warp order, one warp at a time.
#pragma unroll 1
    for (int turn = 0; turn < WARPS; ++turn) {
        if (warp == turn) {
#pragma unroll
            for (int v = 0; v < VEC; ++v)
#pragma unroll
                for (int c = 0; c < BS; ++c) {
                    float* t = tile + (VEC * lane + v) * TILE_STRIDE + c;
                    *t = turn == 0 ? acc[v][c] : *t + acc[v][c];
                }
        }
        __syncthreads();
    }
}

// l-contiguous W, mma.sync (16-bit): lane (g, q) reads the 8 rows at 8 g of its warp's 64, at k0 + 2 q + 0, 1, 8
// and 9 of each 16-deep step; byte permutes pair each row's elements at k and k + 1, which is what a lane holds of
// the instruction's A fragment. The instruction's rows g and g + 8 of tile t are the lane's rows 2 t and 2 t + 1 (the
// order of rows, like that of k, is ours to choose, as long as the output is stored by the same map).
__device__ __forceinline__ void l_contiguous_mma_sums(const dims& d, const e_t* W, const e_t* X, unsigned char* stage,
                                                      index_t row0, index_t s0, index_t k_begin, index_t k_end,
                                                      float* tile) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
    const index_t warp_row = (index_t)warp * 64;
    const index_t r0 = row0 + warp_row + 8 * g;
    const index_t rows_left = w_rows(d) - r0;
    const e_t* const column = W + w_offset(d, rows_left > 0 ? r0 : 0, 0);
    const int steps = (int)ceil_div(k_end - k_begin, WINDOW);
    const index_t lane_k = k_begin + 2 * q;
    constexpr int TILES_N = BS >= 8 ? BS / 8 : 1;  // (this function is compiled for the SIMT math too, unused)

    float acc[4][TILES_N][4];
#pragma unroll
    for (int t = 0; t < 4; ++t)
#pragma unroll
        for (int n = 0; n < TILES_N; ++n)
#pragma unroll
            for (int i = 0; i < 4; ++i) acc[t][n][i] = 0.0f;

    uint4 w[UNROLL][4];
    auto load_w = [&](int step, uint4 (&dst)[4]) {
        const index_t k = lane_k + (index_t)step * WINDOW;
        const bool whole = WHOLE_STEPS && step < steps && k + 9 < k_end && rows_left >= 8;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const index_t kk = k + (i & 1) + 8 * (i >> 1);  // k, k + 1, k + 8, k + 9
            if (whole) dst[i] = load_whole_chunk<W_ALIGN>(column + kk * w_ld(d));
        }
        if (!whole) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const index_t kk = k + (i & 1) + 8 * (i >> 1);
                dst[i] = load_chunk<W_ALIGN>(column + kk * w_ld(d), step < steps && kk < k_end ? rows_left : 0);
            }
        }
    };
    auto compute = [&](int step, const uint4 (&wc)[4]) {
        const index_t k = lane_k + (index_t)step * WINDOW;
        unsigned a[4][4];
        const unsigned lo0[4] = {wc[0].x, wc[0].y, wc[0].z, wc[0].w}, hi0[4] = {wc[1].x, wc[1].y, wc[1].z, wc[1].w};
        const unsigned lo8[4] = {wc[2].x, wc[2].y, wc[2].z, wc[2].w}, hi8[4] = {wc[3].x, wc[3].y, wc[3].z, wc[3].w};
#pragma unroll
        for (int t = 0; t < 4; ++t) {
            a[t][0] = __byte_perm(lo0[t], hi0[t], 0x5410);  // row 2t: (k, k + 1)
            a[t][1] = __byte_perm(lo0[t], hi0[t], 0x7632);  // row 2t + 1
            a[t][2] = __byte_perm(lo8[t], hi8[t], 0x5410);  // row 2t: (k + 8, k + 9)
            a[t][3] = __byte_perm(lo8[t], hi8[t], 0x7632);
        }
#pragma unroll
        for (int n = 0; n < TILES_N; ++n) {
            const unsigned b0 = staged_pair(stage, 8 * n + g, k - k_begin);
            const unsigned b1 = staged_pair(stage, 8 * n + g, k - k_begin + 8);
#pragma unroll
            for (int t = 0; t < 4; ++t) mma_16x8x16(acc[t][n], a[t][0], a[t][1], a[t][2], a[t][3], b0, b1);
        }
    };

    stream_through_registers(w, steps, load_w, [&] { stage_x(d, X, s0, k_begin, k_end, stage); }, compute);

    // Accumulator i of tile (t, n): instruction row g + 8 (i / 2), our row 8 g + 2 t + i / 2; column 8 n + 2 q + i % 2.
#pragma unroll
    for (int t = 0; t < 4; ++t)
#pragma unroll
        for (int n = 0; n < TILES_N; ++n)
#pragma unroll
            for (int i = 0; i < 4; ++i)
                tile[(warp_row + 8 * g + 2 * t + i / 2) * TILE_STRIDE + 8 * n + 2 * q + i % 2] = acc[t][n][i];
}

}  // namespace decode
}  // namespace jg

// ---- the kernel ----

// One GEMM (of a batch, the grid's third dimension) on its operands; the extern "C" entry below walks the batch.
// `last_to_arrive` is a word of shared memory for the split sums' count.
static __device__ __forceinline__ void jg_decode_gemm(const jg::dims& d, const jg::decode::e_t* A,
                                                      const jg::decode::e_t* B, jg::c_t* C, const jg_args& args,
                                                      unsigned& last_to_arrive) {
    using namespace jg;
    using namespace jg::decode;
    extern __shared__ float4 shared_words[];
    unsigned char* const stage = reinterpret_cast<unsigned char*>(shared_words);  // X's rows, then the block's sums
    float* const tile = reinterpret_cast<float*>(stage + X_STAGE_BYTES + W_RING_BYTES);

    // The grid is (row tiles x SPLITS, column tiles). Blocks start roughly in the order of their linear index, x
    // fastest; read as blockIdx says, the second column tile's blocks would start after every row tile of the first,
    // and a W larger than L2 would stream from DRAM once per column tile. Numbered with the column tile fastest, the
    // blocks that share W's rows run side by side and all but the first read them from L2 (as the cost model,
    // tuner/families/decode/decode_search.cpp, prices it). A cluster's blocks are its tile's slices, along x: those
    // keep blockIdx's order.
    index_t row_tile, column_tile;
    int split;
    if constexpr (CLUSTER) {
        row_tile = blockIdx.x / SPLITS;
        split = (int)(blockIdx.x % SPLITS);
        column_tile = blockIdx.y;
    } else {
        const index_t linear = (index_t)blockIdx.y * gridDim.x + blockIdx.x;
        column_tile = linear % gridDim.y;
        const index_t row_split = linear / gridDim.y;
        row_tile = row_split / SPLITS;
        split = (int)(row_split % SPLITS);
    }
    const index_t row0 = row_tile * ROWS, s0 = column_tile * BS;
    const index_t k_begin = (index_t)split * SLICE;
    const index_t k_end = k_begin + SLICE < K ? k_begin + SLICE : K;
    const e_t* const W = SMALL_N ? A : B;
    const e_t* const X = SMALL_N ? B : A;

    if constexpr (W_K_CONTIGUOUS) k_contiguous_sums(d, W, X, stage, row0, s0, k_begin, k_end, tile);
    else if constexpr (MMA) l_contiguous_mma_sums(d, W, X, stage, row0, s0, k_begin, k_end, tile);
    else l_contiguous_simt_sums(d, W, X, stage, row0, s0, k_begin, k_end, tile);
    __syncthreads();

    if constexpr (CLUSTER) {
#if __CUDA_ARCH__ >= 900
        // The tile's slices are the blocks of one cluster (rank = split): the first adds the others' sums, in slice
        // order, straight from their shared memory; the others wait until it has read them.
        tma::cluster_sync();
        if (split == 0) {
            for (index_t e = threadIdx.x; e < TILE_FLOATS; e += THREADS) {
                float sum = tile[e];
#pragma unroll
                for (int p = 1; p < SPLITS; ++p) sum += tma::load_cluster_shared(tile + e, (unsigned)p);
                tile[e] = sum;
            }
        }
        tma::cluster_sync();
        if (split != 0) return;
#endif
    } else if constexpr (SPLITS > 1) {
        // This slice's sums to its workspace slot; the last slice of the tile to arrive adds all of them in slice
        // order (its own read back too, so the order is the same whichever arrives last).
        const index_t tile_index = row_tile * column_tiles(d) + column_tile;
        unsigned* const counters = static_cast<unsigned*>(args.workspace);
        // The slots follow the counters, whose bytes are a multiple of 256. (Counted in floats, the address compiles
        // as it did when the counters' size was a constant; counted in bytes, the 256 folded in elsewhere.)
        float* const slots = static_cast<float*>(args.workspace) + counter_bytes(d) / (long long)sizeof(float) +
                             (long long)tile_index * SPLITS * TILE_FLOATS;
        for (index_t e = threadIdx.x; e < TILE_FLOATS; e += THREADS) __stcg(slots + split * TILE_FLOATS + e, tile[e]);
        __threadfence();  // this thread's sums reach L2 before the count that announces them
        __syncthreads();
        if (threadIdx.x == 0) last_to_arrive = count_in(counters + tile_index, SPLITS);
        __syncthreads();
        if (!last_to_arrive) return;
        __threadfence();  // the other slices' sums, announced by their counts, are read after this
        for (index_t e = threadIdx.x; e < TILE_FLOATS; e += THREADS) {
            float sum = __ldcg(slots + e);
#pragma unroll
            for (int p = 1; p < SPLITS; ++p) sum += __ldcg(slots + p * TILE_FLOATS + e);
            tile[e] = sum;
        }
        __syncthreads();
    }

    // The epilogue, in the order C is stored (consecutive threads, consecutive addresses).
    for (index_t e = threadIdx.x; e < ROWS * BS; e += THREADS) {
        const index_t r = SMALL_N ? e % ROWS : e / BS;
        const index_t c = SMALL_N ? e / ROWS : e % BS;
        const index_t l = row0 + r, s = s0 + c;
        if (l < w_rows(d) && s < x_rows(d)) {
            const float acc[1] = {tile[r * TILE_STRIDE + c]};
            epilogue_store<1>(C, out_offset(d, l, s), acc, 1, args.alpha, args.beta);
        }
    }
}

extern "C" __global__ void __launch_bounds__(jg::decode::THREADS) jg_decode(const __grid_constant__ jg_args args) {
    using namespace jg;
    using jg::decode::e_t;
    const dims d{args};
    __shared__ unsigned last_to_arrive;
    for_each_gemm<e_t, e_t, c_t>(args, [&](const e_t* a, const e_t* b, c_t* c) {
        jg_decode_gemm(d, a, b, c, args, last_to_arrive);
    });
}
