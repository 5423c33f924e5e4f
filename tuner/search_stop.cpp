// The order and the stopping rule of a search.
#include "tuner/search_stop.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace jitgemm {

namespace {

// Measured milliseconds per estimated second, both beyond the rule's fixed part: the most favourable of each group's
// calibrations, and of all of them.
struct Ratios {
    std::map<std::string, double> own;
    double any = 0.0;
    bool measured = false;  // whether any calibration counts
    double fixed_seconds, fixed_ms = 0.0;

    Ratios(const std::vector<Calibration>& passed, const StopRule& rule) : fixed_seconds(rule.fixed_seconds) {
        // A candidate that ran in less than the fixed part says the model's launch is too slow for this device: the
        // rule then scales whole estimates, as with no fixed part.
        for (const Calibration& c : passed)
            if (c.measured_ms > 0.0 && c.measured_ms * 1e-3 <= fixed_seconds) fixed_seconds = 0.0;
        fixed_ms = fixed_seconds * 1e3;
        for (const Calibration& c : passed) {
            const double beyond = c.estimated_seconds - fixed_seconds;
            if (beyond <= 0.0 || c.measured_ms <= 0.0) continue;
            const double r = (c.measured_ms - fixed_ms) / beyond;
            auto [it, fresh] = own.emplace(c.group, r);
            if (!fresh) it->second = std::min(it->second, r);
            if (!measured || r < any) any = r;
            measured = true;
        }
    }
    // The ratio a group's candidates are judged at: its own, or for a group none of whose candidates has passed, the
    // best of any group divided by the rule's margin.
    double judged(const std::string& group, const StopRule& rule) const {
        const auto found = own.find(group);
        return found != own.end() ? found->second : any / rule.unmeasured_group_margin;
    }
    // Milliseconds: the fixed part, and the estimate beyond it at `ratio`.
    double predicted_ms(double estimated_seconds, double ratio) const {
        return fixed_ms + std::max(estimated_seconds - fixed_seconds, 0.0) * ratio;
    }
};

}  // namespace

std::size_t most_promising(const std::vector<std::size_t>& pending, const std::vector<double>& estimates,
                           const std::vector<std::string>& groups, const std::vector<Calibration>& passed,
                           const std::map<std::string, int>& failures, const StopRule& rule) {
    const Ratios ratios(passed, rule);
    std::size_t best = 0;
    double best_score = 0.0;
    for (std::size_t at = 0; at < pending.size(); ++at) {
        const std::string& group = groups[pending[at]];
        // Nothing passed yet: the model's own ranking. A group that has only failed (twice or more) gets no margin.
        const auto failed = failures.find(group);
        const bool failing = failed != failures.end() && failed->second >= 2 && !ratios.own.count(group);
        const double ratio = failing ? ratios.any : ratios.judged(group, rule);
        const double score =
            ratios.measured ? ratios.predicted_ms(estimates[pending[at]], ratio) : estimates[pending[at]];
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
    const Ratios ratios(passed, rule);
    if (!ratios.measured) return std::nullopt;
    double closest_ms = 0.0;  // the prediction nearest the winner, for the log
    for (const BestLeft& l : left) {
        if (l.estimated_seconds <= 0.0) return std::nullopt;
        const double predicted_ms = ratios.predicted_ms(l.estimated_seconds, ratios.judged(l.group, rule));
        if (predicted_ms < best_ms * (1.0 + rule.noise)) return std::nullopt;
        if (closest_ms == 0.0 || predicted_ms < closest_ms) closest_ms = predicted_ms;
    }
    char line[256];
    std::snprintf(line, sizeof line,
                  "the best candidate left is estimated at %.4f ms even at the most favourable ratio of measured to "
                  "estimated time seen (%zu passed, beyond the launch), more than %.0f%% behind the %.4f ms measured",
                  closest_ms, passed.size(), rule.noise * 100.0, best_ms);
    return std::string(line);
}

}  // namespace jitgemm
