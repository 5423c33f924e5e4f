// The fields of a manifest problem: the one table that names them, gives their defaults, parses a value and writes
// it back. The CSV and JSON readers only find text and its line; everything about what the text means is here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tools/manifest/shape_manifest.h"

namespace jitgemm::manifest {

// Why a value was refused, e.g. "\"12x\" is not an integer"; nullopt when it was taken.
using Refusal = std::optional<std::string>;

struct ManifestField {
    std::string_view name;           // canonical spelling, as written in CSV headers; matched case-insensitively
    std::string_view default_text;   // what a missing or empty value means (parses to ManifestEntry's default)
    bool required;                   // no default: M, N and K
    std::string_view meaning;        // one line, for documentation and --help
    Refusal (*parse)(std::string_view text, ManifestEntry& entry);  // text is never empty
    // The canonical text of the value; nullptr for the shorthands `layout` and `dtype`, which set four fields and
    // are not written (the four fields they set are).
    std::string (*format)(const ManifestEntry& entry);
};

// Every field, shorthands before the fields they set, so that `layoutA` given beside `layout` wins wherever it
// stands in the file.
const std::vector<ManifestField>& manifest_fields();

// "M, N and K": the fields without a default, for messages.
std::string required_field_names();

// Index into manifest_fields() of the field named `name`, ignoring case; nullopt for a name not in the table.
std::optional<std::size_t> find_field(std::string_view name);

// Throws "unknown field 'NAME' (fields: name, M, N, K, ...)": a typo must never be ignored.
[[noreturn]] void throw_unknown_field(const std::string& file, int line, std::string_view name);

// One value as a reader found it: a CSV cell (unquoted cells trimmed), a JSON string's content, or a JSON number
// as written. Empty text means the default.
struct RawValue {
    std::string text;
    int line = 0;
};

// The values of one problem, indexed like manifest_fields(), before any is checked.
struct RawProblem {
    RawProblem(std::string file_name, int first_line);
    std::vector<std::optional<RawValue>> values;
    std::string file;
    int line;  // where the problem starts: its CSV row, its JSON object's '{'
};

// Checks every value in table order and builds the entry (name filled in as "MxNxK" when empty). Throws for the
// first value refused, with its line and field.
ManifestEntry make_entry(const RawProblem& raw);

// The shortest text that reads back as exactly `value` ("1", "0.5", "1e-07").
std::string number_text(double value);

}  // namespace jitgemm::manifest
