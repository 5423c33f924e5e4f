// The problem the bench programs without a GPU (dump_cubin, compile_scan) take from their command lines: column-major,
// minimum leading dimensions (so odd sizes give 16-bit operands 2-byte alignment), alpha 1 and beta 0.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

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

// "DTYPE" or "DTYPE:CTYPE" (bf16:f32): the inputs' type, and C's where it differs; nullopt for a name not a type's.
inline std::optional<std::pair<DType, DType>> parse_types(std::string_view types) {
    const std::size_t colon = types.find(':');
    const auto dtype = parse_dtype(types.substr(0, colon));
    const auto c_type = colon == std::string_view::npos ? dtype : parse_dtype(types.substr(colon + 1));
    if (!dtype || !c_type) return std::nullopt;
    return std::pair{*dtype, *c_type};
}

// bench_problem with C of `c_type` (its leading dimension's alignment counted in C's elements).
inline Problem bench_problem(std::int64_t m, std::int64_t n, std::int64_t k, Transpose trans_a, Transpose trans_b,
                             std::pair<DType, DType> types, ComputeType compute) {
    Problem p = bench_problem(m, n, k, trans_a, trans_b, types.first, compute);
    p.c_type = types.second;
    p.align_c = alignment_class(nullptr, p.ldc, size_of(p.c_type));
    return p;
}

}  // namespace jitgemm
