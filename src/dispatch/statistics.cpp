// Gathers the counters of the layers below.
#include "dispatch/statistics.h"

#include "runtime/compile/nvrtc_compiler.h"
#include "tuner/tuner.h"

namespace jitgemm {

Statistics current_statistics() {
    Statistics s;
    s.nvrtc_compiles = nvrtc_compile_count();
    s.tunings = tuning_count();
    return s;
}

}  // namespace jitgemm
