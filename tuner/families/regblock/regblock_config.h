// The register-blocked family (kernel_sources/regblock.cuh): a block computes a BM x BN tile of C, each thread a
// TM x TN outer product held in registers, over BK-deep tiles of op(A) and op(B) staged in shared memory, double
// buffered. fp32 only, computed exactly. This type is the single place its constraints live (the kernel's
// static_asserts repeat them only as a last line of defence).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/families/family.h"

namespace jitgemm {

struct RegBlockConfig {
    static constexpr std::string_view kName = "regblock";
    static constexpr std::string_view kSourceHeader = "regblock.cuh";
    static constexpr std::string_view kKernelSymbol = "jg_regblock";
    static constexpr std::string_view kNameFormat = "regblock_<BM>x<BN>x<BK>_t<TM>x<TN>_v<V>_s<S>_g<G>[_k<SPLITS>]";
    static constexpr std::string_view kDescription =
        "BM, BN: block tile of C; BK: k depth of a shared-memory tile; TM, TN: outputs per thread;\n"
        "V: widest global load in floats (1, 2, 4); S: shared-memory stages (1, 2);\n"
        "G: tile rows per rasterization group; SPLITS: blocks per tile, each over its share of K (split-K, TM a "
        "multiple of 4)";

    int bm = 128;    // RB_BM: rows of C per block
    int bn = 128;    // RB_BN: columns of C per block
    int bk = 8;      // RB_BK: depth of one shared-memory tile
    int tm = 8;      // RB_TM: rows of C per thread
    int tn = 8;      // RB_TN: columns of C per thread
    int vec = 4;     // RB_VEC: widest global load in floats (1, 2, 4)
    int stages = 2;  // RB_STAGES: shared-memory buffers (1, 2)
    int group = 8;   // RB_GROUP: tile rows per rasterization group
    int splits = 1;  // RB_SPLITS: blocks per tile of C, each over its own share of K (partial sums in the workspace)

    int threads() const { return (bm / tm) * (bn / tn); }
    int shared_bytes() const { return stages * bk * ((bm + 4) + (bn + 4)) * 4; }
    // Accumulators, the operand fragments, the staged next tile, and about 24 for addresses and loop state; under
    // split-K at least the accumulators and one column of every split's partial sums, which the last block holds.
    int estimated_registers() const;

    std::string to_string() const;  // "regblock_128x128x8_t8x8_v4_s2_g8"
    static std::optional<RegBlockConfig> parse(std::string_view name);

    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    Problem kernel_problem(const Problem& problem) const { return problem; }
    LaunchDescription launch(const Problem& problem) const;
    // The vector width narrowed to what the operands' alignment allows, as the kernel narrows it.
    std::string kernel_identity(const Problem& problem) const;

    // Block tiles, thread tiles, k depth (vector width 4, narrowed by the kernel; 2 stages; group 8), and split-K
    // counts where the tiles are too few for the SMs.
    static std::vector<RegBlockConfig> enumerate(const Problem& problem, const DeviceInfo& device);
    // Other groups, the other stage count, a narrower vector width, and a split winner's neighbouring counts.
    std::vector<RegBlockConfig> refinements(const Problem& problem, const DeviceInfo& device) const;
    // Issue slots per k step and thread: TM*TN FFMAs, the fragment loads (one per 4-wide run), the thread's share of
    // the global loads and shared stores of the next tile, and about two of loop and address arithmetic; split-K
    // blocks each do their share of the k tiles, and the partial sums cross L2 twice.
    CostEstimate estimate_cost(const Problem& problem, const DeviceInfo& device,
                               const DeviceCeilings& ceilings) const;
    // Largest first: bigger tiles reuse more, as long as there are enough of them to occupy the GPU.
    static std::optional<RegBlockConfig> heuristic_default(const Problem& problem, const DeviceInfo& device);

    friend bool operator==(const RegBlockConfig& x, const RegBlockConfig& y) {
        return x.bm == y.bm && x.bn == y.bn && x.bk == y.bk && x.tm == y.tm && x.tn == y.tn && x.vec == y.vec &&
               x.stages == y.stages && x.group == y.group && x.splits == y.splits;
    }
};

}  // namespace jitgemm
