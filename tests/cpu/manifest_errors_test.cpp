// Every way a manifest can be wrong is refused with Error(InvalidArgument), and the message names the file, the
// line and the field; a file with one bad line anywhere yields nothing.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "jitgemm/error.h"
#include "tools/manifest/shape_manifest.h"

namespace jitgemm {
namespace {

std::string error_of(const std::string& text, const std::string& name) {
    try {
        const auto entries = parse_manifest(text, name);
        ADD_FAILURE() << "no error for " << name << "; read " << entries.size() << " problems";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
        return e.what();
    }
    return "";
}

// One CSV row under the header name,M,N,K,... with the given extra columns; the row is line 2.
std::string csv_error(const std::string& columns, const std::string& row) {
    return error_of("name,M,N,K" + columns + "\n" + row + "\n", "x.csv");
}

// One JSON problem {"M":1,"N":2,"K":3, EXTRA} on line 1.
std::string json_error(const std::string& extra) {
    return error_of("[{\"M\":1,\"N\":2,\"K\":3," + extra + "}]", "x.json");
}

TEST(ManifestCsvErrors, NonIntegerNamesFileLineAndField) {
    const std::string text = "# one\n# two\nname,M,N,K\na,1,1,1\nb,2,2,2\n\nc,3,3,12x\n";
    EXPECT_EQ(error_of(text, "shapes.csv"), "jitgemm: shapes.csv:7: field 'K': \"12x\" is not an integer");
    EXPECT_EQ(csv_error("", "a,4096.0,1,1"), "jitgemm: x.csv:2: field 'M': \"4096.0\" is not an integer");
    EXPECT_EQ(csv_error("", "a,1e3,1,1"), "jitgemm: x.csv:2: field 'M': \"1e3\" is not an integer");
    EXPECT_EQ(csv_error("", "a,1,99999999999999999999,1"),
              "jitgemm: x.csv:2: field 'N': \"99999999999999999999\" is out of range");
    EXPECT_EQ(csv_error(",batch", "a,1,1,1,two"), "jitgemm: x.csv:2: field 'batch': \"two\" is not an integer");
}

TEST(ManifestCsvErrors, SizesBelowTheirMinimum) {
    EXPECT_EQ(csv_error("", "a,0,1,1"), "jitgemm: x.csv:2: field 'M': must be at least 1, got 0");
    EXPECT_EQ(csv_error("", "a,-3,1,1"), "jitgemm: x.csv:2: field 'M': must be at least 1, got -3");
    EXPECT_EQ(csv_error("", "a,1,0,1"), "jitgemm: x.csv:2: field 'N': must be at least 1, got 0");
    EXPECT_EQ(csv_error("", "a,1,1,-1"), "jitgemm: x.csv:2: field 'K': must be at least 0, got -1");
    EXPECT_EQ(csv_error(",batch", "a,1,1,1,0"), "jitgemm: x.csv:2: field 'batch': must be at least 1, got 0");
    EXPECT_EQ(csv_error(",workspace", "a,1,1,1,-1"), "jitgemm: x.csv:2: field 'workspace': must be at least 0, got -1");
}

TEST(ManifestCsvErrors, EnumValuesOutsideTheirTables) {
    EXPECT_EQ(csv_error(",transA", "a,1,1,1,x"), "jitgemm: x.csv:2: field 'transA': \"x\" is not a transpose (n or t)");
    EXPECT_EQ(csv_error(",transB", "a,1,1,1,yes"),
              "jitgemm: x.csv:2: field 'transB': \"yes\" is not a transpose (n or t)");
    EXPECT_EQ(csv_error(",dtypeB", "a,1,1,1,f64"),
              "jitgemm: x.csv:2: field 'dtypeB': \"f64\" is not a dtype (f32, f16 or bf16)");
    EXPECT_EQ(csv_error(",dtype", "a,1,1,1,fp16"),
              "jitgemm: x.csv:2: field 'dtype': \"fp16\" is not a dtype (f32, f16 or bf16)");
    EXPECT_EQ(csv_error(",layoutC", "a,1,1,1,diag"),
              "jitgemm: x.csv:2: field 'layoutC': \"diag\" is not a layout (row or col)");
    EXPECT_EQ(csv_error(",layout", "a,1,1,1,column"),
              "jitgemm: x.csv:2: field 'layout': \"column\" is not a layout (row or col)");
    EXPECT_EQ(csv_error(",compute", "a,1,1,1,f64"),
              "jitgemm: x.csv:2: field 'compute': \"f64\" is not a compute type (f32 or tf32)");
}

TEST(ManifestCsvErrors, AlignmentOutsideTheAllowedSet) {
    EXPECT_EQ(csv_error(",alignment", "a,1,1,1,3"),
              "jitgemm: x.csv:2: field 'alignment': must be 0, 1, 2, 4, 8 or 16 (bytes), got 3");
    EXPECT_EQ(csv_error(",alignment", "a,1,1,1,32"),
              "jitgemm: x.csv:2: field 'alignment': must be 0, 1, 2, 4, 8 or 16 (bytes), got 32");
    EXPECT_EQ(csv_error(",alignment", "a,1,1,1,-4"),
              "jitgemm: x.csv:2: field 'alignment': must be 0, 1, 2, 4, 8 or 16 (bytes), got -4");
}

TEST(ManifestCsvErrors, FrequencyNotAboveZero) {
    EXPECT_EQ(csv_error(",frequency", "a,1,1,1,0"), "jitgemm: x.csv:2: field 'frequency': must be above 0, got 0");
    EXPECT_EQ(csv_error(",frequency", "a,1,1,1,-0.5"),
              "jitgemm: x.csv:2: field 'frequency': must be above 0, got -0.5");
    EXPECT_EQ(csv_error(",frequency", "a,1,1,1,inf"),
              "jitgemm: x.csv:2: field 'frequency': \"inf\" is not a finite number");
}

TEST(ManifestCsvErrors, NonFiniteOrNonNumericScales) {
    EXPECT_EQ(csv_error(",alpha", "a,1,1,1,nan"), "jitgemm: x.csv:2: field 'alpha': \"nan\" is not a finite number");
    EXPECT_EQ(csv_error(",alpha", "a,1,1,1,NaN"), "jitgemm: x.csv:2: field 'alpha': \"NaN\" is not a finite number");
    EXPECT_EQ(csv_error(",alpha", "a,1,1,1,inf"), "jitgemm: x.csv:2: field 'alpha': \"inf\" is not a finite number");
    EXPECT_EQ(csv_error(",beta", "a,1,1,1,-infinity"),
              "jitgemm: x.csv:2: field 'beta': \"-infinity\" is not a finite number");
    EXPECT_EQ(csv_error(",beta", "a,1,1,1,1e999"), "jitgemm: x.csv:2: field 'beta': \"1e999\" is out of range");
    EXPECT_EQ(csv_error(",alpha", "a,1,1,1,one"), "jitgemm: x.csv:2: field 'alpha': \"one\" is not a number");
    EXPECT_EQ(csv_error(",alpha", "a,1,1,1,1.5x"), "jitgemm: x.csv:2: field 'alpha': \"1.5x\" is not a number");
}

TEST(ManifestCsvErrors, UnknownColumnIsATypoNotIgnored) {
    EXPECT_EQ(csv_error(",tranzA", "a,1,1,1,t"),
              "jitgemm: x.csv:1: unknown field 'tranzA' (fields: name, M, N, K, batch, transA, transB, layout, "
              "layoutA, layoutB, layoutC, layoutD, dtype, dtypeA, dtypeB, dtypeC, dtypeD, compute, alpha, beta, "
              "epilogue, alignment, workspace, frequency)");
}

TEST(ManifestCsvErrors, HeaderWithoutRequiredColumns) {
    EXPECT_EQ(error_of("name,M,N\na,1,1\n", "x.csv"), "jitgemm: x.csv:1: no column for field 'K': the header needs M, N and K");
    EXPECT_EQ(error_of("# c\nM,batch\n1,1\n", "x.csv"),
              "jitgemm: x.csv:2: no columns for fields 'N' and 'K': the header needs M, N and K");
}

TEST(ManifestCsvErrors, NoHeaderLineAtAll) {
    EXPECT_EQ(error_of("# only comments\n\n# here\n", "shapes.csv"),
              "jitgemm: shapes.csv: no header line with the columns M, N and K");
    EXPECT_EQ(error_of("# header forgotten\nsquare512,512,512,512\n", "shapes.csv"),
              "jitgemm: shapes.csv:2: no header line with the columns M, N and K (the first line that is not a "
              "comment is \"square512,512,512,512\")");
}

TEST(ManifestCsvErrors, BadHeaderCells) {
    EXPECT_EQ(error_of("m,N,K,M\n1,1,1,1\n", "x.csv"), "jitgemm: x.csv:1: field 'M' has two columns in the header");
    EXPECT_EQ(error_of("M,,N,K\n1,1,1,1\n", "x.csv"), "jitgemm: x.csv:1: column 2 of the header has no name");
    EXPECT_EQ(error_of("M,N,\"K\n1,1,1\n", "x.csv"),
              "jitgemm: x.csv:1: header, column 3: unterminated quote (a quoted cell ends on its own line)");
}

TEST(ManifestCsvErrors, RowWithTooFewOrTooManyCells) {
    EXPECT_EQ(csv_error("", "a,1,2"),
              "jitgemm: x.csv:2: field 'K' has no cell: the row has 3 cells, the header (line 1) 4 columns");
    EXPECT_EQ(csv_error("", "a,1,2,3,4"),
              "jitgemm: x.csv:2: cell 5 has no column: the row has 5 cells, the header (line 1) 4 columns");
    EXPECT_EQ(csv_error("", "a,1,2,3,"),
              "jitgemm: x.csv:2: cell 5 has no column: the row has 5 cells, the header (line 1) 4 columns");
}

TEST(ManifestCsvErrors, QuotingMistakes) {
    EXPECT_EQ(csv_error("", "\"abc,1,2,3"),
              "jitgemm: x.csv:2: field 'name': unterminated quote (a quoted cell ends on its own line)");
    EXPECT_EQ(csv_error("", "a,1,2,\"3"),
              "jitgemm: x.csv:2: field 'K': unterminated quote (a quoted cell ends on its own line)");
    EXPECT_EQ(csv_error("", "\"ab\"c,1,2,3"),
              "jitgemm: x.csv:2: field 'name': text after the closing quote (write \"\" for a quote inside)");
    EXPECT_EQ(csv_error("", "5\",1,2,3"),
              "jitgemm: x.csv:2: field 'name': a quote inside an unquoted cell (quote the whole cell and write \"\" "
              "for a quote)");
}

TEST(ManifestCsvErrors, EmptyRequiredCell) {
    EXPECT_EQ(csv_error("", "a,,2,3"), "jitgemm: x.csv:2: field 'M' is empty; M, N and K are required");
    EXPECT_EQ(csv_error("", "a,1,2,\"\""), "jitgemm: x.csv:2: field 'K' is empty; M, N and K are required");
}

TEST(ManifestCsvErrors, HeaderWithoutRows) {
    EXPECT_EQ(error_of("# c\nname,M,N,K\n# nothing follows\n", "x.csv"),
              "jitgemm: x.csv:2: no problems: the header is followed by no rows");
}

TEST(ManifestErrors, EmptyFile) {
    EXPECT_EQ(error_of("", "x.csv"), "jitgemm: x.csv: the manifest is empty");
    EXPECT_EQ(error_of(" \n\t\r\n", "x.json"), "jitgemm: x.json: the manifest is empty");
    EXPECT_EQ(error_of("", "stdin"), "jitgemm: stdin: the manifest is empty");
}

TEST(ManifestErrors, FileNotFoundOrUnreadable) {
    const std::string missing = testing::TempDir() + "jitgemm-no-such-dir/shapes.csv";
    try {
        read_manifest(missing);
        ADD_FAILURE() << "no error for a missing file";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
        EXPECT_EQ(std::string(e.what()), "jitgemm: cannot read the manifest " + missing + ": No such file or directory");
    }
    try {
        read_manifest(testing::TempDir());
        ADD_FAILURE() << "no error for a directory";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("jitgemm: cannot read the manifest " + testing::TempDir()),
                  std::string::npos)
            << e.what();
    }
}

TEST(ManifestErrors, ReadFromFileNamesThePathInMessages) {
    std::string path = testing::TempDir() + "jitgemm-manifest-XXXXXX";
    const int fd = mkstemp(path.data());
    ASSERT_GE(fd, 0);
    close(fd);
    const std::string json = path + ".json";
    ASSERT_EQ(rename(path.c_str(), json.c_str()), 0);
    {
        std::ofstream(json) << "[\n  {\"M\": 8, \"N\": 8, \"K\": 8},\n  {\"M\": 8, \"N\": 8, \"K\": \"x\"}\n]\n";
    }
    try {
        read_manifest(json);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(std::string(e.what()), "jitgemm: " + json + ":3: field 'K': \"x\" is not an integer");
    }
    {
        std::ofstream(json) << "[\n  {\"M\": 8, \"N\": 8, \"K\": 8}\n]\n";
    }
    const auto entries = read_manifest(json);
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].file, json);
    EXPECT_EQ(entries[0].line, 2);
    std::remove(json.c_str());
}

