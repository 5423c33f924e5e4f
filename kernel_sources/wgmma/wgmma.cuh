// wgmma/wgmma.cuh — the wgmma family, Hopper's Tensor Core GEMM for fp16 and bf16 inputs and for fp32 inputs in TF32:
// warpgroup-wide wgmma.mma_async on operand tiles that the TMA copies into a ring of shared-memory stages,
// warp-specialized and persistent. sm_90a only.
//
// Roles: warpgroup 0 is the producer — one of its threads walks the block's tiles and k blocks, waits for a free
// stage, and asks the TMA for that stage's operand tiles (common/jg_tma.cuh), which count their bytes in at the
// stage's "full" barrier; it then gives most of its registers back (setmaxnreg). Warpgroups 1..CONSUMERS are
// consumers: each takes BN / CONSUMERS columns of the tile of C, waits for a full stage, issues its wgmma instructions
// over the stage's k depth, and frees the stage (its "empty" barrier) once the instructions of the stage before have
// finished, so one stage of instructions is always in flight. After the last k block a consumer stores its
// accumulators through the shared epilogue (common/jg_epilogue.cuh) while the producer already fills stages for the
// block's next tile.
//
// Ping-pong (WGMMA_PINGPONG = 1, two consumers): instead of splitting each tile, the consumers take the block's tiles
// in turn, each a whole BM x BN tile (so, for the same accumulator registers, half the tile of the split), and one
// consumer's instructions run while the other stores its tile: the Tensor Cores need not wait for the epilogue. A
// consumer starts a tile's k loop only once the other has waited for every stage of the tile before (the turn, named
// barriers 4 and 5): the stages are thus waited for in the ring's order, which the barriers' phase parity needs — a
// consumer waiting for a stage two phases ahead of its barrier would take the earlier phase for its own.
//
// Persistent grid: the host launches one block per tile or fewer (a persistent grid, its choice); blocks take tiles
// blockIdx.x, blockIdx.x + gridDim.x, ... in the grouped order of tile_of_block (WGMMA_GROUP tile rows per group),
// so the tiles in flight at once share operand panels in L2.
//
// Stream-K (WGMMA_STREAMK = the persistent grid's blocks): where the units are not a multiple of the grid's clusters,
// the last wave would leave SMs idle (288 tiles of 6144 x 1528 on 132 SMs: 3 turns where 2.18 would do). Then only
// whole waves of units go round as above, and the k blocks of the units left over are dealt out in equal runs, one
// per cluster (common/jg_split_k.cuh): a unit split between clusters is summed, tile by tile, by the last of its
// blocks to finish, from the others' partial sums in the workspace, in part order (bitwise repeatable). The producer
// walks the same runs; the blocks of a cluster walk them together, each over its own tile of the unit. Where the
// units are fewer than the clusters there is no whole wave and every unit is dealt out: K split among all SMs for
// problems whose tiles cannot fill them (128 x 4096 x 4096: 32 tiles of 128 x 128 on 132 blocks; 7-16% faster than
// whole tiles on three such shapes, slower on two, session 32). Dealing out the last whole wave too (each run a unit
// and a share of another, so that no unit is shared by more than three clusters) ran slower wherever the runs were
// long (H100, session 40: 4096^3 211 us against 177): all SMs then read their operands at staggered k, and the tiles
// in flight no longer share what L2 holds.
//
// K split across a cluster (WGMMA_KSPLIT = S > 1): where the tiles are fewer than the SMs (4096 x 128 x 4096: 32 tiles
// of 128 x 128 on 132 SMs), S blocks of a cluster share each tile, block r over the r-th of S equal runs of its k
// blocks, one tile per cluster (no persistent grid). Their partial sums meet in distributed shared memory: each block
// leaves its own in its ring (free once the last stage is read), and after a cluster barrier block r adds up the r-th
// of S slices of the tile's m from all S blocks, in rank order (bitwise repeatable), and stores that slice. No
// workspace, no round trip through L2, and the adding is shared among all S blocks, where stream-K's last block reads
// every other block's partial sums back from L2 alone (a 128 x 128 tile over 5 blocks: 320 KB by one SM).
//
// Batches (JG_BATCH > 1, common/jg_batch.cuh): the units of all GEMMs of the batch form one list, GEMM after GEMM, which
// the persistent blocks walk as above; the tensor maps are 3-D, GEMM z of the batch their third coordinate (0 for an
// operand that every GEMM shares: its batch stride is 0), and C's GEMM z starts at z * batch_stride_c.
//
// Clusters (WGMMA_CLUSTER = 2): the two blocks of a cluster take neighbouring tiles along n, which read the same
// op(A) tile; each loads half of it and the TMA writes that half into both blocks (multicast), so op(A) crosses from
// L2 once per pair. A 256 x 128 tile's stage is then 32 KB from L2 per block instead of 48. With WGMMA_CLUSTER_M the
// pair takes neighbouring tiles along m instead and shares their op(B)^T tile the same way: the operand whose boxes
// cost more to load (columns off 128-byte lines) is then the one loaded once, as cuBLAS pairs 6144 x 1528 tt (its
// op(B) n-contiguous with 1528 columns) along m.
//
// Storing C (WGMMA_STORE): 0 from the accumulators straight to global memory (store_tile); 1 through shared memory
// and the TMA (store_tile_through_tma): each consumer writes its columns of the tile, converted, into a staging area
// of its own laid out as 128-byte swizzled boxes of C's tensor map, and one of its threads hands the boxes to the TMA,
// which writes them while the consumer goes on to its next tile's instructions (and clips what lies past M and N).
// The staging area is rewritten only once the TMA has read the previous tile's. 2: the same boxes, written and handed
// to the TMA one at a time through two box buffers per consumer, each rewritten once the TMA has read the box before
// last from it: the staging area shrinks from the whole tile (64 KB for a 256 x 128 tile of bf16) to two boxes (32 KB),
// which leaves room for another stage of the ring. 3: the same two box buffers, each box copied out to C by the
// consumer's own threads, for a C the TMA cannot write (pointer or leading dimension off 16 bytes, as for 4097 rows
// of 16 bits): each store instruction of a warp then writes 32 consecutive elements of one column, where from the
// registers (0) it writes two elements in each of eight columns, element by element.
//
// Orientation: the instruction's rows (its M, 64 per instruction) run along C's n and its columns (its N = BM) along
// C's m, as in the mma.sync family: each thread's accumulator pairs are then consecutive in m, the contiguous dimension
// of the column-major C, and the epilogue stores pairs. The instruction's A operand is op(B)^T (BN x BK of it per
// stage), its B operand is op(A) (BM x BK). TF32 with op(A) stored m-contiguous turns this round (below).
//
// Shared tiles: both are stored as the TMA writes them with 128-byte swizzle, in 128-byte rows of ROW_ELEMS elements
// (64 16-bit ones, 32 fp32 ones). An operand stored k-contiguous in global memory (k-major) keeps k along the rows:
// BK / ROW_ELEMS boxes of (ROW_ELEMS k) x (rows), one after the other. An operand stored m- or n-contiguous (m/n-major;
// the instruction reads it transposed, or, in TF32, loads it into registers) keeps m or n along the rows: (rows) /
// ROW_ELEMS boxes of (ROW_ELEMS m or n) x (BK k). The matrix descriptors below describe exactly these layouts.
//
// TF32 (fp32 inputs): the instruction is m64nNk8 and has no transpose: its B operand's tile must be k-major, and an A
// operand stored m- or n-contiguous is read from registers, which each consumer fills from the shared tile in the
// instruction's fragment order (load_fragments). Where op(A) is the operand stored m-contiguous, the instruction's
// roles turn (ROWS_ALONG_M): its rows run along C's m, its A operand is op(A) and its B operand op(B)^T, the consumers
// split the tile's m, and C is stored one value at a time (pairs of the accumulators are consecutive in n). Where both
// operands are stored m- or n-contiguous the host packs one into a k-major copy first (common/jg_pack_transpose.cuh),
// and it may pack both, which the search measures. A k step of 8 fp32 is 32 bytes of a row, as a k step of 16 16-bit
// elements is: in bytes the k-major tiles and their descriptors are the same for every input type, and only the
// elements per row, per box and per k step change.
//
// 16-bit inputs may take the turned roles by choice (WGMMA_ROWS_M): the instruction's width then runs along C's n, so
// that a narrow n fits it (4096 x 130: 144 wide, one tile, where 64-row blocks along n compute 192).
#pragma once

#include "common/jg_args.cuh"
#include "common/jg_batch.cuh"
#include "common/jg_epilogue.cuh"
#include "common/jg_pack.cuh"  // jg_pack, the launch that copies misaligned operands first, lives in this module
#include "common/jg_pack_transpose.cuh"  // and jg_pack_transpose, which copies TF32 operands k-major first
#include "common/jg_problem.cuh"
#include "common/jg_ptx.cuh"
#include "common/jg_split_k.cuh"
#include "common/jg_tma.cuh"
#include "wgmma/wgmma_ops.cuh"

