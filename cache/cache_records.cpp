// The names of candidate outcomes and the one-line summary of a provenance, used by the cache, the CLI and logs alike.
#include "cache/cache_records.h"

#include <string>
#include <utility>

namespace jitgemm::cache {
namespace {

constexpr std::pair<CandidateOutcome, std::string_view> kOutcomeNames[] = {
    {CandidateOutcome::Passed, "passed"},
    {CandidateOutcome::Invalid, "invalid"},
    {CandidateOutcome::CompileFailed, "compile-failed"},
    {CandidateOutcome::Spilled, "spilled"},
    {CandidateOutcome::Serialized, "serialized"},
    {CandidateOutcome::LaunchFailed, "launch-failed"},
    {CandidateOutcome::Incorrect, "incorrect"},
};

}  // namespace

std::string_view to_string(CandidateOutcome outcome) {
    for (const auto& [value, name] : kOutcomeNames)
        if (value == outcome) return name;
    return "?";  // only a value cast from outside the enum gets here
}

std::optional<CandidateOutcome> parse_candidate_outcome(std::string_view name) {
    for (const auto& [value, known] : kOutcomeNames)
        if (known == name) return value;
    return std::nullopt;
}

CurrentProvenance::CurrentProvenance(Provenance same_for_every_problem)
    : of_([p = std::move(same_for_every_problem)](const std::string&) { return std::optional<Provenance>(p); }) {}

std::string describe(const Provenance& provenance) {
    return "library " + provenance.library_version + ", sources " + provenance.kernel_sources_hash + ", NVRTC " +
           provenance.nvrtc_version + ", driver " + provenance.driver_version + ", " + provenance.device_name + ", " +
           std::to_string(provenance.sm_count) + " SMs";
}

}  // namespace jitgemm::cache
