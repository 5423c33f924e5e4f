// Many random GEMMs, each with its own configuration, run and checked against the float64 host reference on eight
// host threads at once: the threads overlap their NVRTC compiles, and gemm is exercised from many threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "runtime/driver/context.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm::testing {

// Runs shapes[i] with configs[i]; one line per shape that failed its check, missed the relative norm error asked
// (||C - ref|| / ||ref|| <= max_relative_error) or threw. Thread t draws its data from seed + 1 + t.
inline std::vector<std::string> run_gemm_cases_in_parallel(const std::vector<GemmShape>& shapes,
                                                           const std::vector<std::string>& configs,
                                                           double max_relative_error, std::uint64_t seed) {
    std::atomic<std::size_t> next{0};
    std::mutex failures_mutex;
    std::vector<std::string> failures;
    auto worker = [&](std::uint64_t worker_seed) {
        std::mt19937_64 rng(worker_seed);
        for (std::size_t i = next++; i < shapes.size(); i = next++) {
            const std::string label = shapes[i].describe() + " config " + configs[i];
            try {
                driver::current_context();
                const GemmWorkload workload(shapes[i], rng);
                GemmOptions options;
                options.config = configs[i];
                workload.run(nullptr, options);
                const auto result = workload.check(rng);
                if (!result.passed() || !(result.relative_error <= max_relative_error)) {
                    std::lock_guard lock(failures_mutex);
                    failures.push_back(label + ": " + result.describe());
                }
            } catch (const std::exception& e) {
                std::lock_guard lock(failures_mutex);
                failures.push_back(label + ": " + e.what());
            }
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) threads.emplace_back(worker, seed + 1 + t);
    for (auto& t : threads) t.join();
    return failures;
}

}  // namespace jitgemm::testing
