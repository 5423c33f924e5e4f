// Packing a misaligned operand to an aligned copy first.
#include "tuner/families/common/operand_packing.h"

#include <tuple>

namespace jitgemm {

bool k_contiguous(const Problem& p, int operand) {
    return operand == 0 ? p.trans_a == Transpose::Yes : p.trans_b == Transpose::No;
}

std::pair<std::int64_t, std::int64_t> stored_extent(const Problem& p, int operand) {
    const std::int64_t extent = operand == 0 ? p.m : p.n;  // the operand's other dimension besides k
    return k_contiguous(p, operand) ? std::pair{p.k, extent} : std::pair{extent, p.k};
}

std::int64_t aligned_leading_dimension(std::int64_t rows, int element_bytes) {
    const std::int64_t per_line = 128 / element_bytes;
    return (rows + per_line - 1) / per_line * per_line;
}

Problem packed_problem(const Problem& problem, int pack, int element_bytes) {
    Problem p = problem;
    if (pack & 1) {
        p.lda = aligned_leading_dimension(stored_extent(problem, 0).first, element_bytes);
        p.align_a = 16;
    }
    if (pack & 2) {
        p.ldb = aligned_leading_dimension(stored_extent(problem, 1).first, element_bytes);
        p.align_b = 16;
    }
    return p;
}

OperandPack column_pack(const Problem& problem, int operand, int element_bytes) {
    OperandPack op;
    op.operand = operand;
    std::tie(op.rows, op.cols) = stored_extent(problem, operand);
    op.ld_from = operand == 0 ? problem.lda : problem.ldb;
    op.ld_to = aligned_leading_dimension(op.rows, element_bytes);
    op.cols_to = op.cols;
    op.element_bytes = element_bytes;
    return op;
}

Problem k_major_packed_problem(const Problem& problem, int pack, int element_bytes) {
    Problem p = problem;
    const std::int64_t ld = aligned_leading_dimension(problem.k, element_bytes);
    if (pack & 1) {
        p.trans_a = Transpose::Yes;
        p.lda = ld;
        p.align_a = 16;
    }
    if (pack & 2) {
        p.trans_b = Transpose::No;
        p.ldb = ld;
        p.align_b = 16;
    }
    return p;
}

OperandPack k_major_pack(const Problem& problem, int operand, int element_bytes) {
    if (k_contiguous(problem, operand)) return column_pack(problem, operand, element_bytes);
    OperandPack op;
    op.operand = operand;
    std::tie(op.rows, op.cols) = stored_extent(problem, operand);  // m or n contiguous, k columns
    op.ld_from = operand == 0 ? problem.lda : problem.ldb;
    op.ld_to = aligned_leading_dimension(problem.k, element_bytes);
    op.cols_to = op.rows;
    op.element_bytes = element_bytes;
    op.transposed = true;
    return op;
}

}  // namespace jitgemm
