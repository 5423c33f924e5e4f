// CSV shape manifests read right: the project's public shape list as shipped, every field by its column, column
// names in any case and order, the `layout` and `dtype` shorthands, quoting, comments, blank lines and empty cells.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tools/manifest/shape_manifest.h"
#include "support/manifest_all_fields.h"

namespace jitgemm {
namespace {

// /work/shared/bench/shapes.csv (also bench/shapes/public.csv), verbatim: CI has no copy outside the repository.
const char* const kPublicShapes = R"(# Public benchmark shapes: row-major C[M,N] = A[M,K] * B[K,N], no transposes, alpha=1, beta=0.
# Run each in bf16, fp16, fp32 and tf32 against cuBLAS in the same run. See ../docs/gpu.md for cuBLAS figures.
name,M,N,K
square512,512,512,512
square1024,1024,1024,1024
square2048,2048,2048,2048
square4096,4096,4096,4096
square6144,6144,6144,6144
square8192,8192,8192,8192
decode_m1_n4096_k4096,1,4096,4096
decode_m1_n14336_k4096,1,14336,4096
decode_m1_n4096_k14336,1,4096,14336
decode_m16_n4096_k4096,16,4096,4096
decode_m16_n14336_k4096,16,14336,4096
decode_m16_n4096_k14336,16,4096,14336
decode_m64_n4096_k4096,64,4096,4096
decode_m64_n14336_k4096,64,14336,4096
decode_m64_n4096_k14336,64,4096,14336
decode_m128_n4096_k4096,128,4096,4096
decode_m128_n14336_k4096,128,14336,4096
decode_m128_n4096_k14336,128,4096,14336
prefill_2048x14336x4096,2048,14336,4096
prefill_8192x4096x14336,8192,4096,14336
tail_m130,130,4096,4096
odd_1000,1000,1000,1000
odd_777x1111x3333,777,1111,3333
misaligned_4097,4097,4097,4097
shortk_8192x8192x64,8192,8192,64
skinny_n128_16384x128x16384,16384,128,16384
)";

// The entry with every default and the given sizes, for comparing whole entries.
ManifestEntry plain(const std::string& name, std::int64_t m, std::int64_t n, std::int64_t k) {
    ManifestEntry e;
    e.name = name;
    e.m = m;
    e.n = n;
    e.k = k;
    return e;
}

void expect_same(const ManifestEntry& got, const ManifestEntry& expected) {
    EXPECT_TRUE(same_problem(got, expected)) << "got      " << describe(got) << "\nexpected " << describe(expected);
}

TEST(ManifestCsv, PublicShapeListParsesAsShipped) {
    const std::vector<ManifestEntry> entries = parse_manifest(kPublicShapes, "shapes.csv");
    ASSERT_EQ(entries.size(), 26u);
    expect_same(entries[0], plain("square512", 512, 512, 512));
    expect_same(entries[6], plain("decode_m1_n4096_k4096", 1, 4096, 4096));
    expect_same(entries[19], plain("prefill_8192x4096x14336", 8192, 4096, 14336));
    expect_same(entries[24], plain("shortk_8192x8192x64", 8192, 8192, 64));
    expect_same(entries[25], plain("skinny_n128_16384x128x16384", 16384, 128, 16384));
    // Two comment lines and the header come first, so the first row is line 4 and the last line 29.
    EXPECT_EQ(entries[0].line, 4);
    EXPECT_EQ(entries[25].line, 29);
    for (const ManifestEntry& e : entries) {
        EXPECT_EQ(e.file, "shapes.csv");
        EXPECT_EQ(e.batch, 1);
        EXPECT_EQ(e.trans_a, Transpose::No);
        EXPECT_EQ(e.trans_b, Transpose::No);
        EXPECT_EQ(e.layout_a, Order::RowMajor);
        EXPECT_EQ(e.layout_d, Order::RowMajor);
        EXPECT_EQ(e.a_type, DType::F32);
        EXPECT_EQ(e.d_type, DType::F32);
        EXPECT_EQ(e.compute, ComputeType::F32);
        EXPECT_EQ(e.alpha, 1.0);
        EXPECT_EQ(e.beta, 0.0);
        EXPECT_EQ(e.epilogue, "none");
        EXPECT_EQ(e.alignment, 0);
        EXPECT_EQ(e.workspace_limit, 0);
        EXPECT_EQ(e.frequency, 1.0);
    }
    EXPECT_EQ(describe(entries[6]), "decode_m1_n4096_k4096 (1x4096x4096, n n, row, f32, freq 1)");
}

TEST(ManifestCsv, EveryFieldHasItsColumn) {
    const std::string text =
        "name,M,N,K,batch,transA,transB,layoutA,layoutB,layoutC,layoutD,dtypeA,dtypeB,dtypeC,dtypeD,compute,alpha,"
        "beta,epilogue,alignment,workspace,frequency\n"
        "all,7,9,0,3,t,n,col,row,col,row,bf16,f16,f32,bf16,tf32,-2.5,0.125,relu,8,1048576,0.25\n";
    const std::vector<ManifestEntry> entries = parse_manifest(text, "all.csv");
    ASSERT_EQ(entries.size(), 1u);
    const ManifestEntry& e = entries[0];
    testing::expect_all_fields_entry(e);
    EXPECT_EQ(e.file, "all.csv");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(describe(e),
              "all (7x9x0, batch 3, t n, col/row/col/row, bf16/f16/f32/bf16, compute tf32, alpha -2.5, beta 0.125, "
              "epilogue relu, align 8, workspace 1048576, freq 0.25)");
}

TEST(ManifestCsv, ColumnNamesIgnoreCaseAndOrder) {
    const auto entries = parse_manifest("k,TRANSA,n,Dtype,m,FREQUENCY,NaMe\n64,T,32,BF16,16,2,x\n", "case.csv");
    ASSERT_EQ(entries.size(), 1u);
    ManifestEntry expected = plain("x", 16, 32, 64);
    expected.trans_a = Transpose::Yes;
    expected.a_type = expected.b_type = expected.c_type = expected.d_type = DType::BF16;
    expected.frequency = 2;
    expect_same(entries[0], expected);
}

TEST(ManifestCsv, EnumValuesIgnoreCase) {
    const auto e = parse_manifest("M,N,K,transA,transB,layout,dtype,compute\n1,2,3,T,N,COL,F16,TF32\n", "x.csv")[0];
    EXPECT_EQ(e.trans_a, Transpose::Yes);
    EXPECT_EQ(e.trans_b, Transpose::No);
    EXPECT_EQ(e.layout_b, Order::ColumnMajor);
    EXPECT_EQ(e.c_type, DType::F16);
    EXPECT_EQ(e.compute, ComputeType::TF32);
}

TEST(ManifestCsv, LayoutAndDtypeShorthandsSetAllFourAndYieldToSpecificColumns) {
    // The specific columns stand before the shorthands here on purpose: they win wherever they stand.
    const auto entries = parse_manifest(
        "M,N,K,layoutB,dtypeC,layout,dtype\n"
        "1,2,3,,,col,bf16\n"
        "1,2,3,row,f32,col,bf16\n",
        "short.csv");
    ASSERT_EQ(entries.size(), 2u);
    ManifestEntry all_col_bf16 = plain("1x2x3", 1, 2, 3);
    all_col_bf16.layout_a = all_col_bf16.layout_b = all_col_bf16.layout_c = all_col_bf16.layout_d = Order::ColumnMajor;
    all_col_bf16.a_type = all_col_bf16.b_type = all_col_bf16.c_type = all_col_bf16.d_type = DType::BF16;
    expect_same(entries[0], all_col_bf16);
    ManifestEntry mixed = all_col_bf16;
    mixed.layout_b = Order::RowMajor;
    mixed.c_type = DType::F32;
    expect_same(entries[1], mixed);
}

TEST(ManifestCsv, QuotedCellsHoldCommasAndQuotes) {
    const auto entries = parse_manifest(
        "name,M,N,K,epilogue\n"
        "\"attn, q proj\",1,2,3,\"bias,relu\"\n"
        "  \"say \"\"hi\"\"\"  ,1,2,3, \"  padded  \" \n"
        "\"\",4,5,6,\"\"\n",
        "quoted.csv");
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].name, "attn, q proj");
    EXPECT_EQ(entries[0].epilogue, "bias,relu");
    EXPECT_EQ(entries[1].name, "say \"hi\"");
    EXPECT_EQ(entries[1].epilogue, "  padded  ");  // quotes keep blanks; only unquoted cells are trimmed
    EXPECT_EQ(entries[2].name, "4x5x6");            // an empty quoted cell is empty: the default
    EXPECT_EQ(entries[2].epilogue, "none");
}