// ---- Tuning knobs ----
#ifndef WGMMA_BM
#define WGMMA_BM 256      // rows of C (m) per tile: the N of every instruction (a multiple of 16 up to 256)
#endif
#ifndef WGMMA_BN
#define WGMMA_BN 128      // columns of C (n) per tile: 64 per instruction row block, BN / CONSUMERS per consumer
#endif
#ifndef WGMMA_BK
#define WGMMA_BK 64       // k depth of one stage: one or two 128-byte swizzle rows (64 or 128; 32 or 64 for TF32)
#endif
#ifndef WGMMA_STAGES
#define WGMMA_STAGES 4    // shared-memory stages of the ring (2 to 8)
#endif
#ifndef WGMMA_CONSUMERS
#define WGMMA_CONSUMERS 2 // consumer warpgroups (1 to 3)
#endif
#ifndef WGMMA_CLUSTER
#define WGMMA_CLUSTER 1   // blocks per cluster (1 or 2): a pair takes neighbouring tiles along n and shares op(A)
#endif
#ifndef WGMMA_CLUSTER_M
#define WGMMA_CLUSTER_M 0 // 1: a cluster's blocks take neighbouring tiles along m and share op(B)^T (below)
#endif
#ifndef WGMMA_GROUP
#define WGMMA_GROUP 8     // tile rows per rasterization group (tile_of_block)
#endif
#ifndef WGMMA_STORE
#define WGMMA_STORE 0     // C stored from registers (0) or through shared memory and the TMA: the tile at once (1) or
                          // box by box through two box buffers (2)
#endif
#ifndef WGMMA_STREAMK
#define WGMMA_STREAMK 0   // 0, or the persistent grid's blocks, among which the last wave's k blocks are dealt out
#endif
#ifndef WGMMA_PINGPONG
#define WGMMA_PINGPONG 0  // 1: the two consumers take the block's tiles in turn, each a whole tile (below)
#endif
#ifndef WGMMA_KSPLIT
#define WGMMA_KSPLIT 1    // blocks of a cluster that split each tile's K and meet in distributed shared memory (1-8)
#endif
#ifndef WGMMA_ROWS_M
#define WGMMA_ROWS_M 0    // 1: the instructions' rows run along m and their width along n (16-bit inputs; below)
#endif

