// How long a candidate is timed (timing_rule.h).
#include "tuner/timing_rule.h"

#include <algorithm>
#include <cmath>

namespace jitgemm {
namespace {

// The q-quantile of sorted values, by linear interpolation.
double quantile(const std::vector<double>& sorted, double q) {
    const double at = q * static_cast<double>(sorted.size() - 1);
    const std::size_t low = static_cast<std::size_t>(std::floor(at));
    const std::size_t high = std::min(low + 1, sorted.size() - 1);
    return sorted[low] + (sorted[high] - sorted[low]) * (at - static_cast<double>(low));
}

}  // namespace

double median_relative_error(const std::vector<double>& samples) {
    if (samples.size() < 4) return 0.0;
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const double median = quantile(sorted, 0.5);
    if (median <= 0.0) return 0.0;
    const double sigma = (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / 1.349;
    return 1.2533 * sigma / std::sqrt(static_cast<double>(sorted.size())) / median;
}

int further_runs(const std::vector<double>& samples, double best_ms, const TimingRule& rule) {
    const int taken = static_cast<int>(samples.size());
    const int first_batch = std::max(rule.min_runs, 1);
    if (taken < first_batch) return first_batch - taken;
    if (taken >= rule.max_runs) return 0;
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const double median = quantile(sorted, 0.5);
    if (taken == first_batch && best_ms > 0.0 && median > rule.clearly_slower * best_ms) return 0;
    double total = 0.0;
    for (const double ms : samples) total += ms;
    if (total >= rule.min_milliseconds) return 0;
    if (rule.precision > 0.0 && median_relative_error(samples) <= rule.precision) return 0;
    const double per_run = std::max(total / static_cast<double>(taken), 1e-6);
    const double wanted = std::ceil((rule.min_milliseconds - total) / per_run);
    // With a precision to reach, a batch at a time, so that it is judged again after each.
    const double batch = rule.precision > 0.0 ? std::min(wanted, static_cast<double>(first_batch)) : wanted;
    return static_cast<int>(std::min(batch, static_cast<double>(rule.max_runs - taken)));
}

}  // namespace jitgemm
