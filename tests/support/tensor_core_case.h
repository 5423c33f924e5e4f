// What the Tensor Core GPU tests over random shapes share: one element-type combination (the configurations a case
// draws from, its types, the relative norm error asked of them), and the run-and-check of one shape against the
// float64 host reference.
#pragma once

#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "tools/verify/gemm_workload.h"

namespace jitgemm::testing {

struct TensorCoreCase {
    std::string name;
    const std::vector<std::string>* configs;
    DType ab_type;
    DType c_type;
    ComputeType compute;
    double max_relative_error;  // ||C - ref|| / ||ref|| asked of the type
    friend void PrintTo(const TensorCoreCase& c, std::ostream* os) { *os << c.name; }

    std::string random_config(std::mt19937_64& rng) const {
        return (*configs)[std::uniform_int_distribution<std::size_t>(0, configs->size() - 1)(rng)];
    }
    void set_types(GemmShape& s) const {
        s.a_type = s.b_type = ab_type;
        s.c_type = c_type;
        s.compute = compute;
    }
};

// Runs the workload with `options` on the default stream and checks C: why it failed (the check's description),
// or nullopt when every element is within its bound and the whole within the case's relative norm error.
inline std::optional<std::string> run_and_check(const GemmWorkload& workload, const GemmOptions& options,
                                                double max_relative_error, std::mt19937_64& rng) {
    workload.run(nullptr, options);
    const auto result = workload.check(rng);
    if (result.passed() && result.relative_error <= max_relative_error) return std::nullopt;
    return result.describe();
}

}  // namespace jitgemm::testing
