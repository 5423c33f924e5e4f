// cuBLAS as the yardstick of `jitgemm bench`: loaded at run time (dlopen of libcublas.so.13), like the driver, so the
// jitgemm program starts on machines without it and only the bench command needs it. jitgemm itself never calls it.
#pragma once

#include <cuda.h>

#include <memory>
#include <string>

#include "jitgemm/types.h"

namespace jitgemm {

// One cuBLAS handle on one stream, fp32 math without TF32 (CUBLAS_DEFAULT_MATH) unless `tf32` is asked for.
class CublasBaseline {
public:
    // Throws Error(Unsupported) naming the library when cuBLAS cannot be loaded.
    CublasBaseline(CUstream stream, bool tf32 = false);
    ~CublasBaseline();
    CublasBaseline(const CublasBaseline&) = delete;
    CublasBaseline& operator=(const CublasBaseline&) = delete;

    // The same call as jitgemm::sgemm, in either order (row-major is run as the transposed column-major problem).
    void sgemm(Order order, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
               float alpha, const float* a, std::int64_t lda, const float* b, std::int64_t ldb, float beta, float* c,
               std::int64_t ldc);

    // "cuBLAS 13.0.0"
    std::string version() const;

private:
    struct Api;
    std::unique_ptr<Api> api_;
    void* handle_ = nullptr;
};

}  // namespace jitgemm
