// The wgmma family (kernel_sources/wgmma/): Hopper's warpgroup Tensor Core instructions (wgmma.mma_async) fed by TMA
// copies into a ring of shared-memory stages, a producer warpgroup and one or two consumer warpgroups, over a
// persistent grid; fp16 and bf16 inputs to any output type, and fp32 inputs multiplied in TF32 to fp32; every
// transpose. WgmmaConfig holds its knobs and is the one place their constraints live. The TMA needs 16-byte aligned
// operands (pointer and leading dimension): misaligned ones are computed on packed copies. TF32's instruction reads
// an operand stored m- or n-contiguous only from registers, and one of the two must be k-contiguous: where neither is,
// one is packed into a k-contiguous copy first. Packing an operand that could be read where it is (transposed for
// TF32) is a knob the search measures like any other.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tuner/families/family.h"

namespace jitgemm {

struct WgmmaConfig {
    static constexpr std::string_view kName = "wgmma";
    static constexpr std::string_view kSourceHeader = "wgmma/wgmma.cuh";
    static constexpr std::string_view kKernelSymbol = "jg_wgmma";
    static constexpr std::string_view kNameFormat =
        "wgmma_<BM>x<BN>x<BK>_c<CONSUMERS>_s<S>_g<G>[_m][_x<CLUSTER>|_y<CLUSTER>][_k<KSPLIT>][_q<GRID>][_sk|_pp]"
        "[_p<PACK>][_ts|_tb|_tc]";
    static constexpr std::string_view kDescription =
        "Hopper Tensor Cores (wgmma.mma_async) fed by TMA, warp-specialized, for fp16 and bf16 inputs and fp32\n"
        "inputs with --compute tf32 (sm_90a).\n"
        "BM: rows of C per tile, the width of every instruction (a multiple of 16 up to 256: 64, 128, 192, 256,\n"
        "or one that fits a narrow m, 144 for 130 rows); BN: columns of C per tile, 64 per instruction row block\n"
        "(up to 256); m: the other way round for 16-bit inputs, the instructions' rows along m and their width\n"
        "along n (BN the width, BM 64 per instruction row block: a narrow n fits, 144 for 130 columns);\n"
        "BK: k depth of a stage (64, 128; 32, 64 for TF32);\n"
        "CONSUMERS: consumer warpgroups (1, 2, 3), each BN / CONSUMERS columns (3: of a 192-row tile, each at\n"
        "most 96 accumulators); S: shared-memory stages (2..8);\n"
        "G: tile rows per rasterization group; CLUSTER: blocks per cluster (x2: neighbouring tiles along n share\n"
        "their tile of A, each block loading half of it for both through TMA multicast; y2: neighbouring tiles\n"
        "along m share their tile of B the same way); KSPLIT: blocks of a\n"
        "cluster that share each tile, each over 1 / KSPLIT of its k, their partial sums met in distributed shared\n"
        "memory (2-8; one cluster per tile, C from the registers); GRID: a persistent grid\n"
        "of that many blocks, each looping over tiles (default: one block per tile); sk: stream-K over the\n"
        "persistent grid — the tiles past its whole waves are dealt out as equal runs of k blocks, their partial\n"
        "sums met in the workspace (a single-block cluster, an exact problem); pp: ping-pong — the two consumers\n"
        "take the block's tiles in turn, each a whole tile, one storing its tile while the other multiplies (c2);\n"
        "PACK: operands copied to an aligned workspace first, 1 A, 2 B, 3 both (the TMA needs 16-byte aligned\n"
        "pointers and leading dimensions; TF32 needs both operands k-contiguous, so an operand stored otherwise is\n"
        "copied transposed);\n"
        "ts: C stored through shared memory and the TMA (C 16-byte aligned), not from the registers; tb: the same,\n"
        "box by box through two 128-byte-wide box buffers per consumer instead of a staging area for the whole tile\n"
        "(more stages fit; turned tiles, m, round by round: 32 bytes of each of their columns a round); tc: box by\n"
        "box as tb, each box copied out to C by the consumers' threads in runs of\n"
        "one column (for a C the TMA cannot write: its pointer or leading dimension off 16 bytes)";

