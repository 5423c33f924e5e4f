// Problem: the key text is stable and versioned, every row of the field table takes part in the key, its parse,
// equality, the hash and the kernel's defines, and the index width switches exactly where 32-bit offsets (with a tile
// of slack) stop fitting.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <type_traits>
#include <unordered_set>

#include "runtime/problem/problem.h"
#include "runtime/problem/problem_fields.h"

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
    EXPECT_EQ(p.key(), "v2_f32.f32.f32.f32_nt_m4096.n4096.k4096_ld4096.4096.4096_a1.b0_al4.16.16");
    EXPECT_EQ(kProblemKeyVersion, 2);
    p.a_type = p.b_type = DType::BF16;
    p.c_type = DType::F16;
    p.compute = ComputeType::TF32;
    p.trans_a = Transpose::Yes;
    p.trans_b = Transpose::No;
    p.alpha_one = false;
    p.beta_mode = BetaMode::General;
    p.m = 1;
    p.ldc = 0;
    p.align_c = 2;
    EXPECT_EQ(p.key(), "v2_bf16.bf16.f16.tf32_tn_m1.n4096.k4096_ld4096.4096.0_ax.bx_al4.16.2");
    p.beta_mode = BetaMode::One;
    EXPECT_EQ(p.key().substr(p.key().find("_a")), "_ax.b1_al4.16.2");
    // A batch shows as a last field; one GEMM leaves it out, so every key written before batches existed still names
    // its problem.
    p.batch = 64;
    EXPECT_EQ(p.key().substr(p.key().find("_a")), "_ax.b1_al4.16.2_batch64");
    p.batch = 1;
    EXPECT_EQ(p.key().find("batch"), std::string::npos);
}

TEST(Problem, TheBatchFieldParsesOnlyWhereItIsNotOne) {
    Problem p = square(512);
    p.batch = 3;
    const auto back = Problem::parse_key(p.key());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->batch, 3);
    EXPECT_EQ(Problem::parse_key(square(512).key())->batch, 1);
    // "_batch1" is not the canonical text of one GEMM, and nothing may follow the batch.
    EXPECT_FALSE(Problem::parse_key(square(512).key() + "_batch1").has_value());
    EXPECT_FALSE(Problem::parse_key(p.key() + "_batch3").has_value());
    EXPECT_FALSE(Problem::parse_key(p.key() + "x").has_value());
}

TEST(Problem, EveryFieldTakesPartInEqualityAndKey) {
    const Problem base = square(64);
    std::vector<Problem> variants(14, base);
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
    variants[12].batch = 2;
    variants[13].runtime_dim = 1;
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
    for (const char* bad : {"", "v2_", "f32", "v2_f32", "v2_f32.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b0_al16.16",
                            "v2_f99.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b0_al16.16.16",
                            "v2_f32.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b0_al16.16.16 trailing",
                            "v2_f32.f32.f32.f32_nq_m1.n1.k1_ld1.1.1_a1.b0_al16.16.16",
                            "v2_f32.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a2.b0_al16.16.16",
                            "v2_f32.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b2_al16.16.16",
                            "v2_f32.f32.f32.f32_nn_m1.n1.k1_ld1.1.1_a1.b0_al16.16.256",
                            "v2_f32.f32.f32.f32_nn_m99999999999999999999.n1.k1_ld1.1.1_a1.b0_al16.16.16"})
        EXPECT_FALSE(Problem::parse_key(bad).has_value()) << bad;
}

