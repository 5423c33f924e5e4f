// The problem the bench programs without a GPU (dump_cubin, compile_scan) take from their command lines: column-major,
// minimum leading dimensions (so odd sizes give 16-bit operands 2-byte alignment), alpha 1 and beta 0.
#pragma once

#include <cstdint>

#include "runtime/problem/problem.h"

namespace jitgemm {

inline Problem bench_problem(std::int64_t m, std::int64_t n, std::int64_t k, Transpose trans_a, Transpose trans_b,
                             DType dtype, ComputeType compute) {
    Problem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.trans_a = trans_a;
    p.trans_b = trans_b;
    p.lda = trans_a == Transpose::Yes ? k : m;
    p.ldb = trans_b == Transpose::Yes ? n : k;
    p.ldc = m;
    p.alpha_one = true;
    p.a_type = p.b_type = p.c_type = dtype;
    p.compute = compute;
    const int bytes = size_of(dtype);
    p.align_a = alignment_class(nullptr, p.lda, bytes);
    p.align_b = alignment_class(nullptr, p.ldb, bytes);
    p.align_c = alignment_class(nullptr, p.ldc, bytes);
    return p;
}

}  // namespace jitgemm
