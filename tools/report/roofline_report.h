// `jitgemm report`: one self-contained HTML page (inline SVG and script, nothing fetched) that places each problem
// on the device's roofline — arithmetic intensity against achieved TFLOP/s, jitgemm and cuBLAS side by side — with
// a sortable table below. This file is the model and the page; report_inputs.h fills the model from a tuning cache
// and bench files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "jitgemm/types.h"
#include "runtime/device/device_ceilings.h"

namespace jitgemm::report {

// One problem as measured: by `jitgemm bench` (with cuBLAS) or by a search (the cache's tuned time).
struct ReportPoint {
    std::string name;       // the manifest's name, or the problem key for cache entries
    std::string shape;      // "MxNxK"
    std::string types;      // "bf16->f32", with " tf32" when the multiply may round to TF32
    DType inputs = DType::F32;            // A's type, and with `compute` the compute roof it sits under
    ComputeType compute = ComputeType::F32;
    std::string config;
    std::string origin;     // "bench" or "cache"
    double flops = 0.0;     // 2 m n k
    double bytes = 0.0;     // the least traffic: A and B once, C once (twice when beta != 0)
    double jitgemm_ms = 0.0;
    std::optional<double> cublas_ms;

    double intensity() const { return flops / bytes; }
    // The name of its roof: "f32", "tf32", "bf16" or "f16".
    std::string precision() const;
    double tflops(double ms) const { return flops / (ms * 1e-3) / 1e12; }
};

struct ReportData {
    std::string device;           // the GPU's fingerprint or name
    DeviceCeilings ceilings;      // the roofs
    std::string ceilings_source;  // where the roofs came from, in words
    std::vector<ReportPoint> points;
};

// The figures a point's row shows, derived from the model in one place (the page and the tests use these).
struct PointFigures {
    double peak_flops = 0.0;      // the compute roof of its precision, FLOP/s
    double roof_tflops = 0.0;     // min(compute roof, intensity x bandwidth)
    double percent_of_roof = 0.0;
    const char* bound = "";       // "memory" or "compute"
    std::optional<double> speed_vs_cublas;  // cuBLAS time / jitgemm time
};
PointFigures figures_of(const ReportPoint& point, const DeviceCeilings& ceilings);

// Whether every roof the page may draw is known (positive).
bool ceilings_complete(const DeviceCeilings& ceilings);

// The page. Throws Error(InvalidArgument) when there is nothing to draw (no points, or ceilings that are not
// positive).
std::string render_html(const ReportData& data);

}  // namespace jitgemm::report
