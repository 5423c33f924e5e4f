// The field table of manifests and the parsing of its values. Adding a field means one row here (and a member of
// ManifestEntry); both readers, the writer and the messages follow from the table.
#include "tools/manifest/manifest_fields.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <system_error>

#include "tools/manifest/manifest_error.h"

namespace jitgemm::manifest {
namespace {

// --- values -------------------------------------------------------------------------------------------------------

// Strict integers: the whole text, decimal, no sign but '-', no spaces (a CSV cell is already trimmed), so "12x",
// "1e3" and "4096.0" are refused rather than read as something the operator did not write.
Refusal read_integer(std::string_view text, std::int64_t& out) {
    const char* end = text.data() + text.size();
    auto [stop, error] = std::from_chars(text.data(), end, out);
    if (error == std::errc::result_out_of_range) return quoted(text) + " is out of range";
    if (error != std::errc() || stop != end) return quoted(text) + " is not an integer";
    return std::nullopt;
}

Refusal read_integer_at_least(std::string_view text, std::int64_t least, std::int64_t& out) {
    std::int64_t value = 0;
    if (Refusal refusal = read_integer(text, value)) return refusal;
    if (value < least) return "must be at least " + std::to_string(least) + ", got " + std::to_string(value);
    out = value;
    return std::nullopt;
}

// Finite numbers only: a NaN or infinite alpha, beta or frequency is never what a tuning run was meant to cover.
Refusal read_finite(std::string_view text, double& out) {
    const char* end = text.data() + text.size();
    double value = 0.0;
    auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error == std::errc::result_out_of_range) return quoted(text) + " is out of range";
    if (error != std::errc() || stop != end) return quoted(text) + " is not a number";
    if (!std::isfinite(value)) return quoted(text) + " is not a finite number";
    out = value;
    return std::nullopt;
}

std::string lowercase(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// "a, b or c", from the enum's own name table (through to_string), so the message cannot drift from what parses.
template <typename Enum>
std::string choices(std::initializer_list<Enum> values) {
    std::string out;
    std::size_t i = 0;
    for (Enum value : values) {
        if (i > 0) out += (i + 1 == values.size()) ? " or " : ", ";
        out += to_string(value);
        ++i;
    }
    return out;
}

// Enum values ignore case ("N", "T", "ROW", "BF16") and otherwise take the canonical names of types.h.
template <typename Enum, typename Parse>
Refusal read_enum(std::string_view text, Parse parse, std::string_view kind, std::initializer_list<Enum> values,
                  std::initializer_list<Enum*> outs) {
    std::optional<Enum> value = parse(lowercase(text));
    if (!value) return quoted(text) + " is not " + std::string(kind) + " (" + choices(values) + ")";
    for (Enum* out : outs) *out = *value;
    return std::nullopt;
}

Refusal read_transpose(std::string_view text, Transpose& out) {
    return read_enum(text, parse_transpose, "a transpose", {Transpose::No, Transpose::Yes}, {&out});
}

Refusal read_orders(std::string_view text, std::initializer_list<Order*> outs) {
    return read_enum(text, parse_order, "a layout", {Order::RowMajor, Order::ColumnMajor}, outs);
}

Refusal read_dtypes(std::string_view text, std::initializer_list<DType*> outs) {
    return read_enum(text, parse_dtype, "a dtype", {DType::F32, DType::F16, DType::BF16}, outs);
}

// Alignment classes are the powers of two a vector access can use, in bytes; 0 leaves it to the allocator.
constexpr std::array<std::int64_t, 6> kAlignments{0, 1, 2, 4, 8, 16};

Refusal read_alignment(std::string_view text, int& out) {
    std::int64_t value = 0;
    if (Refusal refusal = read_integer(text, value)) return refusal;
    for (std::int64_t allowed : kAlignments)
        if (value == allowed) {
            out = static_cast<int>(value);
            return std::nullopt;
        }
    return "must be 0, 1, 2, 4, 8 or 16 (bytes), got " + std::to_string(value);
}

Refusal read_frequency(std::string_view text, double& out) {
    double value = 0.0;
    if (Refusal refusal = read_finite(text, value)) return refusal;
    if (!(value > 0.0)) return "must be above 0, got " + number_text(value);
    out = value;
    return std::nullopt;
}

std::string text_of(std::int64_t value) { return std::to_string(value); }
template <typename Enum>
std::string text_of(Enum value) {
    return std::string(to_string(value));
}

// --- the table ----------------------------------------------------------------------------------------------------

using E = ManifestEntry;

const std::vector<ManifestField> kFields{
    {"name", "", false, "label for logs and reports; empty: \"MxNxK\"",
     [](std::string_view t, E& e) -> Refusal {
         e.name = std::string(t);
         return std::nullopt;
     },
     [](const E& e) { return e.name; }},
    {"M", "", true, "rows of C and D (>= 1)",
     [](std::string_view t, E& e) { return read_integer_at_least(t, 1, e.m); },
     [](const E& e) { return text_of(e.m); }},
    {"N", "", true, "columns of C and D (>= 1)",
     [](std::string_view t, E& e) { return read_integer_at_least(t, 1, e.n); },
     [](const E& e) { return text_of(e.n); }},
    {"K", "", true, "the reduced dimension (>= 0; 0 is D = beta * C)",
     [](std::string_view t, E& e) { return read_integer_at_least(t, 0, e.k); },
     [](const E& e) { return text_of(e.k); }},
    {"batch", "1", false, "independent GEMMs of this shape per call (>= 1)",
     [](std::string_view t, E& e) { return read_integer_at_least(t, 1, e.batch); },
     [](const E& e) { return text_of(e.batch); }},
    {"transA", "n", false, "op(A): n or t",
     [](std::string_view t, E& e) { return read_transpose(t, e.trans_a); },
     [](const E& e) { return text_of(e.trans_a); }},
    {"transB", "n", false, "op(B): n or t",
     [](std::string_view t, E& e) { return read_transpose(t, e.trans_b); },
     [](const E& e) { return text_of(e.trans_b); }},
    {"layout", "row", false, "storage order of A, B, C and D at once: row or col",
     [](std::string_view t, E& e) { return read_orders(t, {&e.layout_a, &e.layout_b, &e.layout_c, &e.layout_d}); },
     nullptr},
    {"layoutA", "row", false, "storage order of A: row or col",
     [](std::string_view t, E& e) { return read_orders(t, {&e.layout_a}); },
     [](const E& e) { return text_of(e.layout_a); }},
    {"layoutB", "row", false, "storage order of B: row or col",
     [](std::string_view t, E& e) { return read_orders(t, {&e.layout_b}); },
     [](const E& e) { return text_of(e.layout_b); }},
    {"layoutC", "row", false, "storage order of C: row or col",
     [](std::string_view t, E& e) { return read_orders(t, {&e.layout_c}); },
     [](const E& e) { return text_of(e.layout_c); }},
    {"layoutD", "row", false, "storage order of D: row or col",
     [](std::string_view t, E& e) { return read_orders(t, {&e.layout_d}); },
     [](const E& e) { return text_of(e.layout_d); }},
    {"dtype", "f32", false, "element type of A, B, C and D at once: f32, f16 or bf16",
     [](std::string_view t, E& e) { return read_dtypes(t, {&e.a_type, &e.b_type, &e.c_type, &e.d_type}); },
     nullptr},
    {"dtypeA", "f32", false, "element type of A",
     [](std::string_view t, E& e) { return read_dtypes(t, {&e.a_type}); },
     [](const E& e) { return text_of(e.a_type); }},
    {"dtypeB", "f32", false, "element type of B",
     [](std::string_view t, E& e) { return read_dtypes(t, {&e.b_type}); },
     [](const E& e) { return text_of(e.b_type); }},
    {"dtypeC", "f32", false, "element type of C",
     [](std::string_view t, E& e) { return read_dtypes(t, {&e.c_type}); },
     [](const E& e) { return text_of(e.c_type); }},
    {"dtypeD", "f32", false, "element type of D",
     [](std::string_view t, E& e) { return read_dtypes(t, {&e.d_type}); },
     [](const E& e) { return text_of(e.d_type); }},
    {"compute", "f32", false, "arithmetic of the multiply: f32 or tf32",
     [](std::string_view t, E& e) {
         return read_enum(t, parse_compute_type, "a compute type", {ComputeType::F32, ComputeType::TF32},
                          {&e.compute});
     },
     [](const E& e) { return text_of(e.compute); }},
    {"alpha", "1", false, "scale of op(A) op(B), finite",
     [](std::string_view t, E& e) { return read_finite(t, e.alpha); },
     [](const E& e) { return number_text(e.alpha); }},
    {"beta", "0", false, "scale of C, finite",
     [](std::string_view t, E& e) { return read_finite(t, e.beta); },
     [](const E& e) { return number_text(e.beta); }},
    {"epilogue", "none", false, "what follows the scaling; kept as text, the tuner refuses what it cannot do",
     [](std::string_view t, E& e) -> Refusal {
         e.epilogue = std::string(t);
         return std::nullopt;
     },
     [](const E& e) { return e.epilogue; }},
    {"alignment", "0", false, "bytes the operands are aligned to: 0 (natural), 1, 2, 4, 8 or 16",
     [](std::string_view t, E& e) { return read_alignment(t, e.alignment); },
     [](const E& e) { return std::to_string(e.alignment); }},
    {"workspace", "0", false, "workspace limit in bytes (>= 0)",
     [](std::string_view t, E& e) { return read_integer_at_least(t, 0, e.workspace_limit); },
     [](const E& e) { return text_of(e.workspace_limit); }},
    {"frequency", "1", false, "relative weight of the problem (> 0)",
     [](std::string_view t, E& e) { return read_frequency(t, e.frequency); },
     [](const E& e) { return number_text(e.frequency); }},
};

bool same_name(std::string_view x, std::string_view y) { return lowercase(x) == lowercase(y); }

std::string field_list() {
    std::string out;
    for (const ManifestField& field : kFields) out += (out.empty() ? "" : ", ") + std::string(field.name);
    return out;
}

}  // namespace

const std::vector<ManifestField>& manifest_fields() { return kFields; }

std::string required_field_names() {
    std::vector<std::string_view> names;
    for (const ManifestField& field : kFields)
        if (field.required) names.push_back(field.name);
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(names[i]);
    return out;
}

std::optional<std::size_t> find_field(std::string_view name) {
    for (std::size_t i = 0; i < kFields.size(); ++i)
        if (same_name(kFields[i].name, name)) return i;
    return std::nullopt;
}

void throw_unknown_field(const std::string& file, int line, std::string_view name) {
    throw_manifest_error(file, line, "unknown field '" + std::string(name) + "' (fields: " + field_list() + ")");
}

RawProblem::RawProblem(std::string file_name, int first_line)
    : values(kFields.size()), file(std::move(file_name)), line(first_line) {}

ManifestEntry make_entry(const RawProblem& raw) {
    ManifestEntry entry;
    for (std::size_t i = 0; i < kFields.size(); ++i) {
        const ManifestField& field = kFields[i];
        const std::optional<RawValue>& value = raw.values[i];
        const std::string what = "field '" + std::string(field.name) + "'";
        if (!value || value->text.empty()) {
            if (field.required)
                throw_manifest_error(raw.file, value ? value->line : raw.line,
                                     what + (value ? " is empty" : " is missing") + "; " + required_field_names() +
                                         " are required");
            continue;
        }
        if (Refusal refusal = field.parse(value->text, entry))
            throw_manifest_error(raw.file, value->line, what + ": " + *refusal);
    }
    if (entry.name.empty())
        entry.name = std::to_string(entry.m) + "x" + std::to_string(entry.n) + "x" + std::to_string(entry.k);
    entry.file = raw.file;
    entry.line = raw.line;
    return entry;
}

std::string number_text(double value) {
    char buffer[64];
    auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
    if (error != std::errc()) return std::to_string(value);  // cannot happen: 64 characters hold any double
    return std::string(buffer, end);
}

}  // namespace jitgemm::manifest
