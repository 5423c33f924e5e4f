// The kernel sources of kernel_sources/, embedded into the library at build time (cmake/embed_kernel_sources.cmake):
// nothing is read from the source tree at run time. NVRTC gets them as in-memory headers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jitgemm {

struct EmbeddedSource {
    std::string_view name;  // path below kernel_sources/, as #include-d: "common/jg_types.cuh"
    std::string_view text;
};

// Every embedded source, in a fixed order (defined in the generated kernel_sources_embedded.cpp).
const std::vector<EmbeddedSource>& embedded_kernel_sources();

// A 64-bit FNV-1a hash, in 16 hex digits, of every source's name and text: changes whenever any kernel source does,
// which makes cached cubins and tuning results of older sources stale.
const std::string& kernel_sources_hash();

// FNV-1a 64 of a byte string, as 16 hex digits (also used for cubin keys).
std::string fnv1a_hex(std::string_view bytes);

}  // namespace jitgemm
