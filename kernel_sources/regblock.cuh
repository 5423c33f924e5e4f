// regblock.cuh — register-blocked SGEMM: a block computes a BM x BN tile of C, each thread a TM x TN
// sub-tile held in registers as an outer product, over BK-deep tiles of op(A) and op(B) staged in shared memory.
//
// Per k step a thread reads TM + TN values from shared memory and does TM * TN FMAs, so shared-memory traffic per
// FMA falls by TM*TN/(TM+TN) against the tiled family. With two stages, the next tile's global loads are issued
// into registers before this tile's math and stored to the other buffer after it, which hides their latency.
//
// Layout in shared memory: As[k][m] and Bs[k][n], both with m / n contiguous, so a thread's TM (TN) values are
// read as 16-byte vectors. A thread's rows are split into runs of four spread BM / (TM / 4) apart (and likewise
// columns), so the eight threads of each quarter-warp read one contiguous 128-byte line: no bank conflicts. Rows
// carry a 4-float pad: it keeps them 16-byte aligned and sends the transposing stores of consecutive k rows to
// other banks.
//
// Split-K (RB_SPLITS > 1) gives each tile of C to several consecutive blocks, each over its share of the k tiles,
// for fp32 problems with too few tiles to fill the SMs and a long K (small m or n); their partial sums meet in the
// workspace and the last block to arrive adds them in split order (common/jg_split_k.cuh), so results do not depend
// on timing. A thread's partial sums move as float4 runs of four of its rows: TM is a multiple of 4.
//
// Sizes are read through jg::dims: in a run-time-shape variant m or n (and the leading dimensions) come from jg_args,
// and every bounds test along that dimension uses the run-time size. Vector widths depend on JG_ALIGN_* only.
#pragma once

#include "common/jg_args.cuh"
#include "common/jg_batch.cuh"
#include "common/jg_epilogue.cuh"
#include "common/jg_memory.cuh"
#include "common/jg_problem.cuh"
#include "common/jg_split_k.cuh"

// ---- Tuning knobs ----
#ifndef RB_BM
#define RB_BM 128    // rows of C (m) computed by one block
#endif
#ifndef RB_BN
#define RB_BN 128    // columns of C (n) computed by one block
#endif
#ifndef RB_BK
#define RB_BK 8      // depth (k) of one shared-memory tile
#endif
#ifndef RB_TM
#define RB_TM 8      // rows of C per thread (register tile)
#endif
#ifndef RB_TN
#define RB_TN 8      // columns of C per thread (register tile)
#endif
#ifndef RB_VEC
#define RB_VEC 4     // widest global load in floats (1, 2 or 4); narrowed where the operand's alignment needs it
#endif
#ifndef RB_STAGES
#define RB_STAGES 2  // shared-memory buffers: 2 overlaps the next tile's loads with this tile's math, 1 does not
#endif
#ifndef RB_GROUP
#define RB_GROUP 8   // tile rows per rasterization group (see tile_of_block)
#endif
#ifndef RB_SPLITS
#define RB_SPLITS 1  // blocks per tile of C, each over its own share of K (split-K: common/jg_split_k.cuh)
#endif

