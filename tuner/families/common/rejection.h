// Why a candidate configuration cannot run a problem, by the rule that removed it: what a family's validate() and the
// tuner's pruning report (counted per rule in the tuner's log, stored as the reason of a refused request).
#pragma once

#include <string>
#include <string_view>

namespace jitgemm {

enum class PruneRule {
    Dtype,         // the family does not compute the problem's element and compute types
    Batch,         // the family, or these knobs of it, do not compute batched problems (split K, packed copies)
    RuntimeShape,  // no run-time-shape variant of these knobs for this problem (mma_sync's stream-K and bulk copies,
                   // packed copies: laid out by the problem when compiled; decode along its large side)
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
