// Host time of jitgemm::gemm on its hot path (a problem already in memory) against a bare cuLaunchKernel of the
// same kernel with the same arguments. Batches of launches alternate between the two; the device is drained
// between batches (outside the timed region) so the launch queue never fills; medians of per-call times.
//   hot_path_overhead [--csv FILE]
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>

#include "dispatch/kernel_store.h"
#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/jitgemm.h"
#include "runtime/measure/event_timer.h"
#include "tools/verify/gemm_workload.h"

int main(int argc, char** argv) {
    using namespace jitgemm;
    using clock = std::chrono::steady_clock;
    std::string csv_path;
    for (int i = 1; i < argc; ++i)
        if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv_path = argv[++i];
    try {
        driver::current_context();
        const auto& cu = driver::api();
        const driver::StreamHandle stream = driver::make_stream();
        std::mt19937_64 rng(1);
        GemmShape shape;
        shape.m = shape.n = shape.k = 64;
        const GemmWorkload w(shape, rng);
        GemmOptions untuned;
        untuned.tuning = TunePolicy::Off;  // how the kernel was chosen does not matter here, only its lookup
        w.run(stream.get(), untuned);      // compile and load
        JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream.get()));
        const GemmCall call = w.call();
        const auto kernel = find_loaded_kernel(call, "");
        if (!kernel) throw Error(ErrorCode::Internal, "kernel not in memory after the first call");

        constexpr int kBatch = 200, kBatches = 60;
        std::vector<double> gemm_us, raw_us;
        // The same launch without jitgemm: the kernel's one argument, made once.
        KernelArgs args = make_kernel_args(make_canonical_call(call).problem, call.a, call.b, call.c, 1.0f, 0.0f);
        void* params[] = {&args};
        const auto& g = kernel->launch;
        if (!g.packs.empty() || g.partial_sums_bytes > 0)
            throw Error(ErrorCode::Internal, "the bare launch can only stand for a kernel without workspace, not " +
                                                 kernel->config_name);
        for (int batch = 0; batch < kBatches; ++batch) {
            auto start = clock::now();
            for (int i = 0; i < kBatch; ++i) {
                if (w.run(stream.get(), untuned) != ServedBy::InMemory)
                    throw Error(ErrorCode::Internal, "not the hot path");
            }
            auto stop = clock::now();
            gemm_us.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / kBatch);
            JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream.get()));

            start = clock::now();
            for (int i = 0; i < kBatch; ++i)
                JITGEMM_CU_CHECK(cu.cuLaunchKernel(kernel->function, g.grid.x, g.grid.y, g.grid.z, g.block.x, g.block.y, g.block.z,
                                                   g.dynamic_shared_bytes, stream.get(), params, nullptr));
            stop = clock::now();
            raw_us.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / kBatch);
            JITGEMM_CU_CHECK(cu.cuStreamSynchronize(stream.get()));
        }
        const double gemm_median = median(gemm_us), raw_median = median(raw_us);
        std::printf("hot path: jitgemm::gemm %.3f us per call, bare cuLaunchKernel %.3f us, overhead %.3f us "
                    "(target <= 2 us) [%s]\n",
                    gemm_median, raw_median, gemm_median - raw_median, kernel->config_name.c_str());
        if (!csv_path.empty()) {
            std::ofstream csv(csv_path);
            csv << "gemm_us_per_call,cuLaunchKernel_us_per_call,overhead_us,batches,calls_per_batch,config\n"
                << gemm_median << "," << raw_median << "," << gemm_median - raw_median << "," << kBatches << ","
                << kBatch << "," << kernel->config_name << "\n";
        }
        return gemm_median - raw_median <= 2.0 ? 0 : 1;
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 3;
    }
}
