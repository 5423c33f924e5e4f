// The one table of Problem's fields. Its rows, in key order, drive everything that lists the fields: the key text
// (each row's lead, then its value) and its parser, operator== and ProblemHash (every row takes part), and the
// kernel's -D constants (Problem::defines()). The table is a constexpr tuple visited by fold expressions, so equality
// and the hash, which run on every gemm() call, compile to straight-line code as fast as a hand-written list.
//
// Adding a field takes one row here (the text before its value in the key and the macro the kernel reads), plus its
// uses: the member in problem.h, the macro in kernel_sources/, and for a type no row has yet its overloads in
// problem.cpp (value text, parse, width in the hash). A new row changes the key text, so kProblemKeyVersion goes up
// with it.
#pragma once

#include <cstddef>
#include <string_view>
#include <tuple>

#include "runtime/problem/problem.h"

namespace jitgemm {

// The version token at the start of every key: "v2_". Keys of another version (version 1 had no token) are refused
// by Problem::parse_key, so a tuning cache entry written under another layout is never misread, only left unused.
constexpr int kProblemKeyVersion = 2;

// One row: which member (and where it lies, for equality: see problem.cpp), the text that precedes its value in the
// key, and the -D macro that carries it to the kernel.
template <typename T>
struct ProblemField {
    using value_type = T;
    T Problem::*member;
    std::size_t offset;  // offsetof(Problem, member)
    std::string_view lead;
    std::string_view macro;
    // A row whose value is `omitted_value` leaves no text in the key (lead and value both): fields added after keys
    // were first stored, so that every earlier key still names its problem. Equality and the hash see it always.
    bool omittable = false;
    long long omitted_value = 0;
};

// A row names its member once: offsetof needs the name itself, not a member pointer.
#define JITGEMM_PROBLEM_FIELD(name, lead, macro) \
    ProblemField<decltype(Problem::name)> { &Problem::name, offsetof(Problem, name), lead, macro }
#define JITGEMM_PROBLEM_OMITTABLE_FIELD(name, lead, macro, omitted) \
    ProblemField<decltype(Problem::name)> { &Problem::name, offsetof(Problem, name), lead, macro, true, omitted }

// In key order, leads and values: v2_ f32 . f32 . f32 . f32 _ n t _m 4096 .n 4096 .k 4096 _ld 4096 . 4096 . 4096
// _a 1 .b 0 _al 16 . 16 . 16 (without the spaces), and for a batched problem _batch 64 (omitted for one GEMM, so the
// keys of unbatched problems are those that version 2 always wrote), for a run-time-shape variant _rt 1 (m) or 2 (n).
inline constexpr auto kProblemFields = std::make_tuple(
    JITGEMM_PROBLEM_FIELD(a_type, "", "JG_A_TYPE"),  // dtypes by the codes of kernel_sources/common/jg_types.cuh
    JITGEMM_PROBLEM_FIELD(b_type, ".", "JG_B_TYPE"),
    JITGEMM_PROBLEM_FIELD(c_type, ".", "JG_C_TYPE"),
    JITGEMM_PROBLEM_FIELD(compute, ".", "JG_COMPUTE_TF32"),
    JITGEMM_PROBLEM_FIELD(trans_a, "_", "JG_TRANS_A"),
    JITGEMM_PROBLEM_FIELD(trans_b, "", "JG_TRANS_B"),
    JITGEMM_PROBLEM_FIELD(m, "_m", "JG_M"),
    JITGEMM_PROBLEM_FIELD(n, ".n", "JG_N"),
    JITGEMM_PROBLEM_FIELD(k, ".k", "JG_K"),
    JITGEMM_PROBLEM_FIELD(lda, "_ld", "JG_LDA"),
    JITGEMM_PROBLEM_FIELD(ldb, ".", "JG_LDB"),
    JITGEMM_PROBLEM_FIELD(ldc, ".", "JG_LDC"),
    JITGEMM_PROBLEM_FIELD(alpha_one, "_a", "JG_ALPHA_ONE"),
    JITGEMM_PROBLEM_FIELD(beta_mode, ".b", "JG_BETA_MODE"),
    JITGEMM_PROBLEM_FIELD(align_a, "_al", "JG_ALIGN_A"),
    JITGEMM_PROBLEM_FIELD(align_b, ".", "JG_ALIGN_B"),
    JITGEMM_PROBLEM_FIELD(align_c, ".", "JG_ALIGN_C"),
    JITGEMM_PROBLEM_OMITTABLE_FIELD(batch, "_batch", "JG_BATCH", 1),
    JITGEMM_PROBLEM_OMITTABLE_FIELD(runtime_dim, "_rt", "JG_RUNTIME_DIM", 0));

#undef JITGEMM_PROBLEM_FIELD
#undef JITGEMM_PROBLEM_OMITTABLE_FIELD

}  // namespace jitgemm
