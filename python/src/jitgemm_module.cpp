// jitgemm._jitgemm: the public C++ API for Python, at the level of pointers and leading dimensions. The package's
// Python layer (python/jitgemm) turns framework arrays into these arguments; this file only converts types, lets go
// of the GIL while a call may compile or tune, and turns jitgemm::Error into jitgemm.Error.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <jitgemm/jitgemm.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace nb = nanobind;

namespace {

template <typename T>
T parse_or_throw(const std::optional<T>& parsed, const char* what, const std::string& text) {
    if (!parsed)
        throw jitgemm::Error(jitgemm::ErrorCode::InvalidArgument,
                             std::string("jitgemm: \"") + text + "\" is not a " + what);
    return *parsed;
}

jitgemm::GemmOptions make_options(bool tf32, const std::string& config, const std::string& tuning,
                                  double budget_seconds, bool deterministic) {
    jitgemm::GemmOptions options;
    options.config = config;
    options.compute = tf32 ? jitgemm::ComputeType::TF32 : jitgemm::ComputeType::F32;
    options.tuning = parse_or_throw(jitgemm::parse_tune_policy(tuning), "tuning policy (now, background, off, never, "
                                                                        "from-environment)", tuning);
    options.tune_budget_seconds = budget_seconds;
    options.deterministic = deterministic;
    return options;
}

jitgemm::Order order_of(const std::string& order) {
    return parse_or_throw(jitgemm::parse_order(order), "storage order (row, col)", order);
}

jitgemm::DType dtype_of(const std::string& type) { return parse_or_throw(jitgemm::parse_dtype(type), "dtype", type); }

jitgemm::Transpose transpose_of(bool trans) { return trans ? jitgemm::Transpose::Yes : jitgemm::Transpose::No; }

std::string gemm_pointers(const std::string& order, bool trans_a, bool trans_b, std::int64_t m, std::int64_t n,
                          std::int64_t k, float alpha, std::uintptr_t a, const std::string& a_type, std::int64_t lda,
                          std::uintptr_t b, const std::string& b_type, std::int64_t ldb, float beta, std::uintptr_t c,
                          const std::string& c_type, std::int64_t ldc, std::uintptr_t stream, bool tf32,
                          const std::string& config, const std::string& tuning, double budget_seconds,
                          bool deterministic) {
    const jitgemm::GemmOptions options = make_options(tf32, config, tuning, budget_seconds, deterministic);
    const jitgemm::ServedBy served = jitgemm::gemm(
        order_of(order), transpose_of(trans_a), transpose_of(trans_b), m, n, k, alpha,
        reinterpret_cast<const void*>(a), dtype_of(a_type), lda, reinterpret_cast<const void*>(b), dtype_of(b_type),
        ldb, beta, reinterpret_cast<void*>(c), dtype_of(c_type), ldc, reinterpret_cast<jitgemm::Stream>(stream),
        options);
    return std::string(jitgemm::to_string(served));
}

// gemm_pointers with a batch: GEMM i on a + i * stride_a, b + i * stride_b and c + i * stride_c (in elements).
std::string gemm_strided_batched_pointers(const std::string& order, bool trans_a, bool trans_b, std::int64_t m,
                                          std::int64_t n, std::int64_t k, float alpha, std::uintptr_t a,
                                          const std::string& a_type, std::int64_t lda, std::int64_t stride_a,
                                          std::uintptr_t b, const std::string& b_type, std::int64_t ldb,
                                          std::int64_t stride_b, float beta, std::uintptr_t c,
                                          const std::string& c_type, std::int64_t ldc, std::int64_t stride_c,
                                          std::int64_t batch_count, std::uintptr_t stream, bool tf32,
                                          const std::string& config, const std::string& tuning,
                                          double budget_seconds, bool deterministic) {
    const jitgemm::GemmOptions options = make_options(tf32, config, tuning, budget_seconds, deterministic);
    const jitgemm::ServedBy served = jitgemm::gemm_strided_batched(
        order_of(order), transpose_of(trans_a), transpose_of(trans_b), m, n, k, alpha,
        reinterpret_cast<const void*>(a), dtype_of(a_type), lda, stride_a, reinterpret_cast<const void*>(b),
        dtype_of(b_type), ldb, stride_b, beta, reinterpret_cast<void*>(c), dtype_of(c_type), ldc, stride_c,
        batch_count, reinterpret_cast<jitgemm::Stream>(stream), options);
    return std::string(jitgemm::to_string(served));
}

// What a DLPack producer (PyTorch, JAX, CuPy, ...) says about its array: data pointer (offset applied), shape,
// strides in elements, dtype name, DLPack device type and id. The Python layer decides what it can take.
std::tuple<std::uintptr_t, std::vector<std::int64_t>, std::vector<std::int64_t>, std::string, int, int> dlpack_view(
    nb::ndarray<> array) {
    std::vector<std::int64_t> shape, strides;
    for (std::size_t i = 0; i < array.ndim(); ++i) {
        shape.push_back(static_cast<std::int64_t>(array.shape(i)));
        strides.push_back(static_cast<std::int64_t>(array.stride(i)));
    }
    const nb::dlpack::dtype dtype = array.dtype();
    std::string name = "unsupported";
    if (dtype.lanes == 1 && dtype.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Float)) {
        if (dtype.bits == 32) name = "f32";
        if (dtype.bits == 16) name = "f16";
        if (dtype.bits == 64) name = "f64";
    } else if (dtype.lanes == 1 && dtype.code == static_cast<std::uint8_t>(nb::dlpack::dtype_code::Bfloat) &&
               dtype.bits == 16) {
        name = "bf16";
    }
    return {reinterpret_cast<std::uintptr_t>(array.data()), shape, strides, name, array.device_type(),
            array.device_id()};
}

}  // namespace

