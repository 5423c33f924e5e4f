// Environment defaults of the tuning policy and budget.
#include "dispatch/tuning_policy.h"

#include <cstdlib>
#include <string>

#include "jitgemm/error.h"

namespace jitgemm {
namespace {

constexpr double kDefaultBudgetSeconds = 10.0;

TunePolicy environment_policy() {
    static const TunePolicy policy = [] {
        const char* value = std::getenv("JITGEMM_TUNE");
        if (value == nullptr || *value == '\0') return TunePolicy::Now;
        const auto parsed = parse_tune_policy(value);
        if (!parsed || *parsed == TunePolicy::FromEnvironment)
            throw Error(ErrorCode::InvalidArgument, std::string("jitgemm: JITGEMM_TUNE=") + value +
                                                        " is not one of now, background, off, never");
        return *parsed;
    }();
    return policy;
}

double environment_budget() {
    static const double budget = [] {
        const char* value = std::getenv("JITGEMM_TUNE_BUDGET");
        if (value == nullptr || *value == '\0') return kDefaultBudgetSeconds;
        char* end = nullptr;
        const double seconds = std::strtod(value, &end);
        if (end == value || *end != '\0' || !(seconds > 0))
            throw Error(ErrorCode::InvalidArgument, std::string("jitgemm: JITGEMM_TUNE_BUDGET=") + value +
                                                        " is not a positive number of seconds");
        return seconds;
    }();
    return budget;
}

// $`name` as a fraction in [0, 1), `unset` where it is unset or empty; otherwise InvalidArgument naming an `example`.
double fraction_from_environment(const char* name, double unset, const char* example) {
    const char* value = std::getenv(name);
    const std::string text = value == nullptr ? "" : value;
    if (text.empty()) return unset;
    char* end = nullptr;
    const double fraction = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(fraction >= 0.0 && fraction < 1.0))
        throw Error(ErrorCode::InvalidArgument, std::string("jitgemm: ") + name + "=" + text +
                                                    " is not a fraction in [0, 1) (e.g. " + example + ")");
    return fraction;
}

}  // namespace

bool runtime_shapes_enabled() {
    // Read at every miss, not once: misses are rare, and a program (or a test) may set it after its first call.
    const char* value = std::getenv("JITGEMM_RUNTIME_SHAPES");
    const std::string text = value == nullptr ? "" : value;
    // On unless turned off (session 30): every GPU test passes with it on, and the untuned decode targets stay at
    // >= 0.9x cuBLAS with it (bench/results/2026-12-06-h100-s30.md).
    if (text.empty() || text == "on" || text == "1") return true;
    if (text == "off" || text == "0") return false;
    throw Error(ErrorCode::InvalidArgument, "jitgemm: JITGEMM_RUNTIME_SHAPES=" + text + " is not on or off");
}

Twins search_twins_from_environment() {
    const char* value = std::getenv("JITGEMM_SEARCH_TWINS");
    const std::string text = value == nullptr ? "" : value;
    if (text.empty() || text == "later") return Twins::Later;
    if (text == "all") return Twins::All;
    throw Error(ErrorCode::InvalidArgument, "jitgemm: JITGEMM_SEARCH_TWINS=" + text + " is not all or later");
}

double timing_precision_from_environment() {
    return fraction_from_environment("JITGEMM_SEARCH_PRECISION", kDefaultTimingPrecision, "0.005");
}

double refine_within_from_environment() {
    return fraction_from_environment("JITGEMM_SEARCH_REFINE_WITHIN", 0.0, "0.05");
}

TunePolicy resolve_tune_policy(TunePolicy requested) {
    return requested == TunePolicy::FromEnvironment ? environment_policy() : requested;
}

TuneOptions resolve_tune_options(const GemmOptions& options) {
    if (options.tune_budget_seconds < 0)
        throw Error(ErrorCode::InvalidArgument, "jitgemm: tune_budget_seconds = " +
                                                    std::to_string(options.tune_budget_seconds) + " is negative");
    TuneOptions t;
    t.budget_seconds = options.tune_budget_seconds > 0 ? options.tune_budget_seconds : environment_budget();
    t.twins = search_twins_from_environment();
    t.timing.precision = timing_precision_from_environment();
    t.refine_within = refine_within_from_environment();
    return t;
}

}  // namespace jitgemm
