// Problem: the key text is stable, equal problems hash alike, and the index width switches exactly where 32-bit
// offsets (with a tile of slack) stop fitting.
#include <gtest/gtest.h>

#include <unordered_set>

#include "runtime/problem/problem.h"

namespace jitgemm {
namespace {

Problem square(std::int64_t size) {
    Problem p;
    p.m = p.n = p.k = size;
    p.lda = p.ldb = p.ldc = size;
    return p;
}

TEST(Problem, KeyTextIsStable) {
    Problem p = square(4096);
    p.trans_b = Transpose::Yes;
    p.alpha_one = true;
    p.align_a = 4;
    EXPECT_EQ(p.key(), "f32.f32.f32.f32_nt_m4096.n4096.k4096_ld4096.4096.4096_a1.b0_al4.16.16");
}

TEST(Problem, EveryFieldTakesPartInEqualityAndKey) {
    const Problem base = square(64);
    std::vector<Problem> variants(12, base);
    variants[0].m = 65;
    variants[1].n = 65;
    variants[2].k = 65;
    variants[3].lda = 65;
    variants[4].ldb = 65;
    variants[5].ldc = 65;
    variants[6].trans_a = Transpose::Yes;
    variants[7].trans_b = Transpose::Yes;
    variants[8].alpha_one = true;
    variants[9].beta_mode = BetaMode::General;
    variants[10].align_b = 8;
    variants[11].align_c = 4;
    std::unordered_set<std::string> keys{base.key()};
    for (const Problem& v : variants) {
        EXPECT_NE(v, base);
        EXPECT_TRUE(keys.insert(v.key()).second) << v.key();
    }
    EXPECT_EQ(ProblemHash{}(square(64)), ProblemHash{}(base));
}

TEST(Problem, KeysParseBackToTheSameProblem) {
    Problem p = square(777);
    p.n = 1111;
    p.k = 3333;
    p.trans_a = Transpose::Yes;
    p.lda = 3340;
    p.beta_mode = BetaMode::General;
    p.align_b = 8;
    const auto back = Problem::parse_key(p.key());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, p);
    for (const char* bad : {"", "f32", "f32.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b0_al16.16", "f99.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b0_al16.16.16",
                            "f32.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b0_al16.16.16 trailing",
                            "f32.f32.f32.f32_nq_m1.n1.k1_ld1.1.1_a1.b0_al16.16.16"})
        EXPECT_FALSE(Problem::parse_key(bad).has_value()) << bad;
}

TEST(Problem, IndexWidthSwitchesAtTheInt32Limit) {
    EXPECT_FALSE(square(4096).needs_index64());
    EXPECT_FALSE(square(40000).needs_index64());  // 1.6e9 elements + slack < 2^31
    EXPECT_TRUE(square(47000).needs_index64());   // 2.2e9 > 2^31
    Problem p = square(8);
    p.lda = std::int64_t{1} << 28;  // 8 + 256 columns of 2^28 exceed 2^31
    EXPECT_TRUE(p.needs_index64());
    p.lda = 8;
    p.ldc = (std::int64_t{1} << 31) / 300;
    EXPECT_FALSE(p.needs_index64());
}

}  // namespace
}  // namespace jitgemm
