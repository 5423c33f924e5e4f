// mma_sync/mma_sync.cuh — the mma.sync family, Tensor Core GEMM: warp-level mma.sync on operands staged through a multi-stage
// shared-memory pipeline. fp16 and bf16 inputs use m16n8k16; fp32 inputs, when the caller allows TF32, m16n8k8.
// Accumulators are fp32 in registers; the shared epilogue converts them to C's type.
//
// Pipeline: STAGES shared-memory buffers of a BM x BK tile of op(A) and a BK x BN tile of op(B). While the warps
// multiply stage kt, the copies of stage kt + STAGES - 1 are in flight: cp.async (16, 8 or 4 bytes wide, as the
// operand's alignment allows, zero-filling past the edges; a copy cut short by the edge is made by plain loads
// instead, see copy_run) when the operand is 4-byte aligned, else plain loads into
// registers issued before the math and stored to shared memory after it (a 16-bit operand whose leading dimension is
// odd, K = 4097 in half precision say, is only 2-byte aligned, which cp.async cannot take).
//
// A misaligned operand can also be packed first (common/jg_pack.cuh, chosen by the host: the kernel then sees the aligned
// copy). On Hopper, with both operands packed, the copies can be laid out tile by tile instead (MMA_SYNC_BULK,
// mma_sync/bulk_pack.cuh), each tile exactly the shared tile it becomes, and one thread fills a stage with a bulk copy per
// operand tile counted in at a shared-memory barrier (common/jg_bulk_copy.cuh): no thread issues copies or keeps a plan. Tiles keep global memory's contiguous dimension (a copy cannot transpose), so operands are read from shared memory
// with ldmatrix, transposing (.trans) where the tile runs the other way; TF32 tiles that would need a 32-bit
// transpose are read with scalar loads instead. Every tile is stored in 16-byte chunks permuted by an XOR swizzle
// (tile_layout below) so that ldmatrix, the scalar loads and the copies are free of bank conflicts.
//
// Split-K (MMA_SYNC_SPLITK > 1) gives each tile of C to several blocks, each over its own share of K, for problems with too
// few tiles to fill the GPU and a long K (777 x 1111 x 3333: 63 tiles of 128 x 128 for 132 SMs); the partial sums
// meet in the workspace the host provides (common/jg_split_k.cuh). Stream-K (MMA_SYNC_STREAMK blocks, usually a
// multiple of the SM count) evens the work out further: the k tiles of all tiles, taken tile after tile, are dealt
// out in equal runs, one per block, so every SM gets the same share even when tiles x splits is not a multiple of
// the SMs; a run that starts or ends inside a tile leaves a partial sum there, met the same way.
//
// A run-time-shape variant (JG_RUNTIME_DIM, common/jg_problem.cuh) takes m or n, and the leading dimensions, from the
// launch. The kernel reads every size through `dims`, which folds to the constant where there is one, so a kernel
// for one exact problem is the code it was before variants existed. A variant may split K (the workspace's layout
// takes the count of tiles at run time), but takes neither stream-K nor bulk copies, laid out when compiling.
//
// The MMA computes C^T tiles: its rows run along n and its columns along m, so each thread's accumulator pairs are
// consecutive in m, which is the contiguous dimension of the column-major C — the epilogue stores pairs.
#pragma once

#include "common/jg_args.cuh"
#include "common/jg_batch.cuh"
#include "common/jg_bulk_copy.cuh"
#include "common/jg_epilogue.cuh"
#include "common/jg_pack.cuh"
#include "common/jg_problem.cuh"
#include "common/jg_ptx.cuh"
#include "common/jg_split_k.cuh"
#include "common/jg_swizzle.cuh"

// ---- Tuning knobs ----
#ifndef MMA_SYNC_BM
#define MMA_SYNC_BM 128     // rows of C (m) computed by one block
#endif
#ifndef MMA_SYNC_BN
#define MMA_SYNC_BN 128     // columns of C (n) computed by one block
#endif
#ifndef MMA_SYNC_BK
#define MMA_SYNC_BK 32      // depth (k) of one pipeline stage
#endif
#ifndef MMA_SYNC_WM
#define MMA_SYNC_WM 2       // warps along m; each warp computes a (BM / WM) x (BN / WN) tile
#endif
#ifndef MMA_SYNC_WN
#define MMA_SYNC_WN 4       // warps along n
#endif
#ifndef MMA_SYNC_STAGES
#define MMA_SYNC_STAGES 3   // shared-memory stages of the copy pipeline (2 to 5)
#endif
#ifndef MMA_SYNC_GROUP
#define MMA_SYNC_GROUP 8    // tile rows per rasterization group (see tile_of_block)
#endif
#ifndef MMA_SYNC_SPLITK
#define MMA_SYNC_SPLITK 1   // blocks per tile of C, each over its own share of K (split-K: common/jg_split_k.cuh)
#endif
#ifndef MMA_SYNC_STREAMK
#define MMA_SYNC_STREAMK 0  // stream-K: this many blocks deal out all tiles' k tiles evenly (0: off; jg_split_k.cuh)
#endif
#ifndef MMA_SYNC_BULK
#define MMA_SYNC_BULK 0     // 1: both operands packed tile by tile, one bulk copy per tile (sm_90; bulk_pack.cuh)
#endif