namespace jg {
namespace wgmma {

constexpr bool BF16 = JG_A_TYPE == JG_DTYPE_BF16;
constexpr bool TF32 = JG_A_TYPE == JG_DTYPE_F32;  // fp32 inputs, multiplied in TF32 (m64nNk8)
constexpr int ES = (int)sizeof(a_t);              // element bytes: 2, or 4 for TF32
constexpr int BM = WGMMA_BM, BN = WGMMA_BN, BK = WGMMA_BK, STAGES = WGMMA_STAGES, CONSUMERS = WGMMA_CONSUMERS;
constexpr int CLUSTER = WGMMA_CLUSTER;
constexpr bool PAIRS_ALONG_M = WGMMA_CLUSTER_M != 0;
constexpr int CLUSTER_M = PAIRS_ALONG_M ? CLUSTER : 1, CLUSTER_N = PAIRS_ALONG_M ? 1 : CLUSTER;  // tiles of a unit
constexpr int KSPLIT = WGMMA_KSPLIT;
constexpr bool PINGPONG = WGMMA_PINGPONG != 0;
// The consumers that read one stage: both (they split its tile), or in ping-pong the one whose tile it holds.
constexpr int STAGE_READERS = PINGPONG ? 1 : CONSUMERS;
constexpr int THREADS = 128 * (CONSUMERS + 1);
// How each operand sits in global memory (jg_problem.cuh): op(A)(m, k) is at k + m * LDA when A is transposed.
constexpr bool A_KMAJOR = TRANS_A;
constexpr bool B_KMAJOR = !TRANS_B;

// The instruction's operands: its A operand P, 64 rows per instruction, split among the consumers; its B operand Q,
// the instruction's width. P is op(B)^T and Q op(A) (rows along C's n), or the other way round (ROWS_ALONG_M: TF32
// with op(A) stored m-contiguous, which only an A operand from registers can read).
constexpr bool ROWS_ALONG_M = WGMMA_ROWS_M || (TF32 && !A_KMAJOR);
constexpr int P_ROWS = ROWS_ALONG_M ? BM : BN;
constexpr int WIDTH = ROWS_ALONG_M ? BN : BM;     // the N of every instruction
constexpr bool P_KMAJOR = ROWS_ALONG_M ? A_KMAJOR : B_KMAJOR;
constexpr bool Q_KMAJOR = ROWS_ALONG_M ? B_KMAJOR : A_KMAJOR;
constexpr bool P_IN_REGISTERS = TF32 && !P_KMAJOR;
constexpr int CONSUMER_ROWS = P_ROWS / STAGE_READERS;  // rows of P per consumer warpgroup: columns of C, or rows
constexpr int CONSUMER_COLS = BN / STAGE_READERS;      // columns of C per consumer (rows along n)
constexpr int ATOMS = CONSUMER_ROWS / 64;          // 64-row instruction blocks per consumer
constexpr int ACC = WIDTH / 2;                     // accumulators per thread of one instruction

constexpr int ROW_BYTES = 128;                   // one swizzled row
constexpr int ROW_ELEMS = ROW_BYTES / ES;        // elements of one row: a k-major box's depth (64, or 32 for TF32)
constexpr int KSTEP = TF32 ? 8 : 16;             // k of one instruction
constexpr int KSTEP_BYTES = KSTEP * ES;          // 32 for every input type
constexpr int KSTEPS_PER_ROW = ROW_BYTES / KSTEP_BYTES;
// op(A): BM x BK; stored m-contiguous, it arrives in boxes of ROW_ELEMS m, the last one whole where BM is not a
// multiple of them (an instruction as wide as 80 reads the first 16 m of the second box).
constexpr int A_MN_BOXES = (int)ceil_div(BM, ROW_ELEMS);
constexpr int A_TILE_BYTES = (A_KMAJOR ? BM : A_MN_BOXES * ROW_ELEMS) * BK * ES;
// op(B)^T: BN x BK; stored n-contiguous, in whole boxes as op(A) (BN is not a multiple of them where it is the width).
constexpr int B_MN_BOXES = (int)ceil_div(BN, ROW_ELEMS);
constexpr int B_TILE_BYTES = (B_KMAJOR ? BN : B_MN_BOXES * ROW_ELEMS) * BK * ES;
constexpr int STAGE_BYTES = A_TILE_BYTES + B_TILE_BYTES;
constexpr int RING_BYTES = STAGES * STAGE_BYTES;

constexpr int K_BLOCKS = (int)ceil_div(K, BK);

// C through the TMA: a consumer's staging area is C_BOXES boxes of C_BOX_ELEMS m (one 128-byte swizzle row) by its
// CONSUMER_COLS columns n, each box CONSUMER_COLS rows of 128 bytes (a multiple of the swizzle's 1024-byte period).
constexpr bool STAGED_C = WGMMA_STORE != 0;  // a staging area: C through the TMA (1, 2) or copied out (3)
constexpr bool TMA_STORE = WGMMA_STORE == 1 || WGMMA_STORE == 2;
constexpr bool THREADS_COPY_C = WGMMA_STORE == 3;
constexpr int C_BYTES = (int)sizeof(c_t);
constexpr int C_BOX_ELEMS = 128 / C_BYTES;
constexpr int C_BOXES = BM / C_BOX_ELEMS;
// Where the rows run along m (turned tiles) a consumer holds CONSUMER_ROWS m of the tile by all of its WIDTH n, and C
// goes out in rounds of C_ROUND_COLS columns n: boxes of C_BOX_ELEMS m by C_ROUND_COLS n, CONSUMER_ROWS / C_BOX_ELEMS
// of them a round (32 bytes of each column: 4 KB a round of 128 rows), through two round buffers per consumer, so that
// the staging of a 256 x 160 turned tile takes 16 KB where boxes of all its 160 columns would take 80 KB.
constexpr int C_ROUND_COLS = 32 / C_BYTES;
constexpr int C_BOX_BYTES = (ROWS_ALONG_M ? C_ROUND_COLS : CONSUMER_COLS) * 128;
// Boxes handed to the TMA at once (a round), and box buffers per consumer: the tile in one round, or box by box through
// two buffers that alternate (WGMMA_STORE 2 and 3); turned, a round of columns at once through two buffers.
constexpr bool STORE_BY_BOX = WGMMA_STORE >= 2;
constexpr int STORE_ROUND_BOXES = ROWS_ALONG_M ? CONSUMER_ROWS / C_BOX_ELEMS : STORE_BY_BOX ? 1 : C_BOXES;
constexpr int STORE_BUFFERS = ROWS_ALONG_M ? 2 * STORE_ROUND_BOXES : STORE_BY_BOX ? 2 : C_BOXES;
constexpr int STAGING_BYTES = STAGED_C ? CONSUMERS * STORE_BUFFERS * C_BOX_BYTES : 0;

// Stream-K: the units of the exact problem, the whole waves of them, and the units left over, whose k blocks are dealt
// out; the consumers' partial sums, SUM_COLS float4 per row of a thread's accumulators.
// A cluster's blocks walk the same runs of k blocks, each over its own tile of the unit (so their multicast loads of
// op(A) stay in step): the runs are dealt out among the grid's clusters.
constexpr long long STREAM_BLOCKS = WGMMA_STREAMK;
constexpr bool STREAM_K = STREAM_BLOCKS > 0;
constexpr long long STREAM_CLUSTERS = STREAM_BLOCKS / CLUSTER;
constexpr long long ALL_UNITS =
    ceil_div(ceil_div(JG_M, BM), CLUSTER_M) * ceil_div(ceil_div(JG_N, BN), CLUSTER_N) * (long long)JG_BATCH;
constexpr long long STREAM_UNITS_LEFT = STREAM_K ? ALL_UNITS % STREAM_CLUSTERS : 0;
constexpr long long WAVE_UNITS = ALL_UNITS - STREAM_UNITS_LEFT;
constexpr int SUM_COLS = ATOMS * ACC / 4 % 8 == 0 ? 8 : 2;  // float4 loaded at once (widths of 16 n: pairs)
constexpr int SUM_ROWS = ATOMS * ACC / 4 / SUM_COLS;
// The blocks of a cluster keep their partial sums side by side in each slot, thread by thread: as one block of
// CLUSTER times the consumers' threads. Each tile of a unit has its own arrival counter.
typedef shared_k_tiles<STREAM_UNITS_LEFT, K_BLOCKS, 1, STREAM_CLUSTERS, SUM_ROWS, SUM_COLS, 128 * CONSUMERS * CLUSTER>
    k_shares;

// The units of work: a unit is one tile per block of a cluster, CLUSTER neighbouring tiles along n with the same
// rows of C (along m with the same columns, PAIRS_ALONG_M). Constants where m and n are; a run-time-shape variant
// counts them from the launch's sizes.
struct unit_grid {
    index_t tiles_m, units_n;  // along m: units (of CLUSTER_M tiles); along n: units (of CLUSTER_N tiles)
    index_t gemm_units;  // of one GEMM of a batch
    index_t all;         // of the whole batch: the host keeps this within int32
    __device__ __forceinline__ explicit unit_grid(const dims& d)
        : tiles_m(ceil_div(ceil_div(d.m(), BM), CLUSTER_M)), units_n(ceil_div(ceil_div(d.n(), BN), CLUSTER_N)),
          gemm_units(tiles_m * units_n), all(gemm_units * (index_t)BATCH) {}
};

static_assert(JG_A_TYPE == JG_B_TYPE, "the wgmma family takes fp16, bf16 or (as TF32) fp32 inputs, both the same");
static_assert(!TF32 || JG_COMPUTE_TF32, "fp32 inputs reach the Tensor Cores only when the caller allows TF32");
static_assert(!TF32 || Q_KMAJOR, "TF32 wgmma reads its B operand's tile k-major: the host packs one operand first "
                                 "where both are stored m- or n-contiguous");
static_assert(KSTEP_BYTES == 32 && KSTEPS_PER_ROW == 4, "a k step is 32 bytes of a 128-byte row");
static_assert(is_instruction_width<WIDTH>,
              "BM (BN where the rows run along m) is an instruction width: a multiple of 16 up to 256");
static_assert(BK * ES == 128 || BK * ES == 256, "BK is one or two 128-byte rows: 64 or 128 (32 or 64 for TF32)");
static_assert(CONSUMERS >= 1 && CONSUMERS <= 3, "one to three consumer warpgroups");
static_assert(P_ROWS % (64 * STAGE_READERS) == 0 && ATOMS >= 1,
              "BN (BM where the rows run along m) is a multiple of 64 per consumer");
static_assert(ATOMS * ACC <= (CONSUMERS == 3 ? 96 : 192),
              "at most 192 accumulators per consumer thread (96 of three consumers' 152 registers)");
static_assert(STAGES >= 2 && STAGES <= 8, "2 to 8 stages");
static_assert(CLUSTER == 1 || CLUSTER == 2, "clusters of one or two blocks");
static_assert(!A_KMAJOR || BM % (8 * CLUSTER_N) == 0, "each block's share of a k-major op(A) tile: whole 8-row groups");
static_assert(!B_KMAJOR || BN % (8 * CLUSTER_M) == 0, "each block's share of a k-major op(B) tile: whole 8-row groups");
static_assert(!PAIRS_ALONG_M || CLUSTER == 2, "pairs along m are clusters of two");
static_assert(K >= 1, "the family computes k >= 1 (k = 0 is the reference family's scaling kernel)");
static_assert(!STREAM_K || (STREAM_BLOCKS % CLUSTER == 0 && !RUNTIME_SHAPE && STREAM_UNITS_LEFT > 0),
              "stream-K: whole clusters, an exact problem, and units left over after the whole waves");
static_assert(ATOMS * ACC % (4 * SUM_COLS) == 0, "a thread's accumulators are whole rows of partial sums");
static_assert(!STAGED_C || !ROWS_ALONG_M || (WGMMA_STORE == 2 && !P_IN_REGISTERS && CONSUMER_ROWS % C_BOX_ELEMS == 0 &&
                                             WIDTH % C_ROUND_COLS == 0),
              "where the rows run along m, C goes through the TMA round by round (WGMMA_STORE 2), from 16-bit inputs, "
              "each consumer's rows whole 128-byte boxes of m");
static_assert(!STAGED_C || BM % C_BOX_ELEMS == 0, "C is staged in whole 128-byte boxes of m");
static_assert(WGMMA_STORE >= 0 && WGMMA_STORE <= 3,
              "C from registers (0), through the TMA whole (1) or by box (2), or copied out by box (3)");
static_assert(!TMA_STORE || ALIGN_C_ELEMS * C_BYTES >= 16,
              "the TMA writes C only where its pointer and leading dimension are 16-byte aligned");
static_assert(!PINGPONG || (CONSUMERS == 2 && !STREAM_K), "ping-pong takes two consumers and whole tiles");
// K split across a cluster: each block a run of at least one k block, its slice of the instruction's width (m, or n
// where the rows run along m) whole pairs of 8-wide chunks (the store's quad exchange pairs them; the WIDTH / 16 pairs
// dealt out as evenly as they go), C from the registers, and its partial sums within its ring.
constexpr int KSPLIT_VECTORS = ATOMS * ACC / 4;  // float4 of partial sums per consumer thread
static_assert(KSPLIT == 1 || (KSPLIT >= 2 && KSPLIT <= 8 && CLUSTER == 1 && !STREAM_K && !PINGPONG && !STAGED_C &&
                              !P_IN_REGISTERS && K_BLOCKS >= KSPLIT && WIDTH / 16 >= KSPLIT &&
                              KSPLIT_VECTORS * 16 * 128 * CONSUMERS <= RING_BYTES),
              "K split across a cluster of 2 to 8 blocks: single-block units, no stream-K or ping-pong, C from the "
              "registers, P from shared memory, a k block and a pair of 8-wide chunks per block, sums within the ring");
// The first 8-wide chunk of split s's slice (s = KSPLIT: the tile's end), and the split whose slice holds `chunk`.
__host__ __device__ constexpr int split_first_chunk(int s) { return 2 * (s * (WIDTH / 16) / KSPLIT); }
__host__ __device__ constexpr int split_of_chunk(int chunk) {
    int s = 0;
    while (split_first_chunk(s + 1) <= chunk) ++s;
    return s;
}

// Registers after setmaxnreg: the producer keeps few, the consumers share the rest (65536 per SM, one block per SM;
// counts are multiples of 8). Three consumers (a 192-wide tile's three 64-row blocks: cuBLAS's 192 x 192 tiles) get
// 152 each: 40 x 128 + 152 x 384 = 63488.
constexpr int PRODUCER_REGISTERS = 40;
constexpr int CONSUMER_REGISTERS = CONSUMERS == 3 ? 152 : CONSUMERS == 2 ? 232 : 240;

// The shared-memory matrix descriptor of a tile with 128-byte swizzle: start address, the leading and stride byte
// offsets (both >> 4), and the swizzle mode 1 (128 bytes) in bits 62-63. The tile's 1024-byte swizzle pattern must
// start on a 1024-byte boundary (the ring is aligned so), which leaves the base-offset field 0.
__device__ __forceinline__ unsigned long long descriptor(unsigned address, unsigned leading, unsigned stride) {
    return (unsigned long long)((address & 0x3FFFF) >> 4) | ((unsigned long long)(leading >> 4) << 16) |
           ((unsigned long long)(stride >> 4) << 32) | (1ull << 62);
}

// k-major tile of `rows` rows: k step s (KSTEP elements, 32 bytes) of rows [row, row + ...) lies in box
// s / KSTEPS_PER_ROW at byte 32 * (s % KSTEPS_PER_ROW) of each row; groups of 8 rows are 1024 bytes apart (the stride
// offset); the leading offset is unused (an instruction's k step never leaves its swizzle row).
template <int ROWS>
__device__ __forceinline__ unsigned long long kmajor_descriptor(unsigned tile, int row, int s) {
    return descriptor(tile + (s / KSTEPS_PER_ROW) * ROWS * ROW_BYTES + row * ROW_BYTES +
                          (s % KSTEPS_PER_ROW) * KSTEP_BYTES,
                      16, 1024);
}

// m/n-major tile (16-bit inputs only): rows of 64 m or n, BK of them per box; k step s starts 16 rows (2048 bytes)
// further; 8-row groups (along k) are 1024 bytes apart (the stride offset) and 64-element blocks along m or n one box
// apart (the leading offset).
__device__ __forceinline__ unsigned long long mnmajor_descriptor(unsigned tile, int row, int s) {
    return descriptor(tile + (row / 64) * BK * ROW_BYTES + s * KSTEP * ROW_BYTES, BK * ROW_BYTES, 1024);
}

__device__ __forceinline__ void fence_operands() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int PENDING>
__device__ __forceinline__ void wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(PENDING) : "memory");
}

