// Hash of the embedded kernel sources.
#include "runtime/compile/kernel_sources.h"

#include <cstdint>
#include <cstdio>

namespace jitgemm {
namespace {

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

std::uint64_t fnv1a(std::uint64_t h, std::string_view bytes) {
    for (const char c : bytes) {
        h ^= static_cast<unsigned char>(c);
        h *= kFnvPrime;
    }
    return h;
}

std::string hex(std::uint64_t h) {
    char text[17];
    std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(h));
    return text;
}

}  // namespace

std::string fnv1a_hex(std::string_view bytes) { return hex(fnv1a(kFnvOffset, bytes)); }

const std::string& kernel_sources_hash() {
    static const std::string hash = [] {
        std::uint64_t h = kFnvOffset;
        for (const auto& source : embedded_kernel_sources()) {
            h = fnv1a(h, source.name);
            h = fnv1a(h, std::string_view("\0", 1));
            h = fnv1a(h, source.text);
            h = fnv1a(h, std::string_view("\0", 1));
        }
        return hex(h);
    }();
    return hash;
}

}  // namespace jitgemm
