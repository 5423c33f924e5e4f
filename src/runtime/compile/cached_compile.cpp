// Cached-or-compiled cubins.
#include "runtime/compile/cached_compile.h"
#include "log/log.h"

#include <ctime>
#include <iostream>
#include <utility>

#include "cache/cubin_check.h"

#include "runtime/compile/cubin_verification.h"
#include "runtime/compile/kernel_sources.h"
#include "jitgemm/error.h"

namespace jitgemm {

cache::CubinRecord to_cubin_record(const KernelProgram& program, const Cubin& cubin) {
    cache::CubinRecord r;
    r.key = program.cubin_key();
    r.arch = program.arch;
    r.kernel_symbol = program.kernel_symbol;
    r.config = program.config_name;
    r.nvrtc_version = nvrtc_version();
    r.kernel_sources_hash = program.source_hash;
    r.image = cubin.image;
    r.created_at_unix = static_cast<std::int64_t>(std::time(nullptr));
    return cache::with_image_hash(std::move(r));
}

Cubin obtain_cubin(const KernelProgram& program, const cache::CacheStack& caches, bool keep) {
    if (auto cached = find_verified_cubin(program, caches)) {
        Cubin cubin;
        cubin.image = std::move(cached->image);
        return cubin;
    }
    Cubin cubin = compile_to_cubin(program);
    if (keep && caches.writable() != nullptr) {
        try {
            caches.writable()->put_cubin(to_cubin_record(program, cubin));
        } catch (const Error& e) {  // the kernel is still good; only its persistence failed
            log::warn(std::string("could not store a cubin in the tuning cache: ") + e.what());
        }
    }
    return cubin;
}

}  // namespace jitgemm
