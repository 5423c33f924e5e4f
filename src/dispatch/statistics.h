// The process's counters behind jitgemm::statistics(): NVRTC compiles (the runtime counts them) and searches (the
// tuner counts them), gathered here so that the public API asks the layer just below it.
#pragma once

#include "jitgemm/gemm.h"

namespace jitgemm {

Statistics current_statistics();

}  // namespace jitgemm