TEST(ManifestJsonErrors, UnknownKeyOnItsOwnLine) {
    const std::string text = "[\n  {\"M\": 1, \"N\": 2, \"K\": 3,\n   \"tranzA\": \"t\"}\n]\n";
    const std::string message = error_of(text, "shapes.json");
    EXPECT_EQ(message.rfind("jitgemm: shapes.json:3: unknown field 'tranzA' (fields: name, M, N, K, batch, transA, ",
                            0),
              0u)
        << message;
}

TEST(ManifestJsonErrors, MissingRequiredKeyNamesTheObjectsLine) {
    EXPECT_EQ(error_of("[\n {\"M\":1,\"N\":2},\n {\"M\":1,\n  \"K\":2}\n]", "x.json"),
              "jitgemm: x.json:2: field 'K' is missing; M, N and K are required");
    EXPECT_EQ(error_of("[\n {\"M\":1,\"N\":2,\"K\":3},\n {\"M\":1,\n  \"K\":2}\n]", "x.json"),
              "jitgemm: x.json:3: field 'N' is missing; M, N and K are required");
}

TEST(ManifestJsonErrors, BadValuesNameTheirLineAndField) {
    const std::string text =
        "{\"problems\": [\n"
        "  {\"M\": 1, \"N\": 2, \"K\": 3},\n"
        "  {\"M\": 1, \"N\": 2,\n"
        "   \"K\": 3, \"alignment\": 3}\n"
        "]}";
    EXPECT_EQ(error_of(text, "x.json"), "jitgemm: x.json:4: field 'alignment': must be 0, 1, 2, 4, 8 or 16 (bytes), got 3");
    EXPECT_EQ(json_error("\"alpha\": \"nan\""), "jitgemm: x.json:1: field 'alpha': \"nan\" is not a finite number");
    EXPECT_EQ(json_error("\"frequency\": 0"), "jitgemm: x.json:1: field 'frequency': must be above 0, got 0");
    EXPECT_EQ(json_error("\"batch\": 1.5"), "jitgemm: x.json:1: field 'batch': \"1.5\" is not an integer");
    EXPECT_EQ(json_error("\"transB\": 1"), "jitgemm: x.json:1: field 'transB': \"1\" is not a transpose (n or t)");
    EXPECT_EQ(json_error("\"dtype\": \"f8\""),
              "jitgemm: x.json:1: field 'dtype': \"f8\" is not a dtype (f32, f16 or bf16)");
    EXPECT_EQ(error_of("[{\"M\":0,\"N\":2,\"K\":3}]", "x.json"), "jitgemm: x.json:1: field 'M': must be at least 1, got 0");
}

