// Random operands in their dtypes, poisoned outputs and the result check.
#include "tools/verify/gemm_workload.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <thread>

#include "runtime/driver/device_copy.h"
#include "runtime/problem/gemm_call.h"
#include "tools/verify/host_dtypes.h"

namespace jitgemm {
namespace {

// Exact in fp32, fp16 and bf16 (1.5 * 2^13), so a padding element that was left alone reads back as exactly this
// whatever C's type; far outside what N(0, 1) data produces.
constexpr float kPaddingSentinel = -12288.0f;

// A and B lie between bytes of 0xFF, a NaN in fp32, fp16 and bf16 alike at any alignment: their alignment offset
// before them, kGuardBytes after. A kernel that reads outside its operands and lets what it read into a sum (even
// times a zero) puts a NaN in C, which check() finds; with the memory after an exact-size operand left as it was, such
// a read showed only where stale device memory held a NaN or an infinity.
constexpr std::size_t kGuardBytes = 256;

driver::DeviceBuffer upload_between_guards(const std::vector<std::byte>& operand, std::size_t offset) {
    std::vector<std::byte> guarded(offset + operand.size() + kGuardBytes, std::byte{0xFF});
    std::copy(operand.begin(), operand.end(), guarded.begin() + static_cast<std::ptrdiff_t>(offset));
    return driver::upload_bytes(guarded, 0);
}

// N(0, 1) values from a counter-based generator (splitmix64 + Box-Muller), rounded to `type` so the host copy holds
// exactly what the device will read, filled by several threads: benchmark operands reach hundreds of millions of
// elements, which std::normal_distribution takes seconds to make.
std::vector<float> random_normal(std::size_t count, std::mt19937_64& rng, DType type) {
    std::vector<float> v(count);
    const std::uint64_t seed = rng();
    auto mix = [](std::uint64_t x) {
        x += 0x9e3779b97f4a7c15ull;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    };
    auto fill = [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint64_t h = mix(seed ^ mix(i));
            const double u1 = (static_cast<double>(h >> 40) + 1.0) / 16777217.0;  // (0, 1]
            const double u2 = static_cast<double>((h >> 16) & 0xffffff) / 16777216.0;
            const double normal = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
            v[i] = round_to(type, static_cast<float>(normal));
        }
    };
    const std::size_t threads = count < (1u << 20) ? 1 : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> workers;
    for (std::size_t t = 0; t < threads; ++t)
        workers.emplace_back(fill, count * t / threads, count * (t + 1) / threads);
    for (auto& w : workers) w.join();
    return v;
}

std::size_t element_count(const StoredShape& s, std::int64_t ld) {
    return s.strides == 0 ? 1 : static_cast<std::size_t>((s.strides - 1) * ld + s.ld_extent);
}

// Elements of an operand over the batch: the last GEMM's starts (batch - 1) strides in.
std::size_t batch_element_count(const StoredShape& s, std::int64_t ld, std::int64_t batch, std::int64_t stride) {
    return element_count(s, ld) + static_cast<std::size_t>(std::max<std::int64_t>(batch - 1, 0) * stride);
}

// A packed batch stride: one operand's elements, rounded up to 8 (16 bytes of 16-bit elements, 32 of fp32).
std::int64_t packed_stride(const StoredShape& s, std::int64_t ld) {
    return (static_cast<std::int64_t>(element_count(s, ld)) + 7) / 8 * 8;
}

// Adds one GEMM's check to the batch's.
void merge_into(CheckSummary& all, const CheckSummary& one) {
    all.checked += one.checked;
    if (one.failures > 0 && all.failures == 0) {
        all.first_bad_i = one.first_bad_i;
        all.first_bad_j = one.first_bad_j;  // within its GEMM: Result::first_bad_gemm names which
        all.first_bad_value = one.first_bad_value;
        all.first_bad_reference = one.first_bad_reference;
    }
    all.failures += one.failures;
    all.max_error_over_bound = std::max(all.max_error_over_bound, one.max_error_over_bound);
    all.squared_error += one.squared_error;
    all.squared_reference += one.squared_reference;
    all.non_finite = all.non_finite || one.non_finite;
}

}  // namespace