TEST(Problem, OnlyCanonicalKeysOfThisVersionParse) {
    const std::string key = square(4096).key();
    ASSERT_EQ(key.rfind("v2_", 0), 0u) << key;
    ASSERT_TRUE(Problem::parse_key(key).has_value());
    const std::string text = key.substr(3);  // the text after the version token, which is version 1's key
    EXPECT_EQ(text, "f32.f32.f32.f32_nn_m4096.n4096.k4096_ld4096.4096.4096_ax.b0_al16.16.16");
    for (const std::string& other : {text, "v1_" + text, "v3_" + text, "v02_" + text, "V2_" + text, "v2" + text,
                                     "v2__" + text})
        EXPECT_FALSE(Problem::parse_key(other).has_value()) << other;
    // Text that reads back as the same problem but is not how key() writes it.
    for (const char* noncanonical : {"v2_f32.f32.f32.f32_nn_m04096.n4096.k4096_ld4096.4096.4096_ax.b0_al16.16.16",
                                     "v2_f32.f32.f32.f32_nn_m+4096.n4096.k4096_ld4096.4096.4096_ax.b0_al16.16.16",
                                     "v2_f32.f32.f32.f32_nn_m-4096.n4096.k4096_ld4096.4096.4096_ax.b0_al16.16.16",
                                     "v2_f32.f32.f32.f32_nn_m4096.n4096.k4096_ld4096.4096.4096_ax.b0_al016.16.16",
                                     "v2_F32.f32.f32.f32_nn_m4096.n4096.k4096_ld4096.4096.4096_ax.b0_al16.16.16",
                                     "v2_f32.f32.f32.f32_NN_m4096.n4096.k4096_ld4096.4096.4096_ax.b0_al16.16.16"})
        EXPECT_FALSE(Problem::parse_key(noncanonical).has_value()) << noncanonical;
}

// ---- table-driven checks: each works on every row of kProblemFields, so a new row is checked without a new test ----

// A value of the field's type that differs from `v`, one overload per type of the table.
std::int64_t other_value(std::int64_t v) { return v + 1; }
std::uint8_t other_value(std::uint8_t v) { return v == 16 ? 4 : 16; }
DType other_value(DType v) { return v == DType::F32 ? DType::BF16 : DType::F32; }
ComputeType other_value(ComputeType v) { return v == ComputeType::F32 ? ComputeType::TF32 : ComputeType::F32; }
Transpose other_value(Transpose v) { return v == Transpose::No ? Transpose::Yes : Transpose::No; }
bool other_value(bool v) { return !v; }
BetaMode other_value(BetaMode v) { return v == BetaMode::Zero ? BetaMode::General : BetaMode::Zero; }

// Any value of the field's type that a Problem may hold, sizes over the whole non-negative range of int64.
void randomize(std::int64_t& v, std::mt19937_64& rng) {
    const int bits = static_cast<int>(rng() % 63);
    v = static_cast<std::int64_t>(rng() & ((std::uint64_t{1} << bits) - 1));
}
void randomize(std::uint8_t& v, std::mt19937_64& rng) { v = static_cast<std::uint8_t>(rng()); }
void randomize(DType& v, std::mt19937_64& rng) { v = static_cast<DType>(rng() % 3); }
void randomize(ComputeType& v, std::mt19937_64& rng) { v = static_cast<ComputeType>(rng() % 2); }
void randomize(Transpose& v, std::mt19937_64& rng) { v = static_cast<Transpose>(rng() % 2); }
void randomize(bool& v, std::mt19937_64& rng) { v = rng() % 2 != 0; }
void randomize(BetaMode& v, std::mt19937_64& rng) { v = static_cast<BetaMode>(rng() % 3); }

Problem random_problem(std::mt19937_64& rng) {
    Problem p;
    std::apply([&](const auto&... field) { (randomize(p.*field.member, rng), ...); }, kProblemFields);
    return p;
}

// What the kernel's -D constant of a field holds: its integer, enums by their underlying value.
template <typename T>
long long expected_define(T value) {
    if constexpr (std::is_enum_v<T>)
        return static_cast<long long>(static_cast<std::underlying_type_t<T>>(value));
    else
        return static_cast<long long>(value);
}

std::map<std::string, std::vector<long long>> defines_by_name(const Problem& p) {
    std::map<std::string, std::vector<long long>> by_name;
    for (const auto& [name, value] : p.defines()) by_name[name].push_back(value);
    return by_name;
}

