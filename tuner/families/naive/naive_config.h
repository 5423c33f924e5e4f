// The naive family (kernel_sources/naive.cuh): one thread per output. The GPU reference the tuner verifies every
// candidate against, the kernel of the degenerate calls (C = beta * C), and the last resort of the untuned default.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/families/family.h"

namespace jitgemm {

struct NaiveConfig {
    static constexpr std::string_view kName = "naive";
    static constexpr std::string_view kSourceHeader = "naive.cuh";
    static constexpr std::string_view kKernelSymbol = "jg_naive";
    static constexpr std::string_view kNameFormat = "naive_<BM>x<BN>";
    static constexpr std::string_view kDescription =
        "BM, BN: threads of a block along m and n (one output each); BM*BN a multiple of 32";

    int bm = 16;  // NAIVE_BM: threads of a block along m
    int bn = 16;  // NAIVE_BN: threads of a block along n

    int threads() const { return bm * bn; }
    int shared_bytes() const { return 0; }
    int estimated_registers() const { return 32; }

    std::string to_string() const;  // "naive_16x16"
    static std::optional<NaiveConfig> parse(std::string_view name);

    // Every element type: it converts to fp32 and sums in exact fp32.
    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    Problem kernel_problem(const Problem& problem) const { return problem; }
    LaunchDescription launch(const Problem& problem) const;
    std::string kernel_identity(const Problem&) const { return to_string(); }

    // Searched for fp32 problems computed exactly (the register-blocked family wins them, but a tiny problem may not
    // fill its tiles).
    static std::vector<NaiveConfig> enumerate(const Problem& problem, const DeviceInfo& device);
    std::vector<NaiveConfig> refinements(const Problem&, const DeviceInfo&) const { return {}; }
    // Two global loads per FFMA, mostly from L1/L2.
    CostEstimate estimate_cost(const Problem& problem, const DeviceInfo& device,
                               const DeviceCeilings& ceilings) const;
    // The default of defaults: any problem, any device.
    static std::optional<NaiveConfig> heuristic_default(const Problem& problem, const DeviceInfo& device);

    friend bool operator==(const NaiveConfig& x, const NaiveConfig& y) { return x.bm == y.bm && x.bn == y.bn; }
};

}  // namespace jitgemm
