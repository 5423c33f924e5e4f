// jitgemm against cuBLAS SGEMM (fp32, no TF32) on the same data in one run: both verified against the float64
// reference, then timed alternately (jitgemm, cuBLAS, jitgemm, ...) with the L2 flushed before every run; medians.
// Shapes are row-major C[M,N] = A[M,K] B[K,N] as in bench/shapes/public.csv.
//   sgemm_vs_cublas [--config NAME | --tune SECONDS] [--iterations N] [--csv FILE] [--shapes FILE] [MxNxK ...]
// --tune tunes each shape first (budget per shape), records the search (wall time, candidates, compiles) and then
// times what jitgemm::gemm serves from the cache; without it, the heuristic default (or --config) is timed.
#include <cublas_v2.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cache/cache_stack.h"
#include "device/device_info.h"
#include "dispatch/kernel_store.h"
#include "driver/context.h"
#include "driver/cuda_driver.h"
#include "driver/driver_check.h"
#include "jitgemm/jitgemm.h"
#include "measure/event_timer.h"
#include "measure/l2_flush.h"
#include "problem/gemm_call.h"
#include "tuner/tuner.h"
#include "verify/gemm_workload.h"

namespace {

using namespace jitgemm;

void check_cublas(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        std::fprintf(stderr, "cuBLAS %s failed: %d\n", what, static_cast<int>(status));
        std::exit(1);
    }
}

struct Row {
    std::string name, shape, config, served_by;
    double jit_ms, jit_tflops, cublas_ms, cublas_tflops;
    bool jit_ok, cublas_ok;
    // The search, with --tune.
    double tune_seconds = 0.0;
    int candidates_measured = 0, candidates_total = 0, compiles = 0;
    bool complete = false;
    std::string pruning;
};

// name,M,N,K lines; '#' comments and the header are skipped.
std::vector<std::pair<std::string, std::string>> read_shapes(const std::string& path) {
    std::vector<std::pair<std::string, std::string>> shapes;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.rfind("name,", 0) == 0) continue;
        std::string name = line.substr(0, line.find(','));
        std::string dims = line.substr(line.find(',') + 1);
        for (char& c : dims)
            if (c == ',') c = 'x';
        shapes.emplace_back(name, dims);
    }
    return shapes;
}

}  // namespace

