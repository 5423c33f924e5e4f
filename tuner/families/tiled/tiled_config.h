// The shared-memory tiled family (kernel_sources/tiled.cuh): T x T threads compute a T x T tile of C from T x T
// tiles of op(A) and op(B) staged in shared memory, so each global element is read once per tile instead of once per
// output (traffic falls by a factor of T). fp32 only, computed exactly.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tuner/families/family.h"

namespace jitgemm {

struct TiledConfig {
    static constexpr std::string_view kName = "tiled";
    static constexpr std::string_view kSourceHeader = "tiled.cuh";
    static constexpr std::string_view kKernelSymbol = "jg_tiled";
    static constexpr std::string_view kNameFormat = "tiled_t<T>";
    static constexpr std::string_view kDescription = "T: tile edge, T x T threads and outputs per block, 2..32";

    int t = 16;  // TILED_T: tile edge; T x T threads compute T x T outputs

    int threads() const { return t * t; }
    int shared_bytes() const { return 2 * t * (t + 1) * 4; }
    int estimated_registers() const { return 32; }

    std::string to_string() const;  // "tiled_t16"
    static std::optional<TiledConfig> parse(std::string_view name);

    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    Problem kernel_problem(const Problem& problem) const { return problem; }
    LaunchDescription launch(const Problem& problem) const;
    std::string kernel_identity(const Problem&) const { return to_string(); }

    static std::vector<TiledConfig> enumerate(const Problem& problem, const DeviceInfo& device);
    std::vector<TiledConfig> refinements(const Problem&, const DeviceInfo&) const { return {}; }
    // Per k step and output: two shared-memory loads and one FFMA.
    CostEstimate estimate_cost(const Problem& problem, const DeviceInfo& device,
                               const DeviceCeilings& ceilings) const;
    // The fp32 default where no register-blocked tile fits the device.
    static std::optional<TiledConfig> heuristic_default(const Problem& problem, const DeviceInfo& device);

    friend bool operator==(const TiledConfig& x, const TiledConfig& y) { return x.t == y.t; }
};

}  // namespace jitgemm