GemmShape GemmShape::with_minimum_leading_dimensions() const {
    GemmShape s = *this;
    if (s.lda == 0) s.lda = std::max<std::int64_t>(1, stored_shape(order, trans_a, m, k).ld_extent);
    if (s.ldb == 0) s.ldb = std::max<std::int64_t>(1, stored_shape(order, trans_b, k, n).ld_extent);
    if (s.ldc == 0) s.ldc = std::max<std::int64_t>(1, stored_shape(order, Transpose::No, m, n).ld_extent);
    const bool batched = batch > 1;
    if (s.stride_a < 0) s.stride_a = batched ? packed_stride(stored_shape(order, trans_a, m, k), s.lda) : 0;
    if (s.stride_b < 0) s.stride_b = batched ? packed_stride(stored_shape(order, trans_b, k, n), s.ldb) : 0;
    if (s.stride_c < 0) s.stride_c = batched ? packed_stride(stored_shape(order, Transpose::No, m, n), s.ldc) : 0;
    return s;
}

GemmCall GemmShape::call(const void* a, const void* b, void* c) const {
    GemmCall call;
    static_cast<GemmDescription&>(call) = *this;
    call.a = a;
    call.b = b;
    call.c = c;
    return call;
}

std::string GemmShape::describe() const {
    std::ostringstream s;
    s << to_string(order) << " " << to_string(trans_a) << to_string(trans_b) << " " << m << "x" << n << "x" << k
      << " lda=" << lda << " ldb=" << ldb << " ldc=" << ldc << " alpha=" << alpha << " beta=" << beta;
    if (batch != 1) s << " batch=" << batch << " strides=" << stride_a << "," << stride_b << "," << stride_c;
    if (alignment > 0 && alignment < 16) s << " align=" << alignment;
    if (a_type != DType::F32 || c_type != DType::F32) s << " " << dtype_text();
    if (compute != ComputeType::F32) s << " " << to_string(compute);
    return s.str();
}

std::string GemmShape::dtype_text() const {
    return std::string(to_string(a_type)) + "->" + std::string(to_string(c_type));
}

GemmWorkload::GemmWorkload(const GemmShape& shape, std::mt19937_64& rng)
    : shape_(shape.with_minimum_leading_dimensions()) {
    check_description(shape_);  // sizes are checked before anything is allocated for them
    const GemmShape& s = shape_;
    const std::int64_t batch = std::max<std::int64_t>(s.batch, 1);
    a_ = random_normal(batch_element_count(stored_shape(s.order, s.trans_a, s.m, s.k), s.lda, batch, s.stride_a), rng,
                       s.a_type);
    b_ = random_normal(batch_element_count(stored_shape(s.order, s.trans_b, s.k, s.n), s.ldb, batch, s.stride_b), rng,
                       s.b_type);
    const StoredShape c_shape = stored_shape(s.order, Transpose::No, s.m, s.n);
    c_before_ = random_normal(batch_element_count(c_shape, s.ldc, batch, s.stride_c), rng, s.c_type);
    c_is_padding_.assign(c_before_.size(), true);
    for (std::int64_t z = 0; z < s.batch; ++z)
        for (std::int64_t j = 0; j < s.n; ++j)
            for (std::int64_t i = 0; i < s.m; ++i) {
                const auto offset = static_cast<std::size_t>(z * s.stride_c + element_offset(s.order, i, j, s.ldc));
                c_is_padding_[offset] = false;
                if (s.beta == 0.0f) c_before_[offset] = std::numeric_limits<float>::quiet_NaN();
            }
    for (std::size_t e = 0; e < c_before_.size(); ++e)
        if (c_is_padding_[e]) c_before_[e] = kPaddingSentinel;
    offset_ = s.alignment > 0 && s.alignment < 16 ? static_cast<std::size_t>(s.alignment) : 0;
    // Stored in the dtypes' own formats; NaN encodes as a quiet NaN of C's type, so the poison survives.
    da_ = upload_between_guards(encode(s.a_type, a_), offset_);
    db_ = upload_between_guards(encode(s.b_type, b_), offset_);
    dc_ = driver::upload_bytes(encode(s.c_type, c_before_), offset_);
}

void GemmWorkload::reset_c() const { driver::copy_bytes_to_device(dc_, encode(shape_.c_type, c_before_), offset_); }

ServedBy GemmWorkload::run(Stream stream, const GemmOptions& options) const {
    const GemmShape& s = shape_;
    GemmOptions typed = options;
    typed.compute = s.compute;
    if (s.batch != 1)
        return gemm_strided_batched(s.order, s.trans_a, s.trans_b, s.m, s.n, s.k, s.alpha, at<void>(da_), s.a_type,
                                    s.lda, s.stride_a, at<void>(db_), s.b_type, s.ldb, s.stride_b, s.beta, at<void>(dc_),
                                    s.c_type, s.ldc, s.stride_c, s.batch, stream, typed);
    return gemm(s.order, s.trans_a, s.trans_b, s.m, s.n, s.k, s.alpha, at<void>(da_), s.a_type, s.lda,
                at<void>(db_), s.b_type, s.ldb, s.beta, at<void>(dc_), s.c_type, s.ldc, stream, typed);
}

