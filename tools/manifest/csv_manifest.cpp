// Reading and writing CSV manifests: lines, the header, rows of cells into RawProblems. What a cell means is the
// field table's business (manifest_fields.cpp).
#include "tools/manifest/csv_manifest.h"

#include <optional>
#include <ostream>

#include "jitgemm/error.h"
#include "tools/manifest/csv_line.h"
#include "tools/manifest/manifest_error.h"
#include "tools/manifest/manifest_fields.h"

namespace jitgemm::manifest {
namespace {

bool skipped(std::string_view line) {
    const std::size_t first = line.find_first_not_of(" \t");
    return first == std::string_view::npos || line[first] == '#';
}

// The columns of a header line, as field indices, checked: every name known, none twice, M, N and K present.
std::vector<std::size_t> read_header(const std::vector<std::string>& cells, std::string_view line,
                                     const std::string& file, int line_number) {
    const auto& fields = manifest_fields();
    std::vector<std::size_t> columns;
    std::vector<bool> seen(fields.size(), false);
    std::optional<std::string> unknown;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (cells[i].empty())
            throw_manifest_error(file, line_number,
                                 "column " + std::to_string(i + 1) + " of the header has no name");
        const std::optional<std::size_t> field = find_field(cells[i]);
        if (!field) {
            if (!unknown) unknown = cells[i];
            continue;
        }
        if (seen[*field])
            throw_manifest_error(file, line_number,
                                 "field '" + std::string(fields[*field].name) + "' has two columns in the header");
        seen[*field] = true;
        columns.push_back(*field);
    }
    std::vector<std::string_view> missing;
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (fields[i].required && !seen[i]) missing.push_back(fields[i].name);
    // No name known at all: most likely the header was left out and this is the first row.
    if (columns.empty())
        throw_manifest_error(file, line_number,
                             "no header line with the columns " + required_field_names() +
                                 " (the first line that is not a comment is " + quoted(line) + ")");
    if (unknown) throw_unknown_field(file, line_number, *unknown);
    if (!missing.empty()) {
        std::string names;
        for (std::size_t i = 0; i < missing.size(); ++i)
            names += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + ("'" + std::string(missing[i]) + "'");
        throw_manifest_error(file, line_number,
                             (missing.size() == 1 ? "no column for field " : "no columns for fields ") + names +
                                 ": the header needs " + required_field_names());
    }
    return columns;
}

}  // namespace

std::vector<ManifestEntry> read_csv_manifest(std::string_view text, const std::string& file) {
    const auto& fields = manifest_fields();
    std::vector<ManifestEntry> entries;
    std::optional<std::vector<std::size_t>> columns;
    int header_line = 0;
    int line_number = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // files written on Windows
        if (skipped(line)) continue;

        CsvLine split = split_csv_line(line);
        if (split.error) {
            const std::size_t cell = split.error->cell;
            const std::string where = !columns               ? "header, column " + std::to_string(cell + 1)
                                      : cell < columns->size() ? "field '" + std::string(fields[(*columns)[cell]].name) + "'"
                                                              : "cell " + std::to_string(cell + 1);
            throw_manifest_error(file, line_number, where + ": " + split.error->reason);
        }
        if (!columns) {
            columns = read_header(split.cells, line, file, line_number);
            header_line = line_number;
            continue;
        }
        const std::size_t expected = columns->size();
        if (split.cells.size() != expected) {
            const std::string counts = "the row has " + std::to_string(split.cells.size()) +
                                       " cells, the header (line " + std::to_string(header_line) + ") " +
                                       std::to_string(expected) + " columns";
            const std::string detail =
                split.cells.size() < expected
                    ? "field '" + std::string(fields[(*columns)[split.cells.size()]].name) + "' has no cell: " + counts
                    : "cell " + std::to_string(expected + 1) + " has no column: " + counts;
            throw_manifest_error(file, line_number, detail);
        }
        RawProblem raw(file, line_number);
        for (std::size_t i = 0; i < expected; ++i) raw.values[(*columns)[i]] = RawValue{split.cells[i], line_number};
        entries.push_back(make_entry(raw));
    }
    if (!columns) throw_manifest_error(file, 0, "no header line with the columns " + required_field_names());
    if (entries.empty())
        throw_manifest_error(file, header_line, "no problems: the header is followed by no rows");
    return entries;
}

void write_csv_manifest(const std::vector<ManifestEntry>& entries, std::ostream& out) {
    const auto& fields = manifest_fields();
    std::string header;
    for (const ManifestField& field : fields)
        if (field.format) header += (header.empty() ? "" : ",") + std::string(field.name);
    std::string text = header + "\n";
    for (const ManifestEntry& entry : entries) {
        std::string row;
        bool first = true;
        for (const ManifestField& field : fields) {
            if (!field.format) continue;
            const std::string value = field.format(entry);
            if (value.find_first_of("\r\n") != std::string::npos)
                throw Error(ErrorCode::InvalidArgument,
                            "jitgemm: manifest entry " + quoted(entry.name) + ": field '" + std::string(field.name) +
                                "' holds a line break, which a CSV manifest cannot");
            row += (first ? "" : ",") + csv_cell(value);
            first = false;
        }
        text += row + "\n";
    }
    // One write at the end: an entry that cannot be written leaves the stream untouched.
    out << text;
}

}  // namespace jitgemm::manifest