namespace jg {
namespace regblock {
constexpr int BM = RB_BM, BN = RB_BN, BK = RB_BK, TM = RB_TM, TN = RB_TN, STAGES = RB_STAGES, SPLITS = RB_SPLITS;
constexpr int THREADS = (BM / TM) * (BN / TN);
constexpr int PAD = 4;
constexpr int AS_STRIDE = BM + PAD;
constexpr int BS_STRIDE = BN + PAD;
constexpr int AS_SIZE = BK * AS_STRIDE;
constexpr int BS_SIZE = BK * BS_STRIDE;

// Global load widths actually used: the knob, narrowed to the operand's alignment.
constexpr int VA = run_width(RB_VEC, ALIGN_A_ELEMS);
constexpr int VB = run_width(RB_VEC, ALIGN_B_ELEMS);
// Runs along the contiguous dimension of each operand, and how many each thread loads per tile.
constexpr int A_RUNS = BM * BK / VA;
constexpr int B_RUNS = BN * BK / VB;
constexpr int A_LOADS = A_RUNS / THREADS;
constexpr int B_LOADS = B_RUNS / THREADS;

// The register tile as runs of TMV (TNV) elements, CM (CN) of them, spaced M_STRIDE (N_STRIDE) apart.
constexpr int TMV = TM < 4 ? TM : 4;
constexpr int TNV = TN < 4 ? TN : 4;
constexpr int CM = TM / TMV;
constexpr int CN = TN / TNV;
constexpr int M_STRIDE = BM / CM;
constexpr int N_STRIDE = BN / CN;

// Split-K's partial sums: per thread, a float4 run (c) of four rows of each of its TN columns (j). The tile count
// comes at run time (the workspace's counters: one per tile of the call), so variants split too.
typedef shared_k_tiles<0, 0, SPLITS, 0, TN, CM, THREADS> k_shares;

constexpr index_t K_TILES = ceil_div(K, BK);  // k is never a run-time size; m and n may be (tiles counted from dims)

// The last line of defence; tuner/families/regblock/regblock_config.cpp states the same rules for pruning before a compile.
static_assert(SPLITS >= 1 && SPLITS <= 16, "1 to 16 blocks per tile");
static_assert(SPLITS == 1 || (TM % 4 == 0 && SPLITS <= K_TILES),
              "split-K moves partial sums in runs of four rows (TM a multiple of 4), and every split has a k tile");
static_assert(SPLITS == 1 || BATCH == 1, "a batch's GEMMs do not split K (the host refuses it)");
static_assert(TM == 1 || TM == 2 || TM % 4 == 0, "TM is 1, 2 or a multiple of 4");
static_assert(TN == 1 || TN == 2 || TN % 4 == 0, "TN is 1, 2 or a multiple of 4");
static_assert(BM % TM == 0 && BN % TN == 0, "the thread tile divides the block tile");
static_assert(THREADS >= 32 && THREADS <= 1024, "32 to 1024 threads per block");
static_assert(RB_VEC == 1 || RB_VEC == 2 || RB_VEC == 4, "RB_VEC is 1, 2 or 4");
static_assert(BM % RB_VEC == 0 && BN % RB_VEC == 0 && BK % RB_VEC == 0, "RB_VEC divides BM, BN and BK");
static_assert(A_RUNS % THREADS == 0 && B_RUNS % THREADS == 0 && A_LOADS >= 1 && B_LOADS >= 1,
              "every thread loads the same whole number of runs of each tile");
static_assert(STAGES == 1 || STAGES == 2, "one or two shared-memory stages");
static_assert(BM <= 256 && BN <= 256 && BK <= 64, "tile limits assumed by the host's choice of index width");
static_assert(JG_A_TYPE == JG_DTYPE_F32 && JG_B_TYPE == JG_DTYPE_F32 && JG_C_TYPE == JG_DTYPE_F32,
              "the register-blocked family computes fp32 GEMMs only");

// How many of the V elements from `start` on lie before `size` (0 to V). `whole`: the dimension is a whole number of
// tiles, so no run of a tile crosses the end; where that is a constant the check folds away.
//
// Callers read the sizes and `whole` flags from dims into locals once and test those. Where a size is a constant, the
// tests fold either way; written with dims calls inside each ?: and &&, though, they reach NVVM's optimizer as
// branches, and the code for sizes that are not whole tiles came out further from what the constants gave before dims.
template <int V>
__device__ __forceinline__ int run_in_bounds(index_t start, index_t size, bool whole) {
    return whole ? V : (int)(size - start < V ? (size - start > 0 ? size - start : 0) : V);
}

// Loads the A tile at (m0, k0) into registers: run i of this thread is r[i][0..VA).
__device__ __forceinline__ void load_a(const dims& d, const float* __restrict__ A, index_t m0, index_t k0, int tid,
                                       float (&r)[A_LOADS][VA]) {
    const index_t size_m = d.m(), size_k = d.k();
    const bool m_whole = d.m_whole(BM), k_whole = size_k % BK == 0;
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
        const int run = tid + i * THREADS;
        if constexpr (!TRANS_A) {  // contiguous along m
            const index_t gm = m0 + (run % (BM / VA)) * VA;
            const index_t gk = k0 + run / (BM / VA);
            const int valid = (!k_whole && gk >= size_k) ? 0 : run_in_bounds<VA>(gm, size_m, m_whole);
            if (valid > 0) load_run<VA, true>(A + d.a_offset(gm, gk), valid, r[i]);
            else
#pragma unroll
                for (int v = 0; v < VA; ++v) r[i][v] = 0.0f;
        } else {                   // contiguous along k
            const index_t gk = k0 + (run % (BK / VA)) * VA;
            const index_t gm = m0 + run / (BK / VA);
            const int valid = (!m_whole && gm >= size_m) ? 0 : run_in_bounds<VA>(gk, size_k, k_whole);
            if (valid > 0) load_run<VA, true>(A + d.a_offset(gm, gk), valid, r[i]);
            else
#pragma unroll
                for (int v = 0; v < VA; ++v) r[i][v] = 0.0f;
        }
    }
}

// Loads the B tile at (k0, n0) into registers.
__device__ __forceinline__ void load_b(const dims& d, const float* __restrict__ B, index_t k0, index_t n0, int tid,
                                       float (&r)[B_LOADS][VB]) {
    const index_t size_n = d.n(), size_k = d.k();
    const bool n_whole = d.n_whole(BN), k_whole = size_k % BK == 0;
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
        const int run = tid + i * THREADS;
        if constexpr (TRANS_B) {   // contiguous along n
            const index_t gn = n0 + (run % (BN / VB)) * VB;
            const index_t gk = k0 + run / (BN / VB);
            const int valid = (!k_whole && gk >= size_k) ? 0 : run_in_bounds<VB>(gn, size_n, n_whole);
            if (valid > 0) load_run<VB, true>(B + d.b_offset(gk, gn), valid, r[i]);
            else
#pragma unroll
                for (int v = 0; v < VB; ++v) r[i][v] = 0.0f;
        } else {                   // contiguous along k
            const index_t gk = k0 + (run % (BK / VB)) * VB;
            const index_t gn = n0 + run / (BK / VB);
            const int valid = (!n_whole && gn >= size_n) ? 0 : run_in_bounds<VB>(gk, size_k, k_whole);
            if (valid > 0) load_run<VB, true>(B + d.b_offset(gk, gn), valid, r[i]);
            else
#pragma unroll
                for (int v = 0; v < VB; ++v) r[i][v] = 0.0f;
        }
    }
}

