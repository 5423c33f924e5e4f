// dlopen-ed cuBLAS: the handful of entry points the benchmark needs.
#include "baseline/cublas_baseline.h"

#include <cublas_api.h>
#include <dlfcn.h>

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
    decltype(&cublasSgemm_v2_64) sgemm = nullptr;
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
    load(api_->sgemm, "cublasSgemm_v2_64");
    cublasHandle_t h = nullptr;
    check(api_->create(&h), "create");
    handle_ = h;
    check(api_->set_stream(h, reinterpret_cast<cudaStream_t>(stream)), "set stream");
    check(api_->set_math_mode(h, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH), "set math mode");
}

CublasBaseline::~CublasBaseline() {
    if (handle_ != nullptr) api_->destroy(static_cast<cublasHandle_t>(handle_));
}

void CublasBaseline::sgemm(Order order, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
                           std::int64_t k, float alpha, const float* a, std::int64_t lda, const float* b,
                           std::int64_t ldb, float beta, float* c, std::int64_t ldc) {
    auto h = static_cast<cublasHandle_t>(handle_);
    if (order == Order::ColumnMajor)
        check(api_->sgemm(h, op(trans_a), op(trans_b), m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc), "sgemm");
    else  // C^T = op(B)^T op(A)^T
        check(api_->sgemm(h, op(trans_b), op(trans_a), n, m, k, &alpha, b, ldb, a, lda, &beta, c, ldc), "sgemm");
}

std::string CublasBaseline::version() const {
    int v = 0;
    api_->get_version(static_cast<cublasHandle_t>(handle_), &v);
    return "cuBLAS " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

}  // namespace jitgemm
