// Argument checks of jitgemm::gemm and the fold into canonical column-major form.
#include "runtime/problem/gemm_call.h"

#include <cstdint>
#include <algorithm>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

#include "jitgemm/error.h"

namespace jitgemm {
namespace {

[[noreturn]] void invalid(const std::string& message) {
    throw Error(ErrorCode::InvalidArgument, "jitgemm: " + message);
}

std::string pointer_text(const void* p) {
    std::ostringstream s;
    s << p;
    return s.str();
}

void check_leading_dimension(const char* name, std::int64_t ld, std::int64_t minimum, const char* rule) {
    if (ld < minimum)
        invalid(std::string(name) + " = " + std::to_string(ld) + " is below its minimum " + std::to_string(minimum) +
                " (" + rule + ")");
}

// The last element of a matrix of `cols` leading-dimension strides must be addressable in 64-bit arithmetic.
// The bytes from the first element of an operand to one past its last, (cols - 1) * ld + rows elements, must be
// addressable with 64-bit signed offsets. rows, cols and ld are checked non-negative before, so the element count is
// below 2^127 and exact in unsigned 128-bit arithmetic; the byte count is compared by division, never formed.
// A batched operand adds (batch - 1) * stride elements before its last GEMM's: below 2^126, exact as well.
void check_extent(const char* name, std::int64_t rows, std::int64_t cols, std::int64_t ld, int element_bytes,
                  std::int64_t batch, std::int64_t stride) {
    if (rows == 0 || cols == 0 || batch == 0) return;
    using wide = unsigned __int128;
    const wide elements = static_cast<wide>(cols - 1) * static_cast<wide>(ld) + static_cast<wide>(rows) +
                          static_cast<wide>(batch - 1) * static_cast<wide>(stride);
    if (elements > static_cast<wide>(std::numeric_limits<std::int64_t>::max()) / static_cast<wide>(element_bytes))
        invalid(std::string(name) + " spans " + std::to_string(cols) + " x " + std::to_string(ld) + " elements" +
                (batch > 1 ? " in each of " + std::to_string(batch) + " GEMMs " + std::to_string(stride) + " apart" : "") +
                ", which overflows 64-bit addressing");
}

// The GEMMs of a batch write disjoint parts of C: one after the other (stride_c at least one matrix's extent), or
// side by side within each stride of ldc (stride_c at least a column's rows, all of the batch's columns within ldc).
void check_batch(const GemmDescription& call, std::int64_t rows_c, std::int64_t cols_c) {
    if (call.batch < 0) invalid("batch = " + std::to_string(call.batch) + " is negative");
    if (call.batch <= 1) return;
    const std::pair<const char*, std::int64_t> strides[] = {
        {"stride_a", call.stride_a}, {"stride_b", call.stride_b}, {"stride_c", call.stride_c}};
    for (const auto& [name, stride] : strides)
        if (stride < 0) invalid(std::string(name) + " = " + std::to_string(stride) + " is negative");
    if (rows_c == 0 || cols_c == 0) return;
    using wide = unsigned __int128;
    const wide extent = static_cast<wide>(cols_c - 1) * static_cast<wide>(call.ldc) + static_cast<wide>(rows_c);
    const bool one_after_another = static_cast<wide>(call.stride_c) >= extent;
    const bool side_by_side = call.stride_c >= rows_c && static_cast<wide>(call.batch - 1) * call.stride_c +
                                                                 static_cast<wide>(rows_c) <= static_cast<wide>(call.ldc);
    if (!one_after_another && !side_by_side)
        invalid("stride_c = " + std::to_string(call.stride_c) + " makes the " + std::to_string(call.batch) +
                " GEMMs of the batch write overlapping parts of C (each spans " + std::to_string(cols_c) + " x " +
                std::to_string(call.ldc) + " elements: stride_c must be at least " +
                std::to_string(static_cast<long long>((cols_c - 1) * call.ldc + rows_c)) +
                ", or at least " + std::to_string(rows_c) + " with all " + std::to_string(call.batch) +
                " GEMMs' rows within ldc)");
}

void check_pointer(const char* name, const void* p, int element_bytes) {
    if (p == nullptr) invalid(std::string(name) + " is a null pointer");
    if (reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(element_bytes) != 0)
        invalid(std::string(name) + " = " + pointer_text(p) + " is not aligned to its element size (" +
                std::to_string(element_bytes) + " bytes)");
}

void check_types(const GemmDescription& call) {
    if (const auto why = unsupported_dtypes(call.a_type, call.b_type, call.c_type, call.compute))
        throw Error(ErrorCode::Unsupported, "jitgemm: the dtype combination a=" + std::string(to_string(call.a_type)) +
                                                " b=" + std::string(to_string(call.b_type)) + " c=" +
                                                std::string(to_string(call.c_type)) + " compute=" +
                                                std::string(to_string(call.compute)) + " is not supported: " + *why);
}

}  // namespace

std::optional<std::string> unsupported_dtypes(DType a, DType b, DType c, ComputeType compute) {
    const char* const supported =
        " (supported: f32 x f32 -> f32 with compute f32 or tf32; f16 x f16 or bf16 x bf16 -> f16, bf16 or f32)";
    if (a != b) return "A and B must have the same element type" + std::string(supported);
    if (a == DType::F32) {
        if (c != DType::F32) return "fp32 inputs give an fp32 output" + std::string(supported);
        return std::nullopt;
    }
    if (compute == ComputeType::TF32)
        return "compute tf32 is for fp32 inputs; 16-bit inputs are multiplied exactly with fp32 accumulation" +
               std::string(supported);
    return std::nullopt;
}

StoredShape stored_shape(Order order, Transpose trans, std::int64_t rows, std::int64_t cols) {
    // Column-major: a stride spans a column of the stored matrix; row-major: a row. Transposing swaps the two.
    const bool along_rows = (order == Order::ColumnMajor) != (trans == Transpose::Yes);
    return along_rows ? StoredShape{rows, cols} : StoredShape{cols, rows};
}

void check_description(const GemmDescription& call) {
    if (call.m < 0) invalid("m = " + std::to_string(call.m) + " is negative");
    if (call.n < 0) invalid("n = " + std::to_string(call.n) + " is negative");
    if (call.k < 0) invalid("k = " + std::to_string(call.k) + " is negative");
    check_types(call);

    const bool col = call.order == Order::ColumnMajor;
    const StoredShape stored_a = stored_shape(call.order, call.trans_a, call.m, call.k);
    const StoredShape stored_b = stored_shape(call.order, call.trans_b, call.k, call.n);
    const std::int64_t rows_a = stored_a.ld_extent, rows_b = stored_b.ld_extent;
    const std::int64_t rows_c = col ? call.m : call.n;
    const char* rule_a = col ? (call.trans_a == Transpose::Yes ? "max(1, k) for a transposed column-major A"
                                                               : "max(1, m) for a column-major A")
                             : (call.trans_a == Transpose::Yes ? "max(1, m) for a transposed row-major A"
                                                               : "max(1, k) for a row-major A");
    const char* rule_b = col ? (call.trans_b == Transpose::Yes ? "max(1, n) for a transposed column-major B"
                                                               : "max(1, k) for a column-major B")
                             : (call.trans_b == Transpose::Yes ? "max(1, k) for a transposed row-major B"
                                                               : "max(1, n) for a row-major B");
    check_leading_dimension("lda", call.lda, std::max<std::int64_t>(1, rows_a), rule_a);
    check_leading_dimension("ldb", call.ldb, std::max<std::int64_t>(1, rows_b), rule_b);
    check_leading_dimension("ldc", call.ldc, std::max<std::int64_t>(1, rows_c),
                            col ? "max(1, m) for a column-major C" : "max(1, n) for a row-major C");

    check_batch(call, rows_c, col ? call.n : call.m);

    const int a_bytes = size_of(call.a_type), b_bytes = size_of(call.b_type), c_bytes = size_of(call.c_type);
    const std::int64_t batch = call.batch;
    const bool batched = batch > 1;
    check_extent("A", rows_a, stored_a.strides, call.lda, a_bytes, batch, batched ? call.stride_a : 0);
    check_extent("B", rows_b, stored_b.strides, call.ldb, b_bytes, batch, batched ? call.stride_b : 0);
    check_extent("C", rows_c, col ? call.n : call.m, call.ldc, c_bytes, batch, batched ? call.stride_c : 0);
}

CanonicalCall make_canonical_call(const GemmCall& call) {
    check_description(call);
    const bool col = call.order == Order::ColumnMajor;
    const int a_bytes = size_of(call.a_type), b_bytes = size_of(call.b_type), c_bytes = size_of(call.c_type);

    CanonicalCall out;
    out.alpha = call.alpha;
    out.beta = call.beta;
    const bool batched = call.batch > 1;
    const std::int64_t stride_a = batched ? call.stride_a : 0, stride_b = batched ? call.stride_b : 0;
    out.stride_c = batched ? call.stride_c : 0;
    const bool empty = call.m == 0 || call.n == 0 || call.batch == 0;
    const bool degenerate = call.k == 0 || call.alpha == 0.0f;  // C = beta * C; A and B are not read
    if (!empty) {
        check_pointer("C", call.c, c_bytes);
        if (call.k > 0) {
            check_pointer("A", call.a, a_bytes);
            check_pointer("B", call.b, b_bytes);
        }
    }

    Problem& p = out.problem;
    p.batch = std::max<std::int64_t>(call.batch, 1);
    p.a_type = call.a_type;
    p.b_type = call.b_type;
    p.c_type = call.c_type;
    p.compute = call.compute;
    p.alpha_one = call.alpha == 1.0f;
    p.beta_mode = call.beta == 0.0f ? BetaMode::Zero : call.beta == 1.0f ? BetaMode::One : BetaMode::General;
    p.ldc = call.ldc;
    p.align_c = alignment_class(call.c, call.ldc, c_bytes, out.stride_c);
    out.c = call.c;
    if (col) {
        p.m = call.m;
        p.n = call.n;
    } else {  // row-major C = op(A) op(B)  <=>  column-major C^T = op(B)^T op(A)^T
        p.m = call.n;
        p.n = call.m;
    }
    if (degenerate) {
        // A and B take no part: one canonical "scale C" problem, whatever they were.
        p.k = 0;
        p.alpha_one = false;
        out.no_work = empty || p.beta_mode == BetaMode::One;
        return out;
    }
    p.k = call.k;
    if (col) {
        p.trans_a = call.trans_a;
        p.trans_b = call.trans_b;
        p.lda = call.lda;
        p.ldb = call.ldb;
        p.align_a = alignment_class(call.a, call.lda, a_bytes, stride_a);
        p.align_b = alignment_class(call.b, call.ldb, b_bytes, stride_b);
        out.a = call.a;
        out.b = call.b;
        out.stride_a = stride_a;
        out.stride_b = stride_b;
    } else {
        p.trans_a = call.trans_b;
        p.trans_b = call.trans_a;
        p.lda = call.ldb;
        p.ldb = call.lda;
        p.a_type = call.b_type;
        p.b_type = call.a_type;
        p.align_a = alignment_class(call.b, call.ldb, b_bytes, stride_b);
        p.align_b = alignment_class(call.a, call.lda, a_bytes, stride_a);
        out.a = call.b;
        out.b = call.a;
        out.stride_a = stride_b;
        out.stride_b = stride_a;
    }
    out.no_work = empty;
    return out;
}

}  // namespace jitgemm