// The ring: stage s's op(A) tile, then its op(B)^T tile; after the ring, the consumers' staging areas for C (with
// WGMMA_STORE 1), then the full and empty barrier of every stage.
struct ring {
    unsigned base;
    __device__ unsigned a_tile(int s) const { return base + s * STAGE_BYTES; }
    __device__ unsigned b_tile(int s) const { return base + s * STAGE_BYTES + A_TILE_BYTES; }
    // The instruction's A operand's tile (P) and its B operand's (Q) in stage s.
    __device__ unsigned p_tile(int s) const { return ROWS_ALONG_M ? a_tile(s) : b_tile(s); }
    __device__ unsigned q_tile(int s) const { return ROWS_ALONG_M ? b_tile(s) : a_tile(s); }
    __device__ unsigned staging(int consumer) const {
        return base + RING_BYTES + consumer * STORE_BUFFERS * C_BOX_BYTES;
    }
    __device__ unsigned full(int s) const { return base + RING_BYTES + STAGING_BYTES + 8 * s; }
    __device__ unsigned empty(int s) const { return base + RING_BYTES + STAGING_BYTES + 8 * (STAGES + s); }
    // Stream-K: the word that tells the consumers whether they were the last to finish a unit.
    __device__ unsigned last_flag() const { return base + RING_BYTES + STAGING_BYTES + 16 * STAGES; }
};

// A position in the ring that advances stage by stage; the parity flips each time it wraps around.
struct ring_position {
    int stage = 0;
    unsigned parity = 0;
    __device__ void advance() {
        if (++stage == STAGES) {
            stage = 0;
            parity ^= 1;
        }
    }
    // Past `stages` stages at once (ping-pong: the other consumer's tile).
    __device__ void skip(int stages) {
        stage += stages;
        parity ^= (unsigned)(stage / STAGES) & 1u;
        stage %= STAGES;
    }
};

// The tile of C of this block (its rank in the cluster) in unit `unit`, and its GEMM z of a batch. The last unit of a
// row may reach past N (past M along m): its block still loads its share of the shared operand for the other and
// stores nothing.
__device__ __forceinline__ void tile_origin(const unit_grid& units, index_t unit, int rank, index_t& m0, index_t& n0,
                                            int& z) {
    index_t tile_m, unit_n;
    z = BATCH == 1 ? 0 : (int)(unit / units.gemm_units);
    if (BATCH > 1) unit -= (index_t)z * units.gemm_units;
    tile_of_block<WGMMA_GROUP>(unit, units.tiles_m, units.units_n, tile_m, unit_n);
    m0 = (tile_m * CLUSTER_M + (PAIRS_ALONG_M ? rank : 0)) * BM;
    n0 = (unit_n * CLUSTER_N + (PAIRS_ALONG_M ? 0 : rank)) * BN;
}

// Copies a box of GEMM z of a batch (a 3-D map), or of the one GEMM (2-D); CLUSTER > 1: into both blocks of a cluster.
template <int SHARED_BY>
__device__ __forceinline__ void load_box(unsigned dst, const tma::tensor_map* map, int x, int y, int z,
                                         unsigned barrier) {
    if constexpr (BATCH == 1) tma::load_2d_shared<SHARED_BY>(dst, map, x, y, barrier);
    else tma::load_3d_shared<SHARED_BY>(dst, map, x, y, z, barrier);
}

// K split across a cluster: this block's rank in it, which run of each tile's k blocks it takes.
__device__ __forceinline__ int block_split() { return (int)(blockIdx.x % KSPLIT); }

// The units of this block: its cluster's index, then every (grid's clusters)-th.
__device__ __forceinline__ index_t first_unit() { return blockIdx.x / CLUSTER; }
__device__ __forceinline__ index_t unit_stride() { return gridDim.x / CLUSTER; }

// Every piece of work of this block, in order: f(unit, first k block, end k block, the blocks that share the unit).
// Whole units first (all of them, or under stream-K the whole waves), then the block's stream-K run, a piece per unit
// it reaches into.
template <typename F>
__device__ __forceinline__ void for_each_piece(const unit_grid& units, F&& f) {
    if constexpr (KSPLIT > 1) {  // one unit per cluster; the block of rank r takes the r-th run of its k blocks
        const index_t unit = blockIdx.x / KSPLIT;
        const int split = block_split();
        if (unit < units.all)
            f(unit, split * K_BLOCKS / KSPLIT, (split + 1) * K_BLOCKS / KSPLIT, k_shares::parts{0, 1, 0, 0});
        return;
    }
    const index_t whole_end = STREAM_K ? (index_t)WAVE_UNITS : units.all;
    for (index_t unit = first_unit(); unit < whole_end; unit += unit_stride())
        f(unit, 0, K_BLOCKS, k_shares::parts{0, 1, 0, 0});
    if constexpr (STREAM_K) {
        const long long cluster = blockIdx.x / CLUSTER, end = k_shares::stream_begin(cluster + 1);
        for (long long u = k_shares::stream_begin(cluster); u < end;) {
            const long long left = u / K_BLOCKS, stop = min(end, (left + 1) * (long long)K_BLOCKS);
            f((index_t)(WAVE_UNITS + left), (int)(u - left * K_BLOCKS), (int)(stop - left * K_BLOCKS),
              k_shares::stream_parts(left, cluster));
            u = stop;
        }
    }
}

// The producer's thread: every stage of every tile of this block, in order.
// In a cluster of two, each block loads half of the shared tile — op(A)'s, or op(B)^T's with PAIRS_ALONG_M — (alternate
// 64-wide boxes, or half the rows of each k-major box) into the same place of both blocks' stages (multicast), counted
// in at both blocks' full barriers; a stage is therefore free only once the consumers of both blocks have released it
// (the empty barriers count both).
__device__ __forceinline__ void produce(const ring& r, const tma::tensor_map* map_a, const tma::tensor_map* map_b,
                                        int rank, const jg_args& args) {
    const unit_grid units(dims{args});
    // This block's share of each operand: its rank where the pair shares the operand, else all of it.
    const int a_rank = PAIRS_ALONG_M ? 0 : rank, b_rank = PAIRS_ALONG_M ? rank : 0;
    ring_position at;
    for_each_piece(units, [&](index_t unit, int kb_begin, int kb_end, const k_shares::parts&) {
        index_t m0, n0;
        int z;
        tile_origin(units, unit, rank, m0, n0, z);
        // An operand that all GEMMs share is mapped once (its third dimension 1).
        const int za = BATCH > 1 && args.batch_stride_a != 0 ? z : 0;
        const int zb = BATCH > 1 && args.batch_stride_b != 0 ? z : 0;
        for (int kb = kb_begin; kb < kb_end; ++kb) {
            bulk::wait(r.empty(at.stage), at.parity ^ 1);  // a fresh barrier counts as freed once
            const unsigned full = r.full(at.stage);
            bulk::arrive_expect(full, STAGE_BYTES);
            const int k0 = kb * BK;
            const unsigned a = r.a_tile(at.stage), b = r.b_tile(at.stage);
            if constexpr (A_KMAJOR) {
                constexpr int SHARE = BM / CLUSTER_N;  // rows of each box this block loads
#pragma unroll
                for (int box = 0; box < BK / ROW_ELEMS; ++box)
                    load_box<CLUSTER_N>(a + box * BM * ROW_BYTES + a_rank * SHARE * ROW_BYTES, map_a,
                                        k0 + ROW_ELEMS * box, (int)m0 + a_rank * SHARE, za, full);
            } else {
#pragma unroll
                for (int box = 0; box < A_MN_BOXES; ++box)
                    if (box % CLUSTER_N == a_rank)
                        load_box<CLUSTER_N>(a + box * BK * ROW_BYTES, map_a, (int)m0 + ROW_ELEMS * box, k0, za, full);
            }
            if constexpr (B_KMAJOR) {
                constexpr int SHARE = BN / CLUSTER_M;
#pragma unroll
                for (int box = 0; box < BK / ROW_ELEMS; ++box)
                    load_box<CLUSTER_M>(b + box * BN * ROW_BYTES + b_rank * SHARE * ROW_BYTES, map_b,
                                        k0 + ROW_ELEMS * box, (int)n0 + b_rank * SHARE, zb, full);
            } else {
#pragma unroll
                for (int box = 0; box < B_MN_BOXES; ++box)
                    if (box % CLUSTER_M == b_rank)
                        load_box<CLUSTER_M>(b + box * BK * ROW_BYTES, map_b, (int)n0 + ROW_ELEMS * box, k0, zb, full);
            }
            at.advance();
        }
    });
}

