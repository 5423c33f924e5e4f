// The kernel families, what a candidate's check can reject it for, and the launch shape every family reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jitgemm {

enum class Family {
    Naive,     // kernel_sources/naive.cuh: one thread per output, the GPU reference
    Tiled,     // kernel_sources/tiled.cuh: T x T shared-memory tiles
    RegBlock,  // kernel_sources/regblock.cuh: register-blocked outer product, double-buffered
    Mma,       // kernel_sources/mma.cuh: Tensor Core mma.sync, ldmatrix, cp.async pipeline (fp16, bf16, TF32)
};

std::string_view to_string(Family);
std::optional<Family> parse_family(std::string_view);

// The embedded header that holds a family's kernel, and the kernel's (extern "C") symbol.
std::string_view source_header(Family);
std::string_view kernel_symbol(Family);

// Why a candidate cannot run, by the rule that removed it (counted per rule in the tuner's debug output).
enum class PruneRule {
    Dtype,         // the family does not compute the problem's element and compute types
    Knobs,         // the knobs contradict each other (a thread tile that does not divide the block tile, ...)
    Threads,       // more threads per block than the device allows
    SharedMemory,  // more shared memory per block than the device allows, even with opt-in
    Registers,     // estimated registers per thread or per block above the device's limits
    Occupancy,     // not one block fits on an SM
    Duplicate,     // the same kernel as an earlier candidate once vector widths are narrowed to the alignment
    Waves,         // less than half the wave efficiency (tiles / resident slots) of the best candidate
    Model,         // the cost model puts it above 2x the best candidate's time
};

std::string_view to_string(PruneRule);

struct Rejection {
    PruneRule rule;
    std::string reason;
};

// An operand copied to an aligned workspace before the GEMM kernel runs (kernel_sources/jg_pack.cuh): `rows`
// elements along its contiguous dimension in each of `cols` columns, from leading dimension ld_from to ld_to (the
// copy's column length), in cols_to columns (cols, or more: the copy's are zero past cols). `tiled`: the copy's
// chunks are laid out tile by tile for the Tensor Core family's bulk copies (kernel_sources/mma_bulk_pack.cuh, whose
// tiles cover ld_to x cols_to), not column by column.
struct OperandPack {
    int operand = 0;  // 0: A, 1: B (of the canonical problem)
    std::int64_t rows = 0, cols = 0, ld_from = 0, ld_to = 0, cols_to = 0;
    int element_bytes = 2;
    bool tiled = false;
    std::int64_t bytes() const { return cols_to * ld_to * element_bytes; }
};

// 1-D grid of 1-D blocks; every family linearizes its tiles into blockIdx.x. `packs` lists the operands to copy to
// aligned workspace first (none for most kernels). Every kernel takes (A, B, C, alpha, beta); the Tensor Core
// family's takes a sixth, its scratch (split-K partial sums): `scratch_bytes` of stream-ordered workspace, of which
// the first `scratch_zeroed_bytes` are zeroed before the launch (none when scratch_bytes is 0).
struct LaunchGeometry {
    std::uint32_t grid = 0;
    std::uint32_t block = 0;
    std::uint32_t dynamic_shared_bytes = 0;
    std::vector<OperandPack> packs;
    std::int64_t scratch_bytes = 0;
    std::int64_t scratch_zeroed_bytes = 0;
};

// Knob macros of a family as NVRTC -D definitions, e.g. {"RB_BM", 128}.
using KnobDefines = std::vector<std::pair<std::string, long long>>;

}  // namespace jitgemm
