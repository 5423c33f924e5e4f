// JITGEMM_API marks what libjitgemm exports. The library is built with hidden visibility, so a shared libjitgemm.so
// exports the public API and nothing of its internals (which may change in any release); in a static build the mark
// changes nothing.
#pragma once

#if defined(__GNUC__) || defined(__clang__)
#define JITGEMM_API __attribute__((visibility("default")))
#else
#define JITGEMM_API
#endif