NB_MODULE(_jitgemm, m) {
    m.doc() = "jitgemm's C++ API at the level of pointers; use the functions of the jitgemm package instead.";

    // jitgemm::Error becomes jitgemm.Error(message, code), defined in Python (jitgemm/_errors.py) so that it pickles
    // and documents like any Python exception.
    nb::register_exception_translator([](const std::exception_ptr& error, void*) {
        try {
            std::rethrow_exception(error);
        } catch (const jitgemm::Error& e) {
            const nb::object type = nb::module_::import_("jitgemm._errors").attr("Error");
            const nb::tuple arguments = nb::make_tuple(std::string(e.what()), std::string(jitgemm::to_string(e.code())));
            PyErr_SetObject(type.ptr(), arguments.ptr());
        }
    });

    m.def("version", [] { return std::string(jitgemm::version()); });
    m.def("gemm_pointers", &gemm_pointers, nb::call_guard<nb::gil_scoped_release>(), nb::arg("order"),
          nb::arg("trans_a"), nb::arg("trans_b"), nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("alpha"),
          nb::arg("a"), nb::arg("a_type"), nb::arg("lda"), nb::arg("b"), nb::arg("b_type"), nb::arg("ldb"),
          nb::arg("beta"), nb::arg("c"), nb::arg("c_type"), nb::arg("ldc"), nb::arg("stream"), nb::arg("tf32"),
          nb::arg("config"), nb::arg("tuning"), nb::arg("budget_seconds"), nb::arg("deterministic") = false,
          "jitgemm::gemm on device pointers (integers); returns the served-by level's name.");
    m.def("gemm_strided_batched_pointers", &gemm_strided_batched_pointers, nb::call_guard<nb::gil_scoped_release>(),
          nb::arg("order"), nb::arg("trans_a"), nb::arg("trans_b"), nb::arg("m"), nb::arg("n"), nb::arg("k"),
          nb::arg("alpha"), nb::arg("a"), nb::arg("a_type"), nb::arg("lda"), nb::arg("stride_a"), nb::arg("b"),
          nb::arg("b_type"), nb::arg("ldb"), nb::arg("stride_b"), nb::arg("beta"), nb::arg("c"), nb::arg("c_type"),
          nb::arg("ldc"), nb::arg("stride_c"), nb::arg("batch_count"), nb::arg("stream"), nb::arg("tf32"),
          nb::arg("config"), nb::arg("tuning"), nb::arg("budget_seconds"), nb::arg("deterministic") = false,
          "jitgemm::gemm_strided_batched on device pointers (integers; strides in elements); returns the served-by "
          "level's name.");
    m.def("dlpack_view", &dlpack_view, nb::arg("array"));
    m.def("statistics", [] {
        const jitgemm::Statistics s = jitgemm::statistics();
        nb::dict d;
        d["nvrtc_compiles"] = s.nvrtc_compiles;
        d["tunings"] = s.tunings;
        return d;
    });
    m.def("wait_for_background_tuning", &jitgemm::wait_for_background_tuning,
          nb::call_guard<nb::gil_scoped_release>());
    m.def("release_workspaces", &jitgemm::release_workspaces, nb::call_guard<nb::gil_scoped_release>());
}
