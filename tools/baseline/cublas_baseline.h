// cuBLAS as the yardstick of `jitgemm bench`: loaded at run time (dlopen of libcublas.so.13), like the driver, so the
// jitgemm program starts on machines without it and only the bench command needs it. jitgemm itself never calls it.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>

#include "jitgemm/types.h"

namespace jitgemm {

// One cuBLAS handle on one stream. sgemm uses fp32 math without TF32 (CUBLAS_DEFAULT_MATH) unless `tf32` is asked
// for; gemm says its compute type on every call.
class CublasBaseline {
public:
    // Throws Error(Unsupported) naming the library when cuBLAS cannot be loaded.
    CublasBaseline(CUstream stream, bool tf32 = false);
    ~CublasBaseline();
    CublasBaseline(const CublasBaseline&) = delete;
    CublasBaseline& operator=(const CublasBaseline&) = delete;

    // The same call as jitgemm::gemm, in either order (row-major is run as the transposed column-major problem),
    // through cublasGemmEx: A and B of ab_type, C of c_type, fp32 alpha, beta and accumulation. compute F32 is exact
    // fp32 (CUBLAS_COMPUTE_32F; 16-bit inputs go to the Tensor Cores, whose products are exact) unless the handle
    // was made with `tf32`; TF32 lets cuBLAS round fp32 inputs to TF32 (CUBLAS_COMPUTE_32F_FAST_TF32). Throws
    // Error(CudaError) when cuBLAS refuses.
    void gemm(Order order, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n, std::int64_t k,
              float alpha, const void* a, std::int64_t lda, const void* b, std::int64_t ldb, float beta, void* c,
              std::int64_t ldc, DType ab_type, DType c_type, ComputeType compute);

    // The same call as jitgemm::gemm_strided_batched, through cublasGemmStridedBatchedEx (its 64-bit form where the
    // library has one), with gemm()'s types and compute.
    void gemm_strided_batched(Order order, Transpose trans_a, Transpose trans_b, std::int64_t m, std::int64_t n,
                              std::int64_t k, float alpha, const void* a, std::int64_t lda, std::int64_t stride_a,
                              const void* b, std::int64_t ldb, std::int64_t stride_b, float beta, void* c,
                              std::int64_t ldc, std::int64_t stride_c, std::int64_t batch, DType ab_type, DType c_type,
                              ComputeType compute);

    // The same call as jitgemm::sgemm: gemm() with fp32 operands and compute.
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
