// The roofline of one problem on one device: its compulsory bytes (A and B read once, C written once, and read once
// when beta != 0), its arithmetic intensity (FLOPs over those bytes) and its floor, max(FLOPs / peak rate,
// bytes / bandwidth) with the device's ceilings. The cost model, the benchmark and the command all speak in it.
#pragma once

#include "runtime/device/device_ceilings.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

// 2 m n k for each GEMM of the batch.
double problem_flops(const Problem& problem);
// Over the whole batch (an operand that all GEMMs share, at stride 0, is counted once per GEMM).
double compulsory_bytes(const Problem& problem);
double arithmetic_intensity(const Problem& problem);
double roofline_floor_seconds(const Problem& problem, const DeviceCeilings& ceilings);

}  // namespace jitgemm
