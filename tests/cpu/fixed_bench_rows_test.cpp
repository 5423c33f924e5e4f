// The fixed-configuration rows that bench/gpu-run.sh times against cuBLAS (bench/shapes/*.txt, as `jitgemm bench
// --config` takes them): each names a configuration that parses and that computes its row's problem on an H200. A row
// that does not costs a GPU call its answer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/problem/gemm_call.h"
#include "support/device_profiles.h"
#include "tools/verify/gemm_workload.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

TEST(FixedBenchRows, EveryRowNamesAConfigurationThatComputesItsProblem) {
    int rows = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(JITGEMM_SOURCE_DIR) + "/bench/shapes")) {
        if (entry.path().extension() != ".txt") continue;
        std::ifstream file(entry.path());
        std::string line;
        int number = 0;
        while (std::getline(file, line)) {
            ++number;
            if (line.empty() || line[0] == '#') continue;
            SCOPED_TRACE(entry.path().filename().string() + ":" + std::to_string(number) + " " + line);
            // Two forms: "m n k dtype transa transb config [batch [compute]]", column-major (the hopper, decode and
            // newpaths modes), and "m n k dtype compute config", row-major without transposes (the fixed mode).
            // The dtype may name C's type after a colon ("f16:f32": A and B fp16, C fp32; `--out-dtype`).
            std::istringstream fields(line);
            std::vector<std::string> f;
            for (std::string word; fields >> word;) f.push_back(word);
            ASSERT_GE(f.size(), 6u);
            GemmShape s;
            s.m = std::stoll(f[0]);
            s.n = std::stoll(f[1]);
            s.k = std::stoll(f[2]);
            const bool with_transposes = f[4] == "n" || f[4] == "t";
            ASSERT_TRUE(with_transposes ? f.size() >= 7 && f.size() <= 9 : f.size() == 6);
            const std::size_t colon = f[3].find(':');
            const std::string dtype = f[3].substr(0, colon);
            const std::string out_dtype = colon == std::string::npos ? dtype : f[3].substr(colon + 1);
            const std::string ta = with_transposes ? f[4] : "n", tb = with_transposes ? f[5] : "n";
            const std::string& config = with_transposes ? f[6] : f[5];
            s.batch = with_transposes && f.size() >= 8 ? std::stoll(f[7]) : 1;
            const std::string compute_name = with_transposes ? (f.size() == 9 ? f[8] : "f32") : f[4];
            const auto type = parse_dtype(dtype);
            const auto out_type = parse_dtype(out_dtype);
            const auto compute = parse_compute_type(compute_name);
            ASSERT_TRUE(type.has_value()) << dtype;
            ASSERT_TRUE(out_type.has_value()) << out_dtype;
            ASSERT_TRUE(ta == "n" || ta == "t") << ta;
            ASSERT_TRUE(tb == "n" || tb == "t") << tb;
            ASSERT_TRUE(compute.has_value()) << compute_name;
            s.order = with_transposes ? Order::ColumnMajor : Order::RowMajor;
            s.trans_a = ta == "t" ? Transpose::Yes : Transpose::No;
            s.trans_b = tb == "t" ? Transpose::Yes : Transpose::No;
            s.a_type = s.b_type = *type;
            s.c_type = *out_type;
            s.compute = *compute;
            alignas(256) static unsigned char storage[16] = {};
            const Problem problem = make_canonical_call(s.with_minimum_leading_dimensions().call(storage, storage,
                                                                                                  storage))
                                        .problem;
            const auto parsed = parse_config(config);
            ASSERT_TRUE(parsed.has_value()) << config << " does not parse";
            const auto rejection = validate(*parsed, problem, testing::h200_profile());
            EXPECT_FALSE(rejection) << config << " on " << problem.key() << ": " << rejection->reason;
            ++rows;
        }
    }
    EXPECT_GE(rows, 50);
}

}  // namespace
}  // namespace jitgemm