TEST(Problem, RandomProblemsRoundTripThroughTheirKeys) {
    std::mt19937_64 rng(20240601);
    for (int i = 0; i < 20000; ++i) {
        const Problem p = random_problem(rng);
        const std::string key = p.key();
        ASSERT_EQ(key.rfind("v2_", 0), 0u) << key;
        const auto back = Problem::parse_key(key);
        ASSERT_TRUE(back.has_value()) << key;
        EXPECT_EQ(*back, p) << key;
        EXPECT_EQ(back->key(), key);
        EXPECT_EQ(ProblemHash{}(*back), ProblemHash{}(p)) << key;
    }
}

TEST(Problem, EachRowAloneMakesProblemsUnequal) {
    std::mt19937_64 rng(7);
    for (int round = 0; round < 200; ++round) {
        const Problem base = random_problem(rng);
        const Problem copy = base;
        EXPECT_EQ(copy, base);
        EXPECT_EQ(ProblemHash{}(copy), ProblemHash{}(base));
        const auto check = [&](const auto& row) {
            Problem changed = base;
            changed.*row.member = other_value(base.*row.member);
            EXPECT_NE(changed, base) << row.macro;
            EXPECT_FALSE(changed == base) << row.macro;
            EXPECT_NE(ProblemHash{}(changed), ProblemHash{}(base)) << row.macro;
            EXPECT_NE(changed.key(), base.key()) << row.macro;
            const auto back = Problem::parse_key(changed.key());
            ASSERT_TRUE(back.has_value()) << changed.key();
            EXPECT_EQ(*back, changed) << row.macro;
        };
        std::apply([&](const auto&... field) { (check(field), ...); }, kProblemFields);
    }
}

TEST(Problem, DistinctRandomProblemsHashApart) {
    std::mt19937_64 rng(99);
    std::vector<Problem> problems;
    std::unordered_set<std::string> keys;
    std::unordered_set<std::size_t> hashes;
    while (problems.size() < 20000) {
        Problem p = random_problem(rng);
        if (rng() % 2) {  // problems that differ in few fields, as the shapes of one application do
            p = problems.empty() ? p : problems[rng() % problems.size()];
            p.m = static_cast<std::int64_t>(rng() % 8192);
        }
        if (!keys.insert(p.key()).second) continue;
        problems.push_back(p);
        hashes.insert(ProblemHash{}(p));
    }
    EXPECT_EQ(hashes.size(), problems.size());
    for (std::size_t i = 1; i < problems.size(); ++i) EXPECT_NE(problems[i], problems[i - 1]);
}

