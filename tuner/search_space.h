// The search space of one problem: every candidate of every family before pruning. The register-blocked family
// spans block tiles, thread tiles, k depth, vector width and stages at a fixed rasterization group; the groups are
// tried afterwards on the best few (refinements), because they change which blocks share L2, not the kernel's
// inner loop, and would otherwise multiply the space by four.
#pragma once

#include <vector>

#include "problem/problem.h"
#include "tuner/any_config.h"

namespace jitgemm {

std::vector<AnyConfig> enumerate_candidates(const Problem& problem);

// Variants of a measured winner worth measuring too: other rasterization groups and the other stage count.
std::vector<AnyConfig> refinements(const AnyConfig& winner);

}  // namespace jitgemm
