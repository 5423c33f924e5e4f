// The configuration jitgemm uses for a problem nobody has tuned: a fixed ladder of tiles of the family that computes
// its types (register-blocked for fp32, Tensor Core for fp16, bf16 and TF32), the largest whose tiles still fill
// every SM; the scaling kernel (naive) for k = 0.
#pragma once

#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"
#include "tuner/any_config.h"

namespace jitgemm {

AnyConfig heuristic_config(const Problem& problem, const DeviceInfo& device);

}  // namespace jitgemm
