// The names of the prune rules.
#include "tuner/families/common/rejection.h"

#include <array>
#include <utility>

namespace jitgemm {
namespace {

constexpr std::array<std::pair<PruneRule, std::string_view>, 11> kRuleNames{{
    {PruneRule::Dtype, "dtype"},
    {PruneRule::Batch, "batch"},
    {PruneRule::RuntimeShape, "runtime-shape"},
    {PruneRule::Knobs, "knobs"},
    {PruneRule::Threads, "threads"},
    {PruneRule::SharedMemory, "shared-memory"},
    {PruneRule::Registers, "registers"},
    {PruneRule::Occupancy, "occupancy"},
    {PruneRule::Duplicate, "duplicate"},
    {PruneRule::Waves, "waves"},
    {PruneRule::Model, "model"},
}};

}  // namespace

std::string_view to_string(PruneRule rule) {
    for (const auto& [r, name] : kRuleNames)
        if (r == rule) return name;
    return "?";
}

}  // namespace jitgemm
