// The kernel arguments of one call.
#include "runtime/launch/kernel_args.h"

namespace jitgemm {

KernelArgs make_kernel_args(const Problem& p, const void* a, const void* b, void* c, float alpha, float beta,
                            BatchStrides strides) {
    KernelArgs args;
    args.a = a;
    args.b = b;
    args.c = c;
    args.m = p.m;
    args.n = p.n;
    args.k = p.k;
    args.lda = p.lda;
    args.ldb = p.ldb;
    args.ldc = p.ldc;
    args.batch = p.batch;
    args.batch_stride_a = strides.a;
    args.batch_stride_b = strides.b;
    args.batch_stride_c = strides.c;
    args.alpha = alpha;
    args.beta = beta;
    return args;
}

}  // namespace jitgemm
