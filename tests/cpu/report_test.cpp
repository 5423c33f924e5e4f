// `jitgemm report` without a GPU: the numbers the page shows are those of the cache and the bench files it was made
// from (recomputed here from the problems themselves), one chart per precision with axes, roof and legend, the
// bench's cuBLAS beside jitgemm, nothing fetched from outside, and clear refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cache/tuning_cache.h"
#include "runtime/problem/problem.h"
#include "support/cache_test_files.h"
#include "tools/report/report_inputs.h"
#include "tools/report/roofline_report.h"

namespace jitgemm {
namespace {

using cache_test::TempDir;

constexpr char kDevice[] = "NVIDIA H200/cc9.0/sm132";
constexpr double kBandwidth = 3.91e12, kFp32 = 54.7e12, kTf32 = 312.4e12, kBf16 = 641.9e12, kF16 = 623.7e12;

Problem problem(std::int64_t m, std::int64_t n, std::int64_t k, DType in, DType out, ComputeType compute) {
    Problem p;
    p.m = m, p.n = n, p.k = k;
    p.lda = m, p.ldb = k, p.ldc = m;
    p.a_type = p.b_type = in;
    p.c_type = out;
    p.compute = compute;
    p.alpha_one = true;
    return p;
}

void add_selection(cache::TuningCache& c, const std::string& device, const Problem& p, const std::string& config,
                   double ms) {
    cache::SelectionRecord s;
    s.device_fingerprint = device;
    s.problem_key = p.key();
    s.config = config;
    s.cubin_key = "cubin-" + p.key() + device;
    s.time_ms = ms;
    s.tuned_at_unix = 1700000000;
    s.search_complete = true;
    s.provenance = {"0.1.0", "00112233aabbccdd", "13.0", "13.0", "NVIDIA H200", 100};
    cache::CubinRecord cubin;
    cubin.key = s.cubin_key;
    cubin.arch = "sm_90a";
    cubin.kernel_symbol = "jg_mma_sync";
    cubin.config = config;
    cubin.image = cache_test::fake_cubin("jg_mma_sync", "sm_90a", s.cubin_key);
    c.record_tuning(s, cubin, {});
}

void add_ceilings(cache::TuningCache& c, const std::string& device) {
    for (const auto& [name, value] : {std::pair<const char*, double>{"copy_bytes_per_s", kBandwidth},
                                      {"fp32_flops", kFp32}, {"tf32_mma_flops", kTf32},
                                      {"bf16_mma_flops", kBf16}, {"f16_mma_flops", kF16}})
        c.record_ceiling(device, "580.159.04", name, value);
}

const Problem kBf16Square = problem(4096, 4096, 4096, DType::BF16, DType::BF16, ComputeType::F32);
const Problem kDecode = problem(1, 4096, 4096, DType::F32, DType::F32, ComputeType::F32);
const Problem kTf32Problem = problem(2048, 2048, 2048, DType::F32, DType::F32, ComputeType::TF32);

std::unique_ptr<cache::TuningCache> filled_cache(const TempDir& dir) {
    auto c = cache::TuningCache::open(dir.file("tuning.sqlite"), cache::TuningCache::Access::ReadWrite);
    add_ceilings(*c, kDevice);
    add_selection(*c, kDevice, kBf16Square, "mma_sync_128x128x32_w2x4_s3_g8", 0.4);
    add_selection(*c, kDevice, kDecode, "regblock_32x32x16_t4x4_v4_s2_g8_k8", 0.02);
    add_selection(*c, kDevice, kTf32Problem, "mma_sync_128x64x32_w2x2_s5_g4", 0.1);
    return c;
}

// The JSON the page carries for programs, parsed back.
nlohmann::json page_model(const std::string& html) {
    const std::string open = "<script type=\"application/json\" id=\"jitgemm-data\">";
    const auto from = html.find(open);
    EXPECT_NE(from, std::string::npos);
    const auto to = html.find("</script>", from);
    return nlohmann::json::parse(html.substr(from + open.size(), to - from - open.size()));
}

std::size_t count(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

TEST(Report, NumbersAreTheCachesRecomputedFromEachProblem) {
    TempDir dir;
    const auto c = filled_cache(dir);
    const report::ReportData data = report::collect_report(c.get(), {}, "");
    EXPECT_EQ(data.device, kDevice);
    EXPECT_EQ(data.ceilings_source, "measured on the device, from the cache");
    const std::string html = report::render_html(data);
    const nlohmann::json model = page_model(html);
    ASSERT_EQ(model["problems"].size(), 3u);
    struct Expected {
        const Problem* p;
        double ms, bytes_per_element, peak;
        const char* bound;
    };
    for (const Expected& e : {Expected{&kBf16Square, 0.4, 2, kBf16, "compute"},
                              Expected{&kDecode, 0.02, 4, kFp32, "memory"},
                              Expected{&kTf32Problem, 0.1, 4, kTf32, "compute"}}) {
        const double m = e.p->m, n = e.p->n, k = e.p->k;
        const double flops = 2 * m * n * k, bytes = e.bytes_per_element * (m * k + k * n + m * n);
        const double tflops = flops / (e.ms * 1e-3) / 1e12;
        const double roof = std::min(e.peak, flops / bytes * kBandwidth) / 1e12;
        bool found = false;
        for (const auto& row : model["problems"]) {
            if (row["name"] != e.p->key()) continue;
            found = true;
            EXPECT_NEAR(row["arithmetic_intensity"].get<double>(), flops / bytes, 1e-9 * flops / bytes);
            EXPECT_NEAR(row["jitgemm_tflops"].get<double>(), tflops, 1e-9 * tflops);
            EXPECT_NEAR(row["percent_of_roof"].get<double>(), 100 * tflops / roof, 1e-6);
            EXPECT_EQ(row["bound"], e.bound);
            EXPECT_EQ(row["origin"], "cache");
            EXPECT_FALSE(row.contains("cublas_ms"));
        }
        EXPECT_TRUE(found) << e.p->key();
    }
    // One chart per precision, each with both axes, the roof and a legend; a circle per problem; a row per problem.
    for (const char* precision : {"f32", "tf32", "bf16"})
        EXPECT_NE(html.find("data-precision=\"" + std::string(precision) + "\""), std::string::npos) << precision;
    EXPECT_EQ(html.find("data-precision=\"f16\""), std::string::npos);
    EXPECT_EQ(count(html, "class=\"x-axis\""), 3u);
    EXPECT_EQ(count(html, "class=\"y-axis\""), 3u);
    EXPECT_EQ(count(html, "class=\"roof\""), 3u);
    EXPECT_EQ(count(html, "class=\"legend\""), 3u);
    EXPECT_EQ(count(html, "<circle class=\"jitgemm\""), 3u);
    EXPECT_EQ(count(html, "<tr><td"), 3u);
    // Self-contained: nothing is fetched.
    for (const char* outside : {"http:", "https:", " src=", "<link", "@import"})
        EXPECT_EQ(html.find(outside), std::string::npos) << outside;
}

// A bench row stands for the cache entry of the same problem (row-major there, column-major in the cache), and
// brings cuBLAS: the page puts it beside jitgemm and states the ratio.
TEST(Report, BenchRowsBringCublasAndReplaceTheCacheEntryOfTheirProblem) {
    TempDir dir;
    const auto c = filled_cache(dir);
    const std::string csv = dir.file("bench.csv");
    std::ofstream(csv)
        << "gpu,problem,m,n,k,order,transa,transb,a_dtype,b_dtype,c_dtype,compute,jitgemm_config,served_by,"
           "jitgemm_ms,jitgemm_tflops,jitgemm_gbs,arithmetic_intensity,bound,percent_of_roofline,cublas_ms,"
           "cublas_tflops,speed_vs_cublas,jitgemm_verified,cublas_verified,jitgemm_relative_error,"
           "cublas_relative_error,ceilings\n"
           "\"NVIDIA H200\",\"square4096_bf16\",4096,4096,4096,row,n,n,bf16,bf16,bf16,f32,"
           "\"mma_sync_128x128x32_w2x4_s3_g8\",cached-tuned,0.4,343.597,123,1365.33,compute,53,0.2,687.2,0.5,yes,yes,0.001,0.001,measured\n"
           "\"NVIDIA H200\",\"odd, named\",777,1111,3333,row,n,n,bf16,bf16,bf16,f32,\"mma_sync_64x64x16_w2x2_s3_g8\","
           "cached-tuned,0.05,115.0,1,402.1,compute,20,0.065,88.5,1.3,yes,yes,0.001,0.001,measured\n";
    const report::ReportData data = report::collect_report(c.get(), {csv}, "");
    const nlohmann::json model = page_model(report::render_html(data));
    ASSERT_EQ(model["problems"].size(), 4u);  // 2 bench rows, the 2 cache entries no bench row measured
    int bench = 0;
    for (const auto& row : model["problems"]) {
        if (row["origin"] != "bench") {
            EXPECT_NE(row["name"], kBf16Square.key());
            continue;
        }
        ++bench;
        const double ratio = row["cublas_ms"].get<double>() / row["jitgemm_ms"].get<double>();
        EXPECT_NEAR(row["speed_vs_cublas"].get<double>(), ratio, 1e-12);
        if (row["name"] == "square4096_bf16") {
            EXPECT_NEAR(row["arithmetic_intensity"].get<double>(), 1365.33, 1e-6);
            EXPECT_NEAR(row["jitgemm_tflops"].get<double>(), 343.597, 1e-6);
            EXPECT_NEAR(row["speed_vs_cublas"].get<double>(), 0.5, 1e-12);
        }
    }
    EXPECT_EQ(bench, 2);
    EXPECT_EQ(count(report::render_html(data), "<rect class=\"cublas\""), 2u);
}

// The message of the InvalidArgument error `action` throws.
template <typename Action>
std::string refusal(Action action) {
    try {
        action();
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::InvalidArgument) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "nothing was refused";
    return "";
}

TEST(Report, RefusalsSayWhatIsMissing) {
    TempDir dir;
    auto c = filled_cache(dir);
    const char* a100 = "NVIDIA A100-SXM4-80GB/cc8.0/sm108";
    add_selection(*c, a100, kDecode, "regblock_32x32x16_t4x4_v4_s2_g8", 0.05);
    // Two devices: which one?
    std::string why = refusal([&] { report::collect_report(c.get(), {}, ""); });
    EXPECT_NE(why.find("--device"), std::string::npos) << why;
    EXPECT_NE(why.find(a100), std::string::npos) << why;
    EXPECT_EQ(report::collect_report(c.get(), {}, "H200").points.size(), 3u);
    // The A100 has entries but no ceilings in the cache, and no bench file states them.
    why = refusal([&] { report::collect_report(c.get(), {}, "A100"); });
    EXPECT_NE(why.find("jitgemm info"), std::string::npos) << why;
    why = refusal([&] { report::collect_report(c.get(), {}, "V100"); });
    EXPECT_NE(why.find("V100"), std::string::npos) << why;
    // A bench file with a bad number: the file, the line and the field.
    const std::string csv = dir.file("bad.csv");
    std::ofstream(csv) << "problem,m,n,k,order,transa,transb,a_dtype,b_dtype,c_dtype,compute,jitgemm_config,"
                          "jitgemm_ms,jitgemm_tflops,arithmetic_intensity,cublas_ms\n"
                          "x,64,64,64,row,n,n,f32,f32,f32,f32,naive_16x16,fast,1,1,1\n";
    why = refusal([&] { report::collect_report(nullptr, {csv}, ""); });
    EXPECT_NE(why.find(csv + ", line 2"), std::string::npos) << why;
    EXPECT_NE(why.find("jitgemm_ms"), std::string::npos) << why;
    const std::string json = dir.file("bad.json");
    std::ofstream(json) << "{\"problems\": [ {\"problem\": \"x\"";
    why = refusal([&] { report::collect_report(nullptr, {json}, ""); });
    EXPECT_NE(why.find("bad.json"), std::string::npos) << why;
    EXPECT_NE(why.find("parse error"), std::string::npos) << why;
    // Nothing to draw.
    report::ReportData empty;
    empty.ceilings = {kFp32, kF16, kBf16, kTf32, kBandwidth, 0, 0};
    why = refusal([&] { report::render_html(empty); });
    EXPECT_NE(why.find("no problems"), std::string::npos) << why;
}

}  // namespace
}  // namespace jitgemm
