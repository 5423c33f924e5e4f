// One CSV line to cells and one cell back to CSV text. A quoted cell ("...", with "" for a quote) may hold commas
// but not a line break: a manifest line is a problem, so a stray quote is reported on its own line instead of
// swallowing the rest of the file.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jitgemm::manifest {

struct CsvLineError {
    std::size_t cell;  // 0-based index of the cell that is malformed
    std::string reason;
};

struct CsvLine {
    std::vector<std::string> cells;  // unquoted cells trimmed of spaces and tabs; quoted ones exactly as quoted
    std::optional<CsvLineError> error;
};

// Splits one line (without its line break) into cells; "a,,b" is three cells, the middle one empty.
CsvLine split_csv_line(std::string_view line);

// `text` as one cell: as is when split_csv_line reads it back unchanged, else in quotes. Text with a line break
// cannot be a cell; the caller refuses it.
std::string csv_cell(std::string_view text);

}  // namespace jitgemm::manifest