TEST(ManifestJsonErrors, BooleansNullsAndContainersAreNotValues) {
    EXPECT_EQ(json_error("\"batch\": true"),
              "jitgemm: x.json:1: field 'batch': expected a number or a string, got a boolean");
    EXPECT_EQ(json_error("\"alpha\": null"),
              "jitgemm: x.json:1: field 'alpha': expected a number or a string, got null (leave the key out for the "
              "default)");
    EXPECT_EQ(json_error("\"name\": [\"a\"]"),
              "jitgemm: x.json:1: field 'name': expected a number or a string, got an array");
    EXPECT_EQ(json_error("\"epilogue\": {}"),
              "jitgemm: x.json:1: field 'epilogue': expected a number or a string, got an object");
}

TEST(ManifestJsonErrors, DuplicateKeys) {
    EXPECT_EQ(error_of("[{\"M\":1,\"N\":2,\"K\":3,\n \"m\":4}]", "x.json"),
              "jitgemm: x.json:2: field 'M' given twice (also on line 1)");
}

// JSON syntax errors come from nlohmann-json: the message names the file, the line and column where the parser
// stopped, its reason (nlohmann's words, checked here by a part that names the token), and the last thing that did
// read whole, with its line.
void expect_syntax_error(const std::string& text, int line, int column, const std::string& reason,
                         const std::string& after) {
    const std::string message = error_of(text, "x.json");
    const std::string head =
        "jitgemm: x.json:" + std::to_string(line) + ": JSON syntax error, column " + std::to_string(column) + ": ";
    EXPECT_EQ(message.rfind(head, 0), 0u) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << message;
    if (after.empty())
        EXPECT_EQ(message.find("(after "), std::string::npos) << message;
    else
        EXPECT_NE(message.find("(after " + after + ")"), std::string::npos) << message;
}

