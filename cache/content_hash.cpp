// XXH3-128 of bytes, as text.
#include "cache/content_hash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdio>

namespace jitgemm {

std::string content_hash_hex(std::string_view bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    char text[33];
    std::snprintf(text, sizeof(text), "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                  static_cast<unsigned long long>(h.low64));
    return text;
}

}  // namespace jitgemm
