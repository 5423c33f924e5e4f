// The device-resource rules every family's validate() applies after its own knob rules: threads per block, shared
// memory per block (with or without opt-in), estimated registers, and at least one block per SM. Also the 1-D grid
// every family launches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"
#include "runtime/launch/launch_description.h"
#include "tuner/families/common/rejection.h"

namespace jitgemm {

// `optin_shared` says whether the family's kernel uses dynamic shared memory and may opt in above the default
// per-block limit.
std::optional<Rejection> check_resources(const DeviceInfo& device, int threads, int registers_per_thread,
                                         int shared_bytes, bool optin_shared);

// The SIMT families' element-type rule: fp32 A, B and C (computed exactly, also where TF32 is allowed).
std::optional<Rejection> require_fp32_inputs_and_output(const Problem& problem);

// Whether the SIMT families search this problem: fp32 inputs computed exactly (a problem that allows TF32 is
// searched on the Tensor Cores).
bool is_simt_problem(const Problem& problem);

// The bm x bn tiles that cover one GEMM's C, partial tiles at its edges included (a batch multiplies them).
inline std::int64_t tiles_of_c(const Problem& problem, std::int64_t bm, std::int64_t bn) {
    return ((problem.m + bm - 1) / bm) * ((problem.n + bn - 1) / bn);
}

// Whether rasterization groups of `a` and of `b` tile rows put the blocks over C's bm x bn tiles in one order
// (kernel_sources/common/jg_problem.cuh: tile_of_block): every group size does where C is one row or one column of
// tiles (a decode step, a small problem), and every size of at least C's tile rows does. The families' refinements
// skip a group size that would change nothing but the cubin (9 of the 60 candidates of a 7x7x7 search on the H100).
inline bool same_tile_order(const Problem& problem, std::int64_t bm, std::int64_t bn, int a, int b) {
    const std::int64_t tiles_m = (problem.m + bm - 1) / bm, tiles_n = (problem.n + bn - 1) / bn;
    if (tiles_m <= 1 || tiles_n <= 1) return true;
    return std::min<std::int64_t>(a, tiles_m) == std::min<std::int64_t>(b, tiles_m);
}

// tiles_m * tiles_n blocks of `threads` (the Tensor Core family passes tiles and blocks per tile) along x, for each
// GEMM of a batch along z; throws Error(Unsupported) when the block count exceeds a 1-D grid.
LaunchDescription tile_grid(std::int64_t tiles_m, std::int64_t tiles_n, int threads, int dynamic_shared_bytes,
                            std::int64_t batch = 1);

}  // namespace jitgemm