    // Whether the search tries K split across a cluster (_k): on since its first GPU run (session 34, H100: the
    // family's random shapes with splits of 2, 3, 4 and 8 correct; split in two, 4096 x 128 x 4096 ran 0.85-0.93x
    // cuBLAS where stream-K ran 0.67x; split in four, 0.62x: bench/results/2026-12-06-h100-s34.md).
    static constexpr bool kSearchesClusterSplit = true;
    // Whether the search tries instruction widths fitted to the shape (fitted_widths(), turned with _m where the
    // narrow side is n), and whether the untuned default takes a fitted tile across a narrow side (split in two). On
    // since their first GPU run (session 36, H100: the family's random shapes with 13 fitted and turned
    // configurations correct, compute-sanitizer clean; 4096 x 130 x 4096 bf16 1.00-1.03x cuBLAS where session 34's
    // default ran 0.76x, 130 x 4096 x 4096 tn 2.1x against 1.18x: bench/results/2026-12-07-h100-s36.md).
    static constexpr bool kSearchesFittedWidths = true;
    static constexpr bool kDefaultsToFittedTiles = true;
    // Whether the untuned default picks, among 256 x 128, 128 x 256 and 192 x 128 tiles, the one whose persistent
    // blocks take the fewest turns of work (wave_fitted_tile in wgmma_search.cpp). Off: measured mixed on the H100
    // (session 38, bench/NOTES.md): 7168 x 3072 8% faster, 6144 x 1528 6%, 5000 x 3000 11% slower, 4200 x 6000 in
    // 128 x 256 8% slower.
    static constexpr bool kDefaultsToWaveFittedTiles = false;
    // Whether the untuned default takes 192 x 256 tiles (192 accumulators a consumer thread, C from the registers)
    // where they take fewer turns of work than 256 x 128 by more than they lose a turn (paying_tiles in
    // wgmma_search.cpp says where and what they ran).
    static constexpr bool kDefaultsToDeepTiles = true;
    // Whether it also takes deep tiles narrower than 192 (W x 256, W from 144 to 176: two consumers of two instruction
    // rows W wide, C from the registers) on the same rule: cuBLAS's tiles of 1792 x 2552 tt and 5120^3 nt take the
    // turns of work these would (session 45's ncu). Off until they have run on a GPU (bench/shapes/deep_widths.txt).
    static constexpr bool kDefaultsToNarrowDeepTiles = false;
    // Whether it takes 192 x 192 tiles of three consumers (c3, C from the registers or, fp32, box by box) where they
    // take fewer turns of work than 256 x 128 by more than they lose a turn, at the rate a unit of area of
    // kThreeConsumersAreaCost against 256 x 128's (paying_tiles in wgmma_search.cpp says where and what they ran).
    static constexpr bool kDefaultsToThreeConsumers = true;
    static constexpr double kThreeConsumersAreaCost = 1.0;  // 4096^3 (4 turns of each): 1.004 (session 43)
    // Whether it takes 256 x W tiles turned (_m, W from 144 to 192 along n; C through the TMA round by round) where
    // they take fewer turns of work than 256 x 128 (paying_tiles in wgmma_search.cpp says where and what they ran).
    static constexpr bool kDefaultsToTurnedTiles = true;
    // Whether the untuned default's small one-consumer tiles (small_tile_default in wgmma_search.cpp) also serve 16-bit
    // GEMMs under a GFLOP with K of 256 and more, where they fill a wave; and whether whole small tiles over operands
    // off 128-byte lines go in cluster pairs, as the ladder's tiles do.
    static constexpr bool kDefaultsToSmallTilesUnderAGflop = true;
    static constexpr bool kPairsSmallTilesOffLines = true;
    // Whether the ladder's untuned default stages a C the TMA cannot write (off 16 bytes) and copies it out by the
    // threads (_tc) instead of storing it from the registers (wgmma_search.cpp says what it ran); and whether its
    // tiles go in cluster pairs over packed operands, as over operands off 128-byte lines.
    static constexpr bool kCopiesUnalignedC = true;
    static constexpr bool kPairsPackedOperands = true;
    // Whether its cluster pairs run along m, sharing op(B), where op(B) alone is off 128-byte lines (ladder_rung in
    // wgmma_search.cpp), as cuBLAS pairs 6144 x 1528 tt (session 42's ncu: 192 x 192 tiles, clusters 2 x 1); and
    // whether the search tries the pair along the other side as a refinement of every pair. On since their first GPU
    // run (session 44, H100, bench/shapes/pairs_along_m.txt, two alternated rounds): 6144 x 1528 x 6144 bf16 tt
    // (ldb 1528) in 192 x 192 pairs 0.1663 -> 0.1549 ms (0.88 -> 0.94-0.95x cuBLAS), 256 x 128 stream-K 0.175-0.184
    // -> 0.166; 1792 x 2552 x 4416 tt level (0.0712 -> 0.0704); where both operands are off lines, slower (3000 x
    // 5000 tn 0.097 -> 0.111, 4200 x 6000 nn 0.255 -> 0.261), so there the pair stays along n.
    static constexpr bool kPairsAlongMOverOffLinesB = true;
    static constexpr bool kSearchesPairsAlongM = true;
    // Whether a narrow n whose 128 x 128 tiles nearly make a wave takes whole tiles of an instruction width fitted to
    // a wave along m (heuristic_default says where and what they ran) instead of stream-K.
    static constexpr bool kDefaultsToWaveFittedWidths = true;
    // Whether the ladder's untuned default deals out the units left after its whole waves (stream-K, _sk, in its
    // cluster shape) where they would fill at most a quarter of a last turn whose idle part is long enough to pay for
    // it (sparse_last_turn in wgmma_search.cpp says where and what it ran); and whether the search tries stream-K
    // there too, in single blocks and in cluster pairs.
    static constexpr bool kDealsOutASparseLastTurn = true;
    static constexpr bool kSearchesSparseLastTurns = true;
    // That tile, {bm, bn}: for the turns, the tiles over the device's SMs rounded up (wgmma_search.cpp says why).
    static std::pair<int, int> wave_fitted_tile(const Problem& problem, const DeviceInfo& device);
    // Up to three instruction widths, multiples of 16 up to 256 other than 64's, that cover C's `extent` along them
    // with fewer padded rows than any of 64, 128, 192 and 256 does — fewest first, the wider of a tie first, 16 only
    // for a side of 16 or fewer (130: 144, 48, 80; 4096: none).
    static std::vector<int> fitted_widths(std::int64_t extent);
    // Whether the search also tries instruction widths fitted to whole waves (wave_fitted_widths()), as cuBLAS's
    // kernels do (session 42's ncu, bench/results/2026-12-07-h100-s42-call1-cublas-kernels.txt: 256 x 160 tiles for
    // 8192 x 2552, 192 x 208 for 4200 x 6000, 256 x 152 for 3000 x 5000, 192 x 96 for 1536^2).
    static constexpr bool kSearchesWaveFittedWidths = true;
    // Up to two instruction widths, multiples of 16 from 80 to 256 other than 64's, whose tiles across C's `extent`
    // (along the instructions' width) times `other_tiles` (across the other side, and the batch) take the persistent
    // grid's `blocks` no more turns of work than 128, 192 or 256 do — turns (tiles over blocks, rounded up) times the
    // width —, least work first, the wider of a tie first. On 132 SMs, 6144 x 1528 in 256-row tiles along n (6 of
    // them): 144 (43 x 6 tiles, 2 turns: 288 of width) before 96, where 192's take 2 turns of 192 (384); 1536^2 in
    // 128-row tiles: 144 (11 x 12 tiles, one turn), then 160; 4096^2 in 256-row tiles: none (256's 16 x 16 take 2
    // turns of 256, as many as any narrower width's).
    static std::vector<int> wave_fitted_widths(std::int64_t extent, std::int64_t other_tiles, int blocks);
    // Three consumer warpgroups (c3), one 64-row instruction block each of a 192-row tile: the shape of cuBLAS's
    // 192 x 192 tiles (6144 x 1528, session 42's ncu: 256 tiles, 2 turns where 256 x 128 takes 3). Each of the three
    // gets 152 registers (setmaxnreg), room for at most kMostAccumulatorsOfThree accumulators beside its addresses.
    // Whether the search tries them (192-row tiles).
    static constexpr int kMostAccumulatorsOfThree = 96;
    static constexpr bool kSearchesThreeConsumers = true;