TEST(ManifestJsonErrors, MissingCommaIsReportedWithWhatCameBeforeIt) {
    const std::string text =
        "[\n"
        "  {\n"
        "    \"M\": 1\n"
        "    \"N\": 2,\n"
        "    \"K\": 3\n"
        "  }\n"
        "]\n";
    expect_syntax_error(text, 4, 7, "expected '}'", "the value 1, line 3");
    expect_syntax_error("[{\"M\":1,\"N\":2,\"K\":3}\n {\"M\":1,\"N\":2,\"K\":3}]", 2, 2, "expected ']'",
                        "the end of the object from line 1, line 1");
    expect_syntax_error("[{\"M\":1 \"N\":2,\"K\":3}]", 1, 11, "expected '}'", "the value 1, line 1");
}

TEST(ManifestJsonErrors, TrailingGarbage) {
    expect_syntax_error("[{\"M\":1,\"N\":2,\"K\":3}]\n\n  xyz\n", 3, 3, "expected end of input",
                        "the end of the array from line 1, line 1");
    expect_syntax_error("[{\"M\":1,\"N\":2,\"K\":3}]]", 1, 22, "unexpected ']'; expected end of input",
                        "the end of the array from line 1, line 1");
}

TEST(ManifestJsonErrors, UnterminatedString) {
    expect_syntax_error("[{\"M\":1,\n  \"name\": \"abc,\n  \"N\": 2, \"K\": 3}]", 3, 0, "must be escaped",
                        "the key \"name\", line 2");
    expect_syntax_error("[\n{\"M\":1,\"name\": \"abc", 2, 20, "missing closing quote", "the key \"name\", line 2");
}

