// Verifying a cached cubin against the program it is to stand for.
#include "runtime/compile/cubin_verification.h"

#include "log/log.h"

#include <iostream>
#include <mutex>
#include <set>

#include "cache/cubin_check.h"
#include "runtime/compile/nvrtc_compiler.h"

namespace jitgemm {

std::optional<std::string> cubin_defect_for(const KernelProgram& program, const cache::CubinRecord& cubin) {
    auto differs = [](const char* field, const std::string& stored, const std::string& wanted) {
        return std::string("its ") + field + " is \"" + stored + "\", not \"" + wanted + "\"";
    };
    if (cubin.key != program.cubin_key()) return differs("key", cubin.key, program.cubin_key());
    if (cubin.config != program.config_name) return differs("configuration", cubin.config, program.config_name);
    if (cubin.kernel_symbol != program.kernel_symbol)
        return differs("kernel symbol", cubin.kernel_symbol, program.kernel_symbol);
    if (cubin.arch != program.arch) return differs("architecture", cubin.arch, program.arch);
    if (cubin.nvrtc_version != nvrtc_version()) return differs("NVRTC version", cubin.nvrtc_version, nvrtc_version());
    if (cubin.kernel_sources_hash != program.source_hash)
        return differs("kernel source hash", cubin.kernel_sources_hash, program.source_hash);
    return cache::cubin_record_defect(cubin);
}

bool verified_or_reported(const KernelProgram& program, const cache::CubinRecord& cubin,
                          const std::string& source_path) {
    const auto defect = cubin_defect_for(program, cubin);
    if (defect)
        log::warn_once(source_path + "\n" + cubin.key, "ignoring the cubin " + cubin.key + " of " + program.config_name +
                                                     " in " + source_path + ": " + *defect + "; compiling it again");
    return !defect;
}

std::optional<cache::CubinRecord> find_verified_cubin(const KernelProgram& program,
                                                      const cache::CacheStack& caches) {
    for (cache::CacheStack::FoundCubin& found : caches.find_cubins(program.cubin_key()))
        if (verified_or_reported(program, found.cubin, found.source_path)) return std::move(found.cubin);
    return std::nullopt;
}


}  // namespace jitgemm
