// The kernel families and what a candidate's check can reject it for.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace jitgemm {

enum class Family {
    Naive,     // kernel_sources/naive.cuh: one thread per output, the GPU reference
    Tiled,     // kernel_sources/tiled.cuh: T x T shared-memory tiles
    RegBlock,  // kernel_sources/regblock.cuh: register-blocked outer product, double-buffered
    Mma,       // kernel_sources/mma.cuh: Tensor Core mma.sync, ldmatrix, cp.async pipeline (fp16, bf16, TF32)
};

std::string_view to_string(Family);
std::optional<Family> parse_family(std::string_view);

// The embedded header that holds a family's kernel, and the kernel's (extern "C") symbol.
std::string_view source_header(Family);
std::string_view kernel_symbol(Family);

// Why a candidate cannot run, by the rule that removed it (counted per rule in the tuner's debug output).
enum class PruneRule {
    Dtype,         // the family does not compute the problem's element and compute types
    Knobs,         // the knobs contradict each other (a thread tile that does not divide the block tile, ...)
    Threads,       // more threads per block than the device allows
    SharedMemory,  // more shared memory per block than the device allows, even with opt-in
    Registers,     // estimated registers per thread or per block above the device's limits
    Occupancy,     // not one block fits on an SM
    Duplicate,     // the same kernel as an earlier candidate once vector widths are narrowed to the alignment
    Waves,         // less than half the wave efficiency (tiles / resident slots) of the best candidate
    Model,         // the cost model puts it above 2x the best candidate's time
};

std::string_view to_string(PruneRule);

struct Rejection {
    PruneRule rule;
    std::string reason;
};

}  // namespace jitgemm
