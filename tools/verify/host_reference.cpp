// Float64 reference elements and the error bounds of each dtype combination.
#include "tools/verify/host_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace jitgemm {

ReferenceValue reference_element(const HostGemm& g, std::int64_t i, std::int64_t j) {
    const bool ta = g.trans_a == Transpose::Yes, tb = g.trans_b == Transpose::Yes;
    double sum = 0.0, magnitude = 0.0;
    for (std::int64_t p = 0; p < g.k; ++p) {
        const double a = g.a[ta ? element_offset(g.order, p, i, g.lda) : element_offset(g.order, i, p, g.lda)];
        const double b = g.b[tb ? element_offset(g.order, j, p, g.ldb) : element_offset(g.order, p, j, g.ldb)];
        sum += a * b;
        magnitude += std::fabs(a * b);
    }
    ReferenceValue r;
    r.value = g.alpha * sum;
    r.magnitude = std::fabs(g.alpha) * magnitude;
    if (g.beta != 0.0) {
        const double c = g.c_before[element_offset(g.order, i, j, g.ldc)];
        r.value += g.beta * c;
        r.magnitude += std::fabs(g.beta * c);
    }
    return r;
}

double fp32_error_bound(std::int64_t k, double magnitude) {
    const double u = std::numeric_limits<float>::epsilon() / 2;
    const double n = static_cast<double>(k + 2);
    // Plus the rounding of the final fp32 store, and a floor for denormal-sized results.
    return (n * u / (1.0 - n * u)) * magnitude + u * magnitude + 1e-37;
}

namespace {

// TF32's largest relative error when an fp32 input is shortened to it: 10 explicit mantissa bits leave the next
// value 2^-10 away, which truncation (the wgmma family: the Tensor Cores ignore the 13 low bits of fp32 values in
// shared memory) may lose whole and rounding to nearest (the mma.sync family's cvt.rna) half of.
constexpr double kTf32Shortening = 1.0 / 1024.0;
double output_roundoff(DType c_type) {
    switch (c_type) {
        case DType::F16: return 1.0 / 2048.0;  // 2^-11
        case DType::BF16: return 1.0 / 256.0;  // 2^-8
        case DType::F32: break;
    }
    return 0.0;  // fp32's store rounding is already in fp32_error_bound
}

}  // namespace

double element_error_bound(const HostGemm& g, const ReferenceValue& ref) {
    double bound = fp32_error_bound(g.k, ref.magnitude);
    if (g.compute == ComputeType::TF32 && g.a_type == DType::F32)
        bound += (2.0 * kTf32Shortening + kTf32Shortening * kTf32Shortening) * ref.magnitude;
    // The fp32 result, itself off by up to `bound`, is rounded once more into C's type.
    bound += output_roundoff(g.c_type) * (std::fabs(ref.value) + bound);
    // f16's subnormals are spaced 2^-24 apart, far above fp32's: the relative bound says nothing down there.
    if (g.c_type == DType::F16) bound += 1.0 / 16777216.0;
    return bound;
}

double CheckSummary::relative_error() const {
    if (non_finite) return std::numeric_limits<double>::infinity();
    if (squared_reference == 0.0) return squared_error == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
    return std::sqrt(squared_error / squared_reference);
}

CheckSummary check_against_reference(const HostGemm& g, const float* c_after,
                                     const std::vector<std::pair<std::int64_t, std::int64_t>>& elements) {
    CheckSummary s;
    auto check_one = [&](std::int64_t i, std::int64_t j) {
        const ReferenceValue ref = reference_element(g, i, j);
        const double got = c_after[element_offset(g.order, i, j, g.ldc)];
        const double bound = element_error_bound(g, ref);
        const double error = std::fabs(got - ref.value);
        const bool ok = std::isfinite(got) && error <= bound;
        ++s.checked;
        if (std::isfinite(got)) {
            s.max_error_over_bound = std::max(s.max_error_over_bound, error / bound);
            s.squared_error += error * error;
        } else {
            s.non_finite = true;
        }
        s.squared_reference += ref.value * ref.value;
        if (!ok) {
            if (s.failures == 0) {
                s.first_bad_i = i;
                s.first_bad_j = j;
                s.first_bad_value = got;
                s.first_bad_reference = ref.value;
            }
            ++s.failures;
        }
    };
    if (elements.empty()) {
        for (std::int64_t j = 0; j < g.n; ++j)
            for (std::int64_t i = 0; i < g.m; ++i) check_one(i, j);
    } else {
        for (const auto& [i, j] : elements) check_one(i, j);
    }
    return s;
}

}  // namespace jitgemm
