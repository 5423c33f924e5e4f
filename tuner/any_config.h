// AnyConfig: a candidate of any family, and the family-independent operations on it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "runtime/compile/kernel_program.h"
#include "runtime/launch/launch_description.h"

#include "tuner/mma_config.h"
#include "tuner/naive_config.h"
#include "tuner/regblock_config.h"
#include "tuner/tiled_config.h"

namespace jitgemm {

using AnyConfig = std::variant<NaiveConfig, TiledConfig, RegBlockConfig, MmaConfig>;

Family family_of(const AnyConfig& config);
std::string to_string(const AnyConfig& config);
// Any family's canonical name; nullopt when no family parses it.
std::optional<AnyConfig> parse_config(std::string_view name);
// Why `config` cannot compute `problem` on `device` (element types, knobs, the device's limits), or nullopt.
std::optional<Rejection> validate(const AnyConfig& config, const Problem& problem, const DeviceInfo& device);
KnobDefines knob_defines(const AnyConfig& config);
LaunchGeometry launch_geometry(const AnyConfig& config, const Problem& problem);
// The problem the kernel is specialized for: `problem` itself, except where the config packs operands to an aligned
// copy first (their leading dimension and alignment are the copy's).
Problem kernel_problem(const AnyConfig& config, const Problem& problem);
// The NVRTC program of `config` for `problem` on `arch`: the family's kernel specialized for kernel_problem().
KernelProgram kernel_program(const AnyConfig& config, const Problem& problem, const std::string& arch);

}  // namespace jitgemm
