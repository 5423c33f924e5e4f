// `jitgemm bench`: jitgemm against cuBLAS on the same data in one run — both verified against the float64
// reference, then timed alternately with the L2 flushed before every run (medians) — and each problem placed on
// the roofline of its dtypes: arithmetic intensity, memory- or compute-bound against the rate that bounds
// those types (fp32 FFMA, or the Tensor Cores for 16-bit inputs and TF32), and the share of the floor reached.
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tools/baseline/cublas_baseline.h"
#include "cache/cache_stack.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/output_file.h"
#include "tools/cli/option_parsing.h"
#include "tools/cli/problem_options.h"
#include "tools/cli/problem_plan.h"
#include "runtime/device/device_info.h"
#include "dispatch/kernel_store.h"
#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/jitgemm.h"
#include "runtime/measure/ceiling_probes.h"
#include "runtime/measure/event_timer.h"
#include "runtime/measure/l2_flush.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm::cli {
namespace {

namespace po = boost::program_options;

struct BenchRow {
    GemmShape problem;  // sizes, order, transposes, types, as run
    std::string name, shape, config, served_by;
    std::string dtype, compute;  // "bf16->f32", "f32"
    double jit_ms = 0, cublas_ms = 0, flops = 0, bytes = 0;
    double peak_flops = 0, ridge = 0;  // the roofline of the problem's types
    bool jit_ok = false, cublas_ok = false;
    double jit_relative_error = 0, cublas_relative_error = 0;
    double tflops(double ms) const { return flops / (ms * 1e-3) / 1e12; }
    double intensity() const { return flops / bytes; }
    const char* bound() const { return intensity() < ridge ? "memory" : "compute"; }
    // Share of the roofline floor (the slower of the arithmetic and the memory traffic) that jitgemm reached.
    double roof_percent(double dram_bytes_per_s) const {
        const double floor_ms = std::max(flops / peak_flops, bytes / dram_bytes_per_s) * 1e3;
        return 100.0 * floor_ms / jit_ms;
    }
    // One column for the table: "bf16->bf16", with " tf32" when the multiply may round to TF32.
    std::string types() const { return dtype + (compute == "f32" ? "" : " " + compute); }
};


// A text field of the CSV: quoted, with quotes doubled (names are the manifest's, and may hold commas).
std::string csv_field(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

int bench_command(const std::vector<std::string>& args) {
    po::options_description options;
    add_problem_options(options);
    options.add_options()
        ("tune", po::value<std::string>()->default_value("from-environment"),
         "how jitgemm serves a problem it has no tuned kernel for: now, background, off, never (these three serve a "
         "size of a layer tuned at other sizes by the nearest one's run-time-shape variant)")
        ("budget", po::value<double>()->default_value(0.0), "tuning budget in seconds (0: $JITGEMM_TUNE_BUDGET or 10)")
        ("config", po::value<std::string>()->default_value(""), "time this kernel configuration instead")
        ("iterations", po::value<int>()->default_value(30), "timed runs of each, alternating")
        ("csv", po::value<std::string>(), "write the results as CSV to this file")
        ("json", po::value<std::string>(), "write the results as JSON to this file")
        ("force", "replace --csv and --json files that exist (never a SQLite database)")
        ("measure-ceilings", "measure the device's ceilings now if the cache has none (else: estimate)");
    int exit_code = kExitOk;
    const auto parsed = parse_options(
        "bench", "usage: jitgemm bench (--manifest FILE | --m M --n N --k K [...]) [--csv FILE] [--json FILE]\n"
                 "jitgemm against cuBLAS on the same data, with roofline figures.",
        options, args, exit_code);
    if (!parsed) return exit_code;
    const po::variables_map& vm = *parsed;
    const std::vector<ManifestEntry> entries = problem_entries(vm);
    check_entries(entries);  // before the GPU: a manifest this build cannot serve is a usage error anywhere
    // Before the work too: a run must not end in a refusal to write its results.
    const bool force = vm.count("force") > 0;
    for (const char* output : {"csv", "json"})
        if (vm.count(output)) check_output_file(vm[output].as<std::string>(), force);
    GemmOptions gemm_options;
    const auto policy = parse_tune_policy(vm["tune"].as<std::string>());
    if (!policy) throw Error(ErrorCode::InvalidArgument, "jitgemm: --tune must be now, background or off");
    gemm_options.tuning = *policy;
    gemm_options.tune_budget_seconds = vm["budget"].as<double>();
    gemm_options.config = vm["config"].as<std::string>();
    const int iterations = std::max(1, vm["iterations"].as<int>());

    const auto& cu = driver::api();
    const CUcontext context = driver::current_context();
    const DeviceInfo& device = cached_device_info(driver::device_of(context));
    const std::vector<PlannedProblem> plan = plan_problems(entries, device);
    const KnownCeilings known = known_ceilings(device, cache::CacheStack::global(), vm.count("measure-ceilings") > 0);
    const DeviceCeilings& roof = known.ceilings;
    const driver::StreamHandle stream = driver::make_stream();
    CublasBaseline cublas(stream.get());
    const L2Flusher flusher(device);
    EventTimer timer;
    std::mt19937_64 rng(std::random_device{}());

    std::cout << device.name << ", " << cublas.version() << ", ceilings "
              << (known.source == CeilingSource::Measured ? "measured" : "estimated") << ": " << std::fixed
              << std::setprecision(1) << roof.fp32_flops / 1e12 << " TFLOP/s fp32, " << roof.f16_mma_flops / 1e12
              << " f16/bf16 MMA, " << roof.tf32_mma_flops / 1e12 << " tf32 MMA, " << roof.dram_bytes_per_s / 1e12
              << " TB/s, fp32 ridge " << roof.fp32_ridge() << " FLOP/B\n";
    std::cout << std::left << std::setw(28) << "problem" << std::setw(15) << "dtype" << std::setw(36)
              << "jitgemm kernel" << std::right << std::setw(10) << "ms" << std::setw(9) << "TFLOP/s" << std::setw(8)
              << "GB/s" << std::setw(8) << "FLOP/B" << std::setw(9) << "bound" << std::setw(7) << "%roof"
              << std::setw(10) << "cuBLAS ms" << std::setw(9) << "TFLOP/s" << std::setw(8) << "speed" << "  check\n";

    std::vector<BenchRow> rows;
    for (const PlannedProblem& p : plan) {
        const GemmWorkload w(workload_shape(p.entry), rng);
        const GemmShape& s = w.shape();
        BenchRow row;
        row.problem = s;
        for (const auto& n : p.names) row.name += (row.name.empty() ? "" : "+") + n;
        row.shape = std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                    (s.batch != 1 ? "x" + std::to_string(s.batch) : "");
        row.dtype = s.dtype_text();
        row.compute = std::string(to_string(s.compute));
        row.flops = w.flops();
        row.bytes = w.min_bytes();
        row.peak_flops = roof.matrix_flops(s.a_type, s.compute);
        row.ridge = roof.ridge(s.a_type, s.compute);
        row.served_by = std::string(to_string(w.run(stream.get(), gemm_options)));
        JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream.get()));
        const GemmWorkload::Result jit_check = w.check(rng);
        row.jit_ok = jit_check.passed();
        row.jit_relative_error = jit_check.relative_error;
        const auto kernel = find_loaded_kernel(w.call(), gemm_options.config);
        row.config = kernel ? kernel->config_name : "?";
        const GemmCall call = w.call();
        auto run_cublas = [&] {  // the same operands, dtypes and compute type as jitgemm's call
            if (s.batch != 1)
                cublas.gemm_strided_batched(s.order, s.trans_a, s.trans_b, s.m, s.n, s.k, s.alpha, call.a, s.lda,
                                            s.stride_a, call.b, s.ldb, s.stride_b, s.beta, call.c, s.ldc, s.stride_c,
                                            s.batch, s.a_type, s.c_type, s.compute);
            else
                cublas.gemm(s.order, s.trans_a, s.trans_b, s.m, s.n, s.k, s.alpha, call.a, s.lda, call.b, s.ldb,
                            s.beta, call.c, s.ldc, s.a_type, s.c_type, s.compute);
        };
        w.reset_c();
        run_cublas();
        JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream.get()));
        const GemmWorkload::Result cublas_check = w.check(rng);
        row.cublas_ok = cublas_check.passed();
        row.cublas_relative_error = cublas_check.relative_error;

        for (int i = 0; i < 3; ++i) {  // warm-up
            w.run(stream.get(), gemm_options);
            run_cublas();
        }
        std::vector<double> jit, base;
        for (int i = 0; i < iterations; ++i) {
            flusher.flush(stream.get());
            timer.start(stream.get());
            w.run(stream.get(), gemm_options);
            timer.stop(stream.get());
            jit.push_back(timer.elapsed_ms());
            flusher.flush(stream.get());
            timer.start(stream.get());
            run_cublas();
            timer.stop(stream.get());
            base.push_back(timer.elapsed_ms());
        }
        row.jit_ms = median(jit);
        row.cublas_ms = median(base);
        rows.push_back(row);

        std::cout << std::left << std::setw(28) << row.name.substr(0, 27) << std::setw(15) << row.types().substr(0, 14)
                  << std::setw(36) << row.config.substr(0, 35) << std::right << std::setprecision(4) << std::setw(10)
                  << row.jit_ms << std::setprecision(1) << std::setw(9) << row.tflops(row.jit_ms)
                  << std::setprecision(0) << std::setw(8) << row.bytes / (row.jit_ms * 1e-3) / 1e9
                  << std::setprecision(1) << std::setw(8) << row.intensity() << std::setw(9) << row.bound()
                  << std::setprecision(0) << std::setw(6) << row.roof_percent(roof.dram_bytes_per_s) << "%"
                  << std::setprecision(4) << std::setw(10) << row.cublas_ms << std::setprecision(1) << std::setw(9)
                  << row.tflops(row.cublas_ms)
                  << std::setprecision(2) << std::setw(7) << row.cublas_ms / row.jit_ms << "x  "
                  << (row.jit_ok ? "ok" : "WRONG") << (row.cublas_ok ? "" : " (cuBLAS WRONG)") << "\n"
                  << std::flush;
    }

    if (vm.count("csv")) {
        std::ostringstream csv;
        // One column per field (sizes, order, transposes and each type apart), text fields quoted (RFC 4180).
        csv << "gpu,problem,m,n,k,order,transa,transb,a_dtype,b_dtype,c_dtype,compute,jitgemm_config,served_by,"
               "jitgemm_ms,jitgemm_tflops,jitgemm_gbs,arithmetic_intensity,bound,percent_of_roofline,cublas_ms,"
               "cublas_tflops,speed_vs_cublas,jitgemm_verified,cublas_verified,jitgemm_relative_error,"
               "cublas_relative_error,ceilings,batch\n";
        for (const BenchRow& r : rows) {
            const GemmShape& s = r.problem;
            csv << csv_field(device.name) << "," << csv_field(r.name) << "," << s.m << "," << s.n << "," << s.k << ","
                << to_string(s.order) << "," << to_string(s.trans_a) << "," << to_string(s.trans_b) << ","
                << to_string(s.a_type) << "," << to_string(s.b_type) << "," << to_string(s.c_type) << ","
                << r.compute << "," << csv_field(r.config) << "," << r.served_by << "," << r.jit_ms << ","
                << r.tflops(r.jit_ms) << ","
                << r.bytes / (r.jit_ms * 1e-3) / 1e9 << "," << r.intensity() << "," << r.bound() << ","
                << r.roof_percent(roof.dram_bytes_per_s) << "," << r.cublas_ms << "," << r.tflops(r.cublas_ms) << ","
                << r.cublas_ms / r.jit_ms << "," << (r.jit_ok ? "yes" : "no") << "," << (r.cublas_ok ? "yes" : "no")
                << "," << r.jit_relative_error << "," << r.cublas_relative_error << ","
                << (known.source == CeilingSource::Measured ? "measured" : "estimated") << "," << s.batch << "\n";
        }
        write_output_file(vm["csv"].as<std::string>(), csv.str(), force);
    }
    if (vm.count("json")) {
        nlohmann::ordered_json json = {
            {"gpu", device.name}, {"cublas", cublas.version()}, {"fp32_flops", roof.fp32_flops},
            {"f16_mma_flops", roof.f16_mma_flops}, {"bf16_mma_flops", roof.bf16_mma_flops},
            {"tf32_mma_flops", roof.tf32_mma_flops}, {"dram_bytes_per_s", roof.dram_bytes_per_s},
            {"ceilings", known.source == CeilingSource::Measured ? "measured" : "estimated"},
            {"problems", nlohmann::ordered_json::array()}};
        for (const BenchRow& r : rows) {
            const GemmShape& s = r.problem;
            json["problems"].push_back(
                {{"problem", r.name}, {"m", s.m}, {"n", s.n}, {"k", s.k}, {"batch", s.batch},
                 {"order", to_string(s.order)},
                 {"transa", to_string(s.trans_a)}, {"transb", to_string(s.trans_b)},
                 {"a_dtype", to_string(s.a_type)}, {"b_dtype", to_string(s.b_type)},
                 {"c_dtype", to_string(s.c_type)}, {"compute", r.compute}, {"config", r.config},
                 {"served_by", r.served_by}, {"jitgemm_ms", r.jit_ms}, {"jitgemm_tflops", r.tflops(r.jit_ms)},
                 {"arithmetic_intensity", r.intensity()}, {"bound", r.bound()},
                 {"percent_of_roofline", r.roof_percent(roof.dram_bytes_per_s)}, {"cublas_ms", r.cublas_ms},
                 {"speed_vs_cublas", r.cublas_ms / r.jit_ms}, {"jitgemm_verified", r.jit_ok},
                 {"cublas_verified", r.cublas_ok}, {"jitgemm_relative_error", r.jit_relative_error},
                 {"cublas_relative_error", r.cublas_relative_error}});  // nlohmann writes NaN as null
        }
        write_output_file(vm["json"].as<std::string>(), json.dump(1) + "\n", force);
    }
    // What the run compiled and searched, for checking that a bundle or a run-time-shape variant served it all.
    const Statistics done = statistics();
    std::cout << "jitgemm bench: " << rows.size() << " problems, " << done.nvrtc_compiles << " NVRTC compiles, "
              << done.tunings << " searches\n";
    for (const BenchRow& r : rows)
        if (!r.jit_ok) return kExitFailed;
    return kExitOk;
}

}  // namespace jitgemm::cli