GemmCall GemmWorkload::call() const { return shape_.call(at<void>(da_), at<void>(db_), at<void>(dc_)); }

HostGemm GemmWorkload::host_gemm() const {
    HostGemm g;
    static_cast<GemmDescription&>(g) = shape_;
    g.a = a_.data();
    g.b = b_.data();
    g.c_before = c_before_.data();
    return g;
}

double GemmWorkload::min_bytes() const {
    const GemmShape& s = shape_;
    const double c_passes = s.beta == 0.0f ? 1.0 : 2.0;
    const double ab_bytes = size_of(s.a_type), c_bytes = size_of(s.c_type);
    return (ab_bytes * (static_cast<double>(s.m) * s.k + static_cast<double>(s.k) * s.n) +
            c_bytes * c_passes * s.m * s.n) *
           static_cast<double>(s.batch);
}

std::vector<std::byte> GemmWorkload::c_bytes() const { return driver::download_bytes(dc_, offset_); }

GemmWorkload::Result GemmWorkload::check(std::mt19937_64& rng, std::int64_t samples) const {
    const GemmShape& s = shape_;
    const std::vector<float> c_after = decode(s.c_type, driver::download_bytes(dc_, offset_));
    Result result;
    for (std::size_t e = 0; e < std::min(c_after.size(), c_is_padding_.size()); ++e)
        if (c_is_padding_[e] && !(c_after[e] == kPaddingSentinel)) ++result.padding_changed;

    // Each GEMM of a batch against its own reference: every element where the whole batch is small, else a share of
    // the samples (at least 64, the corners always) and every element scanned for NaN or Inf (poison never written).
    const double work = static_cast<double>(s.m) * s.n * std::max<std::int64_t>(s.k, 1) * s.batch;
    const bool full = work <= 64.0 * 1024 * 1024;
    const std::int64_t per_gemm = std::max<std::int64_t>(64, samples / std::max<std::int64_t>(s.batch, 1));
    for (std::int64_t z = 0; z < s.batch; ++z) {
        HostGemm g = host_gemm();
        g.a += z * s.stride_a;
        g.b += z * s.stride_b;
        g.c_before += z * s.stride_c;
        const float* c_of_gemm = c_after.data() + z * s.stride_c;
        std::vector<std::pair<std::int64_t, std::int64_t>> elements;
        if (!full) {
            std::uniform_int_distribution<std::int64_t> row(0, s.m - 1), col(0, s.n - 1);
            for (std::int64_t e = 0; e < per_gemm; ++e) elements.emplace_back(row(rng), col(rng));
            elements.emplace_back(0, 0);
            elements.emplace_back(s.m - 1, s.n - 1);
        }
        const CheckSummary one = check_against_reference(g, c_of_gemm, elements);
        if (one.failures > 0 && result.reference.failures == 0) result.first_bad_gemm = z;
        merge_into(result.reference, one);
        if (full) continue;
        for (std::int64_t j = 0; j < s.n; ++j)
            for (std::int64_t i = 0; i < s.m; ++i)
                if (!std::isfinite(c_of_gemm[static_cast<std::size_t>(element_offset(s.order, i, j, s.ldc))])) {
                    if (result.reference.failures == 0) {
                        result.reference.first_bad_i = i;
                        result.reference.first_bad_j = j;
                        result.first_bad_gemm = z;
                    }
                    ++result.reference.failures;
                }
    }
    result.relative_error = result.reference.relative_error();
    return result;
}

std::string GemmWorkload::Result::describe() const {
    std::ostringstream s;
    s << reference.checked << " elements checked, " << reference.failures << " wrong, worst error "
      << reference.max_error_over_bound << " of the bound, relative error " << relative_error << ", "
      << padding_changed << " padding elements changed";
    if (reference.failures > 0)
        s << "; first wrong C(" << reference.first_bad_i << ", " << reference.first_bad_j << ")"
          << (first_bad_gemm > 0 ? " of GEMM " + std::to_string(first_bad_gemm) + " of the batch" : "") << " = "
          << reference.first_bad_value << ", reference " << reference.first_bad_reference;
    return s.str();
}

}  // namespace jitgemm
