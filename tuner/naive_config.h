// NaiveConfig: the knobs of kernel_sources/naive.cuh and the single place their constraints live.
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

struct NaiveConfig {
    static constexpr Family kFamily = Family::Naive;
    int bm = 16;  // NAIVE_BM: threads of a block along m
    int bn = 16;  // NAIVE_BN: threads of a block along n

    int threads() const { return bm * bn; }
    int shared_bytes() const { return 0; }
    int estimated_registers() const { return 32; }

    // The reason this configuration cannot compute `problem` on `device`, or nullopt.
    std::optional<Rejection> validate(const Problem& problem, const DeviceInfo& device) const;
    KnobDefines defines() const;
    LaunchGeometry geometry(const Problem& problem) const;

    std::string to_string() const;  // "naive_16x16"
    static std::optional<NaiveConfig> parse(std::string_view name);

    friend bool operator==(const NaiveConfig& x, const NaiveConfig& y) { return x.bm == y.bm && x.bn == y.bn; }
};

}  // namespace jitgemm
