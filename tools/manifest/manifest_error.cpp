// Messages of the manifest reader: the file-and-line prefix and the quoting of offending text.
#include "tools/manifest/manifest_error.h"

#include <cstdio>

#include "jitgemm/error.h"

namespace jitgemm::manifest {

void throw_manifest_error(const std::string& file, int line, const std::string& what) {
    std::string place = line > 0 ? file + ":" + std::to_string(line) : file;
    throw Error(ErrorCode::InvalidArgument, "jitgemm: " + place + ": " + what);
}

std::string quoted(std::string_view text) {
    constexpr std::size_t kLongest = 60;
    std::string out = "\"";
    for (std::size_t i = 0; i < text.size() && i < kLongest; ++i) {
        const char c = text[i];
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(c));
            out += escaped;
        } else {
            out += c;
        }
    }
    if (text.size() > kLongest) out += "...";
    return out + "\"";
}

}  // namespace jitgemm::manifest
