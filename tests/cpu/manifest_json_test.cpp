// JSON shape manifests read right: bare arrays and {"problems": [...]}, every field by its key, keys in any case,
// numbers as JSON numbers or as strings, escapes, and line numbers that follow a multi-line file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/manifest/shape_manifest.h"
#include "support/manifest_all_fields.h"

namespace jitgemm {
namespace {

TEST(ManifestJson, BareArrayOfObjects) {
    const auto entries = parse_manifest(R"([{"name": "a", "M": 1, "N": 2, "K": 3}, {"M": 4, "N": 5, "K": 6}])",
                                        "list.json");
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].name, "a");
    EXPECT_EQ(entries[0].k, 3);
    EXPECT_EQ(entries[1].name, "4x5x6");
    EXPECT_EQ(entries[1].file, "list.json");
}

TEST(ManifestJson, ProblemsObjectWithKeyInAnyCase) {
    EXPECT_EQ(parse_manifest(R"({"problems": [{"M": 1, "N": 2, "K": 3}]})", "p.json").size(), 1u);
    EXPECT_EQ(parse_manifest(R"({"Problems": [{"M": 1, "N": 2, "K": 3}]})", "p.json").size(), 1u);
}

TEST(ManifestJson, EveryFieldHasItsKey) {
    const std::string text = R"({"problems": [{
        "name": "all", "M": 7, "N": 9, "K": 0, "batch": 3, "transA": "t", "transB": "n",
        "layoutA": "col", "layoutB": "row", "layoutC": "col", "layoutD": "row",
        "dtypeA": "bf16", "dtypeB": "f16", "dtypeC": "f32", "dtypeD": "bf16", "compute": "tf32",
        "alpha": -2.5, "beta": 0.125, "epilogue": "relu", "alignment": 8, "workspace": 1048576, "frequency": 0.25
    }]})";
    const auto entries = parse_manifest(text, "all.json");
    ASSERT_EQ(entries.size(), 1u);
    const ManifestEntry& e = entries[0];
    testing::expect_all_fields_entry(e);
    EXPECT_EQ(e.line, 1);  // the object's '{' stands on the first line
}

TEST(ManifestJson, CsvAndJsonOfTheSameProblemAreTheSame) {
    const auto csv = parse_manifest(
        "name,M,N,K,transB,layout,dtype,dtypeD,alpha,beta,frequency\nq,16,4096,4096,t,col,f16,f32,0.5,1,3\n",
        "same.csv");
    const auto json = parse_manifest(
        R"([{"name":"q","m":16,"n":4096,"k":4096,"TRANSB":"T","Layout":"col","DTYPE":"f16","dtypeD":"f32",)"
        R"("alpha":0.5,"beta":1,"frequency":3}])",
        "same.json");
    ASSERT_EQ(csv.size(), 1u);
    ASSERT_EQ(json.size(), 1u);
    EXPECT_TRUE(same_problem(csv[0], json[0])) << describe(csv[0]) << "\n" << describe(json[0]);
}

TEST(ManifestJson, NumbersMayBeStrings) {
    const auto e = parse_manifest(
        R"([{"M": "12", "N": "34", "K": "56", "batch": "2", "alpha": "1.5", "beta": "-1e-3", "alignment": "16",)"
        R"( "workspace": "4096", "frequency": "0.5"}])",
        "strings.json")[0];
    EXPECT_EQ(e.m, 12);
    EXPECT_EQ(e.n, 34);
    EXPECT_EQ(e.k, 56);
    EXPECT_EQ(e.batch, 2);
    EXPECT_EQ(e.alpha, 1.5);
    EXPECT_EQ(e.beta, -1e-3);
    EXPECT_EQ(e.alignment, 16);
    EXPECT_EQ(e.workspace_limit, 4096);
    EXPECT_EQ(e.frequency, 0.5);
}

TEST(ManifestJson, EmptyStringMeansTheDefaultLikeAnEmptyCsvCell) {
    const auto e = parse_manifest(R"([{"M":1,"N":1,"K":1,"batch":"","epilogue":"","name":""}])", "e.json")[0];
    EXPECT_EQ(e.batch, 1);
    EXPECT_EQ(e.epilogue, "none");
    EXPECT_EQ(e.name, "1x1x1");
}

TEST(ManifestJson, StringEscapesAreDecoded) {
    const auto e = parse_manifest(R"([{"M":1,"N":1,"K":1,"name":"a\"b\\c\/d\te\u00e9\ud83d\ude00"}])", "esc.json")[0];
    EXPECT_EQ(e.name, "a\"b\\c/d\te\xC3\xA9\xF0\x9F\x98\x80");
}

TEST(ManifestJson, MultiLineFileGivesEachProblemItsLine) {
    const std::string text =
        "{\n"                             // 1
        "  \"problems\" : [\n"            // 2
        "\n"                              // 3
        "    {\n"                         // 4
        "      \"name\": \"first\",\n"    // 5
        "      \"M\": 1, \"N\": 2,\n"     // 6
        "      \"K\": 3\n"                // 7
        "    },\r\n"                      // 8
        "\t{ \"M\": 4,\n"                 // 9
        "      \"N\": 5, \"K\": 6 }\n"    // 10
        "  ]\n"                           // 11
        "}\n";                            // 12
    const auto entries = parse_manifest(text, "lines.json");
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].line, 4);
    EXPECT_EQ(entries[1].line, 9);
    EXPECT_EQ(entries[1].k, 6);
}

}  // namespace
}  // namespace jitgemm
