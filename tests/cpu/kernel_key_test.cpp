// KernelKey: the in-memory map's key. A deterministic call's key is apart from the same problem's other calls (its
// kernel is never swapped), as is one built during a capture; equal keys hash equally.
#include <gtest/gtest.h>

#include "dispatch/kernel_store.h"

namespace jitgemm {
namespace {

TEST(KernelKey, DeterministicAndCaptureKeysStandApart) {
    Problem p;
    p.m = p.n = p.k = p.lda = p.ldb = p.ldc = 256;
    const KernelKey plain{nullptr, p, ""};
    KernelKey deterministic = plain;
    deterministic.deterministic = true;
    KernelKey captured = plain;
    captured.during_capture = true;
    KernelKey both = deterministic;
    both.during_capture = true;
    const KernelKeyHash hash;
    const KernelKey keys[] = {plain, deterministic, captured, both};
    for (std::size_t i = 0; i < 4; ++i)
        for (std::size_t j = 0; j < 4; ++j) {
            EXPECT_EQ(keys[i] == keys[j], i == j) << i << " " << j;
            if (i != j) {
                EXPECT_NE(hash(keys[i]), hash(keys[j])) << i << " " << j;
            }
        }
    const KernelKey copy = deterministic;
    EXPECT_EQ(hash(copy), hash(deterministic));
}

}  // namespace
}  // namespace jitgemm