TEST(ManifestCsv, CommentsAndBlankLinesAreSkippedAnywhere) {
    const auto entries = parse_manifest(
        "\n   \n# before the header\n  # indented comment\nM,N,K\n\n1,2,3\n# between rows\n\t\n4,5,6\n# at the end\n",
        "comments.csv");
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[0].line, 7);
    EXPECT_EQ(entries[1].line, 10);
    EXPECT_EQ(entries[1].m, 4);
}

TEST(ManifestCsv, EmptyCellsMeanTheDefault) {
    const auto entries = parse_manifest(
        "name,M,N,K,batch,transA,layout,dtype,compute,alpha,beta,epilogue,alignment,workspace,frequency\n"
        ",8,8,8,,,,,,,,,,,\n",
        "empty.csv");
    ASSERT_EQ(entries.size(), 1u);
    expect_same(entries[0], plain("8x8x8", 8, 8, 8));
}

TEST(ManifestCsv, UnquotedCellsAreTrimmedAndWindowsLineEndsAndBomAreAccepted) {
    const auto entries = parse_manifest("\xEF\xBB\xBF name , M ,N,K\r\n  spaced  , 1 ,\t2\t,3\r\n", "crlf.csv");
    ASSERT_EQ(entries.size(), 1u);
    expect_same(entries[0], plain("spaced", 1, 2, 3));
}

