// RegBlockConfig: the knobs of kernel_sources/regblock.cuh and the single place their constraints live
// (the kernel's static_asserts repeat them only as a last line of defence).
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

struct RegBlockConfig {
    static constexpr Family kFamily = Family::RegBlock;
    int bm = 128;    // RB_BM: rows of C per block
    int bn = 128;    // RB_BN: columns of C per block
    int bk = 8;      // RB_BK: depth of one shared-memory tile
    int tm = 8;      // RB_TM: rows of C per thread
    int tn = 8;      // RB_TN: columns of C per thread
    int vec = 4;     // RB_VEC: widest global load in floats (1, 2, 4)
    int stages = 2;  // RB_STAGES: shared-memory buffers (1, 2)
    int group = 8;   // RB_GROUP: tile rows per rasterization group

    int threads() const { return (bm / tm) * (bn / tn); }
    int shared_bytes() const { return stages * bk * ((bm + 4) + (bn + 4)) * 4; }
    // Accumulators, the operand fragments, the staged next tile, and about 24 for addresses and loop state.
    int estimated_registers() const;

    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    LaunchGeometry geometry(const Problem& problem) const;

    std::string to_string() const;  // "regblock_128x128x8_t8x8_v4_s2_g8"
    static std::optional<RegBlockConfig> parse(std::string_view name);

    friend bool operator==(const RegBlockConfig& x, const RegBlockConfig& y) {
        return x.bm == y.bm && x.bn == y.bn && x.bk == y.bk && x.tm == y.tm && x.tn == y.tn && x.vec == y.vec &&
               x.stages == y.stages && x.group == y.group;
    }
};

}  // namespace jitgemm
