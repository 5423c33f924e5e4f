// dlopen-ed cuBLAS: the handful of entry points the benchmark needs. GEMMs of every dtype go through
// cublasGemmEx_64, or cublasGemmEx (32-bit sizes) in a library that lacks the 64-bit form.
#include "tools/baseline/cublas_baseline.h"

#include <cublas_api.h>
#include <dlfcn.h>

#include <limits>
#include <string>
#include <utility>

#include "jitgemm/error.h"

namespace jitgemm {

struct CublasBaseline::Api {
    decltype(&cublasCreate_v2) create = nullptr;
    decltype(&cublasDestroy_v2) destroy = nullptr;
    decltype(&cublasSetStream_v2) set_stream = nullptr;
    decltype(&cublasSetMathMode) set_math_mode = nullptr;
    decltype(&cublasGetVersion_v2) get_version = nullptr;
    // Spelled out: cublas_api.h overloads cublasGemmEx in C++ (an old cudaDataType compute type), so decltype of
    // its address is ambiguous.
    using GemmEx32 = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                        const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                                        const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
    decltype(&cublasGemmEx_64) gemm_64 = nullptr;  // preferred: any size
    GemmEx32 gemm_32 = nullptr;                    // only when gemm_64 is missing
    using StridedBatched32 = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                                const void*, const void*, cudaDataType, int, long long, const void*,
                                                cudaDataType, int, long long, const void*, void*, cudaDataType, int,
                                                long long, int, cublasComputeType_t, cublasGemmAlgo_t);
    decltype(&cublasGemmStridedBatchedEx_64) batched_64 = nullptr;  // as gemm_64
    StridedBatched32 batched_32 = nullptr;
};

namespace {

void* open_cublas() {
    for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"})
        if (void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return h;
    return nullptr;
}

void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS)
        throw Error(ErrorCode::CudaError, std::string("jitgemm: cuBLAS ") + what + " failed with status " +
                                              std::to_string(static_cast<int>(status)));
}

cublasOperation_t op(Transpose t) { return t == Transpose::Yes ? CUBLAS_OP_T : CUBLAS_OP_N; }

cudaDataType data_type(DType t) {
    switch (t) {
        case DType::F16: return CUDA_R_16F;
        case DType::BF16: return CUDA_R_16BF;
        case DType::F32: break;
    }
    return CUDA_R_32F;
}

// FAST_TF32 only when asked: CUBLAS_COMPUTE_32F keeps fp32 inputs exact, and is also the right type for 16-bit
// inputs with fp32 accumulation.
cublasComputeType_t compute_type(ComputeType c) {
    return c == ComputeType::TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

// cublasGemmEx takes int sizes; refuse rather than truncate.
int narrow(std::int64_t value, const char* name) {
    if (value > std::numeric_limits<int>::max())
        throw Error(ErrorCode::Unsupported, std::string("jitgemm: this cuBLAS lacks cublasGemmEx_64, and ") + name +
                                                " = " + std::to_string(value) + " does not fit cublasGemmEx's int");
    return static_cast<int>(value);
}

}  // namespace

CublasBaseline::CublasBaseline(CUstream stream, bool tf32) : api_(std::make_unique<Api>()) {
    void* library = open_cublas();  // kept open for the life of the process
    if (library == nullptr) {
        const char* why = dlerror();
        throw Error(ErrorCode::Unsupported,
                    "jitgemm: cuBLAS (libcublas.so.13) could not be loaded, so there is nothing to compare with: " +
                        std::string(why ? why : "not found"));
    }
    auto load = [&](auto& slot, const char* symbol) {
        slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(dlsym(library, symbol));
        if (slot == nullptr)
            throw Error(ErrorCode::Unsupported, std::string("jitgemm: cuBLAS lacks ") + symbol);
    };
    load(api_->create, "cublasCreate_v2");
    load(api_->destroy, "cublasDestroy_v2");
    load(api_->set_stream, "cublasSetStream_v2");
    load(api_->set_math_mode, "cublasSetMathMode");
    load(api_->get_version, "cublasGetVersion_v2");
    api_->gemm_64 = reinterpret_cast<decltype(api_->gemm_64)>(dlsym(library, "cublasGemmEx_64"));
    if (api_->gemm_64 == nullptr) load(api_->gemm_32, "cublasGemmEx");
    api_->batched_64 =
        reinterpret_cast<decltype(api_->batched_64)>(dlsym(library, "cublasGemmStridedBatchedEx_64"));
    if (api_->batched_64 == nullptr) load(api_->batched_32, "cublasGemmStridedBatchedEx");
    cublasHandle_t h = nullptr;
    check(api_->create(&h), "create");
    handle_ = h;
    check(api_->set_stream(h, reinterpret_cast<cudaStream_t>(stream)), "set stream");
    // Split-K reductions in fp32, never in a 16-bit C's type: jitgemm accumulates in fp32 throughout, and cuBLAS is
    // verified against the same error bound.
    const int math = (tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH) |
                     CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;
    check(api_->set_math_mode(h, static_cast<cublasMath_t>(math)), "set math mode");
}

