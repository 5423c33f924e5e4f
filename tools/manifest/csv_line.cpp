// The CSV cell syntax of manifests: splitting a line and quoting a cell, each the other's inverse.
#include "tools/manifest/csv_line.h"

namespace jitgemm::manifest {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
    return text;
}

}  // namespace

CsvLine split_csv_line(std::string_view line) {
    CsvLine out;
    std::size_t pos = 0;
    for (;;) {
        const std::size_t cell = out.cells.size();
        std::size_t start = pos;
        while (start < line.size() && is_blank(line[start])) ++start;
        if (start < line.size() && line[start] == '"') {
            std::string text;
            bool closed = false;
            pos = start + 1;
            while (pos < line.size()) {
                if (line[pos] != '"') {
                    text += line[pos++];
                } else if (pos + 1 < line.size() && line[pos + 1] == '"') {
                    text += '"';
                    pos += 2;
                } else {
                    closed = true;
                    ++pos;
                    break;
                }
            }
            if (!closed) {
                out.error = CsvLineError{cell, "unterminated quote (a quoted cell ends on its own line)"};
                return out;
            }
            while (pos < line.size() && is_blank(line[pos])) ++pos;
            if (pos < line.size() && line[pos] != ',') {
                out.error = CsvLineError{cell, "text after the closing quote (write \"\" for a quote inside)"};
                return out;
            }
            out.cells.push_back(std::move(text));
        } else {
            std::size_t end = line.find(',', pos);
            if (end == std::string_view::npos) end = line.size();
            const std::string_view raw = line.substr(pos, end - pos);
            if (raw.find('"') != std::string_view::npos) {
                out.error = CsvLineError{cell, "a quote inside an unquoted cell (quote the whole cell and write \"\" "
                                               "for a quote)"};
                return out;
            }
            out.cells.emplace_back(trimmed(raw));
            pos = end;
        }
        if (pos >= line.size()) return out;
        ++pos;  // the comma; a comma at the very end leaves one more, empty, cell
    }
}

std::string csv_cell(std::string_view text) {
    // Quote whatever the plain reading would change: commas and quotes, blanks it would trim, and a leading '#',
    // which would make the first cell of a line a comment.
    const bool plain = text.find_first_of(",\"") == std::string_view::npos && trimmed(text) == text &&
                       (text.empty() || text.front() != '#');
    if (plain) return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace jitgemm::manifest
