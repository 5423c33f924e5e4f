// Written manifests read back equal, and the field table agrees with ManifestEntry: its default texts parse to the
// struct's defaults, and every field the writer emits is one the readers take.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "jitgemm/error.h"
#include "tools/manifest/manifest_fields.h"
#include "tools/manifest/shape_manifest.h"

namespace jitgemm {
namespace {

// An entry with every field away from its default, so that applying a default is visible.
ManifestEntry far_from_defaults() {
    ManifestEntry e;
    e.name = "far";
    e.m = 3;
    e.n = 5;
    e.k = 7;
    e.batch = 9;
    e.trans_a = e.trans_b = Transpose::Yes;
    e.layout_a = e.layout_b = e.layout_c = e.layout_d = Order::ColumnMajor;
    e.a_type = e.b_type = e.c_type = e.d_type = DType::BF16;
    e.compute = ComputeType::TF32;
    e.alpha = 2;
    e.beta = 3;
    e.epilogue = "relu";
    e.alignment = 16;
    e.workspace_limit = 99;
    e.frequency = 0.5;
    return e;
}

TEST(ManifestFields, DefaultTextsParseToTheEntryDefaults) {
    ManifestEntry e = far_from_defaults();
    for (const manifest::ManifestField& field : manifest::manifest_fields()) {
        if (field.required || field.default_text.empty()) continue;  // M, N, K; name (filled in by the reader)
        const manifest::Refusal refusal = field.parse(field.default_text, e);
        EXPECT_FALSE(refusal) << field.name << ": " << *refusal;
    }
    ManifestEntry defaults;
    defaults.name = e.name;
    defaults.m = e.m;
    defaults.n = e.n;
    defaults.k = e.k;
    EXPECT_TRUE(same_problem(e, defaults)) << describe(e) << "\n" << describe(defaults);
}

TEST(ManifestFields, OnlyMNAndKAreRequiredAndNamesAreUnique) {
    std::vector<std::string> required;
    for (const manifest::ManifestField& field : manifest::manifest_fields()) {
        if (field.required) required.emplace_back(field.name);
        EXPECT_EQ(manifest::find_field(field.name), manifest::find_field(std::string(field.name)));
        EXPECT_EQ(&manifest::manifest_fields()[*manifest::find_field(field.name)], &field) << field.name;
    }
    EXPECT_EQ(required, (std::vector<std::string>{"M", "N", "K"}));
    EXPECT_FALSE(manifest::find_field("tranzA"));
    EXPECT_EQ(manifest::find_field("LAYOUTa"), manifest::find_field("layoutA"));
}

TEST(ManifestFields, EveryWrittenValueParsesBackToItself) {
    const ManifestEntry far = far_from_defaults();
    for (const manifest::ManifestField& field : manifest::manifest_fields()) {
        if (!field.format) continue;
        ManifestEntry e = far;
        const std::string text = field.format(far);
        const manifest::Refusal refusal = field.parse(text, e);
        EXPECT_FALSE(refusal) << field.name << ": " << *refusal;
        EXPECT_TRUE(same_problem(e, far)) << field.name << " wrote " << text;
    }
}

// A random text for names and epilogues, drawn to hit every quoting rule: commas, quotes, blanks at either end,
// a leading '#', non-ASCII bytes; never empty (an empty name reads back as "MxNxK") and never a line break.
std::string random_text(std::mt19937_64& rng) {
    static const std::vector<std::string> pieces{"a", "Z", "0", "_", "-", ",", "\"", " ", "\t", "#", "x y",
                                                 "\xC3\xA9", "relu", "bias", ";", "'", "\\", "[", "{"};
    std::string out;
    const int length = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < length; ++i) out += pieces[rng() % pieces.size()];
    if (out.find_first_not_of(" \t") == std::string::npos) out += "b";
    return out;
}

double random_finite(std::mt19937_64& rng) {
    switch (rng() % 5) {
        case 0: return static_cast<double>(static_cast<std::int64_t>(rng() % 2001) - 1000);
        case 1: return std::uniform_real_distribution<double>(-1, 1)(rng);
        case 2: return std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng), static_cast<int>(rng() % 2000) - 1000);
        case 3: return std::numeric_limits<double>::denorm_min() * static_cast<double>(1 + rng() % 7);
        default: return (rng() % 2 ? 1 : -1) * std::numeric_limits<double>::max();
    }
}

