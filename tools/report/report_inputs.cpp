// Reading the report's inputs: bench CSV (through the manifest's CSV line reader) and bench JSON (nlohmann-json), and
// the cache's tuned entries and ceilings.
#include "tools/report/report_inputs.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "jitgemm/error.h"
#include "runtime/device/roofline.h"
#include "runtime/measure/ceiling_probes.h"
#include "runtime/problem/problem.h"
#include "tools/manifest/csv_line.h"

namespace jitgemm::report {
namespace {

Error bad(const std::string& where, const std::string& what) {
    return Error(ErrorCode::InvalidArgument, "jitgemm report: " + where + ": " + what);
}

std::string read_whole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw bad(path, "cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// What a problem is, as a bench row and a cache entry both tell it: the canonical (column-major) sizes, transposes
// and types. A row-major product is the column-major one with A and B, m and n swapped.
using Signature = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::string, std::string, std::string,
                             std::string, std::string, std::string>;

// A bench row: its fields as text, by column name.
struct BenchFields {
    std::map<std::string, std::string> text;
    std::string where;  // "file, line 3" or "file, problem 2"

    const std::string& get(const std::string& field) const {
        const auto it = text.find(field);
        if (it == text.end() || it->second.empty()) throw bad(where, "no " + field);
        return it->second;
    }
    double number(const std::string& field) const {
        const std::string& t = get(field);
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(t, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != t.size() || !(v >= 0)) throw bad(where, field + " \"" + t + "\" is not a number >= 0");
        return v;
    }
};

std::string types_text(const std::string& a, const std::string& b, const std::string& c, const std::string& compute) {
    std::string t = a == b ? a : a + "," + b;
    t += "->" + c;
    return compute == "f32" ? t : t + " " + compute;
}

struct BenchPoint {
    ReportPoint point;
    Signature signature;
};

BenchPoint point_of(const BenchFields& f) {
    BenchPoint out;
    ReportPoint& p = out.point;
    p.name = f.get("problem");
    const auto m = static_cast<std::int64_t>(f.number("m")), n = static_cast<std::int64_t>(f.number("n")),
               k = static_cast<std::int64_t>(f.number("k"));
    p.shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    const std::string &a = f.get("a_dtype"), &b = f.get("b_dtype"), &c = f.get("c_dtype"),
                      &compute = f.get("compute");
    p.types = types_text(a, b, c, compute);
    const auto inputs = parse_dtype(a);
    const auto arithmetic = parse_compute_type(compute);
    if (!inputs) throw bad(f.where, "a_dtype \"" + a + "\" is not a dtype (f32, f16 or bf16)");
    if (!arithmetic) throw bad(f.where, "compute \"" + compute + "\" is not a compute type (f32 or tf32)");
    p.inputs = *inputs;
    p.compute = *arithmetic;
    p.config = f.get("jitgemm_config");
    p.origin = "bench";
    p.jitgemm_ms = f.number("jitgemm_ms");
    // The bench states the rate and the intensity it computed from its own FLOP and byte counts: they come back
    // from those two.
    p.flops = f.number("jitgemm_tflops") * 1e12 * p.jitgemm_ms * 1e-3;
    p.bytes = p.flops / f.number("arithmetic_intensity");
    const double cublas = f.number("cublas_ms");
    if (cublas > 0) p.cublas_ms = cublas;
    if (!(p.flops > 0 && p.bytes > 0 && p.jitgemm_ms > 0)) throw bad(f.where, "no positive time, rate or intensity");
    if (f.get("order") == "row")
        out.signature = {n, m, k, f.get("transb"), f.get("transa"), b, a, c, compute};
    else
        out.signature = {m, n, k, f.get("transa"), f.get("transb"), a, b, c, compute};
    return out;
}

std::vector<BenchPoint> read_csv(const std::string& path, const std::string& text) {
    std::istringstream lines(text);
    std::string line;
    std::vector<std::string> header;
    std::vector<BenchPoint> points;
    for (int number = 1; std::getline(lines, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const manifest::CsvLine cells = manifest::split_csv_line(line);
        const std::string where = path + ", line " + std::to_string(number);
        if (cells.error) throw bad(where, "cell " + std::to_string(cells.error->cell + 1) + ": " + cells.error->reason);
        if (header.empty()) {
            header = cells.cells;
            if (std::find(header.begin(), header.end(), "jitgemm_ms") == header.end())
                throw bad(where, "not the header of `jitgemm bench --csv` output (no jitgemm_ms column)");
            continue;
        }
        if (cells.cells.size() != header.size())
            throw bad(where, std::to_string(cells.cells.size()) + " cells where the header has " +
                                 std::to_string(header.size()));
        BenchFields fields;
        fields.where = where;
        for (std::size_t i = 0; i < header.size(); ++i) fields.text[header[i]] = cells.cells[i];
        points.push_back(point_of(fields));
    }
    return points;
}

std::string json_text(const nlohmann::json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number()) return value.dump();
    return "";  // null, booleans and the rest: absent for the fields read here
}

std::vector<BenchPoint> read_json(const std::string& path, const nlohmann::json& json) {
    if (!json.is_object() || !json.contains("problems") || !json["problems"].is_array())
        throw bad(path, "not `jitgemm bench --json` output (no \"problems\" array)");
    std::vector<BenchPoint> points;
    std::size_t index = 0;
    for (const nlohmann::json& problem : json["problems"]) {
        ++index;
        BenchFields fields;
        fields.where = path + ", problem " + std::to_string(index);
        if (!problem.is_object()) throw bad(fields.where, "not an object");
        for (const auto& [key, value] : problem.items()) fields.text[key] = json_text(value);
        fields.text["jitgemm_config"] = fields.text["config"];
        points.push_back(point_of(fields));
    }
    return points;
}

std::vector<BenchPoint> read_bench(const std::string& path, DeviceCeilings* stated, std::string* gpu) {
    const std::string text = read_whole(path);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || text[first] != '{') return read_csv(path, text);
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw bad(path, e.what());
    }
    auto points = read_json(path, json);
    const auto rate = [&](const char* name) {
        return json.contains(name) && json[name].is_number() ? json[name].get<double>() : 0.0;
    };
    stated->fp32_flops = rate("fp32_flops");
    stated->f16_mma_flops = rate("f16_mma_flops");
    stated->bf16_mma_flops = rate("bf16_mma_flops") > 0 ? rate("bf16_mma_flops") : rate("f16_mma_flops");
    stated->tf32_mma_flops = rate("tf32_mma_flops");
    stated->dram_bytes_per_s = rate("dram_bytes_per_s");
    if (json.contains("gpu") && json["gpu"].is_string()) *gpu = json["gpu"].get<std::string>();
    return points;
}

BenchPoint point_of(const Problem& p, const cache::SelectionRecord& s) {
    BenchPoint out;
    ReportPoint& r = out.point;
    r.name = s.problem_key;
    r.shape = std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
    const std::string a(to_string(p.a_type)), b(to_string(p.b_type)), c(to_string(p.c_type)),
        compute(to_string(p.compute));
    r.types = types_text(a, b, c, compute);
    r.inputs = p.a_type;
    r.compute = p.compute;
    r.config = s.config;
    r.origin = "cache";
    r.jitgemm_ms = s.time_ms;
    r.flops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k);
    r.bytes = compulsory_bytes(p);
    const auto flag = [](Transpose t) { return std::string(t == Transpose::Yes ? "t" : "n"); };
    out.signature = {p.m, p.n, p.k, flag(p.trans_a), flag(p.trans_b), a, b, c, compute};
    return out;
}

}  // namespace

