// The search space of one problem: every candidate of the families that compute its types, before pruning. fp32
// problems get the SIMT families; fp16, bf16 and TF32 problems the Tensor Core family. The register-blocked family
// spans block tiles, thread tiles, k depth, vector width and stages at a fixed rasterization group; the Tensor Core
// family block tiles, warp layouts, k depth and pipeline depth, and for misaligned operands whether they are packed
// to an aligned copy first — on Hopper, where both 16-bit operands are packed, tile by tile for bulk copies, whose
// cp.async twin is a refinement. The groups are tried afterwards on the best few
// (refinements), because they change which blocks share L2, not the kernel's inner loop, and would otherwise
// multiply the space by four.
#pragma once

#include <vector>

#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"
#include "tuner/any_config.h"

namespace jitgemm {

std::vector<AnyConfig> enumerate_candidates(const Problem& problem, const DeviceInfo& device);

// Variants of a measured winner worth measuring too: other rasterization groups, and other stage counts (and for the
// register-blocked family a narrower vector width; for a split-K winner the neighbouring split counts and stream-K
// over the same tiles, with as many blocks as the device's SMs hold; for a bulk-copy winner the same kernel fed by
// cp.async).
std::vector<AnyConfig> refinements(const AnyConfig& winner, const Problem& problem, const DeviceInfo& device);

}  // namespace jitgemm