TEST(Problem, DefinesHoldEachMacroOnceWithTheFieldsValue) {
    Problem p = square(4097);
    p.n = 130;
    p.ldb = 5000;
    p.a_type = p.b_type = DType::BF16;
    p.c_type = DType::F16;
    p.trans_b = Transpose::Yes;
    p.alpha_one = true;
    p.beta_mode = BetaMode::General;
    p.align_a = 2;
    p.align_c = 8;
    p.batch = 12;
    const std::map<std::string, long long> expected{
        {"JG_A_TYPE", 2},    {"JG_B_TYPE", 2},    {"JG_C_TYPE", 1},     {"JG_COMPUTE_TF32", 0}, {"JG_TRANS_A", 0},
        {"JG_TRANS_B", 1},   {"JG_M", 4097},      {"JG_N", 130},        {"JG_K", 4097},         {"JG_LDA", 4097},
        {"JG_LDB", 5000},    {"JG_LDC", 4097},    {"JG_ALPHA_ONE", 1},  {"JG_BETA_MODE", 2},    {"JG_ALIGN_A", 2},
        {"JG_ALIGN_B", 16},  {"JG_ALIGN_C", 8},   {"JG_BATCH", 12},     {"JG_RUNTIME_DIM", 0},  {"JG_INDEX64", 0}};
    const auto defines = p.defines();
    EXPECT_EQ(defines.size(), expected.size());
    const auto by_name = defines_by_name(p);
    for (const auto& [name, value] : expected) {
        const auto it = by_name.find(name);
        ASSERT_NE(it, by_name.end()) << name;
        EXPECT_EQ(it->second, std::vector<long long>{value}) << name;
    }
    p.compute = ComputeType::TF32;
    p.ldc = std::int64_t{1} << 40;
    EXPECT_EQ(defines_by_name(p)["JG_COMPUTE_TF32"], std::vector<long long>{1});
    EXPECT_EQ(defines_by_name(p)["JG_INDEX64"], std::vector<long long>{1});

    // Every row, on random problems: its macro once, with the field's value; then the derived JG_INDEX64 last.
    std::mt19937_64 rng(3);
    for (int round = 0; round < 200; ++round) {
        Problem q = random_problem(rng);
        q.runtime_dim = 0;  // a run-time-shape variant's sizes compile as 0: the test below
        const auto all = defines_by_name(q);
        EXPECT_EQ(all.size(), std::tuple_size_v<decltype(kProblemFields)> + 1);
        const auto check = [&](const auto& row) {
            const auto it = all.find(std::string(row.macro));
            ASSERT_NE(it, all.end()) << row.macro;
            EXPECT_EQ(it->second, std::vector<long long>{expected_define(q.*row.member)}) << row.macro;
        };
        std::apply([&](const auto&... field) { (check(field), ...); }, kProblemFields);
        EXPECT_EQ(q.defines().back(), (std::pair<std::string, long long>{"JG_INDEX64", q.needs_index64()}));
    }
}

// A run-time-shape variant's key names it (_rt1, _rt2), and its defines leave out what it takes at run time: two
// problems that differ only there compile to one binary, but the index width stays the call's own.
TEST(Problem, RunTimeShapeVariantsCompileWithoutTheirRunTimeSizes) {
    Problem p = square(512);
    p.runtime_dim = 2;
    EXPECT_EQ(p.key().substr(p.key().size() - 4), "_rt2");
    const auto back = Problem::parse_key(p.key());
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->runtime_dim, 2);
    EXPECT_EQ(square(512).key().find("_rt"), std::string::npos);
    EXPECT_FALSE(Problem::parse_key(square(512).key() + "_rt0").has_value());

    const auto by_name = defines_by_name(p);
    EXPECT_EQ(by_name.at("JG_RUNTIME_DIM"), std::vector<long long>{2});
    for (const char* zero : {"JG_N", "JG_LDA", "JG_LDB", "JG_LDC"})
        EXPECT_EQ(by_name.at(zero), std::vector<long long>{0}) << zero;
    EXPECT_EQ(by_name.at("JG_M"), std::vector<long long>{512});
    EXPECT_EQ(by_name.at("JG_K"), std::vector<long long>{512});

    Problem wider = p;  // another n and other leading dimensions: the same binary
    wider.n = 3000;
    wider.lda = wider.ldb = 700;
    wider.ldc = 640;
    EXPECT_NE(wider.key(), p.key());
    EXPECT_EQ(wider.defines(), p.defines());
    Problem other_k = p;  // k is compiled in
    other_k.k = 513;
    EXPECT_NE(other_k.defines(), p.defines());

    Problem rows = square(512);
    rows.runtime_dim = 1;
    EXPECT_EQ(defines_by_name(rows).at("JG_M"), std::vector<long long>{0});
    EXPECT_EQ(defines_by_name(rows).at("JG_N"), std::vector<long long>{512});

    Problem huge = p;  // the index width of the call's own sizes, not of the zeros
    huge.n = std::int64_t{1} << 22;
    huge.ldc = 512;
    EXPECT_TRUE(huge.needs_index64());
    EXPECT_EQ(defines_by_name(huge).at("JG_INDEX64"), std::vector<long long>{1});
    EXPECT_EQ(defines_by_name(p).at("JG_INDEX64"), std::vector<long long>{0});
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
