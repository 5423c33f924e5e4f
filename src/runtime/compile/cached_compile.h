// Where a kernel's binary comes from: the cubin table of the caches when a binary with the same key is there
// (no compile), else NVRTC — and then, when `keep` is set, the new binary is stored for later processes.
#pragma once

#include "cache/cache_stack.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"

namespace jitgemm {

// Throws Error(CompileError) when NVRTC rejects the program.
Cubin obtain_cubin(const KernelProgram& program, const cache::CacheStack& caches, bool keep);

cache::CubinRecord to_cubin_record(const KernelProgram& program, const Cubin& cubin);

}  // namespace jitgemm
