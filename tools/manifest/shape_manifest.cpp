// The entry points of shape manifests: reading the file, choosing the format, writing CSV.
#include "tools/manifest/shape_manifest.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "jitgemm/error.h"
#include "tools/manifest/csv_manifest.h"
#include "tools/manifest/json_manifest.h"
#include "tools/manifest/manifest_error.h"

namespace jitgemm {
namespace {

bool ends_with_ignoring_case(const std::string& name, std::string_view suffix) {
    if (name.size() < suffix.size()) return false;
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        char c = name[name.size() - suffix.size() + i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != suffix[i]) return false;
    }
    return true;
}

// A UTF-8 byte order mark, which some editors put first; it is not part of the text.
std::string_view without_bom(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    return text;
}

std::string read_file(const std::string& path) {
    const auto cannot = [&path](int error) {
        throw Error(ErrorCode::InvalidArgument,
                    "jitgemm: cannot read the manifest " + path + ": " + std::strerror(error));
    };
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) cannot(errno);
    std::string text;
    char buffer[65536];
    std::size_t got;
    while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) text.append(buffer, got);
    if (std::ferror(file.get())) cannot(errno);  // e.g. EISDIR: fopen opens a directory, reading it fails
    return text;
}

}  // namespace

std::vector<ManifestEntry> read_manifest(const std::string& path) { return parse_manifest(read_file(path), path); }

std::vector<ManifestEntry> parse_manifest(const std::string& text, const std::string& name) {
    const std::string_view body = without_bom(text);
    const std::size_t first = body.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) manifest::throw_manifest_error(name, 0, "the manifest is empty");
    // Entries are collected into a local vector and returned whole, so a throw anywhere returns nothing.
    if (ends_with_ignoring_case(name, ".csv")) return manifest::read_csv_manifest(body, name);
    if (ends_with_ignoring_case(name, ".json")) return manifest::read_json_manifest(body, name);
    if (body[first] == '[' || body[first] == '{') return manifest::read_json_manifest(body, name);
    return manifest::read_csv_manifest(body, name);
}

void write_manifest_csv(const std::vector<ManifestEntry>& entries, std::ostream& out) {
    manifest::write_csv_manifest(entries, out);
}

}  // namespace jitgemm
