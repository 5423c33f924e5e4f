// Cold start from the cache: in a process that has not seen the problems (run it after a tuning run, against the
// same $JITGEMM_CACHE), the host time of the first jitgemm::gemm call of each — SQLite lookup, cubin read,
// cuModuleLoadData, launch — and proof that it compiled nothing. Target: at most 5 ms per tuned entry.
//   cold_start [--csv FILE] MxNxK ...       (row-major shapes, as in bench/shapes/)
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/jitgemm.h"
#include "tools/verify/gemm_workload.h"

int main(int argc, char** argv) {
    using namespace jitgemm;
    std::string csv_path;
    std::vector<std::string> shapes;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv_path = argv[++i];
        else shapes.emplace_back(argv[i]);
    }
    try {
        driver::current_context();
        std::mt19937_64 rng(3);
        std::ofstream csv;
        if (!csv_path.empty()) {
            csv.open(csv_path);
            csv << "shape,served_by,first_call_ms,nvrtc_compiles_so_far\n";
        }
        int failures = 0;
        for (const std::string& text : shapes) {
            GemmShape shape;
            shape.order = Order::RowMajor;
            if (std::sscanf(text.c_str(), "%ldx%ldx%ld", &shape.m, &shape.n, &shape.k) != 3) return 2;
            const GemmWorkload w(shape, rng);
            JITGEMM_CU_CHECK(driver::api().cuCtxSynchronize());
            GemmOptions off;
            off.tuning = TunePolicy::Off;  // a miss would show as heuristic-default, not hide behind a search
            const auto start = std::chrono::steady_clock::now();
            const ServedBy served = w.run(nullptr, off);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            const std::uint64_t compiles = statistics().nvrtc_compiles;
            const bool ok = served == ServedBy::CachedTuned && compiles == 0 && ms <= 5.0;
            failures += ok ? 0 : 1;
            std::printf("cold start %-18s %-18s %.3f ms, %llu compiles so far %s\n", text.c_str(),
                        std::string(to_string(served)).c_str(), ms, static_cast<unsigned long long>(compiles),
                        ok ? "ok" : "MISSED (target: cached-tuned, 0 compiles, <= 5 ms)");
            if (csv.is_open()) csv << text << "," << to_string(served) << "," << ms << "," << compiles << "\n";
        }
        return failures == 0 ? 0 : 1;
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 3;
    }
}
