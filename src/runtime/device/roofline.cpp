// Compulsory bytes, arithmetic intensity and the roofline floor.
#include "runtime/device/roofline.h"

#include <algorithm>

namespace jitgemm {

double problem_flops(const Problem& p) { return 2.0 * p.m * p.n * p.k * p.batch; }

double compulsory_bytes(const Problem& p) {
    const double c_passes = p.beta_mode == BetaMode::Zero ? 1.0 : 2.0;
    return (size_of(p.a_type) * double(p.m) * p.k + size_of(p.b_type) * double(p.k) * p.n +
            c_passes * size_of(p.c_type) * double(p.m) * p.n) *
           double(p.batch);
}

double arithmetic_intensity(const Problem& p) { return problem_flops(p) / compulsory_bytes(p); }

double roofline_floor_seconds(const Problem& p, const DeviceCeilings& c) {
    const double flops = problem_flops(p);
    return std::max(flops / c.matrix_flops(p.a_type, p.compute), compulsory_bytes(p) / c.dram_bytes_per_s);
}

}  // namespace jitgemm
