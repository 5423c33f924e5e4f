// What one manifest entry is outside the readers: its log line and equality of problems.
#include <string>

#include "tools/manifest/manifest_fields.h"
#include "tools/manifest/shape_manifest.h"

namespace jitgemm {
namespace {

// "row" when all four operands agree, "row/col/row/row" (A/B/C/D) when they do not.
template <typename Enum>
std::string per_operand(Enum a, Enum b, Enum c, Enum d) {
    if (a == b && b == c && c == d) return std::string(to_string(a));
    return std::string(to_string(a)) + "/" + std::string(to_string(b)) + "/" + std::string(to_string(c)) + "/" +
           std::string(to_string(d));
}

}  // namespace

std::string describe(const ManifestEntry& e) {
    using manifest::number_text;
    const ManifestEntry defaults;
    std::string out = e.name + " (" + std::to_string(e.m) + "x" + std::to_string(e.n) + "x" + std::to_string(e.k);
    if (e.batch != defaults.batch) out += ", batch " + std::to_string(e.batch);
    out += ", " + std::string(to_string(e.trans_a)) + " " + std::string(to_string(e.trans_b));
    out += ", " + per_operand(e.layout_a, e.layout_b, e.layout_c, e.layout_d);
    out += ", " + per_operand(e.a_type, e.b_type, e.c_type, e.d_type);
    if (e.compute != defaults.compute) out += ", compute " + std::string(to_string(e.compute));
    if (e.alpha != defaults.alpha) out += ", alpha " + number_text(e.alpha);
    if (e.beta != defaults.beta) out += ", beta " + number_text(e.beta);
    if (e.epilogue != defaults.epilogue) out += ", epilogue " + e.epilogue;
    if (e.alignment != defaults.alignment) out += ", align " + std::to_string(e.alignment);
    if (e.workspace_limit != defaults.workspace_limit) out += ", workspace " + std::to_string(e.workspace_limit);
    return out + ", freq " + number_text(e.frequency) + ")";
}

bool same_problem(const ManifestEntry& x, const ManifestEntry& y) {
    return x.name == y.name && x.m == y.m && x.n == y.n && x.k == y.k && x.batch == y.batch &&
           x.trans_a == y.trans_a && x.trans_b == y.trans_b && x.layout_a == y.layout_a && x.layout_b == y.layout_b &&
           x.layout_c == y.layout_c && x.layout_d == y.layout_d && x.a_type == y.a_type && x.b_type == y.b_type &&
           x.c_type == y.c_type && x.d_type == y.d_type && x.compute == y.compute && x.alpha == y.alpha &&
           x.beta == y.beta && x.epilogue == y.epilogue && x.alignment == y.alignment &&
           x.workspace_limit == y.workspace_limit && x.frequency == y.frequency;
}

}  // namespace jitgemm
