// What the cache checks of a stored cubin before anything may hand it to the driver: that the bytes are the ones
// written (their content hash, where the row records one), that they are a CUDA ELF image whose headers and sections
// lie inside it, built for the architecture the row names, and that it defines the row's kernel as a global
// function. cuModuleLoadData trusts its input; a flipped byte, a truncated copy, a non-ELF payload or an image of
// another kernel would otherwise reach it. What the cache cannot know — whether the row's key is the key of the
// program a caller wants — the caller checks (runtime/compile/cubin_verification.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "cache/cache_records.h"

namespace jitgemm::cache {

// The largest cubin accepted; jitgemm's are tens to hundreds of KiB.
inline constexpr std::size_t kMaxCubinBytes = std::size_t{256} << 20;

// Why `image` is not a loadable cubin of `kernel_symbol` for `arch` ("sm_90a"), or nullopt when it is one.
std::optional<std::string> cubin_image_defect(std::string_view image, std::string_view kernel_symbol,
                                              std::string_view arch);

// Why the record cannot be used, or nullopt: its kernel symbol is not a C identifier, its image does not hash to its
// image_hash (when it records one: rows written before schema version 5 do not), or cubin_image_defect.
std::optional<std::string> cubin_record_defect(const CubinRecord& cubin);

// `cubin` with image_hash set from its image.
CubinRecord with_image_hash(CubinRecord cubin);

}  // namespace jitgemm::cache
