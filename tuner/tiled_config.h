// TiledConfig: the knobs of kernel_sources/tiled.cuh and the single place their constraints live.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/launch/launch_description.h"
#include "tuner/kernel_family.h"

namespace jitgemm {

struct TiledConfig {
    static constexpr Family kFamily = Family::Tiled;
    int t = 16;  // TILED_T: tile edge; T x T threads compute T x T outputs

    int threads() const { return t * t; }
    int shared_bytes() const { return 2 * t * (t + 1) * 4; }
    int estimated_registers() const { return 32; }

    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    LaunchGeometry geometry(const Problem& problem) const;

    std::string to_string() const;  // "tiled_t16"
    static std::optional<TiledConfig> parse(std::string_view name);

    friend bool operator==(const TiledConfig& x, const TiledConfig& y) { return x.t == y.t; }
};

}  // namespace jitgemm
