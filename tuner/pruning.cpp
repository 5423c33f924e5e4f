// The pruning rules in order, and the ranking.
#include "tuner/pruning.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace jitgemm {
namespace {

constexpr double kWaveEfficiencyFloor = 0.5;  // of the best candidate's
constexpr double kModelCutoff = 2.0;          // times the best candidate's estimate

}  // namespace

std::string PruneReport::describe() const {
    std::string s = std::to_string(enumerated) + " enumerated:";
    for (const auto& [rule, count] : removed) s += " " + std::string(to_string(rule)) + " -" + std::to_string(count) + ",";
    s += " " + std::to_string(survivors) + " left";
    if (deferred_twins > 0) s += ", and " + std::to_string(deferred_twins) + " twins for the refinement";
    return s;
}

namespace {

// Equal for twins (pruning.h): the family, whether its tiles are shared, and every term of the estimate, to the
// picosecond (the same formula reached by two routes may differ in the last bits).
std::string twin_key(const RankedCandidate& r, const Problem& problem) {
    const auto ps = [](double seconds) { return std::to_string(std::llround(seconds * 1e12)); };
    const CostEstimate& e = r.estimate;
    return std::string(family_name(r.config)) + (shares_tiles(r.config, problem) ? " shared " : " own ") +
           ps(e.seconds) + " " + ps(e.compute_seconds) + " " + ps(e.traffic_seconds) + " " +
           std::to_string(std::llround(e.wave_efficiency * 1e6)) + " " + std::to_string(e.blocks_per_sm);
}

}  // namespace

PrunedSpace prune_and_rank(const std::vector<AnyConfig>& candidates, const Problem& problem,
                           const DeviceInfo& device, const DeviceCeilings& ceilings, Twins twins) {
    PrunedSpace out;
    out.report.enumerated = static_cast<int>(candidates.size());
    std::vector<RankedCandidate> valid;
    std::set<std::string> kernels;
    for (const AnyConfig& c : candidates) {
        if (const auto rejection = validate(c, problem, device)) {
            ++out.report.removed[rejection->rule];
            continue;
        }
        if (!kernels.insert(kernel_identity(c, problem)).second) {
            ++out.report.removed[PruneRule::Duplicate];
            continue;
        }
        valid.push_back({c, estimate_cost(c, problem, device, ceilings)});
    }
    if (valid.empty()) return out;

    // The yardstick is the best wave efficiency of a candidate whose blocks each own their tiles: split-K and stream-K
    // fill the waves by design (that is what they are for), and measured against them every tile shape that does not
    // share its tiles would be dropped before the measurements could say whether sharing pays.
    double best_waves = 0.0, best_waves_shared = 0.0;
    for (const auto& r : valid) {
        double& best = shares_tiles(r.config, problem) ? best_waves_shared : best_waves;
        best = std::max(best, r.estimate.wave_efficiency);
    }
    if (best_waves == 0.0) best_waves = best_waves_shared;
    std::vector<RankedCandidate> filled;
    for (auto& r : valid) {
        if (r.estimate.wave_efficiency < kWaveEfficiencyFloor * best_waves) ++out.report.removed[PruneRule::Waves];
        else filled.push_back(std::move(r));
    }
    std::stable_sort(filled.begin(), filled.end(), [](const RankedCandidate& x, const RankedCandidate& y) {
        return x.estimate.seconds < y.estimate.seconds;
    });
    const double cutoff = kModelCutoff * filled.front().estimate.seconds;
    std::map<std::string, std::string> first_of_key;  // twin key -> name of the first candidate with it
    for (auto& r : filled) {
        if (r.estimate.seconds > cutoff) {
            ++out.report.removed[PruneRule::Model];
            continue;
        }
        if (twins == Twins::Later) {
            const auto [first, fresh] = first_of_key.emplace(twin_key(r, problem), to_string(r.config));
            if (!fresh) {
                out.twins[first->second].push_back(r.config);
                ++out.report.deferred_twins;
                continue;
            }
        }
        out.ranked.push_back(std::move(r));
    }
    out.report.survivors = static_cast<int>(out.ranked.size());
    return out;
}

}  // namespace jitgemm
