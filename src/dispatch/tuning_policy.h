// Resolution of GemmOptions' tuning fields against the environment ($JITGEMM_TUNE, $JITGEMM_TUNE_BUDGET), read
// once per process. A value that is not understood throws Error(InvalidArgument) naming the variable.
#pragma once

#include "jitgemm/gemm.h"
#include "tuner/tune_options.h"

namespace jitgemm {

TunePolicy resolve_tune_policy(TunePolicy requested);
TuneOptions resolve_tune_options(const GemmOptions& options);

}  // namespace jitgemm