    int bm = 256;       // WGMMA_BM: rows of C per tile, the N of every wgmma instruction
    int bn = 128;       // WGMMA_BN: columns of C per tile
    int bk = 64;        // WGMMA_BK: k depth of one stage, in elements (128 or 256 bytes of each tile row)
    int consumers = 2;  // WGMMA_CONSUMERS: consumer warpgroups
    int stages = 4;     // WGMMA_STAGES: shared-memory stages of the ring
    int group = 8;      // WGMMA_GROUP: tile rows per rasterization group
    int cluster = 1;    // WGMMA_CLUSTER: blocks per cluster, sharing op(A) through multicast
    bool pairs_m = false;  // WGMMA_CLUSTER_M (_y): the cluster's tiles neighbour along m and share op(B) instead
    int ksplit = 1;     // WGMMA_KSPLIT: blocks of a cluster that split each tile's K (1: none)
    int grid = 0;       // blocks of a persistent grid (0: one block per tile); the host's choice, not a macro
    int pack = 0;       // operands copied to an aligned workspace first (common/jg_pack*.cuh): bit 0 A, bit 1 B
    bool tma_store = false;  // WGMMA_STORE: C through a staging area in shared memory and the TMA
    bool store_by_box = false;  // WGMMA_STORE 2 (with tma_store): box by box through two box buffers per consumer
    // WGMMA_STORE 3 (not with tma_store): C staged box by box as for store_by_box and copied out by the consumers'
    // threads, for a C the TMA cannot write (off 16 bytes)
    bool copied_store = false;
    bool stream_k = false;   // WGMMA_STREAMK (the grid): the last wave's k blocks dealt out among the grid's blocks
    bool pingpong = false;   // WGMMA_PINGPONG: two consumers take whole tiles in turn instead of splitting each
    bool rows_m = false;     // WGMMA_ROWS_M: 16-bit inputs with the instructions' rows along m, their width along n

