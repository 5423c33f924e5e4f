// The switches read at each miss or search: $JITGEMM_RUNTIME_SHAPES, on or off (1 or 0; on when unset or empty), and
// $JITGEMM_SEARCH_TWINS, all or later (later when unset); $JITGEMM_SEARCH_PRECISION and $JITGEMM_SEARCH_REFINE_WITHIN,
// fractions in [0, 1) (the default precision, and 0, when unset); anything else refused with a sentence naming the
// variable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dispatch/tuning_policy.h"
#include "jitgemm/error.h"

namespace jitgemm {
namespace {

// Sets `variable` to `value` and expects `read` to refuse it, naming both.
template <typename Read>
void expect_refused(const char* variable, const char* value, Read read) {
    ::setenv(variable, value, 1);
    try {
        read();
        ADD_FAILURE() << variable << "=" << value << " was taken";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find(std::string(variable) + "=" + value), std::string::npos) << e.what();
    }
    ::unsetenv(variable);
}

TEST(RuntimeShapesSwitch, OnOffAndNothingElse) {
    ::unsetenv("JITGEMM_RUNTIME_SHAPES");
    EXPECT_TRUE(runtime_shapes_enabled());
    for (const char* on : {"on", "1", ""}) {
        ::setenv("JITGEMM_RUNTIME_SHAPES", on, 1);
        EXPECT_TRUE(runtime_shapes_enabled()) << on;
    }
    for (const char* off : {"off", "0"}) {
        ::setenv("JITGEMM_RUNTIME_SHAPES", off, 1);
        EXPECT_FALSE(runtime_shapes_enabled()) << off;
    }
    expect_refused("JITGEMM_RUNTIME_SHAPES", "yes", runtime_shapes_enabled);
    ::unsetenv("JITGEMM_RUNTIME_SHAPES");
}

TEST(SearchTwinsSwitch, AllLaterAndNothingElse) {
    ::unsetenv("JITGEMM_SEARCH_TWINS");
    EXPECT_EQ(search_twins_from_environment(), Twins::Later);
    ::setenv("JITGEMM_SEARCH_TWINS", "all", 1);
    EXPECT_EQ(search_twins_from_environment(), Twins::All);
    GemmOptions options;
    EXPECT_EQ(resolve_tune_options(options).twins, Twins::All);
    ::setenv("JITGEMM_SEARCH_TWINS", "later", 1);
    EXPECT_EQ(search_twins_from_environment(), Twins::Later);
    expect_refused("JITGEMM_SEARCH_TWINS", "first", search_twins_from_environment);
}

TEST(SearchPrecisionSwitch, AFractionOrTheDefault) {
    ::unsetenv("JITGEMM_SEARCH_PRECISION");
    EXPECT_EQ(timing_precision_from_environment(), kDefaultTimingPrecision);
    EXPECT_GT(kDefaultTimingPrecision, 0.0);  // the measured default: timing stops once the median is known
    ::setenv("JITGEMM_SEARCH_PRECISION", "", 1);
    EXPECT_EQ(timing_precision_from_environment(), kDefaultTimingPrecision);
    ::setenv("JITGEMM_SEARCH_PRECISION", "0", 1);
    EXPECT_EQ(timing_precision_from_environment(), 0.0);  // the time rule alone
    ::setenv("JITGEMM_SEARCH_PRECISION", "0.02", 1);
    EXPECT_EQ(timing_precision_from_environment(), 0.02);
    EXPECT_EQ(resolve_tune_options(GemmOptions{}).timing.precision, 0.02);
    for (const char* bad : {"half", "1", "-0.1", "0.01x", "nan"})
        expect_refused("JITGEMM_SEARCH_PRECISION", bad, timing_precision_from_environment);
    ::unsetenv("JITGEMM_SEARCH_PRECISION");
}

TEST(SearchRefineWithinSwitch, AFractionOrTheFinalistsAlone) {
    ::unsetenv("JITGEMM_SEARCH_REFINE_WITHIN");
    EXPECT_EQ(refine_within_from_environment(), 0.0);
    EXPECT_EQ(resolve_tune_options(GemmOptions{}).refine_within, 0.0);
    ::setenv("JITGEMM_SEARCH_REFINE_WITHIN", "0.05", 1);
    EXPECT_EQ(refine_within_from_environment(), 0.05);
    EXPECT_EQ(resolve_tune_options(GemmOptions{}).refine_within, 0.05);
    for (const char* bad : {"five", "1", "-0.05", "0.05%", "inf"})
        expect_refused("JITGEMM_SEARCH_REFINE_WITHIN", bad, refine_within_from_environment);
    ::unsetenv("JITGEMM_SEARCH_REFINE_WITHIN");
}

}  // namespace
}  // namespace jitgemm
