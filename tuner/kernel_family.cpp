// The table of families: names, their headers and kernel symbols; and the names of prune rules.
#include "tuner/kernel_family.h"

#include <array>

namespace jitgemm {
namespace {

struct FamilyEntry {
    Family family;
    std::string_view name;
    std::string_view header;
    std::string_view symbol;
};

constexpr std::array<FamilyEntry, 4> kFamilies{{
    {Family::Naive, "naive", "naive.cuh", "jg_naive"},
    {Family::Tiled, "tiled", "tiled.cuh", "jg_tiled"},
    {Family::RegBlock, "regblock", "regblock.cuh", "jg_regblock"},
    {Family::Mma, "mma", "mma.cuh", "jg_mma"},
}};

const FamilyEntry& entry(Family family) {
    for (const auto& e : kFamilies)
        if (e.family == family) return e;
    return kFamilies[0];
}

constexpr std::array<std::pair<PruneRule, std::string_view>, 9> kRuleNames{{
    {PruneRule::Dtype, "dtype"},
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

std::string_view to_string(Family family) { return entry(family).name; }
std::string_view source_header(Family family) { return entry(family).header; }
std::string_view kernel_symbol(Family family) { return entry(family).symbol; }

std::optional<Family> parse_family(std::string_view name) {
    for (const auto& e : kFamilies)
        if (e.name == name) return e.family;
    return std::nullopt;
}

std::string_view to_string(PruneRule rule) {
    for (const auto& [r, name] : kRuleNames)
        if (r == rule) return name;
    return "?";
}

}  // namespace jitgemm