CublasBaseline::~CublasBaseline() {
    if (handle_ != nullptr) api_->destroy(static_cast<cublasHandle_t>(handle_));
}

namespace {

// A call in cuBLAS's column-major terms. A row-major C is C^T = op(B)^T op(A)^T (GEMM by GEMM in a batch): A and B
// swap, with their transposes, leading dimensions and batch strides, and so do m and n.
struct ColumnMajorCall {
    Transpose trans_a, trans_b;
    std::int64_t m, n;
    const void* a;
    const void* b;
    std::int64_t lda, ldb, stride_a, stride_b;
};

ColumnMajorCall column_major(Order order, ColumnMajorCall call) {
    if (order == Order::RowMajor) {
        std::swap(call.trans_a, call.trans_b);
        std::swap(call.m, call.n);
        std::swap(call.a, call.b);
        std::swap(call.lda, call.ldb);
        std::swap(call.stride_a, call.stride_b);
    }
    return call;
}

}  // namespace

void CublasBaseline::gemm(Order order, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
                          std::int64_t k, float alpha, const void* a, std::int64_t lda, const void* b,
                          std::int64_t ldb, float beta, void* c, std::int64_t ldc, DType ab_type, DType c_type,
                          ComputeType compute) {
    const ColumnMajorCall f = column_major(order, {trans_a, trans_b, m, n, a, b, lda, ldb, 0, 0});
    const auto h = static_cast<cublasHandle_t>(handle_);
    const cudaDataType ab = data_type(ab_type), ct = data_type(c_type);
    const cublasComputeType_t ctype = compute_type(compute);
    if (api_->gemm_64 != nullptr) {
        check(api_->gemm_64(h, op(f.trans_a), op(f.trans_b), f.m, f.n, k, &alpha, f.a, ab, f.lda, f.b, ab, f.ldb,
                            &beta, c, ct, ldc, ctype, CUBLAS_GEMM_DEFAULT),
              "GemmEx_64");
        return;
    }
    check(api_->gemm_32(h, op(f.trans_a), op(f.trans_b), narrow(f.m, "m"), narrow(f.n, "n"), narrow(k, "k"), &alpha,
                        f.a, ab, narrow(f.lda, "lda"), f.b, ab, narrow(f.ldb, "ldb"), &beta, c, ct, narrow(ldc, "ldc"),
                        ctype, CUBLAS_GEMM_DEFAULT),
          "GemmEx");
}

void CublasBaseline::gemm_strided_batched(Order order, Transpose trans_a, Transpose trans_b, std::int64_t m,
                                          std::int64_t n, std::int64_t k, float alpha, const void* a, std::int64_t lda,
                                          std::int64_t stride_a, const void* b, std::int64_t ldb,
                                          std::int64_t stride_b, float beta, void* c, std::int64_t ldc,
                                          std::int64_t stride_c, std::int64_t batch, DType ab_type, DType c_type,
                                          ComputeType compute) {
    const ColumnMajorCall f = column_major(order, {trans_a, trans_b, m, n, a, b, lda, ldb, stride_a, stride_b});
    const auto h = static_cast<cublasHandle_t>(handle_);
    const cudaDataType ab = data_type(ab_type), ct = data_type(c_type);
    const cublasComputeType_t ctype = compute_type(compute);
    if (api_->batched_64 != nullptr) {
        check(api_->batched_64(h, op(f.trans_a), op(f.trans_b), f.m, f.n, k, &alpha, f.a, ab, f.lda, f.stride_a, f.b,
                               ab, f.ldb, f.stride_b, &beta, c, ct, ldc, stride_c, batch, ctype, CUBLAS_GEMM_DEFAULT),
              "GemmStridedBatchedEx_64");
        return;
    }
    check(api_->batched_32(h, op(f.trans_a), op(f.trans_b), narrow(f.m, "m"), narrow(f.n, "n"), narrow(k, "k"), &alpha,
                           f.a, ab, narrow(f.lda, "lda"), f.stride_a, f.b, ab, narrow(f.ldb, "ldb"), f.stride_b, &beta,
                           c, ct, narrow(ldc, "ldc"), stride_c, narrow(batch, "batch"), ctype, CUBLAS_GEMM_DEFAULT),
          "GemmStridedBatchedEx");
}

void CublasBaseline::sgemm(Order order, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
                           std::int64_t k, float alpha, const float* a, std::int64_t lda, const float* b,
                           std::int64_t ldb, float beta, float* c, std::int64_t ldc) {
    // CUBLAS_COMPUTE_32F follows the handle's math mode, so the constructor's `tf32` still applies here.
    gemm(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, DType::F32, DType::F32,
         ComputeType::F32);
}

std::string CublasBaseline::version() const {
    int v = 0;
    api_->get_version(static_cast<cublasHandle_t>(handle_), &v);
    return "cuBLAS " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

}  // namespace jitgemm
