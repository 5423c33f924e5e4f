// Range checks of measured values.
#include "cache/record_sanity.h"

#include <cmath>
#include <sstream>

namespace jitgemm::cache {
namespace {

std::string text(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

bool finite_positive(double value) { return std::isfinite(value) && value > 0.0; }
bool finite_non_negative(double value) { return std::isfinite(value) && value >= 0.0; }

}  // namespace

std::optional<std::string> selection_defect(const SelectionRecord& s) {
    if (!finite_positive(s.time_ms)) return "its time " + text(s.time_ms) + " ms is not a positive number";
    if (!finite_non_negative(s.tflops)) return "its rate " + text(s.tflops) + " TFLOP/s is not a number >= 0";
    if (!finite_non_negative(s.search_seconds))
        return "its search time " + text(s.search_seconds) + " s is not a number >= 0";
    if (s.candidates_measured < 0 || s.candidates_total < 0 || s.candidates_measured > s.candidates_total)
        return "its counts (" + std::to_string(s.candidates_measured) + " of " + std::to_string(s.candidates_total) +
               " candidates measured) contradict each other";
    if (s.search_complete && s.candidates_measured != s.candidates_total)
        return "it claims a complete search with " + std::to_string(s.candidates_measured) + " of " +
               std::to_string(s.candidates_total) + " candidates measured";
    return std::nullopt;
}

std::optional<std::string> measurement_defect(const MeasurementRecord& m) {
    if (m.outcome == CandidateOutcome::Passed ? !finite_positive(m.time_ms) : !finite_non_negative(m.time_ms))
        return "its time " + text(m.time_ms) + " ms is not possible for outcome " + std::string(to_string(m.outcome));
    return std::nullopt;
}

std::optional<std::string> ceiling_defect(const CeilingRecord& c) {
    if (!finite_positive(c.value)) return "its value " + text(c.value) + " is not a positive number";
    return std::nullopt;
}

}  // namespace jitgemm::cache
