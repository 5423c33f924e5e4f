// `jitgemm run`: one GEMM from the command line — of any supported dtypes, compiled for this GPU, verified against a
// float64 host reference on random data with poisoned outputs (with the error bound of its dtypes), then timed (L2
// flushed before each run, median of the runs).
#include <cmath>
#include <iomanip>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/option_parsing.h"
#include "runtime/device/device_info.h"
#include "dispatch/kernel_store.h"
#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/jitgemm.h"
#include "runtime/measure/event_timer.h"
#include "runtime/measure/l2_flush.h"
#include "runtime/problem/gemm_call.h"
#include "tools/verify/gemm_workload.h"
#include "tuner/families/registry.h"

namespace jitgemm::cli {
namespace {

namespace po = boost::program_options;

// The value of flag `name` through its enum's table; a value not in it is a usage error naming the flag, the value
// and the choices.
template <typename Enum>
Enum parse_enum(const po::variables_map& vm, const char* name, std::optional<Enum> (*parse)(std::string_view),
                const char* choices) {
    const std::string text = vm[name].as<std::string>();
    const auto value = parse(text);
    if (!value) throw po::error("--" + std::string(name) + " \"" + text + "\" is not one of " + choices);
    return *value;
}

}  // namespace

int run_command(const std::vector<std::string>& args) {
    po::options_description options;
    options.add_options()
        ("m", po::value<std::int64_t>()->required(), "rows of op(A) and C")
        ("n", po::value<std::int64_t>()->required(), "columns of op(B) and C")
        ("k", po::value<std::int64_t>()->required(), "columns of op(A), rows of op(B)")
        ("transa", po::value<std::string>()->default_value("n"), "n or t")
        ("transb", po::value<std::string>()->default_value("n"), "n or t")
        ("order", po::value<std::string>()->default_value("row"), "row or col (BLAS); row like tune and bench")
        ("lda", po::value<std::int64_t>()->default_value(0), "leading dimension of A (0: the minimum)")
        ("ldb", po::value<std::int64_t>()->default_value(0), "leading dimension of B (0: the minimum)")
        ("ldc", po::value<std::int64_t>()->default_value(0), "leading dimension of C (0: the minimum)")
        ("batch", po::value<std::int64_t>()->default_value(1),
         "GEMMs of this shape in one strided batched call, each one's operands right after the last one's")
        ("dtype", po::value<std::string>()->default_value("f32"), "element type of A and B: f32, f16 or bf16")
        ("out-dtype", po::value<std::string>(), "element type of C: f32, f16 or bf16 (default: --dtype)")
        ("compute", po::value<std::string>()->default_value("f32"),
         "f32 (exact products) or tf32 (fp32 inputs may be rounded to TF32)")
        ("alpha", po::value<float>()->default_value(1.0f), "alpha")
        ("beta", po::value<float>()->default_value(0.0f), "beta")
        ("config", po::value<std::string>()->default_value(""), "kernel configuration (jitgemm configs); "
                                                                 "empty: jitgemm chooses")
        ("tune", po::value<std::string>()->default_value("from-environment"),
         "on a cache miss: now, background, off, never (default: $JITGEMM_TUNE, else now)")
        ("budget", po::value<double>()->default_value(0.0), "tuning budget in seconds (0: $JITGEMM_TUNE_BUDGET, else 10)")
        ("iterations", po::value<int>()->default_value(20), "timed runs (median reported)")
        ("seed", po::value<std::uint64_t>(), "random seed (default: from the clock)")
        ("no-verify", "skip the check against the host reference")
        ("json", "print one JSON object instead of text");
    int exit_code = kExitOk;
    const auto parsed = parse_options(
        "run", "usage: jitgemm run --m M --n N --k K [options]\nRuns, verifies and times one GEMM on GPU 0.",
        options, args, exit_code);
    if (!parsed) return exit_code;
    const po::variables_map& vm = *parsed;

    GemmShape shape;
    GemmOptions gemm_options;
    try {
        shape.order = parse_enum<Order>(vm, "order", parse_order, "col, row");
        shape.trans_a = parse_enum<Transpose>(vm, "transa", parse_transpose, "n, t");
        shape.trans_b = parse_enum<Transpose>(vm, "transb", parse_transpose, "n, t");
        gemm_options.tuning = parse_enum<TunePolicy>(vm, "tune", parse_tune_policy, "now, background, off, never");
        shape.a_type = shape.b_type = parse_enum<DType>(vm, "dtype", parse_dtype, "f32, f16, bf16");
        shape.c_type = vm.count("out-dtype") ? parse_enum<DType>(vm, "out-dtype", parse_dtype, "f32, f16, bf16")
                                             : shape.a_type;
        shape.compute = parse_enum<ComputeType>(vm, "compute", parse_compute_type, "f32, tf32");
    } catch (const po::error& e) {
        std::cerr << "jitgemm run: " << e.what() << "\n";
        return kExitUsage;
    }
    // Before the GPU: a combination jitgemm does not serve is a usage error on any machine.
    if (const auto why = unsupported_dtypes(shape.a_type, shape.a_type, shape.c_type, shape.compute)) {
        std::cerr << "jitgemm run: --dtype " << to_string(shape.a_type) << " --out-dtype " << to_string(shape.c_type)
                  << " --compute " << to_string(shape.compute) << " is not supported: " << *why << "\n";
        return kExitUsage;
    }
    shape.m = vm["m"].as<std::int64_t>();
    shape.n = vm["n"].as<std::int64_t>();
    shape.k = vm["k"].as<std::int64_t>();
    shape.lda = vm["lda"].as<std::int64_t>();
    shape.ldb = vm["ldb"].as<std::int64_t>();
    shape.ldc = vm["ldc"].as<std::int64_t>();
    shape.batch = vm["batch"].as<std::int64_t>();
    shape.alpha = vm["alpha"].as<float>();
    shape.beta = vm["beta"].as<float>();
    if (shape.m < 1 || shape.n < 1 || shape.k < 1 || shape.batch < 1) {
        std::cerr << "jitgemm run: m, n, k and the batch must be at least 1\n";
        return kExitUsage;
    }
    if (vm["iterations"].as<int>() < 1) {
        std::cerr << "jitgemm run: --iterations must be at least 1\n";
        return kExitUsage;
    }
    const int iterations = vm["iterations"].as<int>();
    gemm_options.tune_budget_seconds = vm["budget"].as<double>();
    if (!std::isfinite(gemm_options.tune_budget_seconds) || gemm_options.tune_budget_seconds < 0) {
        std::cerr << "jitgemm run: --budget must be a number of seconds >= 0 (0: the default)\n";
        return kExitUsage;
    }
    gemm_options.config = vm["config"].as<std::string>();
    // Before the GPU and before any allocation: what the library would refuse is a usage error on any machine
    // (check_description throws InvalidArgument, which main turns into exit 2).
    check_description(shape.with_minimum_leading_dimensions());
    if (!gemm_options.config.empty() && !parse_config(gemm_options.config)) {
        std::cerr << "jitgemm run: \"" << gemm_options.config
                  << "\" is not a kernel configuration (`jitgemm configs` lists them)\n";
        return kExitUsage;
    }
    const std::uint64_t seed = vm.count("seed") ? vm["seed"].as<std::uint64_t>() : std::random_device{}();
    std::mt19937_64 rng(seed);

    const auto& cu = driver::api();  // throws the clear "no driver / no device" error
    const CUcontext context = driver::current_context();
    const DeviceInfo& device = cached_device_info(driver::device_of(context));
    const driver::StreamHandle stream = driver::make_stream();
    const GemmWorkload workload(shape, rng);

    const auto first_start = std::chrono::steady_clock::now();
    const ServedBy served_by = workload.run(stream.get(), gemm_options);
    JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream.get()));
    const double first_call_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - first_start).count();
    const Statistics after_first_call = statistics();
    const auto kernel = find_loaded_kernel(workload.call(), gemm_options.config);

    // --no-verify: nothing was checked, which the output says (null, "skipped") rather than a pass.
    const bool checked = vm.count("no-verify") == 0;
    bool verified = true;
    std::string verify_text = "skipped";
    std::optional<double> relative_error;
    if (checked) {
        const GemmWorkload::Result result = workload.check(rng);
        verified = result.passed();
        verify_text = result.describe();
        relative_error = result.relative_error;
    }

    const L2Flusher flusher(device);
    EventTimer timer;
    std::vector<double> samples;
    for (int i = 0; i < iterations; ++i) {
        flusher.flush(stream.get());
        timer.start(stream.get());
        workload.run(stream.get(), gemm_options);
        timer.stop(stream.get());
        samples.push_back(timer.elapsed_ms());
    }
    const double ms = median(samples);
    const double tflops = workload.flops() / (ms * 1e-3) / 1e12;
    const double gbs = workload.min_bytes() / (ms * 1e-3) / 1e9;

    const std::string config_name = kernel ? kernel->config_name : "?";
    if (vm.count("json")) {
        const nlohmann::ordered_json out = {
            {"device", device.name}, {"shape", shape.describe()}, {"dtype", shape.dtype_text()},
            {"compute", std::string(to_string(shape.compute))}, {"config", config_name},
            {"served_by", std::string(to_string(served_by))}, {"registers", kernel ? kernel->registers : 0},
            {"local_bytes", kernel ? kernel->local_bytes : 0},
            {"resident_clusters", kernel ? kernel->resident_clusters : 0},
            {"nvrtc_compiles", after_first_call.nvrtc_compiles}, {"tunings", after_first_call.tunings},
            {"first_call_ms", first_call_ms}, {"median_ms", ms},
            {"tflops", tflops}, {"gbs", gbs}, {"iterations", iterations},
            {"verified", !checked ? nlohmann::ordered_json() : nlohmann::ordered_json(verified)},
            {"relative_error", relative_error ? nlohmann::ordered_json(*relative_error) : nlohmann::ordered_json()},
            {"check", verify_text}, {"seed", seed}};
        std::cout << out.dump(1) << "\n";
    } else {
        std::cout << "device      " << device.name << " (" << device.arch() << ", " << device.sm_count << " SMs)\n"
                  << "problem     " << workload.shape().describe() << "\n"
                  << "types       " << shape.dtype_text() << " (A and B -> C), compute " << to_string(shape.compute)
                  << ", accumulation f32\n"
                  << "kernel      " << config_name << " (" << to_string(served_by) << "; "
                  << (kernel ? kernel->registers : 0) << " registers, " << (kernel ? kernel->local_bytes : 0)
                  << " B local" << (kernel && kernel->launch.clustered() ? ", " + resident_clusters_text(*kernel) : "")
                  << ")\n"
                  << "first call  " << std::fixed << std::setprecision(1) << first_call_ms
                  << " ms (" << after_first_call.nvrtc_compiles << " NVRTC compiles, " << after_first_call.tunings
                  << " tunings)\n"
                  << "check       " << (!checked ? "" : verified ? "PASSED: " : "FAILED: ") << verify_text
                  << " (seed " << seed << ")\n"
                  << "time        " << std::setprecision(4) << ms << " ms median of " << iterations
                  << " runs, L2 flushed: " << std::setprecision(2) << tflops << " TFLOP/s, " << std::setprecision(0)
                  << gbs << " GB/s\n";
    }
    return verified ? kExitOk : kExitFailed;
}

}  // namespace jitgemm::cli