// Where byte `byte` of row `row` lies in a tile of 128-byte rows (ROW_BYTES) laid out as the TMA's 128-byte swizzle
// writes it: the row's 16-byte chunk XORed with row % 8. Operand tiles (k's rows) and C's staged boxes (n's) alike.
__device__ __forceinline__ int swizzled_byte(int row, int byte) {
    return row * ROW_BYTES + (((byte / 16) ^ (row % 8)) * 16) + byte % 16;
}

// The P fragments of one consumer's stage (TF32 with P stored m- or n-contiguous): for each instruction row block and
// k step, the four values mma_tf32_k8_register_a takes. P's shared tile is (P_ROWS / 32) boxes of (32 rows of P) x
// (BK k), each k a 128-byte row whose 16-byte chunks the TMA's swizzle moved to (chunk ^ k % 8). Eight rows of P
// span two chunks, and the four k of one load are two pairs whose XOR leaves the pair in place: two-way bank
// conflicts, which the layout of the fragments leaves no way around.
constexpr int FRAGMENT_ATOMS = P_IN_REGISTERS ? ATOMS : 1;
constexpr int FRAGMENT_STEPS = P_IN_REGISTERS ? BK / KSTEP : 1;
using fragments = unsigned[FRAGMENT_ATOMS][FRAGMENT_STEPS][4];

__device__ __forceinline__ void load_fragments(fragments& a, unsigned p_tile, int first_row) {
    const int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4, g = lane / 4, q = lane % 4;
#pragma unroll
    for (int t = 0; t < FRAGMENT_ATOMS; ++t)
#pragma unroll
        for (int s = 0; s < FRAGMENT_STEPS; ++s)
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int row = first_row + 64 * t + 16 * warp + g + 8 * (i % 2);
                const int k = KSTEP * s + q + 4 * (i / 2);
                const int byte = (row % ROW_ELEMS) * ES;
                a[t][s][i] = load_shared_u32(p_tile + (row / ROW_ELEMS) * BK * ROW_BYTES + swizzled_byte(k, byte));
            }
}

// Tells the compiler that `f`'s registers are read here: they keep their values until this point, whatever is
// loaded meanwhile (the instructions that read them asynchronously are known done here).
__device__ __forceinline__ void keep_until_here(fragments& f) {
#pragma unroll
    for (int t = 0; t < FRAGMENT_ATOMS; ++t)
#pragma unroll
        for (int s = 0; s < FRAGMENT_STEPS; ++s)
#pragma unroll
            for (int i = 0; i < 4; ++i) asm volatile("" : "+r"(f[t][s][i])::"memory");
}

// One stage of one consumer: every k step of the stage, each instruction row block of P against the whole Q tile.
__device__ __forceinline__ void multiply_stage(float (&acc)[ATOMS][ACC], const fragments& p_values, const ring& r,
                                               int stage, int first_row, bool first) {
    const unsigned p = r.p_tile(stage), q = r.q_tile(stage);
#pragma unroll
    for (int s = 0; s < BK / KSTEP; ++s) {
        const unsigned long long desc_q = Q_KMAJOR ? kmajor_descriptor<WIDTH>(q, 0, s) : mnmajor_descriptor(q, 0, s);
#pragma unroll
        for (int t = 0; t < ATOMS; ++t) {
            const int scale_d = (first && s == 0) ? 0 : 1;
            if constexpr (P_IN_REGISTERS) {
                mma_tf32_k8_register_a<WIDTH>(acc[t], p_values[t][s], desc_q, scale_d);
            } else {
                const int row = first_row + 64 * t;
                const unsigned long long desc_p =
                    P_KMAJOR ? kmajor_descriptor<P_ROWS>(p, row, s) : mnmajor_descriptor(p, row, s);
                if constexpr (TF32) mma_tf32_k8<WIDTH>(acc[t], desc_p, desc_q, scale_d);
                else mma_k16<WIDTH, BF16, P_KMAJOR ? 0 : 1, Q_KMAJOR ? 0 : 1>(acc[t], desc_p, desc_q, scale_d);
            }
        }
    }
}

// Stores one consumer's accumulators of the tile at (m0, n0). Each thread holds pairs of consecutive m (see the
// orientation above); the four threads of a quad hold the same rows n and, between them, 8 consecutive m per 8-column
// group. Stored as they are, a warp's store covers 16 of every 32-byte sector it touches for 16-bit outputs: measured
// on 4096^3 bf16, half the stored sectors were excess and the kernel ran 4% slower with bf16 outputs than with fp32
// ones of twice the bytes. So for 16-bit C the quad first exchanges pairs across two 8-column groups (two rounds of
// shuffles) until each thread holds 4 consecutive m, and every store writes whole sectors. Rows and columns past the
// problem's edge are not written.
constexpr bool QUAD_EXCHANGE = sizeof(c_t) == 2 && ALIGN_C_ELEMS >= 4;

// Pairs p0 (group j0) and p1 (group j0 + 1) of the four threads of a quad become, in thread q, the 4 consecutive m
// from 8 j0 + 4 q: threads 2 (q % 2) and 2 (q % 2) + 1 each give their p_(q / 2). In each of the two rounds every
// thread reads one other and is read by one other.
__device__ __forceinline__ void exchange_in_quad(const float (&p0)[2], const float (&p1)[2], float (&out)[4]) {
    const int lane = threadIdx.x % 32, q = lane % 4, base = lane - q;
    const int first = ((q & 1) << 1) | (q >> 1);  // round one's source; round two's is first ^ 1
    float from_first[2], from_second[2];
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        from_first[i] = __shfl_sync(0xffffffffu, (q & 1) ? p1[i] : p0[i], base + first);
        from_second[i] = __shfl_sync(0xffffffffu, (q & 1) ? p0[i] : p1[i], base + (first ^ 1));
    }
    const bool swapped = (q >> 1) != 0;  // the second source holds the lower m
    out[0] = swapped ? from_second[0] : from_first[0];
    out[1] = swapped ? from_second[1] : from_first[1];
    out[2] = swapped ? from_first[0] : from_second[0];
    out[3] = swapped ? from_first[1] : from_second[1];
}

// Only the 8-m chunks [chunk_begin, chunk_end) of the tile's m where K is split across a cluster (a block's slice).
__device__ __forceinline__ void store_tile(const dims& d, const float (&acc)[ATOMS][ACC], c_t* C, index_t m0,
                                           index_t n0, int first_row, float alpha, float beta, int chunk_begin = 0,
                                           int chunk_end = BM / 8) {
    const index_t m_end = d.m();  // rows of C: a constant unless m is a run-time size
    const int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4;
#pragma unroll
    for (int t = 0; t < ATOMS; ++t) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const index_t n = n0 + first_row + 64 * t + 16 * warp + lane / 4 + 8 * half;
            const bool row_inside = n < d.n();
            if constexpr (QUAD_EXCHANGE) {
#pragma unroll
                for (int j = 0; j < BM / 8; j += 2) {
                    if (j < chunk_begin || j >= chunk_end) continue;  // the same for the whole warp
                    const float p0[2] = {acc[t][4 * j + 2 * half], acc[t][4 * j + 2 * half + 1]};
                    const float p1[2] = {acc[t][4 * j + 4 + 2 * half], acc[t][4 * j + 4 + 2 * half + 1]};
                    float run[4];
                    exchange_in_quad(p0, p1, run);  // every thread of the warp takes part, inside or not
                    const index_t m = m0 + 8 * j + 4 * (lane % 4);
                    if (row_inside && m < m_end)
                        epilogue_store<4>(C, d.c_offset(m, n), run, m_end - m < 4 ? (int)(m_end - m) : 4, alpha, beta);
                }
            } else {
                if (!row_inside) continue;
#pragma unroll
                for (int j = 0; j < BM / 8; ++j) {
                    const index_t m = m0 + 8 * j + 2 * (lane % 4);
                    if (m >= m_end || j < chunk_begin || j >= chunk_end) continue;
                    const float pair[2] = {acc[t][4 * j + 2 * half], acc[t][4 * j + 2 * half + 1]};
                    epilogue_store<2>(C, d.c_offset(m, n), pair, m_end - m < 2 ? 1 : 2, alpha, beta);
                }
            }
        }
    }
}