TEST(ManifestCsv, NumbersInEveryAcceptedSpelling) {
    const auto e =
        parse_manifest("M,N,K,alpha,beta,frequency\n9223372036854775807,1,0,1e-3,-0.5,1E2\n", "numbers.csv")[0];
    EXPECT_EQ(e.m, 9223372036854775807LL);
    EXPECT_EQ(e.k, 0);
    EXPECT_EQ(e.alpha, 1e-3);
    EXPECT_EQ(e.beta, -0.5);
    EXPECT_EQ(e.frequency, 100.0);
}

TEST(ManifestCsv, FormatFollowsTheNameThenTheFirstCharacter) {
    // A name without .csv or .json: CSV unless the text starts with '[' or '{'.
    EXPECT_EQ(parse_manifest("M,N,K\n1,2,3\n", "stdin").size(), 1u);
    EXPECT_EQ(parse_manifest("  \n [{\"M\":1,\"N\":2,\"K\":3}]", "stdin").size(), 1u);
    EXPECT_EQ(parse_manifest("M,N,K\n1,2,3\n", "SHAPES.CSV").size(), 1u);
}

// Every manifest the benchmark batches read (bench/shapes/*.csv, *.json) parses: a typo there would cost a GPU call.
TEST(ManifestCsv, EveryCommittedBenchmarkManifestParses) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(JITGEMM_SOURCE_DIR) + "/bench/shapes")) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".csv" && ext != ".json") continue;
        ++files;
        try {
            EXPECT_FALSE(read_manifest(entry.path().string()).empty()) << entry.path();
        } catch (const std::exception& e) {
            ADD_FAILURE() << entry.path() << ": " << e.what();
        }
    }
    EXPECT_GE(files, 10);
}

}  // namespace
}  // namespace jitgemm
