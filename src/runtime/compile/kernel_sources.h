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

// The embedded sources `header` consists of: itself and every source it includes, directly or not ("#include" lines
// naming embedded sources), in name order.
std::vector<std::string_view> source_closure(std::string_view header);

// XXH3-128 (xxHash), as 32 hex digits, of the names and texts of source_closure(header): the source hash of a kernel
// family (its own sources and the shared headers it includes), which keys its cubins and the provenance of tuned
// entries, so that editing one family leaves what depends only on others valid. Throws Error(Internal) for a
// header that is not embedded. Computed once per header.
const std::string& source_hash(std::string_view header);

}  // namespace jitgemm