namespace jg {
namespace mma_sync {

constexpr bool TF32 = JG_A_TYPE == JG_DTYPE_F32;  // fp32 inputs: the TF32 Tensor Core path
constexpr bool BF16 = JG_A_TYPE == JG_DTYPE_BF16;
constexpr int ES = (int)sizeof(a_t);              // element bytes: 2, or 4 for TF32
constexpr int CH = 16 / ES;                       // elements per 16-byte chunk
constexpr int KSTEP = TF32 ? 8 : 16;              // k of one mma instruction

constexpr int BM = MMA_SYNC_BM, BN = MMA_SYNC_BN, BK = MMA_SYNC_BK, WM = MMA_SYNC_WM, WN = MMA_SYNC_WN, STAGES = MMA_SYNC_STAGES;
constexpr int SPLITS = MMA_SYNC_SPLITK;
constexpr long long STREAM_BLOCKS = MMA_SYNC_STREAMK;
constexpr bool BULK = MMA_SYNC_BULK != 0;
constexpr int THREADS = 32 * WM * WN;
constexpr int WTM = BM / WM, WTN = BN / WN;  // the warp's tile
constexpr int FM = WTM / 8;                  // mma columns (8 m each) per warp
constexpr int FN = WTN / 16;                 // mma rows (16 n each) per warp

// The last line of defence; tuner/families/mma_sync/mma_sync_config.cpp states the same rules for pruning before a compile.
static_assert(JG_A_TYPE == JG_B_TYPE, "A and B have one element type");
static_assert(!TF32 || JG_COMPUTE_TF32, "fp32 inputs reach the Tensor Cores only when the caller allows TF32");
static_assert(BM % (WM * 16) == 0 && BN % (WN * 16) == 0, "warp tiles are multiples of 16 in m and n");
static_assert(THREADS <= 1024, "at most 1024 threads per block");
static_assert(BK % KSTEP == 0 && BK % CH == 0 && BK >= 16 && BK <= 128, "BK is 16 to 128 (16 or 32 for TF32)");
static_assert(BK * ES <= 256, "a k-contiguous tile row is at most 256 bytes");
static_assert(BM >= 32 && BN >= 32 && BM <= 256 && BN <= 256, "tile limits assumed by the host's choice of index width");
// BM and BN need not be powers of two: a tile that fits the problem (112 for 777 = 7 x 111) wastes less work on
// padding. tile_layout's static_assert keeps the swizzle's rule for tiles whose rows run along m or n.
static_assert((BK & (BK - 1)) == 0, "BK is a power of two");
static_assert(STAGES >= 2 && STAGES <= 5, "2 to 5 pipeline stages");
static_assert(SPLITS >= 1 && SPLITS <= 16, "1 to 16 blocks per tile");
static_assert(SPLITS == 1 || SPLITS <= ceil_div(K, BK), "every split has at least one k tile");
static_assert(STREAM_BLOCKS == 0 || SPLITS == 1, "stream-K or split-K, not both");
static_assert(!BULK || JG_HAS_BULK_COPY, "bulk copies need sm_90 or later");
static_assert(!BULK || STREAM_BLOCKS == 0, "bulk copies count each stage slot's uses from a block's first k tile");
static_assert(!RUNTIME_SHAPE || (STREAM_BLOCKS == 0 && !BULK),
              "a run-time-shape variant (JG_RUNTIME_DIM != 0) takes neither stream-K nor bulk copies "
              "(MMA_SYNC_STREAMK 0, MMA_SYNC_BULK 0): their k tiles' runs and packed tiles are laid out by the count "
              "of tiles when compiling, which the variant knows only at run time");

// How global memory runs: op(A) is k-contiguous when A is stored transposed, op(B) when B is not.
constexpr bool A_KCONTIG = TRANS_A;
constexpr bool B_KCONTIG = !TRANS_B;

// ---- shared-memory tile layout ----

// The swizzled layout of common/jg_swizzle.cuh for this family's element size.
template <int ROWS, int COLS, int STEP>
using tile_layout = swizzled_tile<ROWS, COLS, STEP, ES>;

typedef tile_layout<A_KCONTIG ? BM : BK, A_KCONTIG ? BK : BM, (TF32 && !A_KCONTIG) ? 2 : 1> a_layout;
typedef tile_layout<B_KCONTIG ? BN : BK, B_KCONTIG ? BK : BN, (TF32 && !B_KCONTIG) ? 2 : 1> b_layout;
constexpr int STAGE_BYTES = a_layout::BYTES + b_layout::BYTES;
// Under BULK a barrier per stage slot (8 bytes each) follows the stages; MmaSyncConfig::shared_bytes counts them.
constexpr int BARRIERS_OFFSET = STAGES * STAGE_BYTES;

constexpr index_t K_TILES = ceil_div(K, BK);

// Tiles of C along m and n as the kernel reads them: constants where the size is one, else from the launch's size.
__device__ __forceinline__ index_t tiles_m(const dims& d) { return ceil_div(d.m(), BM); }
__device__ __forceinline__ index_t tiles_n(const dims& d) { return ceil_div(d.n(), BN); }

// The same counts when compiling, for what is laid out by them: stream-K's runs of k tiles (k_shares below) and the
// bulk copies' packed tiles (bulk_pack.cuh). A run-time-shape variant has neither (static_assert above); split-K's
// workspace takes the count at run time (tiles_m(d) * tiles_n(d)).
#if JG_RUNTIME_DIM == 0
constexpr index_t TILES_M = ceil_div(M, BM);
constexpr index_t TILES_N = ceil_div(N, BN);
constexpr long long WORKSPACE_TILES = (long long)TILES_M * TILES_N;
#else
constexpr long long WORKSPACE_TILES = 0;
#endif

// Tiles shared by several blocks (split-K, stream-K), and how their partial sums meet: common/jg_split_k.cuh.
typedef shared_k_tiles<WORKSPACE_TILES, K_TILES, SPLITS, STREAM_BLOCKS, FN, FM, THREADS> k_shares;
typedef k_shares::parts tile_parts;

// ---- the Tensor Core instruction ----

// d += a * b for one 16 x 8 tile of the MMA (rows: n, columns: m).
__device__ __forceinline__ void mma_tile(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
    if constexpr (TF32) {
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else if constexpr (BF16) {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    } else {
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
            "{%0, %1, %2, %3};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
}

// ---- global -> shared copies ----

// The global offset of chunk (row, chunk) of the stage whose tile starts at (mn0, k0) — mn0 is m0 for A and n0 for
// B — and how many of its CH elements exist (0 past the matrix: the chunk is zero-filled).
template <bool IS_A>
__device__ __forceinline__ void chunk_source(const dims& d, index_t mn0, index_t k0, int row, int chunk,
                                             index_t& offset, int& valid) {
    constexpr bool KCONTIG = IS_A ? A_KCONTIG : B_KCONTIG;
    constexpr int BMN = IS_A ? BM : BN;
    const index_t mn_size = IS_A ? d.m() : d.n();                  // op(A)'s rows, op(B)'s columns
    const bool mn_whole = IS_A ? d.m_whole(BMN) : d.n_whole(BMN);  // no tile runs past them
    // Tile row r and the chunk's first element, in (mn, k).
    const index_t mn = KCONTIG ? mn0 + row : mn0 + (index_t)chunk * CH;
    const index_t k = KCONTIG ? k0 + (index_t)chunk * CH : k0 + row;
    // Along the chunk: k when k-contiguous, else mn. Across: the tile row.
    const bool row_inside = KCONTIG ? (mn_whole || mn < mn_size) : (K % BK == 0 || k < K);
    const bool run_whole = KCONTIG ? K % BK == 0 : mn_whole;
    // Branches rather than one chain of ?: — mn_whole is a constant only once dims is inlined, and as a select
    // chain the run's clamp came out as other code than with the constant tests it replaced (a TF32 kernel of
    // 4-byte aligned operands went from 242 registers to 255 and spilled); this way it is the same.
    if (!row_inside) {
        valid = 0;
    } else if (run_whole) {
        valid = CH;
    } else {
        const index_t run_left = KCONTIG ? K - k : mn_size - mn;
        valid = run_left >= CH ? CH : run_left > 0 ? (int)run_left : 0;
    }
    offset = valid == 0 ? 0 : (IS_A ? d.a_offset(mn, k) : d.b_offset(k, mn));
}

template <bool IS_A> struct copy_plan {
    static constexpr int CHUNKS = IS_A ? a_layout::CHUNKS : b_layout::CHUNKS;
    static constexpr int ITERS = (CHUNKS + THREADS - 1) / THREADS;  // chunks per thread
    static constexpr int ALIGN = IS_A ? JG_ALIGN_A : JG_ALIGN_B;
    static constexpr bool ASYNC = ALIGN >= 4;          // cp.async moves 4, 8 or 16 bytes
    static constexpr int WIDTH = ALIGN >= 16 ? 16 : ALIGN;  // bytes per cp.async
    static constexpr int ROW_CHUNKS = IS_A ? a_layout::ROW_CHUNKS : b_layout::ROW_CHUNKS;
};

// Whether a copy can hold only part of its WIDTH bytes: when the operand's contiguous extent (k when k-contiguous,
// else m or n) is not a whole number of copies. Chunks start at multiples of CH from tiles that start at multiples of
// 16, so otherwise every copy is whole or wholly past the edge. A constant except along a variant's run-time size.
template <bool IS_A>
__device__ __forceinline__ bool copies_may_be_partial(const dims& d) {
    constexpr bool KCONTIG = IS_A ? A_KCONTIG : B_KCONTIG;
    constexpr int ELEMS = copy_plan<IS_A>::WIDTH / ES;
    if constexpr (ELEMS == 1) return false;
    else return (KCONTIG ? K : IS_A ? d.m() : d.n()) % ELEMS != 0;
}

// One copy of WIDTH bytes into shared memory, of which `bytes` (0 to WIDTH, whole elements) exist at src; the rest
// is zero-filled. A partial copy is made with plain loads and a shared store instead of cp.async: cp.async's
// zero-filling form (SASS LDGSTS.ZFILL, the count of missing bytes folded into the address) is seen by
// compute-sanitizer as a read of all WIDTH bytes, which for the operand's last elements runs past its allocation and
// is reported as out of bounds. The plain stores complete before the barrier that publishes the stage, as the
// cp.async copies do before their wait.
template <int WIDTH>
__device__ __forceinline__ void copy_run(unsigned dst, const void* src, int bytes, bool may_be_partial) {
    if (!may_be_partial || bytes == WIDTH || bytes == 0) {
        cp_async<WIDTH>(dst, src, bytes);
        return;
    }
    unsigned words[WIDTH / 4];
    if constexpr (ES == 2) {
        const unsigned short* e = static_cast<const unsigned short*>(src);
#pragma unroll
        for (int w = 0; w < WIDTH / 4; ++w) {
            const unsigned lo = 4 * w < bytes ? e[2 * w] : 0u, hi = 4 * w + 2 < bytes ? e[2 * w + 1] : 0u;
            words[w] = lo | hi << 16;
        }
    } else {
        const unsigned* e = static_cast<const unsigned*>(src);
#pragma unroll
        for (int w = 0; w < WIDTH / 4; ++w) words[w] = 4 * w < bytes ? e[w] : 0u;
    }
#pragma unroll
    for (int w = 0; w < WIDTH / 4; ++w) asm volatile("st.shared.b32 [%0], %1;" ::"r"(dst + 4 * w), "r"(words[w]) : "memory");
}

template <bool IS_A>
__device__ __forceinline__ unsigned tile_chunk_offset(int row, int chunk) {
    if constexpr (IS_A) return a_layout::chunk_offset(row, chunk);
    else return b_layout::chunk_offset(row, chunk);
}

// Issues the cp.async copies of this thread's chunks of one stage.
template <bool IS_A, typename T>
__device__ __forceinline__ void copy_stage_async(const dims& d, const T* __restrict__ X, unsigned tile, index_t mn0,
                                                 index_t k0, int tid) {
    typedef copy_plan<IS_A> plan;
    constexpr int PER_CHUNK = 16 / plan::WIDTH, ELEMS = plan::WIDTH / ES;
    const bool partial = copies_may_be_partial<IS_A>(d);
#pragma unroll
    for (int i = 0; i < plan::ITERS; ++i) {
        const int q = tid + i * THREADS;
        if (plan::CHUNKS % THREADS != 0 && q >= plan::CHUNKS) break;
        const int row = q / plan::ROW_CHUNKS, chunk = q % plan::ROW_CHUNKS;
        index_t offset;
        int valid;
        chunk_source<IS_A>(d, mn0, k0, row, chunk, offset, valid);
        const unsigned dst = tile + tile_chunk_offset<IS_A>(row, chunk);
#pragma unroll
        for (int j = 0; j < PER_CHUNK; ++j) {
            const int left = valid - j * ELEMS;
            const int bytes = (left >= ELEMS ? ELEMS : left > 0 ? left : 0) * ES;
            copy_run<plan::WIDTH>(dst + j * plan::WIDTH,
                                  bytes > 0 ? (const void*)(X + offset + j * ELEMS) : (const void*)X, bytes, partial);
        }
    }
}

// The cp.async copies of this thread, worked out once before the main loop (copy_stage_async would redo the index
// arithmetic and edge tests of every chunk in every stage, several times the instructions of the math it feeds).
// In a k tile that lies wholly inside K (all of them, or all but the last when K % BK != 0) a chunk's source moves
// by the same stride from one tile to the next and its count of existing elements does not change: rows past m or n
// stay past. Chunks with nothing to copy keep offset 0, so their (unread) source stays inside the operand.
template <bool IS_A>
struct chunk_plan {
    index_t offset[copy_plan<IS_A>::ITERS];  // from the element at (mn 0, k0) of the k tile
    int bytes[copy_plan<IS_A>::ITERS];       // bytes of the chunk that exist, 0 to 16
};

template <bool IS_A>
__device__ __forceinline__ void plan_chunks(const dims& d, index_t mn0, int tid, chunk_plan<IS_A>& plan) {
    typedef copy_plan<IS_A> copies;
#pragma unroll
    for (int i = 0; i < copies::ITERS; ++i) {
        const int q = tid + i * THREADS;
        int valid = 0;
        plan.offset[i] = 0;
        if (copies::CHUNKS % THREADS == 0 || q < copies::CHUNKS)  // k0 = 0 stands for every whole k tile
            chunk_source<IS_A>(d, mn0, 0, q / copies::ROW_CHUNKS, q % copies::ROW_CHUNKS, plan.offset[i], valid);
        plan.bytes[i] = valid * ES;
    }
}

// copy_stage_async for a k tile wholly inside K, from the plan: one address and one cp.async per copy.
template <bool IS_A, typename T>
__device__ __forceinline__ void copy_stage_planned(const dims& d, const T* __restrict__ X, unsigned tile, index_t k0,
                                                   int tid, const chunk_plan<IS_A>& plan) {
    typedef copy_plan<IS_A> copies;
    constexpr int PER_CHUNK = 16 / copies::WIDTH, ELEMS = copies::WIDTH / ES;
    const T* const stage = X + (IS_A ? d.a_offset(0, k0) : d.b_offset(k0, 0));
    // Along k a whole k tile has only whole copies.
    const bool partial = !(IS_A ? A_KCONTIG : B_KCONTIG) && copies_may_be_partial<IS_A>(d);
#pragma unroll
    for (int i = 0; i < copies::ITERS; ++i) {
        const int q = tid + i * THREADS;
        if (copies::CHUNKS % THREADS != 0 && q >= copies::CHUNKS) break;
        const unsigned dst = tile + tile_chunk_offset<IS_A>(q / copies::ROW_CHUNKS, q % copies::ROW_CHUNKS);
#pragma unroll
        for (int j = 0; j < PER_CHUNK; ++j) {
            const int left = plan.bytes[i] - j * copies::WIDTH;
            const int bytes = PER_CHUNK == 1 ? left : left >= copies::WIDTH ? copies::WIDTH : left > 0 ? left : 0;
            copy_run<copies::WIDTH>(dst + j * copies::WIDTH, stage + plan.offset[i] + j * ELEMS, bytes, partial);
        }
    }
}

// The register path for 2-byte aligned 16-bit operands: this thread's chunks of one stage, loaded element by
// element into registers (issued before the math of the current stage) and stored to shared memory after it.
template <bool IS_A>
struct staged_chunks {
    uint4 chunk[copy_plan<IS_A>::ITERS];
};

template <bool IS_A, typename T>
__device__ __forceinline__ void fetch_stage(const dims& d, const T* __restrict__ X, index_t mn0, index_t k0, int tid,
                                            staged_chunks<IS_A>& staged) {
    typedef copy_plan<IS_A> plan;
    static_assert(sizeof(T) == 2, "only 16-bit operands can be 2-byte aligned");
    const unsigned short* __restrict__ bits = reinterpret_cast<const unsigned short*>(X);
#pragma unroll
    for (int i = 0; i < plan::ITERS; ++i) {
        const int q = tid + i * THREADS;
        unsigned short e[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        if (plan::CHUNKS % THREADS == 0 || q < plan::CHUNKS) {
            index_t offset;
            int valid;
            chunk_source<IS_A>(d, mn0, k0, q / plan::ROW_CHUNKS, q % plan::ROW_CHUNKS, offset, valid);
            load_read_only_elements(bits + offset, valid, e);
        }
        staged.chunk[i] = make_uint4(e[0] | (unsigned)e[1] << 16, e[2] | (unsigned)e[3] << 16,
                                     e[4] | (unsigned)e[5] << 16, e[6] | (unsigned)e[7] << 16);
    }
}

template <bool IS_A>
__device__ __forceinline__ void store_stage(unsigned char* tile, int tid, const staged_chunks<IS_A>& staged) {
    typedef copy_plan<IS_A> plan;
#pragma unroll
    for (int i = 0; i < plan::ITERS; ++i) {
        const int q = tid + i * THREADS;
        if (plan::CHUNKS % THREADS != 0 && q >= plan::CHUNKS) break;
        *reinterpret_cast<uint4*>(tile + tile_chunk_offset<IS_A>(q / plan::ROW_CHUNKS, q % plan::ROW_CHUNKS)) =
            staged.chunk[i];
    }
}

// ---- shared -> registers ----

// The MMA's row operand (16 n x KSTEP k) of row block i, from the B tile.
__device__ __forceinline__ void load_row_fragment(unsigned tile, int ks, int n_warp, int i, int lane,
                                                  unsigned (&r)[4]) {
    const int j8 = lane >> 3, r8 = lane & 7;
    if constexpr (B_KCONTIG) {  // rows n, k contiguous: the fragment as stored
        ldmatrix_x4(tile + b_layout::chunk_offset(n_warp + i * 16 + (j8 & 1) * 8 + r8, ks * KSTEP / CH + (j8 >> 1)), r);
    } else if constexpr (!TF32) {  // rows k, n contiguous: transposed on the way
        ldmatrix_x4_trans(tile + b_layout::chunk_offset(ks * 16 + (j8 >> 1) * 8 + r8, (n_warp + i * 16 + (j8 & 1) * 8) / CH),
                          r);
    } else {
        const int g = lane >> 2, t4 = lane & 3, n = n_warp + i * 16 + g, k = ks * 8 + t4;
        r[0] = load_shared_u32(tile + b_layout::element_offset(k, n));
        r[1] = load_shared_u32(tile + b_layout::element_offset(k, n + 8));
        r[2] = load_shared_u32(tile + b_layout::element_offset(k + 4, n));
        r[3] = load_shared_u32(tile + b_layout::element_offset(k + 4, n + 8));
    }
}

// The MMA's column operands (KSTEP k x 8 m) of column blocks 2 jj and 2 jj + 1, from the A tile.
__device__ __forceinline__ void load_column_fragments(unsigned tile, int ks, int m_warp, int jj, int lane,
                                                      unsigned (&q0)[2], unsigned (&q1)[2]) {
    const int j8 = lane >> 3, r8 = lane & 7;
    unsigned r[4];
    if constexpr (A_KCONTIG) {  // rows m, k contiguous
        ldmatrix_x4(tile + a_layout::chunk_offset(m_warp + jj * 16 + (j8 >> 1) * 8 + r8, ks * KSTEP / CH + (j8 & 1)), r);
    } else if constexpr (!TF32) {  // rows k, m contiguous
        ldmatrix_x4_trans(tile + a_layout::chunk_offset(ks * 16 + (j8 & 1) * 8 + r8, (m_warp + jj * 16 + (j8 >> 1) * 8) / CH),
                          r);
    } else {
        const int g = lane >> 2, t4 = lane & 3, m = m_warp + jj * 16 + g, k = ks * 8 + t4;
        r[0] = load_shared_u32(tile + a_layout::element_offset(k, m));
        r[1] = load_shared_u32(tile + a_layout::element_offset(k + 4, m));
        r[2] = load_shared_u32(tile + a_layout::element_offset(k, m + 8));
        r[3] = load_shared_u32(tile + a_layout::element_offset(k + 4, m + 8));
    }
    q0[0] = r[0];
    q0[1] = r[1];
    q1[0] = r[2];
    q1[1] = r[3];
}

template <int COUNT>
__device__ __forceinline__ void round_to_tf32(unsigned (&x)[COUNT]) {
    if constexpr (TF32) {
#pragma unroll
        for (int i = 0; i < COUNT; ++i) x[i] = to_tf32(__uint_as_float(x[i]));
    }
}

// The operand fragments of one k step of the warp's tile.
struct fragments {
    unsigned rows[FN][4];
    unsigned cols[FM][2];
};

__device__ __forceinline__ void load_fragments(unsigned a_tile, unsigned b_tile, int ks, int m_warp, int n_warp,
                                               int lane, fragments& f) {
#pragma unroll
    for (int i = 0; i < FN; ++i) {
        load_row_fragment(b_tile, ks, n_warp, i, lane, f.rows[i]);
        round_to_tf32(f.rows[i]);
    }
#pragma unroll
    for (int jj = 0; jj < FM / 2; ++jj) {
        load_column_fragments(a_tile, ks, m_warp, jj, lane, f.cols[2 * jj], f.cols[2 * jj + 1]);
        round_to_tf32(f.cols[2 * jj]);
        round_to_tf32(f.cols[2 * jj + 1]);
    }
}

// acc += the stage's A tile times its B tile, for this warp's tile. The fragments of k step ks + 1 are loaded
// before the mma of step ks are issued (two register buffers), so shared-memory latency overlaps the Tensor Cores:
// the wrappers are volatile asm, which the compiler keeps in program order.
// `meanwhile` runs once the first fragments are asked for: the caller issues the next stage's copies there, in the
// shadow of that shared-memory latency rather than before it.
template <typename Meanwhile>
__device__ __forceinline__ void multiply_stage(unsigned a_tile, unsigned b_tile, int m_warp, int n_warp, int lane,
                                               float (&acc)[FN][FM][4], Meanwhile meanwhile) {
    constexpr int STEPS = BK / KSTEP;
    fragments f[2];
    load_fragments(a_tile, b_tile, 0, m_warp, n_warp, lane, f[0]);
    meanwhile();
#pragma unroll
    for (int ks = 0; ks < STEPS; ++ks) {
        if (ks + 1 < STEPS) load_fragments(a_tile, b_tile, ks + 1, m_warp, n_warp, lane, f[(ks + 1) & 1]);
        const fragments& now = f[ks & 1];
#pragma unroll
        for (int i = 0; i < FN; ++i)
#pragma unroll
            for (int j = 0; j < FM; ++j) mma_tile(acc[i][j], now.rows[i], now.cols[j]);
    }
}

// The four sums of accumulator fragment (i, j) as one vector, as the epilogue and the partial sums take them.
__device__ __forceinline__ float4 fragment_sums(const float (&acc)[FN][FM][4], int i, int j) {
    return make_float4(acc[i][j][0], acc[i][j][1], acc[i][j][2], acc[i][j][3]);
}

// The epilogue of this thread's fragments, a row block at a time: fragment_row(i, v) gives the four sums of
// fragment (i, j) in v[j] (n rows i*16 + g and + 8, m columns j*8 + 2*t4 and + 1); the pairs are consecutive in m,
// one column of C each.
template <typename FragmentRow>
__device__ __forceinline__ void store_tile(const dims& d, c_t* C, index_t m0, index_t n0, int m_warp, int n_warp,
                                           int lane, float alpha, float beta, FragmentRow fragment_row) {
    const int g = lane >> 2, t4 = lane & 3;
#pragma unroll
    for (int i = 0; i < FN; ++i) {
        float4 row[FM];
        fragment_row(i, row);
#pragma unroll
        for (int j = 0; j < FM; ++j) {
            const index_t m = m0 + m_warp + j * 8 + 2 * t4;
            const int valid = d.m_whole(BM) ? 2 : (int)(d.m() - m >= 2 ? 2 : d.m() - m > 0 ? d.m() - m : 0);
            if (valid == 0) continue;
            const float4 v = row[j];
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const index_t n = n0 + n_warp + i * 16 + half * 8 + g;
                if (!d.n_whole(BN) && n >= d.n()) continue;
                const float pair[2] = {half == 0 ? v.x : v.z, half == 0 ? v.y : v.w};
                epilogue_store<2>(C, d.c_offset(m, n), pair, valid, alpha, beta);
            }
        }
    }
}

}  // namespace mma_sync
}  // namespace jg

namespace jg {
namespace mma_sync {

// One block's share of one tile of C: its k tiles kt_first + [0, k_tiles), then the epilogue, or, when other blocks
// share the tile, its partial sums met with theirs (common/jg_split_k.cuh: the last to arrive runs the epilogue).
__device__ __forceinline__ void compute_tile(const dims& d, const a_t* __restrict__ A, const b_t* __restrict__ B,
                                             c_t* C, float alpha, float beta, void* workspace, unsigned char* smem,
                                             const tile_parts& parts, index_t kt_first, index_t k_tiles) {
    const unsigned smem_base = shared_address(smem);
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int m_warp = (warp % WM) * WTM, n_warp = (warp / WM) * WTN;
    index_t tile_m, tile_n;
    tile_of_block<MMA_SYNC_GROUP>((index_t)parts.tile, tiles_m(d), tiles_n(d), tile_m, tile_n);
    const index_t m0 = tile_m * BM, n0 = tile_n * BN;

    float acc[FN][FM][4];
#pragma unroll
    for (int i = 0; i < FN; ++i)
#pragma unroll
        for (int j = 0; j < FM; ++j)
#pragma unroll
            for (int v = 0; v < 4; ++v) acc[i][j][v] = 0.0f;

    staged_chunks<true> staged_a;
    staged_chunks<false> staged_b;
    chunk_plan<true> plan_a;
    chunk_plan<false> plan_b;
    if constexpr (copy_plan<true>::ASYNC && !BULK) plan_chunks<true>(d, m0, tid, plan_a);
    if constexpr (copy_plan<false>::ASYNC && !BULK) plan_chunks<false>(d, n0, tid, plan_b);
    // Under BULK, slot s fills when its barrier's phase completes: the n-th k tile through the slot (n from 0)
    // completes phase n, so k tile kt waits for parity (kt / STAGES) & 1.
    const unsigned barriers = smem_base + BARRIERS_OFFSET;
    if constexpr (BULK) {
        if (tid == 0) {
#pragma unroll
            for (int s = 0; s < STAGES; ++s) bulk::barrier_init(barriers + 8 * s);
            bulk::barrier_init_fence();
        }
        __syncthreads();
    }
    // Starts the copies of the block's k tile `kt` into stage slot `slot`: one bulk copy per operand tile, asked for
    // by thread 0 (BULK); else cp.async (from the plans, but for a last k tile that K ends inside), or loads into
    // registers (finish_stage stores them).
    auto start_stage = [&](index_t kt, int slot) {
        const unsigned a_tile = smem_base + slot * STAGE_BYTES, b_tile = a_tile + a_layout::BYTES;
        if constexpr (BULK) {
            if (tid == 0) {
                // The packed operands hold the k tiles of each row of tiles one after another (jg_pack_tiles).
                const long long k_tile = (long long)(kt_first + kt);
                const unsigned barrier = barriers + 8 * slot;
                bulk::arrive_expect(barrier, (unsigned)STAGE_BYTES);
                bulk::copy(a_tile, A + ((long long)tile_m * K_TILES + k_tile) * (a_layout::BYTES / ES),
                           (unsigned)a_layout::BYTES, barrier);
                bulk::copy(b_tile, B + ((long long)tile_n * K_TILES + k_tile) * (b_layout::BYTES / ES),
                           (unsigned)b_layout::BYTES, barrier);
            }
            return;
        }
        const index_t k0 = (kt_first + kt) * BK;
        const bool whole = K % BK == 0 || kt_first + kt < K_TILES - 1;
        if constexpr (copy_plan<true>::ASYNC) {
            if (whole) copy_stage_planned<true>(d, A, a_tile, k0, tid, plan_a);
            else copy_stage_async<true>(d, A, a_tile, m0, k0, tid);
        } else {
            fetch_stage<true>(d, A, m0, k0, tid, staged_a);
        }
        if constexpr (copy_plan<false>::ASYNC) {
            if (whole) copy_stage_planned<false>(d, B, b_tile, k0, tid, plan_b);
            else copy_stage_async<false>(d, B, b_tile, n0, k0, tid);
        } else {
            fetch_stage<false>(d, B, n0, k0, tid, staged_b);
        }
    };
    auto finish_stage = [&](int slot) {
        if constexpr (BULK) return;
        unsigned char* const a_tile = smem + slot * STAGE_BYTES;
        if constexpr (!copy_plan<true>::ASYNC) store_stage<true>(a_tile, tid, staged_a);
        if constexpr (!copy_plan<false>::ASYNC) store_stage<false>(a_tile + a_layout::BYTES, tid, staged_b);
    };

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < k_tiles) {
            start_stage(s, s);
            finish_stage(s);
        }
        cp_async_commit();  // one group per stage, empty or not, keeps the count that cp_async_wait relies on
    }

#pragma unroll 1
    for (index_t kt = 0; kt < k_tiles; ++kt) {
        if constexpr (BULK) bulk::wait(barriers + 8 * (int)(kt % STAGES), (unsigned)(kt / STAGES) & 1u);
        else cp_async_wait<STAGES - 2>();  // this thread's copies of stage kt have landed
        __syncthreads();  // everyone's have; and everyone is done with stage kt - 1's slot, which the next copies fill
        const index_t next = kt + STAGES - 1;
        const int next_slot = (int)(next % STAGES);
        const unsigned a_tile = smem_base + (int)(kt % STAGES) * STAGE_BYTES;
        multiply_stage(a_tile, a_tile + a_layout::BYTES, m_warp, n_warp, lane, acc, [&] {
            if (next < k_tiles) start_stage(next, next_slot);
            cp_async_commit();
        });
        if (next < k_tiles) finish_stage(next_slot);
    }
    if constexpr (SPLITS > 1 || STREAM_BLOCKS > 0) {
        if (parts.count > 1) {
            const auto own = [&](int i, int j) { return fragment_sums(acc, i, j); };
            k_shares::partials partials;
            if (!k_shares::arrive_last(workspace, (long long)tiles_m(d) * tiles_n(d), smem, parts, tid, own, partials))
                return;
            store_tile(d, C, m0, n0, m_warp, n_warp, lane, alpha, beta,
                       [&](int i, float4(&row)[FM]) { partials.sum_row(i, row); });
            return;
        }
    }
    store_tile(d, C, m0, n0, m_warp, n_warp, lane, alpha, beta, [&](int i, float4(&row)[FM]) {
#pragma unroll
        for (int j = 0; j < FM; ++j) row[j] = fragment_sums(acc, i, j);
    });
}

}  // namespace mma_sync
}  // namespace jg

