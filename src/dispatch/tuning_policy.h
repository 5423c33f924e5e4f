// Resolution of GemmOptions' tuning fields against the environment: $JITGEMM_TUNE and $JITGEMM_TUNE_BUDGET, read once
// per process, and $JITGEMM_RUNTIME_SHAPES and $JITGEMM_SEARCH_TWINS, read each time. A value that is not understood
// throws Error(InvalidArgument) naming the variable.
#pragma once

#include "jitgemm/gemm.h"
#include "tuner/tune_options.h"

namespace jitgemm {

TunePolicy resolve_tune_policy(TunePolicy requested);
TuneOptions resolve_tune_options(const GemmOptions& options);

// $JITGEMM_RUNTIME_SHAPES, read at each miss: "on" (or 1, or unset) lets a size without a tuned entry be served by
// the run-time-shape variant of the nearest tuned size of its layer (dispatch/runtime_shape_variant.h); "off" (or 0)
// does not.
bool runtime_shapes_enabled();

// $JITGEMM_SEARCH_TWINS, read at each search: "later" (or unset) defers the candidates the cost model cannot tell
// apart to the refinement (tune_options.h); "all" measures each.
Twins search_twins_from_environment();

// $JITGEMM_SEARCH_PRECISION, read at each search: the median's relative standard error that ends a candidate's timing
// early (TuneOptions::timing.precision; unset or empty: kDefaultTimingPrecision; 0: the time rule alone). Not a
// fraction in [0, 1): InvalidArgument.
double timing_precision_from_environment();

// $JITGEMM_SEARCH_REFINE_WITHIN, read at each search: the refinement also takes the neighbours of every candidate within
// this fraction of the best (TuneOptions::refine_within; unset or empty: 0, the finalists' alone). Not a fraction in
// [0, 1): InvalidArgument.
double refine_within_from_environment();

}  // namespace jitgemm