// Stores the staged A runs into As[k][m]: directly when they run along m, transposed when they run along k.
__device__ __forceinline__ void store_a(float* As, int tid, const float (&r)[A_LOADS][VA]) {
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
        const int run = tid + i * THREADS;
        if constexpr (!TRANS_A) {
            const int mm = (run % (BM / VA)) * VA, kk = run / (BM / VA);
            store_run<VA>(As + kk * AS_STRIDE + mm, VA, r[i]);
        } else {
            const int kk = (run % (BK / VA)) * VA, mm = run / (BK / VA);
#pragma unroll
            for (int v = 0; v < VA; ++v) As[(kk + v) * AS_STRIDE + mm] = r[i][v];
        }
    }
}

// Stores the staged B runs into Bs[k][n].
__device__ __forceinline__ void store_b(float* Bs, int tid, const float (&r)[B_LOADS][VB]) {
#pragma unroll
    for (int i = 0; i < B_LOADS; ++i) {
        const int run = tid + i * THREADS;
        if constexpr (TRANS_B) {
            const int nn = (run % (BN / VB)) * VB, kk = run / (BN / VB);
            store_run<VB>(Bs + kk * BS_STRIDE + nn, VB, r[i]);
        } else {
            const int kk = (run % (BK / VB)) * VB, nn = run / (BK / VB);
#pragma unroll
            for (int v = 0; v < VB; ++v) Bs[(kk + v) * BS_STRIDE + nn] = r[i][v];
        }
    }
}

// acc += As^T Bs over one BK-deep tile, for this thread's (thread_m, thread_n) register tile.
__device__ __forceinline__ void multiply_tile(const float* As, const float* Bs, int thread_m, int thread_n,
                                              float (&acc)[TM][TN]) {
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
        float a[TM];
        float b[TN];
#pragma unroll
        for (int c = 0; c < CM; ++c) {
            float run[TMV];
            load_run<TMV>(As + kk * AS_STRIDE + c * M_STRIDE + thread_m * TMV, TMV, run);
#pragma unroll
            for (int v = 0; v < TMV; ++v) a[c * TMV + v] = run[v];
        }
#pragma unroll
        for (int c = 0; c < CN; ++c) {
            float run[TNV];
            load_run<TNV>(Bs + kk * BS_STRIDE + c * N_STRIDE + thread_n * TNV, TNV, run);
#pragma unroll
            for (int v = 0; v < TNV; ++v) b[c * TNV + v] = run[v];
        }
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
}

}  // namespace regblock
}  // namespace jg