    int threads() const { return 128 * (consumers + 1); }
    // The tiles of a cluster's unit along m and along n (the kernel's CLUSTER_M and CLUSTER_N): a pair's two tiles
    // neighbour along n, or along m with pairs_m; each block loads 1 / cluster_n() of op(A) and 1 / cluster_m() of
    // op(B).
    int cluster_m() const { return pairs_m ? cluster : 1; }
    int cluster_n() const { return pairs_m ? 1 : cluster; }
    // The consumers that read one stage and split its tile: all of them, or in ping-pong the one whose tile it is.
    int stage_readers() const { return pingpong ? 1 : consumers; }
    // Whether the kernel's instructions run their rows along C's m rather than along n: by choice (rows_m, 16-bit
    // inputs), or where the layout leaves no other way (forced_rows_along_m: TF32 with op(A) stored m-contiguous, read
    // from registers); `problem` as the kernel computes it (kernel_problem()).
    bool rows_along_m(const Problem& kernel_problem) const { return rows_m || forced_rows_along_m(kernel_problem); }
    static bool forced_rows_along_m(const Problem& kernel_problem);
    // The instruction's width (its N, BM or, with rows along m, BN) and its rows per consumer (BN or BM over the
    // consumers that split a tile) for `problem` as the kernel computes it.
    int instruction_width(const Problem& kernel_problem) const { return rows_along_m(kernel_problem) ? bn : bm; }
    int consumer_rows(const Problem& kernel_problem) const {
        return (rows_along_m(kernel_problem) ? bm : bn) / stage_readers();
    }
    // Accumulators per consumer thread: (rows per consumer / 64) instruction row blocks of width / 2.
    int accumulators(const Problem& kernel_problem) const {
        return consumer_rows(kernel_problem) / 64 * instruction_width(kernel_problem) / 2;
    }
    // Registers per consumer thread that hold the instruction's A operand read through registers (TF32 with it stored
    // m- or n-contiguous): two stages' fragments, 4 per 64-row block and k step of 8; 0 where it is read from shared
    // memory.
    int fragment_registers(const Problem& kernel_problem) const;
    // The element size of the problem's inputs: 2 (fp16, bf16) or 4 (fp32 as TF32).
    static int element_bytes(const Problem& problem);
    // C's boxes where it goes through the TMA: 128 bytes of m by a consumer's columns; per consumer, the tile's
    // (bm / (128 / C's element size)) of them, and the buffers its staging area holds: as many, or two box by box.
    static int c_box_elements(const Problem& problem) { return 128 / size_of(problem.c_type); }
    int c_boxes(const Problem& problem) const { return bm / c_box_elements(problem); }
    int staging_boxes(const Problem& problem) const { return store_by_box || copied_store ? 2 : c_boxes(problem); }
    // With the rows along m (rows_m) a consumer's rows of C go to the TMA in rounds of this many columns n: 32 bytes of
    // each of its m's columns, through two round buffers (kernel_sources/wgmma/wgmma.cuh, C_ROUND_COLS).
    static int turned_round_columns(const Problem& problem) { return 32 / size_of(problem.c_type); }
    // Whether C goes through a staging area in shared memory: to the TMA, or copied out by the threads.
    bool staged_store() const { return tma_store || copied_store; }
    // Bytes of C's staging area per consumer that stores a tile of its own (both, splitting one, or in ping-pong each
    // its own): its staging_boxes() of a consumer's columns, or, with the rows along m, two rounds of its rows.
    int consumer_staging_bytes(const Problem& problem) const {
        if (!staged_store()) return 0;
        if (rows_m) return 2 * consumer_rows(problem) * turned_round_columns(problem) * size_of(problem.c_type);
        return staging_boxes(problem) * (bn / stage_readers()) * 128;
    }
    // The ring, C's staging area, a full and an empty barrier per stage, stream-K's flag word, and 1024 bytes to align
    // the ring to the swizzle's period.
    int shared_bytes(const Problem& problem) const {
        return ring_bytes(problem) + consumers * consumer_staging_bytes(problem) + 16 * stages + (stream_k ? 16 : 0) +
               1024;
    }
    // The ring's stages alone (where K is split across a cluster, the partial sums meet in it).
    int ring_bytes(const Problem& problem) const {
        return stages * (tile_rows(problem, 0) + tile_rows(problem, 1)) * bk * element_bytes(problem);
    }
    // Rows of op(A) (operand 0) or op(B)^T (1) in one stage: bm or bn, or, where the kernel reads the operand stored m-
    // or n-contiguous, in boxes of 128 bytes of m or n, rounded up to whole boxes (an 80-wide tile's second box holds
    // 16 rows the instructions read).
    int tile_rows(const Problem& problem, int operand) const;
    // Stream-K: the grid's clusters, among which the runs are dealt out; the units past their whole waves, whose k
    // blocks are dealt out; and the most of them one cluster's run reaches into (its blocks' workspace slots).
    std::int64_t stream_clusters() const;
    std::int64_t stream_units_left(const Problem& problem) const;
    std::int64_t stream_segments(const Problem& problem) const;
    std::int64_t tiles(const Problem& problem) const;
    // Units of work: one tile per block of a cluster (a cluster of two takes neighbouring tiles along n).
    std::int64_t units(const Problem& problem) const;
    std::int64_t blocks(const Problem& problem) const;

    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    LaunchDescription launch(const Problem& problem) const;
    // The operands copied to aligned copies first (launch()'s packs), without building the launch's tensor maps.
    std::vector<OperandPack> packs(const Problem& problem) const;
    // The mask of operands (bit 0 A, bit 1 B) the kernel cannot read where they are, which pack must include: those
    // whose pointer or leading dimension the TMA cannot take (not 16-byte aligned) and, in TF32 where neither operand
    // is stored k-contiguous, A (copied k-contiguous; B is then read through registers).
    static int operands_to_pack(const Problem& problem);
    // The 16-bit operands (bit 0 A, bit 1 B) of a single GEMM whose columns start off 128-byte lines: a leading
    // dimension of bytes not a multiple of 128, so that each 128-byte row of a TMA box spans two lines.
    static int operands_off_lines(const Problem& problem);
    // The TF32 operands stored m- or n-contiguous (bit 0 A, bit 1 B) that the kernel could read through registers or
    // from a packed k-contiguous copy: the search's choice. 0 for 16-bit inputs.
    static int transposable_operands(const Problem& problem);
    Problem kernel_problem(const Problem& problem) const;
    // Why C cannot go through the TMA (_ts) for this kernel problem (its layout: the TMA writes whole aligned 16-byte
    // chunks of C's columns, and C is stored from registers where the rows run along m), or nullopt.
    static std::optional<Rejection> tma_store_rejection(const Problem& kernel_problem);
    // Sets the store the search starts from: C through the TMA wherever its layout takes it, a 16-bit tile staged
    // whole (_ts), an fp32 tile box by box (_tb) where it has more than two boxes (a whole fp32 256 x 128 tile would
    // take 128 KB of staging, leaving the ring two stages), a turned tile (_m) round by round (_tb; on the H100,
    // session 44, 3-19% faster than value by value from the registers on the four shapes measured); a single GEMM's C
    // that the TMA cannot write staged box by box and copied out by the threads (_tc); else from the registers.
    void start_store(const Problem& kernel_problem);
    std::string kernel_identity(const Problem&) const { return to_string(); }