// As store_tile where the instruction's rows run along m: a thread's accumulator pairs are consecutive in n, so each
// value is stored alone. A warp's store then writes 8 consecutive m in each of 4 columns: whole 32-byte sectors of
// fp32 (TF32's output type), half ones of a 16-bit C (16-bit inputs turned for a narrow n, whose C is small).
__device__ __forceinline__ void store_tile_rows_along_m(const dims& d, const float (&acc)[ATOMS][ACC], c_t* C,
                                                        index_t m0, index_t n0, int first_row, float alpha,
                                                        float beta, int chunk_begin = 0, int chunk_end = WIDTH / 8) {
    const int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4;
#pragma unroll
    for (int t = 0; t < ATOMS; ++t) {
#pragma unroll
        for (int half = 0; half < 2; ++half) {
            const index_t m = m0 + first_row + 64 * t + 16 * warp + lane / 4 + 8 * half;
            if (m >= d.m()) continue;
#pragma unroll
            for (int j = 0; j < WIDTH / 8; ++j) {
                if (j < chunk_begin || j >= chunk_end) continue;
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    const index_t n = n0 + 8 * j + 2 * (lane % 4) + e;
                    const float value[1] = {acc[t][4 * j + 2 * half + e]};
                    if (n < d.n()) epilogue_store<1>(C, d.c_offset(m, n), value, 1, alpha, beta);
                }
            }
        }
    }
}

// The threads of one consumer warpgroup meet (named barrier 1 + consumer; 0 is __syncthreads').
__device__ __forceinline__ void consumer_sync(int consumer) {
    asm volatile("bar.sync %0, 128;" ::"r"(1 + consumer) : "memory");
}

// WGMMA_STORE 3: one staged box (its rows the consumer's columns n from n_first, each C_BOX_ELEMS elements of m from
// m_first, swizzled as the TMA would read them) copied out to C by the consumer's 128 threads: warp w takes rows w,
// w + 4, ..., its lanes consecutive elements of m, one each per store, as C's alignment allows no wider.
__device__ __forceinline__ void copy_box_out(const dims& d, c_t* C, const unsigned char* area, index_t m_first,
                                             index_t n_first) {
    const int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4;
    const index_t m_end = d.m(), n_end = d.n();
#pragma unroll 4
    for (int row = warp; row < CONSUMER_COLS; row += 4) {
        const index_t n = n_first + row;
        if (n >= n_end) break;  // rows ascend
#pragma unroll
        for (int e = lane; e < C_BOX_ELEMS; e += 32) {
            const int byte = e * C_BYTES;
            const c_t value = *reinterpret_cast<const c_t*>(area + swizzled_byte(row, byte));
            if (m_first + e < m_end) C[d.c_offset(m_first + e, n)] = value;
        }
    }
}

// One thread hands a round's STORE_ROUND_BOXES staged boxes (round buffer `buffer` of the consumer's staging area at
// shared address `staging_address`) to the TMA: box b to C's m from m0 + (first_box + b) * C_BOX_ELEMS, at column n of
// GEMM z.
__device__ __forceinline__ void hand_round_to_tma(const tma::tensor_map* map_c, unsigned staging_address, int buffer,
                                                  int m0, int first_box, int n, int z) {
#pragma unroll
    for (int b = 0; b < STORE_ROUND_BOXES; ++b) {
        const unsigned src = staging_address + (buffer * STORE_ROUND_BOXES + b) * C_BOX_BYTES;
        const int x = m0 + (first_box + b) * C_BOX_ELEMS;
        if constexpr (BATCH == 1) tma::store_2d(map_c, src, x, n);
        else tma::store_3d(map_c, src, x, n, z);
    }
    tma::store_commit();
}

// Opens a round of C's store through the TMA, in the consumer's two round buffers (BY_BOX) or its one: returns the
// buffer, once the TMA has read what was handed to it from there (the round before last; with one buffer, the last)
// and the consumer's threads have met, so that none writes into it before then.
template <bool BY_BOX>
__device__ __forceinline__ int open_tma_round(unsigned& rounds, bool issues, int consumer) {
    const int buffer = BY_BOX ? (int)(rounds++ % 2) : 0;
    if (issues) {
        if constexpr (BY_BOX) tma::store_wait_read<1>();
        else tma::store_wait_read<0>();
    }
    consumer_sync(consumer);
    return buffer;
}

// Closes a round: every thread's writes into the buffer visible to the TMA's reads, then one thread hands the round
// over (hand_round_to_tma's arguments).
__device__ __forceinline__ void close_tma_round(const tma::tensor_map* map_c, unsigned staging_address, int buffer,
                                                int m0, int first_box, int n, int z, bool issues, int consumer) {
    tma::fence_shared_to_async();
    consumer_sync(consumer);
    if (issues) hand_round_to_tma(map_c, staging_address, buffer, m0, first_box, n, z);
}

// Stores one consumer's accumulators of the tile at (m0, n0) of GEMM z through its staging area and the TMA. Each
// thread's pair (see store_tile) lands in its box's row n at its 16-byte chunk of m, the chunk's index XORed with
// n % 8 as the 128-byte swizzle places it: the eight rows a warp's store touches then fall on different banks.
// `staging` is the area's generic address, `staging_address` its shared one; C (the GEMM's) is read where beta asks.
// In rounds of STORE_ROUND_BOXES boxes; `rounds` counts this consumer's rounds over all its tiles, so that by box the
// buffers alternate across tiles too: a round waits until the TMA has read all but the latest round before it, which
// used the other buffer.
__device__ __forceinline__ void store_tile_through_tma(const dims& d, const float (&acc)[ATOMS][ACC], c_t* C,
                                                       const tma::tensor_map* map_c, unsigned char* staging,
                                                       unsigned staging_address, index_t m0, index_t n0, int z,
                                                       int consumer, int first_row, float alpha, float beta,
                                                       unsigned& rounds) {
    const int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4;
    const bool issues = threadIdx.x % 128 == 0;
    const index_t m_end = d.m(), n_end = d.n();
    constexpr int ROUND_J = STORE_ROUND_BOXES * C_BOX_ELEMS / 8;  // pairs' chunks of 8 m per thread and row, a round
#pragma unroll
    for (int round = 0; round < C_BOXES / STORE_ROUND_BOXES; ++round) {
        // Copied out by the threads, the buffer's previous boxes have left it once every thread has passed the meeting
        // after the box written since (below), which each thread reaches after its own copies.
        int buffer = 0;
        if constexpr (TMA_STORE) buffer = open_tma_round<STORE_BY_BOX>(rounds, issues, consumer);
        else if constexpr (STORE_BY_BOX) buffer = (int)(rounds++ % 2);
        unsigned char* const area = staging + buffer * STORE_ROUND_BOXES * C_BOX_BYTES;
#pragma unroll
        for (int t = 0; t < ATOMS; ++t) {
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int row = 64 * t + 16 * warp + lane / 4 + 8 * half;  // n within this consumer's columns
                const index_t n = n0 + first_row + row;
#pragma unroll
                for (int j = round * ROUND_J; j < (round + 1) * ROUND_J; ++j) {
                    const int m_in_tile = 8 * j + 2 * (lane % 4);
                    const index_t m = m0 + m_in_tile;
                    float pair[2] = {acc[t][4 * j + 2 * half], acc[t][4 * j + 2 * half + 1]};
                    // Outside C the values are never written (the TMA clips them): only C's reads for beta need the
                    // bounds (tested for every pair, they cost registers that the widest tiles then spilled).
                    if (BETA_MODE == 0 || (n < n_end && m < m_end)) {
                        if constexpr (BETA_MODE != 0 && ALIGN_C_ELEMS < 2) {  // C's values one by one
#pragma unroll
                            for (int e = 0; e < 2; ++e) {
                                float value[1] = {pair[e]};
                                if (e == 0 || m + 1 < m_end)
                                    epilogue_values<1>(C, d.c_offset(m + e, n), value, 1, alpha, beta, value);
                                pair[e] = value[0];
                            }
                        } else {
                            epilogue_values<2>(C, d.c_offset(m, n), pair, m_end - m < 2 ? 1 : 2, alpha, beta, pair);
                        }
                    }
                    const int byte = (m_in_tile % C_BOX_ELEMS) * C_BYTES;
                    const int box_in_round = m_in_tile / C_BOX_ELEMS - round * STORE_ROUND_BOXES;
                    const int offset = box_in_round * C_BOX_BYTES + swizzled_byte(row, byte);
                    store_typed_run<2>(reinterpret_cast<c_t*>(area + offset), 2, pair);
                }
            }
        }
        if constexpr (THREADS_COPY_C) {
            consumer_sync(consumer);
            copy_box_out(d, C, area, m0 + round * C_BOX_ELEMS, n0 + first_row);
            continue;
        }
        close_tma_round(map_c, staging_address, buffer, (int)m0, round * STORE_ROUND_BOXES, (int)n0 + first_row, z,
                        issues, consumer);
    }
}