// The kernel proper, on its operands; the extern "C" entry below unpacks jg_args into it.
static __device__ __forceinline__ void jg_mma_sync_body(const jg::dims& d, const jg::a_t* __restrict__ A,
    const jg::b_t* __restrict__ B, jg::c_t* C, float alpha, float beta, void* workspace) {
    using namespace jg;
    using namespace jg::mma_sync;
    // Dynamic shared memory: STAGES x (A tile, B tile); the host sizes it and opts in above 48 KB.
    extern __shared__ uint4 shared_storage[];
    unsigned char* const smem = reinterpret_cast<unsigned char*>(shared_storage);
#if __CUDA_ARCH__ >= 900
    // Launched as the pack's programmatic dependent (common/jg_pack.cuh), this block may have started before the packed
    // operands and zeroed counters are written: wait for them before anything reads them. A no-op in a launch
    // without that dependency.
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
    if constexpr (STREAM_BLOCKS > 0) {
        const long long end = k_shares::stream_begin((long long)blockIdx.x + 1);
#pragma unroll 1
        for (long long unit = k_shares::stream_begin(blockIdx.x); unit < end;) {
            const long long tile = unit / K_TILES;
            const index_t kt_first = (index_t)(unit - tile * K_TILES);
            const index_t k_tiles = (index_t)(K_TILES - kt_first < end - unit ? K_TILES - kt_first : end - unit);
            __syncthreads();  // the previous tile's last reads of shared memory (its arrival flag) are done
            compute_tile(d, A, B, C, alpha, beta, workspace, smem, k_shares::stream_parts(tile, blockIdx.x),
                         kt_first, k_tiles);
            unit += k_tiles;
        }
    } else {
        // The SPLITS blocks of one tile are consecutive, so they run at about the same time and the last of them
        // rarely waits long for the others' partial sums.
        const index_t tile = SPLITS == 1 ? (index_t)blockIdx.x : (index_t)(blockIdx.x / SPLITS);
        const int split = SPLITS == 1 ? 0 : (int)(blockIdx.x % SPLITS);
        // This block's k tiles, kt_first + [0, k_tiles): the shares differ by at most one tile (the host sees to
        // SPLITS <= K_TILES, so none is empty).
        const index_t kt_first = SPLITS == 1 ? 0 : (index_t)((long long)split * K_TILES / SPLITS);
        const index_t k_tiles =
            SPLITS == 1 ? K_TILES : (index_t)((long long)(split + 1) * K_TILES / SPLITS) - kt_first;
        compute_tile(d, A, B, C, alpha, beta, workspace, smem, k_shares::split_parts(tile, split), kt_first, k_tiles);
    }
}

extern "C" __global__ void __launch_bounds__(jg::mma_sync::THREADS)
    jg_mma_sync(const __grid_constant__ jg_args args) {
    using namespace jg;
    const dims d{args};  // every GEMM of a batch has the same sizes
    // A batch's GEMMs neither split K nor pack operands (the host refuses both), so none needs a workspace of its own.
    for_each_gemm<a_t, b_t, c_t>(args, [&](const a_t* a, const b_t* b, c_t* c) {
        jg_mma_sync_body(d, a, b, c, args.alpha, args.beta, args.workspace);
    });
}

#include "mma_sync/bulk_pack.cuh"
