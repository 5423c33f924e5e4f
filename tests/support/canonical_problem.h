// The canonical problem of a test's shape, without device memory: what the families' rules (and so a random
// configuration's validation) are stated on. The pointers only lend their alignment, as far off a 16-byte boundary as
// the workload puts the operands (GemmShape::alignment): some rules read it (the decode family's W staged by
// cp.async, the copies of misaligned operands).
#pragma once

#include <cstddef>

#include "runtime/problem/gemm_call.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm::testing {

inline Problem canonical_problem(const GemmShape& s) {
    alignas(16) static unsigned char storage[64] = {};
    unsigned char* const p = storage + (s.alignment > 0 && s.alignment < 16 ? std::size_t(s.alignment) : 0);
    return make_canonical_call(s.call(p, p, p)).problem;
}

}  // namespace jitgemm::testing