// As store_tile_through_tma where the rows run along m (turned tiles): a thread's values are consecutive in n, so each
// goes to its box alone, at its m in the row of its n. The consumer's rows of the tile go out in rounds of C_ROUND_COLS
// columns (one box per C_BOX_ELEMS of its m), through two round buffers: a round waits until the TMA has read the round
// before last. A warp's writes of one value each (8 consecutive m in 4 rows n of the same parity) fall on different
// banks: the rows' swizzle XORs their 16-byte chunks with 4 different even or odd values.
__device__ __forceinline__ void store_turned_tile_through_tma(const dims& d, const float (&acc)[ATOMS][ACC], c_t* C,
                                                              const tma::tensor_map* map_c, unsigned char* staging,
                                                              unsigned staging_address, index_t m0, index_t n0, int z,
                                                              int consumer, int first_row, float alpha, float beta,
                                                              unsigned& rounds) {
    const int lane = threadIdx.x % 32, warp = (threadIdx.x / 32) % 4;
    const bool issues = threadIdx.x % 128 == 0;
    const index_t m_end = d.m(), n_end = d.n();
    constexpr int ROUND_J = C_ROUND_COLS / 8;  // 8-column groups of accumulators a round
#pragma unroll
    for (int round = 0; round < WIDTH / C_ROUND_COLS; ++round) {
        const int buffer = open_tma_round<true>(rounds, issues, consumer);
        unsigned char* const area = staging + buffer * STORE_ROUND_BOXES * C_BOX_BYTES;
#pragma unroll
        for (int t = 0; t < ATOMS; ++t) {
#pragma unroll
            for (int half = 0; half < 2; ++half) {
                const int row_m = 64 * t + 16 * warp + lane / 4 + 8 * half;  // m within this consumer's rows
                const index_t m = m0 + first_row + row_m;
                const int box_byte = (row_m / C_BOX_ELEMS) * C_BOX_BYTES;
                const int byte = (row_m % C_BOX_ELEMS) * C_BYTES;
#pragma unroll
                for (int j = round * ROUND_J; j < (round + 1) * ROUND_J; ++j) {
#pragma unroll
                    for (int e = 0; e < 2; ++e) {
                        const int column = 8 * (j - round * ROUND_J) + 2 * (lane % 4) + e;  // within the round
                        const index_t n = n0 + round * C_ROUND_COLS + column;
                        float value[1] = {acc[t][4 * j + 2 * half + e]};
                        // Outside C the TMA writes nothing: the bounds serve C's reads for beta alone.
                        if (BETA_MODE == 0 || (n < n_end && m < m_end))
                            epilogue_values<1>(C, d.c_offset(m, n), value, 1, alpha, beta, value);
                        store_typed_run<1>(reinterpret_cast<c_t*>(area + box_byte + swizzled_byte(column, byte)), 1,
                                           value);
                    }
                }
            }
        }
        close_tma_round(map_c, staging_address, buffer, (int)m0 + first_row, 0, (int)n0 + round * C_ROUND_COLS, z,
                        issues, consumer);
    }
}

// All consumer threads of the block meet (named barrier 1 + CONSUMERS, past consumer_sync's).
__device__ __forceinline__ void consumers_sync() {
    asm volatile("bar.sync %0, %1;" ::"r"(1 + CONSUMERS), "r"(128 * CONSUMERS) : "memory");
}

// Ping-pong's turns: consumer c gives the turn at named barrier 4 + c, which the other takes (128 threads each).
__device__ __forceinline__ void give_turn(int consumer) {
    asm volatile("bar.arrive %0, 256;" ::"r"(4 + consumer) : "memory");
}
__device__ __forceinline__ void take_turn(int consumer) {
    asm volatile("bar.sync %0, 256;" ::"r"(4 + (consumer ^ 1)) : "memory");
}

// Stream-K: the consumers of a block (all of them; named barrier 1 + CONSUMERS) leave their partial sums of its tile
// of a unit that other clusters share in the workspace and count themselves in; true in the last of the tile's blocks
// to arrive, whose accumulators then hold the tile's sums, added up in part order. `last` is the block's flag word;
// `rank`, the block's in its cluster: its tile of the unit.
__device__ __forceinline__ bool meet_partial_sums(float (&acc)[ATOMS][ACC], const k_shares::parts& shares, int rank,
                                                  void* workspace, volatile unsigned* last) {
    const int tid = rank * 128 * CONSUMERS + (int)threadIdx.x - 128;  // among the cluster's consumer threads
    // Float4 (i, j) of this thread's accumulators: vector i * SUM_COLS + j of them, in order (constant indices
    // once unrolled, so the accumulators stay in registers).
    const auto vector_at = [&](int i, int j) -> float* {
        const int v = 4 * (i * SUM_COLS + j);
        return &acc[v / ACC][v % ACC];
    };
    const auto own = [&](int i, int j) {
        const float* const a = vector_at(i, j);
        return make_float4(a[0], a[1], a[2], a[3]);
    };
    unsigned* const counters = static_cast<unsigned*>(workspace);
    k_shares::partials sums;
    sums.base = reinterpret_cast<float4*>(static_cast<unsigned char*>(workspace) +
                                          k_shares::counter_bytes(STREAM_UNITS_LEFT * CLUSTER)) + tid;
    sums.shares = shares;
    float4* const mine = sums.base + shares.slot(shares.mine) * k_shares::PARTIAL_VECTORS;
#pragma unroll
    for (int i = 0; i < SUM_ROWS; ++i)
#pragma unroll
        for (int j = 0; j < SUM_COLS; ++j) __stcg(mine + (i * SUM_COLS + j) * k_shares::THREADS_PER_SLOT, own(i, j));
    __threadfence();  // this thread's partials reach L2 before the count that announces them
    consumers_sync();
    if (threadIdx.x == 128) *last = count_in(counters + shares.tile * CLUSTER + rank, shares.count);
    consumers_sync();
    if (!*last) return false;
    __threadfence();  // the other blocks' partials, announced by their counts, are read after this
#pragma unroll
    for (int i = 0; i < SUM_ROWS; ++i) {
        float4 row[SUM_COLS];
        sums.sum_row(i, row);
#pragma unroll
        for (int j = 0; j < SUM_COLS; ++j) {
            float* const a = vector_at(i, j);
            a[0] = row[j].x;
            a[1] = row[j].y;
            a[2] = row[j].z;
            a[3] = row[j].w;
        }
    }
    return true;
}

// K split across a cluster: the consumers leave this block's partial sums in its ring (`sums`, generic; vector v of
// consumer thread t at v * 128 * CONSUMERS + t, so that a warp's stores and loads are contiguous), and after a
// cluster barrier each thread adds up, in rank order, the vectors of this block's slice of the instruction's width
// (chunks [split_first_chunk(split), split_first_chunk(split + 1))) from every block; a second barrier keeps every
// block's ring until all have read it.
// The producer warpgroup meets the same two barriers (cluster_barriers_of_the_producer).
__device__ __forceinline__ void meet_in_cluster(float (&acc)[ATOMS][ACC], float4* sums, int split) {
    const int tid = threadIdx.x - 128;  // among the consumers' threads
    // Both consumers are past their last instructions, which read the ring, before either overwrites it.
    consumers_sync();
#pragma unroll
    for (int v = 0; v < KSPLIT_VECTORS; ++v) {
        const float* const a = &acc[4 * v / ACC][4 * v % ACC];
        sums[v * 128 * CONSUMERS + tid] = make_float4(a[0], a[1], a[2], a[3]);
    }
    tma::cluster_sync();
    const unsigned base = shared_address(sums);
#pragma unroll
    for (int v = 0; v < KSPLIT_VECTORS; ++v) {
        const int chunk = 4 * v % ACC / 4;  // of the instruction's width: 8 m (or n) per 4 accumulators
        if (split_of_chunk(chunk) != split) continue;
        const unsigned address = base + (unsigned)(v * 128 * CONSUMERS + tid) * 16u;
        float4 sum = tma::load_cluster_shared4(address, 0);
#pragma unroll
        for (int p = 1; p < KSPLIT; ++p) {
            const float4 x = tma::load_cluster_shared4(address, (unsigned)p);
            sum = make_float4(sum.x + x.x, sum.y + x.y, sum.z + x.z, sum.w + x.w);
        }
        float* const a = &acc[4 * v / ACC][4 * v % ACC];
        a[0] = sum.x;
        a[1] = sum.y;
        a[2] = sum.z;
        a[3] = sum.w;
    }
    tma::cluster_sync();
}

// The producer warpgroup's side of meet_in_cluster: the same two cluster barriers.
__device__ __forceinline__ void cluster_barriers_of_the_producer() {
    __syncwarp();
    tma::cluster_sync();
    tma::cluster_sync();
}