    // Tiles, depths, the two deepest stage counts that fit, consumers and clusters of one and two, at group 8, one
    // block per tile and a persistent grid of one block per SM, two consumers splitting tiles or in ping-pong; C
    // through the TMA where its layout takes it (start_store(); session 22: the 10 s searches of the H200's 16-bit
    // targets picked it for 14 of the 15 rows it can store, reaching it as a refinement; session 31: an fp32 C box by
    // box 3-7% faster than from the registers; the store from registers is now the refinement); misaligned problems
    // packed first.
    static std::vector<WgmmaConfig> enumerate(const Problem& problem, const DeviceInfo& device);
    // Other rasterization groups and stage counts, the other grid (persistent or one block per tile), the other
    // cluster size, the other way of storing C (through the TMA with as many stages as then fit, or from the
    // registers), and the other schedule of two consumers with as many accumulators each (ping-pong on half the
    // tile, or splitting one twice as large).
    std::vector<WgmmaConfig> refinements(const Problem& problem, const DeviceInfo& device) const;
    CostEstimate estimate_cost(const Problem& problem, const DeviceInfo& device,
                               const DeviceCeilings& ceilings) const;
    // On sm_90a, 16-bit and TF32 problems of at least a GFLOP with K >= 256 whose tiles fill the SMs: 256 x 128 tiles
    // (BM x BN; 128 x 128 where those are too few), two consumers, 128-byte k rows, the deepest ring, a persistent grid
    // of one block per SM; the operands of operands_to_pack() packed first (TF32 operands across k otherwise read
    // through registers). Measured on the H200 at 0.94-1.02x cuBLAS on the large 16-bit shapes of
    // bench/shapes/wgmma_targets.csv (bench/results/2026-12-04-h200-s15-wgmma.md); TF32 4096^3 nn 0.96x through
    // registers (bench/results/2026-12-05-h200-s20.md). Where 128 x 128 tiles leave a quarter of the SMs idle (16-bit,
    // narrow side 64 or more, an exact problem): one-consumer 128 x 64 or 64 x 64 tiles that fill a wave, else 64-row
    // tiles with K split across a cluster of two (H100, bench/results/2026-12-06-h100-s34.md: 0.77-1.12x cuBLAS on the
    // skinny shapes where the mma.sync default ran 0.42-0.94x).
    static std::optional<WgmmaConfig> heuristic_default(const Problem& problem, const DeviceInfo& device);

    std::string to_string() const;
    static std::optional<WgmmaConfig> parse(std::string_view name);

    friend bool operator==(const WgmmaConfig& x, const WgmmaConfig& y) {
        return x.bm == y.bm && x.bn == y.bn && x.bk == y.bk && x.consumers == y.consumers && x.stages == y.stages &&
               x.group == y.group && x.cluster == y.cluster && x.pairs_m == y.pairs_m && x.ksplit == y.ksplit &&
               x.grid == y.grid &&
               x.pack == y.pack &&
               x.tma_store == y.tma_store && x.store_by_box == y.store_by_box &&
               x.copied_store == y.copied_store && x.stream_k == y.stream_k &&
               x.pingpong == y.pingpong && x.rows_m == y.rows_m;
    }
};

// Whether the wgmma family computes this problem's types on this device: fp16 or bf16 inputs, or fp32 inputs with TF32
// allowed and an fp32 output, on compute capability 9.0 (the sm_90a target, where wgmma and setmaxnreg exist).
bool is_wgmma_problem(const Problem& problem, const DeviceInfo& device);

}  // namespace jitgemm
