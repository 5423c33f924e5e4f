// Reading measured rows and scoring the cost model's order of them (see measured_rows.h).
#include "support/measured_rows.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "bench/bench_problem.h"
#include "support/device_profiles.h"
#include "tuner/families/registry.h"

namespace jitgemm::testing {
namespace {

[[noreturn]] void malformed(const std::string& path, int line, const std::string& why) {
    throw std::runtime_error(path + ":" + std::to_string(line) + ": " + why);
}

DType dtype_of(const std::string& text, const std::string& path, int line) {
    if (text == "f32") return DType::F32;
    if (text == "f16") return DType::F16;
    if (text == "bf16") return DType::BF16;
    malformed(path, line, "'" + text + "' is not f32, f16 or bf16");
}

// A row's problem as the fixed rows ran it: bench_problem's (column-major, minimum leading dimensions, alpha 1,
// beta 0) with the row's C type and batch.
Problem row_problem(std::int64_t m, std::int64_t n, std::int64_t k, char ta, char tb, DType a, DType c,
                    std::int64_t batch) {
    Problem p = bench_problem(m, n, k, ta == 't' ? Transpose::Yes : Transpose::No,
                              tb == 't' ? Transpose::Yes : Transpose::No, a, ComputeType::F32);
    p.batch = batch;
    p.c_type = c;
    p.align_c = alignment_class(nullptr, p.ldc, size_of(c));
    return p;
}

}  // namespace

MeasuredRows read_measured_rows(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    MeasuredRows out;
    std::map<std::string, double> header;
    std::string device_name, text;
    int line_number = 0;
    while (std::getline(in, text)) {
        ++line_number;
        if (text.empty() || text[0] == '#') continue;
        std::istringstream line(text);
        std::string first;
        line >> first;
        if (first == "device") {
            std::getline(line >> std::ws, device_name);
            continue;
        }
        if (!std::isdigit(static_cast<unsigned char>(first[0]))) {
            double value = 0.0;
            if (!(line >> value)) malformed(path, line_number, "'" + first + "' has no value");
            header[first] = value;
            continue;
        }
        std::int64_t m = std::stoll(first), n = 0, k = 0, batch = 0;
        std::string ta, tb, a, c, config;
        double us = 0.0;
        if (!(line >> n >> k >> ta >> tb >> a >> c >> batch >> config >> us) || (ta != "n" && ta != "t") ||
            (tb != "n" && tb != "t") || us <= 0.0 || batch < 1)
            malformed(path, line_number, "not 'm n k transa transb a_type c_type batch config microseconds runs'");
        out.rows.push_back({row_problem(m, n, k, ta[0], tb[0], dtype_of(a, path, line_number),
                                        dtype_of(c, path, line_number), batch),
                            config, us});
    }
    if (device_name == "NVIDIA H100 80GB HBM3") out.device = h100_profile();
    else throw std::runtime_error(path + ": no profile of the device '" + device_name + "'");
    for (const char* key : {"sm_clock_mhz", "copy_tb_per_s", "fp32_tflops", "f16_tflops", "bf16_tflops", "tf32_tflops"})
        if (!header.count(key)) throw std::runtime_error(path + ": the header has no " + key);
    out.device.sm_clock_khz = static_cast<int>(header["sm_clock_mhz"] * 1000);
    // As measure_ceilings() fills them on the device: measured rates, L2 and shared memory derived.
    out.ceilings = estimate_ceilings(out.device);
    out.ceilings.dram_bytes_per_s = header["copy_tb_per_s"] * 1e12;
    out.ceilings.l2_bytes_per_s = kL2OverDram * out.ceilings.dram_bytes_per_s;
    out.ceilings.fp32_flops = header["fp32_tflops"] * 1e12;
    out.ceilings.f16_mma_flops = header["f16_tflops"] * 1e12;
    out.ceilings.bf16_mma_flops = header["bf16_tflops"] * 1e12;
    out.ceilings.tf32_mma_flops = header["tf32_tflops"] * 1e12;
    return out;
}

RankingScore score_ranking(const MeasuredRows& measured, double noise, std::FILE* detail) {
    struct Estimated {
        const MeasuredRow* row;
        double estimate_us;
    };
    std::map<std::string, std::vector<Estimated>> problems;
    RankingScore score;
    for (const MeasuredRow& row : measured.rows) {
        const auto config = parse_config(row.config);
        if (!config || validate(*config, row.problem, measured.device)) {
            ++score.unestimated;
            continue;
        }
        const double us = estimate_cost(*config, row.problem, measured.device, measured.ceilings).seconds * 1e6;
        problems[row.problem.key()].push_back({&row, us});
    }
    double log_slowdown = 0.0;
    for (auto& [key, rows] : problems) {
        if (rows.size() < 2) continue;
        ++score.problems;
        std::sort(rows.begin(), rows.end(),
                  [](const Estimated& x, const Estimated& y) { return x.row->microseconds < y.row->microseconds; });
        for (std::size_t i = 0; i < rows.size(); ++i)
            for (std::size_t j = i + 1; j < rows.size(); ++j) {
                if (rows[j].row->microseconds <= rows[i].row->microseconds * (1.0 + noise)) continue;
                ++score.pairs;
                const double a = rows[i].estimate_us, b = rows[j].estimate_us;
                score.ordered += std::fabs(a - b) <= 0.01 * std::min(a, b) ? 0.5 : a < b ? 1.0 : 0.0;
            }
        const auto by_estimate = [](const Estimated& x, const Estimated& y) { return x.estimate_us < y.estimate_us; };
        const Estimated& pick = *std::min_element(rows.begin(), rows.end(), by_estimate);
        log_slowdown += std::log(pick.row->microseconds / rows.front().row->microseconds);
        if (detail != nullptr) {
            std::fprintf(detail, "%s\n", key.c_str());
            for (const Estimated& e : rows)
                std::fprintf(detail, "  %9.1f us measured %9.1f us estimated  %s%s\n", e.row->microseconds,
                             e.estimate_us, e.row->config.c_str(), &e == &pick ? "  <- the model's pick" : "");
        }
    }
    score.pick_slowdown = score.problems > 0 ? std::exp(log_slowdown / score.problems) : 1.0;
    return score;
}

}  // namespace jitgemm::testing