TEST(ManifestJsonErrors, OtherSyntaxErrors) {
    expect_syntax_error("[{\"M\":1,\"N\":2,\"K\":3,}]", 1, 21, "unexpected '}'", "the value 3, line 1");
    expect_syntax_error("[{\"M\":1,\"N\":2,\"K\":3},]", 1, 22, "unexpected ']'",
                        "the end of the object from line 1, line 1");
    expect_syntax_error("[{\"M\" 1}]", 1, 7, "expected ':'", "the key \"M\", line 1");
    expect_syntax_error("[{M: 1}]", 1, 3, "invalid literal", "");
    expect_syntax_error("[{\"M\": 012}]", 1, 10, "unexpected number literal", "the value 0, line 1");
    expect_syntax_error("[{\"M\": 1.}]", 1, 10, "invalid number", "the key \"M\", line 1");
    expect_syntax_error("[{\"alpha\": NaN}]", 1, 12, "invalid literal", "the key \"alpha\", line 1");
    expect_syntax_error("[{\"name\": \"a\\qb\"}]", 1, 14, "backslash", "the key \"name\", line 1");
    expect_syntax_error("[{\"name\": \"a\tb\"}]", 1, 13, "must be escaped", "the key \"name\", line 1");
    expect_syntax_error("[\n{\"M\":1,\n", 3, 1, "unexpected end of input", "the value 1, line 2");
    EXPECT_EQ(error_of(std::string(100, '['), "x.json"), "jitgemm: x.json:1: JSON nested deeper than 64 levels");
}