int main(int argc, char** argv) {
    std::string config, csv_path;
    int iterations = 30;
    double tune_budget = 0.0;
    std::vector<std::pair<std::string, std::string>> shapes;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--config") && i + 1 < argc) config = argv[++i];
        else if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv_path = argv[++i];
        else if (!std::strcmp(argv[i], "--tune") && i + 1 < argc) tune_budget = std::atof(argv[++i]);
        else if (!std::strcmp(argv[i], "--shapes") && i + 1 < argc) {
            const auto more = read_shapes(argv[++i]);
            shapes.insert(shapes.end(), more.begin(), more.end());
        } else shapes.emplace_back(argv[i], argv[i]);
    }
    if (shapes.empty())
        shapes = {{"square1024", "1024x1024x1024"}, {"square4096", "4096x4096x4096"}, {"misaligned_4097", "4097x4097x4097"}};

    try {
        const CUcontext context = driver::current_context();
        const DeviceInfo& device = cached_device_info(driver::device_of(context));
        const auto& cu = driver::api();
        const driver::StreamHandle stream = driver::make_stream();
        cublasHandle_t handle;
        check_cublas(cublasCreate(&handle), "create");
        check_cublas(cublasSetStream(handle, stream.get()), "set stream");
        check_cublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "math mode");  // fp32, no TF32
        const L2Flusher flusher(device);
        EventTimer timer;
        std::mt19937_64 rng(std::random_device{}());
        GemmOptions options;
        options.config = config;
        options.tuning = TunePolicy::Off;  // searches run explicitly below, so their cost is measured apart

        std::vector<Row> rows;
        for (const auto& [name, text] : shapes) {
            GemmShape shape;
            shape.order = Order::RowMajor;
            if (std::sscanf(text.c_str(), "%ldx%ldx%ld", &shape.m, &shape.n, &shape.k) != 3) {
                std::fprintf(stderr, "bad shape %s (want MxNxK)\n", text.c_str());
                return 2;
            }
            const GemmWorkload w(shape, rng);
            const float alpha = 1.0f, beta = 0.0f;
            const GemmCall call = w.call();
            // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS gets (n, m, k) with B first.
            auto run_cublas = [&] {
                check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(shape.n),
                                         static_cast<int>(shape.m), static_cast<int>(shape.k), &alpha,
                                         static_cast<const float*>(call.b), static_cast<int>(call.ldb),
                                         static_cast<const float*>(call.a), static_cast<int>(call.lda), &beta,
                                         static_cast<float*>(call.c), static_cast<int>(call.ldc)),
                             "sgemm");
            };
            Row row;
            row.name = name;
            row.shape = text;
            if (tune_budget > 0) {
                TuneOptions tune;
                tune.budget_seconds = tune_budget;
                const auto t0 = std::chrono::steady_clock::now();
                const TuneResult r = tune_problem(make_canonical_call(call).problem, device, context, tune,
                                                  cache::CacheStack::global());
                row.tune_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                row.candidates_measured = r.candidates_measured;
                row.candidates_total = r.candidates_total;
                row.compiles = r.compiles;
                row.complete = r.complete;
                row.pruning = r.pruning.describe();
                std::printf("%-28s tuned in %.2f s: %d/%d candidates (%s), %d compiles (%.1f/s); %s\n",
                            name.c_str(), row.tune_seconds, r.candidates_measured, r.candidates_total,
                            r.complete ? "complete" : "budget reached", r.compiles, r.compiles / row.tune_seconds,
                            row.pruning.c_str());
            }
            row.served_by = std::string(to_string(w.run(stream.get(), options)));  // load outside the timings
            JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream.get()));
            row.jit_ok = w.check(rng).passed();
            w.reset_c();
            run_cublas();
            JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream.get()));
            row.cublas_ok = w.check(rng).passed();
            const auto kernel = find_loaded_kernel(call, config);
            row.config = kernel ? kernel->config_name : "?";

            std::vector<double> jit, cublas;
            for (int i = 0; i < 3; ++i) {  // warm-up
                w.run(stream.get(), options);
                run_cublas();
            }
            for (int i = 0; i < iterations; ++i) {
                flusher.flush(stream.get());
                timer.start(stream.get());
                w.run(stream.get(), options);
                timer.stop(stream.get());
                jit.push_back(timer.elapsed_ms());
                flusher.flush(stream.get());
                timer.start(stream.get());
                run_cublas();
                timer.stop(stream.get());
                cublas.push_back(timer.elapsed_ms());
            }
            row.jit_ms = median(jit);
            row.cublas_ms = median(cublas);
            row.jit_tflops = w.flops() / (row.jit_ms * 1e-3) / 1e12;
            row.cublas_tflops = w.flops() / (row.cublas_ms * 1e-3) / 1e12;
            rows.push_back(row);
            std::printf("%-28s %-36s jitgemm %8.3f ms %6.2f TFLOP/s %s | cuBLAS %8.3f ms %6.2f TFLOP/s %s | %.2fx\n",
                        name.c_str(), row.config.c_str(), row.jit_ms, row.jit_tflops, row.jit_ok ? "ok" : "WRONG",
                        row.cublas_ms, row.cublas_tflops, row.cublas_ok ? "ok" : "WRONG",
                        row.cublas_ms / row.jit_ms);
            std::fflush(stdout);
        }
        cublasDestroy(handle);

        if (!csv_path.empty()) {
            std::ofstream csv(csv_path);
            char date[32];
            const std::time_t now = std::time(nullptr);
            std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
            csv << "date,gpu,name,shape,jitgemm_config,served_by,jitgemm_ms,jitgemm_tflops,jitgemm_verified,cublas_ms,"
                   "cublas_tflops,cublas_verified,speed_vs_cublas,tune_seconds,candidates_measured,candidates_total,"
                   "search_complete,compiles,compiles_per_second\n";
            for (const Row& r : rows)
                csv << date << "," << device.name << "," << r.name << "," << r.shape << "," << r.config << ","
                    << r.served_by << "," << r.jit_ms << "," << r.jit_tflops << "," << (r.jit_ok ? "yes" : "no")
                    << "," << r.cublas_ms << "," << r.cublas_tflops << "," << (r.cublas_ok ? "yes" : "no") << ","
                    << r.cublas_ms / r.jit_ms << "," << r.tune_seconds << "," << r.candidates_measured << ","
                    << r.candidates_total << "," << (r.complete ? "yes" : "no") << "," << r.compiles << ","
                    << (r.tune_seconds > 0 ? r.compiles / r.tune_seconds : 0.0) << "\n";
        }
        for (const Row& r : rows)
            if (!r.jit_ok) return 1;
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return e.code() == ErrorCode::NoDriver || e.code() == ErrorCode::NoDevice ? 3 : 1;
    }
    return 0;
}
