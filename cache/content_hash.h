// The content hash of the tree: XXH3-128 (xxHash), as 32 hex digits. It keys cubins (KernelProgram::cubin_key),
// names the kernel sources in provenance, and is stored with every cubin so that a blob changed after it was written
// is caught before it reaches the driver. It detects accidents (a flipped bit, a truncated copy), not an adversary who
// can write the cache file: such a person could rewrite the hash too, so trust in a bundle comes from who may write it.
// It lives in the cache layer, the lowest, so that the cache can check its own blobs and every layer above can use it.
#pragma once

#include <string>
#include <string_view>

namespace jitgemm {

std::string content_hash_hex(std::string_view bytes);

}  // namespace jitgemm