TEST(ManifestJsonErrors, WrongDocumentShape) {
    const std::string shape = "a manifest is an array of problems or an object {\"problems\": [...]}";
    EXPECT_EQ(error_of("42", "x.json"), "jitgemm: x.json:1: " + shape + ", not a number");
    EXPECT_EQ(error_of("{}", "x.json"), "jitgemm: x.json:1: no key \"problems\" (" + shape + ")");
    EXPECT_EQ(error_of("{\"problems\": [{\"M\":1,\"N\":1,\"K\":1}],\n \"version\": 2}", "x.json"),
              "jitgemm: x.json:2: unknown key \"version\" (" + shape + ")");
    EXPECT_EQ(error_of("{\"problems\": {\"M\":1}}", "x.json"),
              "jitgemm: x.json:1: \"problems\" is an object, expected an array");
    EXPECT_EQ(error_of("[]", "x.json"), "jitgemm: x.json:1: no problems: the array is empty");
    EXPECT_EQ(error_of("{\"problems\": [\n]}", "x.json"), "jitgemm: x.json:1: no problems: the array is empty");
    EXPECT_EQ(error_of("[{\"M\":1,\"N\":1,\"K\":1},\n 7]", "x.json"),
              "jitgemm: x.json:2: problem 2 is a number, expected an object");
}

TEST(ManifestErrors, AnErrorOnTheLastLineReturnsNothing) {
    std::string csv = "name,M,N,K\n";
    std::string json = "[\n";
    for (int i = 1; i <= 30; ++i) {
        csv += "p" + std::to_string(i) + "," + std::to_string(i) + ",8,8\n";
        json += "{\"M\": " + std::to_string(i) + ", \"N\": 8, \"K\": 8},\n";
    }
    EXPECT_EQ(parse_manifest(csv, "ok.csv").size(), 30u);
    EXPECT_EQ(parse_manifest(json + "{\"M\": 1, \"N\": 8, \"K\": 8}\n]", "ok.json").size(), 31u);
    EXPECT_EQ(error_of(csv + "last,8,8,-8\n", "bad.csv"), "jitgemm: bad.csv:32: field 'K': must be at least 0, got -8");
    EXPECT_EQ(error_of(json + "{\"M\": 1, \"N\": 8, \"K\": 8, \"beta\": \"inf\"}\n]", "bad.json"),
              "jitgemm: bad.json:32: field 'beta': \"inf\" is not a finite number");
    EXPECT_THROW(parse_manifest(csv + "last,8,8\n", "bad.csv"), Error);
}

}  // namespace
}  // namespace jitgemm