// A consumer warpgroup: every tile of this block, its CONSUMER_ROWS rows of P of each (columns of C, or rows where the
// rows run along m). `map_c` serves WGMMA_STORE 1 and 2, `staging` (the consumer's staging area, generic) 1 to 3;
// `ring_memory` (the ring, generic) holds the partial sums where K is split across a cluster.
__device__ __forceinline__ void consume(const ring& r, int consumer, int rank, const jg_args& args,
                                        const tma::tensor_map* map_c, unsigned char* staging,
                                        volatile unsigned* last_flag, unsigned char* ring_memory) {
    const dims d{args};
    const unit_grid units(d);
    c_t* const C = static_cast<c_t*>(args.c);
    float acc[ATOMS][ACC];
    // P's values where P is read from registers: two stages' worth, in turn. The instructions of a stage read their
    // fragments' registers until wgmma.wait_group says they are done, after the next stage's fragments are loaded;
    // a single set, reloaded meanwhile, gave wrong sums on large problems.
    fragments p_values[2];
    const int first_row = PINGPONG ? 0 : consumer * CONSUMER_ROWS;
    const bool releases = threadIdx.x % 32 == 0;  // one arrival per warp frees a stage
    ring_position at;
    unsigned store_rounds = 0;  // C's rounds through the TMA so far (store_tile_through_tma)
    long long piece = 0;  // of this block's pieces, in order (ping-pong: consumer c takes those of parity c)
    // Frees a stage in this block (one arrival per warp) and, in a cluster of two, in the other, whose producer writes
    // this block's share of op(A) into it (one arrival per warpgroup: wgmma.wait_group has told every warp of it).
    const bool signals_peer = threadIdx.x % 128 == 0;
    const auto release = [&](int stage) {
        if (releases) tma::arrive(r.empty(stage));
        if constexpr (CLUSTER == 2)
            if (signals_peer) tma::arrive_remote(r.empty(stage), rank ^ 1);
    };
    for_each_piece(units, [&](index_t unit, int kb_begin, int kb_end, const k_shares::parts& shares) {
        if constexpr (PINGPONG) {
            const long long this_piece = piece++;
            if (this_piece % 2 != consumer) {
                at.skip(kb_end - kb_begin);
                return;
            }
            if (this_piece > 0) take_turn(consumer);  // the first piece has no tile before it
        }
        index_t m0, n0;
        int z;
        tile_origin(units, unit, rank, m0, n0, z);
        int previous = -1;
        // One stage. Where P is read from registers, its fragments go to `mine`, whose registers no instruction in
        // flight reads (the stage before last's, done); once the stage before is done, so may its fragments,
        // `before`, change.
        const auto step = [&](int kb, fragments& mine, fragments& before) {
            bulk::wait(r.full(at.stage), at.parity);
            if constexpr (P_IN_REGISTERS) load_fragments(mine, r.p_tile(at.stage), first_row);
            fence_operands();  // also orders the fragments' loads before the instructions that read them
            multiply_stage(acc, mine, r, at.stage, first_row, kb == kb_begin);
            commit();
            if (previous >= 0) {
                wait<1>();  // the stage before has been read: free it
                if constexpr (P_IN_REGISTERS) keep_until_here(before);
                release(previous);
            }
            previous = at.stage;
            at.advance();
        };
        if constexpr (P_IN_REGISTERS) {
            for (int kb = kb_begin; kb < kb_end; kb += 2) {
                step(kb, p_values[0], p_values[1]);
                if (kb + 1 < kb_end) step(kb + 1, p_values[1], p_values[0]);
            }
        } else {
            for (int kb = kb_begin; kb < kb_end; ++kb) step(kb, p_values[0], p_values[0]);
        }
        // Ping-pong: every stage of this tile waited for, the other consumer may start its next tile's (whole units
        // only: the next piece is the next unit) while these instructions finish and the tile is stored.
        if constexpr (PINGPONG)
            if (unit + unit_stride() < units.all) give_turn(consumer);
        wait<0>();
        if constexpr (P_IN_REGISTERS) {
            keep_until_here(p_values[0]);
            keep_until_here(p_values[1]);
        }
        release(previous);
        // A unit other blocks share is stored by the last of them to finish, with the sums of all.
        if constexpr (STREAM_K)
            if (shares.count > 1 && !meet_partial_sums(acc, shares, rank, args.workspace, last_flag)) return;
        c_t* const gemm_c = BATCH == 1 ? C : C + z * args.batch_stride_c;
        if constexpr (KSPLIT > 1) {
            const int split = block_split();
            meet_in_cluster(acc, reinterpret_cast<float4*>(ring_memory), split);
            if constexpr (ROWS_ALONG_M)
                store_tile_rows_along_m(d, acc, gemm_c, m0, n0, first_row, args.alpha, args.beta,
                                        split_first_chunk(split), split_first_chunk(split + 1));
            else
                store_tile(d, acc, gemm_c, m0, n0, first_row, args.alpha, args.beta, split_first_chunk(split),
                           split_first_chunk(split + 1));
            return;
        }
        if constexpr (STAGED_C && ROWS_ALONG_M)
            store_turned_tile_through_tma(d, acc, gemm_c, map_c, staging, r.staging(consumer), m0, n0, z, consumer,
                                          first_row, args.alpha, args.beta, store_rounds);
        else if constexpr (STAGED_C)
            store_tile_through_tma(d, acc, gemm_c, map_c, staging, r.staging(consumer), m0, n0, z, consumer,
                                   first_row, args.alpha, args.beta, store_rounds);
        else if constexpr (ROWS_ALONG_M)
            store_tile_rows_along_m(d, acc, gemm_c, m0, n0, first_row, args.alpha, args.beta);
        else
            store_tile(d, acc, gemm_c, m0, n0, first_row, args.alpha, args.beta);
    });
    // The block's shared memory, and the staging area in it, must outlive the TMA's last reads; and its writes are
    // the kernel's results.
    if constexpr (TMA_STORE)
        if (threadIdx.x % 128 == 0) tma::store_wait_all();
}

}  // namespace wgmma
}  // namespace jg

// C's tensor map follows A's and B's where C goes through the TMA (the host passes as many as the kernel takes).
extern "C" __global__ void __launch_bounds__(jg::wgmma::THREADS, 1)
    jg_wgmma(const __grid_constant__ jg_args args, const __grid_constant__ jg::tma::tensor_map map_a,
             const __grid_constant__ jg::tma::tensor_map map_b
#if WGMMA_STORE == 1 || WGMMA_STORE == 2
             , const __grid_constant__ jg::tma::tensor_map map_c
#endif
    ) {
    using namespace jg;
    using namespace jg::wgmma;
    extern __shared__ unsigned char shared[];
    // The swizzle pattern repeats every 1024 bytes and the descriptors assume tiles that start on such a boundary; the
    // host asks for 1024 bytes more than the ring and barriers need.
    const ring r{(shared_address(shared) + 1023) & ~1023u};
    const int warpgroup = threadIdx.x / 128;
    const int rank = CLUSTER > 1 ? (int)tma::cluster_rank() : 0;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            tma::barrier_init(r.full(s), 1);
            // An arrival per warp of the consumers that read the stage in this block, and per such consumer
            // warpgroup of the other block of a cluster.
            tma::barrier_init(r.empty(s), 4 * STAGE_READERS + STAGE_READERS * (CLUSTER - 1));
        }
        bulk::barrier_init_fence();
        tma::prefetch_map(&map_a);
        tma::prefetch_map(&map_b);
    }
#if WGMMA_STORE == 1 || WGMMA_STORE == 2
    const tma::tensor_map* const c_map = &map_c;
#else
    const tma::tensor_map* const c_map = nullptr;
#endif
    // In a cluster, the other block's copies and arrivals may name this block's barriers only once they exist.
    if constexpr (CLUSTER > 1) tma::cluster_sync();
    else __syncthreads();
    if (warpgroup == 0) {
        tma::release_registers<PRODUCER_REGISTERS>();
        if (threadIdx.x == 0) {
            // Launched as the pack's programmatic dependent (common/jg_pack.cuh) where operands are packed first, the
            // block may start before the copies are done: the producer, the one thread that reads A and B, waits.
            asm volatile("griddepcontrol.wait;" ::: "memory");
            produce(r, &map_a, &map_b, rank, args);
        }
        if constexpr (KSPLIT > 1) cluster_barriers_of_the_producer();
    } else {
        tma::claim_registers<CONSUMER_REGISTERS>();
        const int consumer = warpgroup - 1;
        unsigned char* const staging = shared + (r.staging(consumer) - shared_address(shared));
        volatile unsigned* const last_flag =
            reinterpret_cast<volatile unsigned*>(shared + (r.last_flag() - shared_address(shared)));
        consume(r, consumer, rank, args, c_map, staging, last_flag, shared + (r.base - shared_address(shared)));
    }
    // Neither block of a cluster leaves while the other may still arrive at its barriers.
    if constexpr (CLUSTER > 1) tma::cluster_sync();
}