ManifestEntry random_entry(std::mt19937_64& rng) {
    const auto pick = [&rng](auto... values) {
        using T = std::common_type_t<decltype(values)...>;
        const T all[] = {values...};
        return all[rng() % sizeof...(values)];
    };
    const auto size = [&rng](std::int64_t least) {
        return rng() % 4 == 0 ? std::numeric_limits<std::int64_t>::max() - static_cast<std::int64_t>(rng() % 3)
                              : least + static_cast<std::int64_t>(rng() % 20000);
    };
    ManifestEntry e;
    e.name = random_text(rng);
    e.m = size(1);
    e.n = size(1);
    e.k = size(0);
    e.batch = size(1);
    e.trans_a = pick(Transpose::No, Transpose::Yes);
    e.trans_b = pick(Transpose::No, Transpose::Yes);
    e.layout_a = pick(Order::RowMajor, Order::ColumnMajor);
    e.layout_b = pick(Order::RowMajor, Order::ColumnMajor);
    e.layout_c = pick(Order::RowMajor, Order::ColumnMajor);
    e.layout_d = pick(Order::RowMajor, Order::ColumnMajor);
    e.a_type = pick(DType::F32, DType::F16, DType::BF16);
    e.b_type = pick(DType::F32, DType::F16, DType::BF16);
    e.c_type = pick(DType::F32, DType::F16, DType::BF16);
    e.d_type = pick(DType::F32, DType::F16, DType::BF16);
    e.compute = pick(ComputeType::F32, ComputeType::TF32);
    e.alpha = random_finite(rng);
    e.beta = random_finite(rng);
    e.epilogue = rng() % 3 == 0 ? "none" : random_text(rng);
    e.alignment = pick(0, 1, 2, 4, 8, 16);
    e.workspace_limit = size(0) - 1;
    e.frequency = std::abs(random_finite(rng));
    if (!(e.frequency > 0)) e.frequency = 1e-300;
    return e;
}

TEST(ManifestRoundTrip, RandomEntriesReadBackEqual) {
    std::mt19937_64 rng(20240611);
    for (int round = 0; round < 50; ++round) {
        std::vector<ManifestEntry> entries;
        const int count = 1 + static_cast<int>(rng() % 40);
        for (int i = 0; i < count; ++i) entries.push_back(random_entry(rng));
        std::ostringstream out;
        write_manifest_csv(entries, out);
        const std::vector<ManifestEntry> back = parse_manifest(out.str(), "round.csv");
        ASSERT_EQ(back.size(), entries.size()) << out.str();
        for (std::size_t i = 0; i < entries.size(); ++i) {
            EXPECT_TRUE(same_problem(back[i], entries[i]))
                << "wrote " << describe(entries[i]) << "\nread  " << describe(back[i]) << "\nfrom\n" << out.str();
            EXPECT_EQ(back[i].line, static_cast<int>(i) + 2);
            EXPECT_EQ(back[i].file, "round.csv");
        }
    }
}

TEST(ManifestRoundTrip, HeaderNamesEveryFieldButTheShorthands) {
    std::ostringstream out;
    write_manifest_csv({}, out);
    EXPECT_EQ(out.str(),
              "name,M,N,K,batch,transA,transB,layoutA,layoutB,layoutC,layoutD,dtypeA,dtypeB,dtypeC,dtypeD,compute,"
              "alpha,beta,epilogue,alignment,workspace,frequency\n");
}

TEST(ManifestRoundTrip, PublicStyleEntryIsWrittenPlainly) {
    ManifestEntry e;
    e.name = "square512";
    e.m = e.n = e.k = 512;
    std::ostringstream out;
    write_manifest_csv({e}, out);
    EXPECT_EQ(out.str().substr(out.str().find('\n') + 1),
              "square512,512,512,512,1,n,n,row,row,row,row,f32,f32,f32,f32,f32,1,0,none,0,0,1\n");
}

TEST(ManifestRoundTrip, LineBreakInATextFieldCannotBeWritten) {
    ManifestEntry e;
    e.name = "two\nlines";
    e.m = e.n = e.k = 1;
    std::ostringstream out;
    EXPECT_THROW(write_manifest_csv({e}, out), Error);
    EXPECT_EQ(out.str(), "");  // nothing half-written
}

TEST(ManifestRoundTrip, EveryParsedFieldSurvivesWriteAndRead) {
    const auto entries = parse_manifest(
        "name,M,N,K,batch,transA,transB,layout,dtype,dtypeD,compute,alpha,beta,epilogue,alignment,workspace,"
        "frequency\n"
        "\"x, y\",7,9,0,3,t,t,col,f16,f32,tf32,0.1,-3e-5,\"bias,relu\",2,123456789012,1e-3\n",
        "in.csv");
    std::ostringstream out;
    write_manifest_csv(entries, out);
    const auto back = parse_manifest(out.str(), "out.csv");
    ASSERT_EQ(back.size(), 1u);
    EXPECT_TRUE(same_problem(back[0], entries[0])) << describe(back[0]) << "\n" << describe(entries[0]);
    EXPECT_EQ(back[0].alpha, 0.1);
}

}  // namespace
}  // namespace jitgemm
