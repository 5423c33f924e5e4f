// The stopping rule of a search.
#include "tuner/search_stop.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace jitgemm {

namespace {

// Measured milliseconds per estimated second, the most favourable of the calibrations of `group` (any group when
// null); 0 when there is none.
double favourable_ratio(const std::vector<Calibration>& passed, const std::string* group) {
    double ratio = 0.0;
    for (const Calibration& c : passed) {
        if (c.estimated_seconds <= 0.0 || c.measured_ms <= 0.0) continue;
        if (group != nullptr && c.group != *group) continue;
        const double r = c.measured_ms / c.estimated_seconds;
        if (ratio == 0.0 || r < ratio) ratio = r;
    }
    return ratio;
}

}  // namespace

std::size_t most_promising(const std::vector<std::size_t>& pending, const std::vector<double>& estimates,
                           const std::vector<std::string>& groups, const std::vector<Calibration>& passed,
                           const std::map<std::string, int>& failures, const StopRule& rule) {
    std::map<std::string, double> own;  // each group's most favourable ratio
    for (const Calibration& c : passed) {
        if (c.estimated_seconds <= 0.0 || c.measured_ms <= 0.0) continue;
        const double r = c.measured_ms / c.estimated_seconds;
        auto [it, fresh] = own.emplace(c.group, r);
        if (!fresh) it->second = std::min(it->second, r);
    }
    const double any_group = favourable_ratio(passed, nullptr);
    const double unmeasured = any_group > 0.0 ? any_group / rule.unmeasured_group_margin : 1.0;
    std::size_t best = 0;
    double best_score = 0.0;
    for (std::size_t at = 0; at < pending.size(); ++at) {
        const std::size_t i = pending[at];
        const auto found = own.find(groups[i]);
        const auto failed = failures.find(groups[i]);
        const bool failing = failed != failures.end() && failed->second >= 2 && any_group > 0.0;
        const double score =
            estimates[i] * (found != own.end() ? found->second : failing ? any_group : unmeasured);
        if (at == 0 || score < best_score) {
            best = at;
            best_score = score;
        }
    }
    return best;
}

std::optional<std::string> search_done(const std::vector<Calibration>& passed, double best_ms,
                                       const std::vector<BestLeft>& left, const StopRule& rule) {
    if (static_cast<int>(passed.size()) < rule.min_passed || best_ms <= 0.0 || left.empty()) return std::nullopt;
    const double any_group = favourable_ratio(passed, nullptr);
    if (any_group == 0.0) return std::nullopt;
    double closest_ms = 0.0;  // the prediction nearest the winner, for the log
    for (const BestLeft& l : left) {
        if (l.estimated_seconds <= 0.0) return std::nullopt;
        const double own = favourable_ratio(passed, &l.group);
        const double ratio = own > 0.0 ? own : any_group / rule.unmeasured_group_margin;
        const double predicted_ms = l.estimated_seconds * ratio;
        if (predicted_ms < best_ms * (1.0 + rule.noise)) return std::nullopt;
        if (closest_ms == 0.0 || predicted_ms < closest_ms) closest_ms = predicted_ms;
    }
    char line[256];
    std::snprintf(line, sizeof line,
                  "the best candidate left is estimated at %.4f ms even at the most favourable ratio of measured to "
                  "estimated time seen (%zu passed), more than %.0f%% behind the %.4f ms measured",
                  closest_ms, passed.size(), rule.noise * 100.0, best_ms);
    return std::string(line);
}

}  // namespace jitgemm
