// The stopping rule of a search.
#include "tuner/search_stop.h"

#include <algorithm>
#include <cstdio>

namespace jitgemm {

std::optional<std::string> search_done(const std::vector<Calibration>& passed, double best_ms, double best_left_seconds,
                                       const StopRule& rule) {
    if (static_cast<int>(passed.size()) < rule.min_passed || best_ms <= 0.0 || best_left_seconds <= 0.0)
        return std::nullopt;
    double ratio = 0.0;  // measured milliseconds per estimated second, the most favourable seen
    for (const Calibration& c : passed) {
        if (c.estimated_seconds <= 0.0 || c.measured_ms <= 0.0) continue;
        const double r = c.measured_ms / c.estimated_seconds;
        if (ratio == 0.0 || r < ratio) ratio = r;
    }
    if (ratio == 0.0) return std::nullopt;
    const double predicted_ms = best_left_seconds * ratio;
    if (predicted_ms < best_ms * (1.0 + rule.noise)) return std::nullopt;
    char line[256];
    std::snprintf(line, sizeof line,
                  "the best candidate left is estimated at %.4f ms even at the most favourable ratio of measured to "
                  "estimated time seen (%zu passed), more than %.0f%% behind the %.4f ms measured",
                  predicted_ms, passed.size(), rule.noise * 100.0, best_ms);
    return std::string(line);
}

}  // namespace jitgemm