// The kernel proper, on its operands; the extern "C" entry below unpacks jg_args into it.
static __device__ __forceinline__ void jg_regblock_body(const jg::dims& d, const float* __restrict__ A,
    const float* __restrict__ B, float* C, float alpha, float beta, void* workspace) {
    using namespace jg;
    using namespace jg::regblock;
    // Dynamic shared memory: STAGES A buffers, then STAGES B buffers (the host sizes it; above 48 KB it opts in).
    extern __shared__ float4 shared_storage[];
    float* const smem = reinterpret_cast<float*>(shared_storage);

    const index_t size_m = d.m(), size_n = d.n();  // as in load_a (run_in_bounds says why)
    const bool m_whole = d.m_whole(BM), n_whole = d.n_whole(BN);

    const int tid = threadIdx.x;
    const int thread_m = tid % (BM / TM);
    const int thread_n = tid / (BM / TM);
    // The SPLITS blocks of one tile are consecutive; this one's k tiles are [kt_first, kt_end).
    const index_t tiles_m = ceil_div(size_m, BM), tiles_n = ceil_div(size_n, BN);
    const index_t tile = SPLITS == 1 ? (index_t)blockIdx.x : (index_t)(blockIdx.x / SPLITS);
    const int split = SPLITS == 1 ? 0 : (int)(blockIdx.x % SPLITS);
    const index_t kt_first = SPLITS == 1 ? 0 : (index_t)((long long)split * K_TILES / SPLITS);
    const index_t kt_end = SPLITS == 1 ? K_TILES : (index_t)((long long)(split + 1) * K_TILES / SPLITS);
    index_t tile_m, tile_n;
    tile_of_block<RB_GROUP>(tile, tiles_m, tiles_n, tile_m, tile_n);
    const index_t m0 = tile_m * BM;
    const index_t n0 = tile_n * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    float ra[A_LOADS][VA];
    float rb[B_LOADS][VB];
    if constexpr (K_TILES > 0) {
        load_a(d, A, m0, kt_first * BK, tid, ra);
        load_b(d, B, kt_first * BK, n0, tid, rb);
        store_a(smem, tid, ra);
        store_b(smem + STAGES * AS_SIZE, tid, rb);
        __syncthreads();
    }

#pragma unroll 1
    for (index_t kt = kt_first; kt < kt_end; ++kt) {
        const bool more = kt + 1 < kt_end;
        if constexpr (STAGES == 2) {
            const int cur = (int)((kt - kt_first) & 1);
            if (more) {  // issue the next tile's global loads before this tile's math
                load_a(d, A, m0, (kt + 1) * BK, tid, ra);
                load_b(d, B, (kt + 1) * BK, n0, tid, rb);
            }
            multiply_tile(smem + cur * AS_SIZE, smem + STAGES * AS_SIZE + cur * BS_SIZE, thread_m, thread_n, acc);
            if (more) {  // the other buffer was last read before the previous barrier
                store_a(smem + (cur ^ 1) * AS_SIZE, tid, ra);
                store_b(smem + STAGES * AS_SIZE + (cur ^ 1) * BS_SIZE, tid, rb);
            }
            __syncthreads();
        } else {
            multiply_tile(smem, smem + AS_SIZE, thread_m, thread_n, acc);
            __syncthreads();
            if (more) {
                load_a(d, A, m0, (kt + 1) * BK, tid, ra);
                load_b(d, B, (kt + 1) * BK, n0, tid, rb);
                store_a(smem, tid, ra);
                store_b(smem + AS_SIZE, tid, rb);
                __syncthreads();
            }
        }
    }

    // Epilogue: each run of TMV rows of column j is one (vector) store, of this thread's accumulators or, under
    // split-K, of the sums of every split's (the tile's last block to arrive stores them).
    const auto store_column = [&](int j, const float (&runs)[CM][TMV]) {
        const index_t n = n0 + (j / TNV) * N_STRIDE + thread_n * TNV + j % TNV;
        if (!n_whole && n >= size_n) return;
#pragma unroll
        for (int c = 0; c < CM; ++c) {
            const index_t m = m0 + c * M_STRIDE + thread_m * TMV;
            const int valid = run_in_bounds<TMV>(m, size_m, m_whole);
            if (valid == 0) continue;
            epilogue_store<TMV>(C, d.c_offset(m, n), runs[c], valid, alpha, beta);
        }
    };
    if constexpr (SPLITS > 1) {
        // (Written for any TMV, since this function is no template and both branches compile; split-K has TMV 4.)
        const auto own = [&](int j, int c) {
            float4 run = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
            for (int v = 0; v < TMV; ++v) (&run.x)[v] = acc[c * TMV + v][j];
            return run;
        };
        k_shares::partials partials;
        // The loop's last barrier has passed: shared memory is free for the arrival flag.
        if (!k_shares::arrive_last(workspace, (long long)tiles_m * tiles_n, reinterpret_cast<unsigned char*>(smem),
                                   k_shares::split_parts(tile, split), tid, own, partials))
            return;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            float4 row[CM];
            partials.sum_row(j, row);
            float runs[CM][TMV];
#pragma unroll
            for (int c = 0; c < CM; ++c)
#pragma unroll
                for (int v = 0; v < TMV; ++v) runs[c][v] = (&row[c].x)[v];
            store_column(j, runs);
        }
    } else {
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            float runs[CM][TMV];
#pragma unroll
            for (int c = 0; c < CM; ++c)
#pragma unroll
                for (int v = 0; v < TMV; ++v) runs[c][v] = acc[c * TMV + v][j];
            store_column(j, runs);
        }
    }
}

extern "C" __global__ void __launch_bounds__(jg::regblock::THREADS)
    jg_regblock(const __grid_constant__ jg_args args) {
    using namespace jg;
    const dims d{args};
    for_each_gemm<float, float, float>(args, [&](const float* a, const float* b, float* c) {
        jg_regblock_body(d, a, b, c, args.alpha, args.beta, args.workspace);
    });
}
