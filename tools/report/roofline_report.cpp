// The report page: one log-log roofline chart per precision present, then the table. Everything is written here as
// text; the page's only script sorts the table.
#include "tools/report/roofline_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "jitgemm/error.h"

namespace jitgemm::report {
namespace {

// The colours the screenshot test looks for (tests/report/check_screenshot.py): keep them in step.
constexpr const char* kJitgemmColour = "#1f77b4";
constexpr const char* kCublasColour = "#ff7f0e";
constexpr const char* kRoofColour = "#d62728";

constexpr const char* kPrecisions[] = {"f32", "tf32", "bf16", "f16"};

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string escaped(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string precision_title(const std::string& precision) {
    if (precision == "f32") return "fp32 (FFMA)";
    if (precision == "tf32") return "TF32 (Tensor Cores)";
    return precision + " (Tensor Cores)";
}

// A log-log plot area: decades lo..hi on each axis mapped onto the chart's inner box.
struct Axes {
    double x_lo, x_hi, y_lo, y_hi;  // log10 of the ends
    double left = 80, right = 560, top = 40, bottom = 380;
    double x(double value) const { return left + (std::log10(value) - x_lo) / (x_hi - x_lo) * (right - left); }
    double y(double value) const { return bottom - (std::log10(value) - y_lo) / (y_hi - y_lo) * (bottom - top); }
};

std::string decade_label(int exponent) {
    const double value = std::pow(10.0, exponent);
    return exponent >= 0 ? format("%.0f", value) : format("%g", value);
}

void hover_text(std::ostringstream& svg, const ReportPoint& p, const PointFigures& f, bool cublas) {
    svg << "<title>" << escaped(p.name) << " (" << escaped(p.shape) << ", " << escaped(p.types) << ")\n";
    if (cublas) {
        svg << "cuBLAS: " << format("%.4f", *p.cublas_ms) << " ms, " << format("%.1f", p.tflops(*p.cublas_ms))
            << " TFLOP/s";
    } else {
        svg << "jitgemm " << escaped(p.config) << ": " << format("%.4f", p.jitgemm_ms) << " ms, "
            << format("%.1f", p.tflops(p.jitgemm_ms)) << " TFLOP/s, " << format("%.0f", f.percent_of_roof)
            << "% of the " << f.bound << " roof";
        if (f.speed_vs_cublas) svg << ", " << format("%.2f", *f.speed_vs_cublas) << "x cuBLAS";
    }
    svg << "\nintensity " << format("%.1f", p.intensity()) << " FLOP/byte</title>";
}

std::string chart(const std::string& precision, const std::vector<const ReportPoint*>& points,
                  const DeviceCeilings& c) {
    const double peak = c.matrix_flops(points.front()->inputs, points.front()->compute) / 1e12;  // TFLOP/s
    const double bandwidth = c.dram_bytes_per_s / 1e12;      // TB/s: TFLOP/s per FLOP/byte
    const double ridge = peak / bandwidth;
    double x_min = ridge / 10, x_max = ridge * 10, y_min = peak / 10;
    for (const ReportPoint* p : points) {
        x_min = std::min(x_min, p->intensity());
        x_max = std::max(x_max, p->intensity());
        y_min = std::min(y_min, p->tflops(p->jitgemm_ms));
        if (p->cublas_ms) y_min = std::min(y_min, p->tflops(*p->cublas_ms));
    }
    Axes a{std::floor(std::log10(x_min)), std::ceil(std::log10(x_max)), std::floor(std::log10(y_min)),
           std::ceil(std::log10(peak * 1.5))};
    std::ostringstream svg;
    svg << "<svg class=\"roofline\" data-precision=\"" << precision
        << "\" width=\"760\" height=\"440\" viewBox=\"0 0 760 440\">"
        << "<rect x=\"0\" y=\"0\" width=\"760\" height=\"440\" fill=\"#ffffff\"/>"
        << "<text x=\"320\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">" << escaped(precision_title(precision))
        << "</text>";
    // Grid and ticks, one per decade.
    svg << "<g class=\"axes\" font-size=\"12\">";
    for (int e = static_cast<int>(a.x_lo); e <= static_cast<int>(a.x_hi); ++e) {
        const double x = a.x(std::pow(10.0, e));
        svg << "<line x1=\"" << x << "\" y1=\"" << a.top << "\" x2=\"" << x << "\" y2=\"" << a.bottom
            << "\" stroke=\"#dddddd\"/><text x=\"" << x << "\" y=\"" << a.bottom + 18
            << "\" text-anchor=\"middle\">" << decade_label(e) << "</text>";
    }
    for (int e = static_cast<int>(a.y_lo); e <= static_cast<int>(a.y_hi); ++e) {
        const double y = a.y(std::pow(10.0, e));
        svg << "<line x1=\"" << a.left << "\" y1=\"" << y << "\" x2=\"" << a.right << "\" y2=\"" << y
            << "\" stroke=\"#dddddd\"/><text x=\"" << a.left - 8 << "\" y=\"" << y + 4
            << "\" text-anchor=\"end\">" << decade_label(e) << "</text>";
    }
    svg << "<line class=\"x-axis\" x1=\"" << a.left << "\" y1=\"" << a.bottom << "\" x2=\"" << a.right << "\" y2=\""
        << a.bottom << "\" stroke=\"#000000\" stroke-width=\"2\"/>"
        << "<line class=\"y-axis\" x1=\"" << a.left << "\" y1=\"" << a.top << "\" x2=\"" << a.left << "\" y2=\""
        << a.bottom << "\" stroke=\"#000000\" stroke-width=\"2\"/>"
        << "<text x=\"" << (a.left + a.right) / 2 << "\" y=\"" << a.bottom + 42
        << "\" text-anchor=\"middle\">arithmetic intensity (FLOP/byte)</text>"
        << "<text transform=\"translate(24," << (a.top + a.bottom) / 2
        << ") rotate(-90)\" text-anchor=\"middle\">TFLOP/s</text></g>";
    // The roof: bandwidth slope up to the ridge point, then the compute ceiling.
    const double x0 = std::pow(10.0, a.x_lo), x1 = std::pow(10.0, a.x_hi);
    const double slope_start = std::max(x0, std::pow(10.0, a.y_lo) / bandwidth);
    svg << "<polyline class=\"roof\" fill=\"none\" stroke=\"" << kRoofColour << "\" stroke-width=\"3\" points=\""
        << a.x(slope_start) << "," << a.y(slope_start * bandwidth) << " " << a.x(ridge) << "," << a.y(peak) << " "
        << a.x(x1) << "," << a.y(peak) << "\"><title>roofline: " << format("%.2f", bandwidth)
        << " TB/s, " << format("%.1f", peak) << " TFLOP/s, ridge at " << format("%.1f", ridge)
        << " FLOP/byte</title></polyline>"
        << "<text x=\"" << a.right - 4 << "\" y=\"" << a.y(peak) - 6 << "\" text-anchor=\"end\" font-size=\"12\">"
        << format("%.1f", peak) << " TFLOP/s</text>"
        << "<text x=\"" << a.x(slope_start) + 6 << "\" y=\"" << a.y(slope_start * bandwidth) - 8
        << "\" font-size=\"12\">" << format("%.2f", bandwidth) << " TB/s</text>";
    // The problems: cuBLAS squares first, jitgemm circles over them, joined by a thin line.
    for (const ReportPoint* p : points) {
        const PointFigures f = figures_of(*p, c);
        const double x = a.x(p->intensity()), y = a.y(p->tflops(p->jitgemm_ms));
        if (p->cublas_ms) {
            const double yc = a.y(p->tflops(*p->cublas_ms));
            svg << "<line x1=\"" << x << "\" y1=\"" << y << "\" x2=\"" << x << "\" y2=\"" << yc
                << "\" stroke=\"#999999\"/><rect class=\"cublas\" x=\"" << x - 5 << "\" y=\"" << yc - 5
                << "\" width=\"10\" height=\"10\" fill=\"" << kCublasColour << "\">";
            hover_text(svg, *p, f, true);
            svg << "</rect>";
        }
        svg << "<circle class=\"jitgemm\" cx=\"" << x << "\" cy=\"" << y << "\" r=\"6\" fill=\"" << kJitgemmColour
            << "\" data-name=\"" << escaped(p->name) << "\">";
        hover_text(svg, *p, f, false);
        svg << "</circle>";
    }
    // Legend, right of the plot.
    svg << "<g class=\"legend\" font-size=\"13\"><circle cx=\"592\" cy=\"60\" r=\"6\" fill=\"" << kJitgemmColour
        << "\"/><text x=\"606\" y=\"65\">jitgemm</text><rect x=\"587\" y=\"81\" width=\"10\" height=\"10\" fill=\""
        << kCublasColour << "\"/><text x=\"606\" y=\"91\">cuBLAS</text><line x1=\"582\" y1=\"112\" x2=\"602\" "
        << "y2=\"112\" stroke=\"" << kRoofColour << "\" stroke-width=\"3\"/><text x=\"606\" y=\"117\">roofline</text>"
        << "</g></svg>";
    return svg.str();
}

// One <td>: what it shows, and the value it sorts by.
std::string cell(const std::string& shown, const std::string& sort_value) {
    return "<td data-value=\"" + escaped(sort_value) + "\">" + escaped(shown) + "</td>";
}
std::string number_cell(double value, const char* pattern) {
    return cell(format(pattern, value), format("%.17g", value));
}

constexpr const char* kSortScript = R"(
document.querySelectorAll('#problems th').forEach(function (th, column) {
  th.addEventListener('click', function () {
    var body = document.querySelector('#problems tbody');
    var rows = Array.prototype.slice.call(body.rows);
    var numeric = th.dataset.type === 'number';
    var ascending = th.dataset.order !== 'ascending';
    rows.sort(function (x, y) {
      var a = x.cells[column].dataset.value, b = y.cells[column].dataset.value;
      var order = numeric ? parseFloat(a) - parseFloat(b) : a.localeCompare(b);
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    th.dataset.order = ascending ? 'ascending' : 'descending';
  });
});
)";

}  // namespace

std::string ReportPoint::precision() const {
    if (inputs == DType::F32) return compute == ComputeType::TF32 ? "tf32" : "f32";
    return std::string(to_string(inputs));
}

bool ceilings_complete(const DeviceCeilings& c) {
    return c.dram_bytes_per_s > 0 && c.fp32_flops > 0 && c.tf32_mma_flops > 0 && c.bf16_mma_flops > 0 &&
           c.f16_mma_flops > 0;
}

PointFigures figures_of(const ReportPoint& p, const DeviceCeilings& c) {
    PointFigures f;
    f.peak_flops = c.matrix_flops(p.inputs, p.compute);
    const double memory_roof = p.intensity() * c.dram_bytes_per_s;
    f.roof_tflops = std::min(f.peak_flops, memory_roof) / 1e12;
    f.percent_of_roof = 100.0 * p.tflops(p.jitgemm_ms) / f.roof_tflops;
    f.bound = memory_roof < f.peak_flops ? "memory" : "compute";
    if (p.cublas_ms) f.speed_vs_cublas = *p.cublas_ms / p.jitgemm_ms;
    return f;
}

std::string render_html(const ReportData& data) {
    if (data.points.empty())
        throw Error(ErrorCode::InvalidArgument, "jitgemm report: no problems to show (the cache has no tuned "
                                                "entries for this device, and no bench file was given)");
    const DeviceCeilings& c = data.ceilings;
    if (!ceilings_complete(c))
        throw Error(ErrorCode::InvalidArgument, "jitgemm report: the device's ceilings are not all known");

    std::map<std::string, std::vector<const ReportPoint*>> by_precision;
    for (const ReportPoint& p : data.points) {
        if (!(p.flops > 0 && p.bytes > 0 && p.jitgemm_ms > 0))
            throw Error(ErrorCode::InvalidArgument, "jitgemm report: " + p.name + " has no positive size or time");
        by_precision[p.precision()].push_back(&p);
    }

    // The numbers behind the page, for programs and the tests (written by nlohmann-json).
    nlohmann::ordered_json model = {{"device", data.device}, {"ceilings_source", data.ceilings_source},
                            {"dram_bytes_per_s", c.dram_bytes_per_s}, {"fp32_flops", c.fp32_flops},
                            {"tf32_mma_flops", c.tf32_mma_flops}, {"bf16_mma_flops", c.bf16_mma_flops},
                            {"f16_mma_flops", c.f16_mma_flops}, {"problems", nlohmann::ordered_json::array()}};
    for (const ReportPoint& p : data.points) {
        const PointFigures f = figures_of(p, c);
        nlohmann::ordered_json row = {{"name", p.name}, {"shape", p.shape}, {"types", p.types},
                              {"precision", p.precision()}, {"config", p.config}, {"origin", p.origin},
                              {"arithmetic_intensity", p.intensity()}, {"jitgemm_ms", p.jitgemm_ms},
                              {"jitgemm_tflops", p.tflops(p.jitgemm_ms)}, {"bound", f.bound},
                              {"percent_of_roof", f.percent_of_roof}};
        if (p.cublas_ms) {
            row["cublas_ms"] = *p.cublas_ms;
            row["cublas_tflops"] = p.tflops(*p.cublas_ms);
            row["speed_vs_cublas"] = *f.speed_vs_cublas;
        }
        model["problems"].push_back(row);
    }
    // "</" cannot appear inside the script element that holds the JSON.
    std::string model_text = model.dump(1);
    for (std::size_t at = model_text.find("</"); at != std::string::npos; at = model_text.find("</", at))
        model_text.replace(at, 2, "<\\/");

    std::ostringstream html;
    html << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>jitgemm report: "
         << escaped(data.device) << "</title><style>body{font-family:sans-serif;margin:16px;color:#222}"
         << "table{border-collapse:collapse;font-size:13px}th,td{border:1px solid #ccc;padding:3px 6px;"
         << "text-align:right}th{cursor:pointer;background:#f0f0f0}td:nth-child(-n+5){text-align:left}"
         << "svg{display:block;margin-bottom:12px}</style></head><body>\n"
         << "<h1>jitgemm on " << escaped(data.device) << "</h1>\n<p>Each problem at its arithmetic intensity "
         << "(FLOP per byte of the least DRAM traffic: A and B read once, C written once, and read once more when "
         << "beta is not 0) and the rate it reached. The roof is the DRAM bandwidth, then the compute rate of the "
         << "precision (ceilings: " << escaped(data.ceilings_source) << "). The Tensor Core roofs are mma.sync "
         << "rates: cuBLAS's WGMMA kernels on Hopper can pass them. Hover over a point for its figures; click a "
         << "column heading to sort.</p>\n";
    for (const char* precision : kPrecisions)
        if (by_precision.count(precision)) html << chart(precision, by_precision[precision], c) << "\n";
    html << "<table id=\"problems\"><thead><tr>";
    const std::pair<const char*, const char*> columns[] = {
        {"problem", "text"}, {"shape", "text"},          {"types", "text"},         {"configuration", "text"},
        {"from", "text"},    {"jitgemm ms", "number"},   {"TFLOP/s", "number"},     {"FLOP/byte", "number"},
        {"bound", "text"},   {"% of roof", "number"},    {"cuBLAS ms", "number"},   {"vs cuBLAS", "number"}};
    for (const auto& [title, type] : columns) html << "<th data-type=\"" << type << "\">" << title << "</th>";
    html << "</tr></thead><tbody>\n";
    for (const ReportPoint& p : data.points) {
        const PointFigures f = figures_of(p, c);
        html << "<tr>" << cell(p.name, p.name) << cell(p.shape, p.shape) << cell(p.types, p.types)
             << cell(p.config, p.config) << cell(p.origin, p.origin) << number_cell(p.jitgemm_ms, "%.4f")
             << number_cell(p.tflops(p.jitgemm_ms), "%.1f") << number_cell(p.intensity(), "%.1f")
             << cell(f.bound, f.bound) << number_cell(f.percent_of_roof, "%.0f%%");
        if (p.cublas_ms)
            html << number_cell(*p.cublas_ms, "%.4f") << number_cell(*f.speed_vs_cublas, "%.2fx");
        else
            html << cell("", "-1") << cell("", "-1");
        html << "</tr>\n";
    }
    html << "</tbody></table>\n<script type=\"application/json\" id=\"jitgemm-data\">" << model_text
         << "</script>\n<script>" << kSortScript << "</script>\n</body></html>\n";
    return html.str();
}

}  // namespace jitgemm::report