ReportData collect_report(const cache::TuningCache* cache, const std::vector<std::string>& bench_files,
                          const std::string& device) {
    ReportData data;
    std::set<Signature> measured;
    DeviceCeilings stated;
    std::string gpu;
    for (const std::string& path : bench_files)
        for (BenchPoint& b : read_bench(path, &stated, &gpu)) {
            measured.insert(b.signature);
            data.points.push_back(std::move(b.point));
        }

    std::string fingerprint;
    if (cache != nullptr) {
        const std::vector<cache::SelectionRecord> selections = cache->all_selections();
        std::set<std::string> devices;
        for (const auto& s : selections)
            if (device.empty() || s.device_fingerprint.find(device) != std::string::npos)
                devices.insert(s.device_fingerprint);
        if (devices.size() > 1) {
            std::string names;
            for (const auto& d : devices) names += "\n  " + d;
            throw bad(cache->path(), "holds entries of several devices; choose one with --device:" + names);
        }
        if (!device.empty() && devices.empty())
            throw bad(cache->path(), "has no tuned entries of a device matching \"" + device + "\"");
        if (!devices.empty()) fingerprint = *devices.begin();
        // The latest entry of each problem of the device, whatever jitgemm version tuned it.
        std::map<std::string, const cache::SelectionRecord*> latest;
        for (const auto& s : selections) {
            if (s.device_fingerprint != fingerprint) continue;
            const cache::SelectionRecord*& kept = latest[s.problem_key];
            if (kept == nullptr || s.tuned_at_unix > kept->tuned_at_unix) kept = &s;
        }
        for (const auto& [key, s] : latest) {
            const auto problem = Problem::parse_key(key);
            if (!problem || !(s->time_ms > 0)) continue;  // a key of an older layout, or no time: not drawable
            BenchPoint b = point_of(*problem, *s);
            if (!measured.count(b.signature)) data.points.push_back(std::move(b.point));
        }
        if (!fingerprint.empty())
            if (auto stored = stored_ceilings(cache->all_ceilings(), fingerprint)) {
                data.ceilings = *stored;
                data.ceilings_source = "measured on the device, from the cache";
            }
    }
    if (data.ceilings_source.empty()) {
        if (!ceilings_complete(stated))
            throw bad(cache != nullptr ? cache->path() : bench_files.empty() ? "" : bench_files.front(),
                      "no ceilings of the device to draw the roof: run `jitgemm info` on it (it measures them into "
                      "the cache), or give a bench JSON file, which states them");
        data.ceilings = stated;
        data.ceilings_source = "as the bench file states them";
    }
    data.device = !fingerprint.empty() ? fingerprint : gpu.empty() ? "an unnamed GPU" : gpu;
    return data;
}

}  // namespace jitgemm::report
