// $JITGEMM_RUNTIME_SHAPES: on or off (1 or 0; off when unset), read at each miss, and anything else refused with a
// sentence naming the variable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "dispatch/tuning_policy.h"
#include "jitgemm/error.h"

namespace jitgemm {
namespace {

TEST(RuntimeShapesSwitch, OnOffAndNothingElse) {
    ::unsetenv("JITGEMM_RUNTIME_SHAPES");
    EXPECT_FALSE(runtime_shapes_enabled());
    for (const char* on : {"on", "1"}) {
        ::setenv("JITGEMM_RUNTIME_SHAPES", on, 1);
        EXPECT_TRUE(runtime_shapes_enabled()) << on;
    }
    for (const char* off : {"off", "0", ""}) {
        ::setenv("JITGEMM_RUNTIME_SHAPES", off, 1);
        EXPECT_FALSE(runtime_shapes_enabled()) << off;
    }
    ::setenv("JITGEMM_RUNTIME_SHAPES", "yes", 1);
    try {
        runtime_shapes_enabled();
        ADD_FAILURE() << "\"yes\" was taken";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find("JITGEMM_RUNTIME_SHAPES=yes"), std::string::npos) << e.what();
    }
    ::unsetenv("JITGEMM_RUNTIME_SHAPES");
}

}  // namespace
}  // namespace jitgemm
