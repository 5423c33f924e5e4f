// The last check before stored bytes may reach cuModuleLoadData: a cached cubin is used for a program only when it
// is that program's binary. The cache vouches for the bytes (cache/cubin_check.h: content hash, ELF structure,
// architecture, the kernel's symbol); this adds what only the caller knows: the key recomputed from the program
// (problem, configuration, family source hash, architecture, NVRTC version, options) equals the row's, and the row's
// configuration, symbol, architecture, NVRTC version and source hash are the program's. A cubin row that no
// selection refers to is therefore used only when its provenance is the running build's.
#pragma once

#include <optional>
#include <string>

#include "cache/cache_stack.h"
#include "runtime/compile/kernel_program.h"

namespace jitgemm {

// Why `cubin` is not the binary of `program`, or nullopt when it is.
std::optional<std::string> cubin_defect_for(const KernelProgram& program, const cache::CubinRecord& cubin);

// Whether `cubin`, read from `source_path`, is the program's binary; when it is not, the reason goes to stderr, once
// per process, file and key.
bool verified_or_reported(const KernelProgram& program, const cache::CubinRecord& cubin,
                          const std::string& source_path);

// The first cubin of program.cubin_key() in the stack that is the program's binary. Each one that is not is reported
// on stderr, once per process and file, and skipped: the caller compiles instead (and storing the new binary
// replaces a damaged row of the writable cache).
std::optional<cache::CubinRecord> find_verified_cubin(const KernelProgram& program, const cache::CacheStack& caches);

}  // namespace jitgemm
