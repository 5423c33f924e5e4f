// jitgemm::gemm: validate, look up the in-memory kernel (the hot path), build it on a miss, launch.
#include "jitgemm/gemm.h"

#include <optional>

#include "dispatch/background_tuner.h"
#include "dispatch/kernel_builder.h"
#include "dispatch/kernel_store.h"
#include "dispatch/statistics.h"
#include "log/log.h"
#include "runtime/driver/context.h"
#include "runtime/driver/stream_capture.h"
#include "runtime/launch/kernel_args.h"
#include "runtime/workspace/stream_workspace.h"
#include "runtime/problem/gemm_call.h"

#ifndef JITGEMM_VERSION
#error "the build defines JITGEMM_VERSION"
#endif

namespace jitgemm {

namespace {

// Both entry points: the call checked and folded, its kernel found or built, launched.
ServedBy run_call(GemmCall call, Stream stream, const GemmOptions& options) {
    call.compute = options.compute;
    const CanonicalCall canonical = make_canonical_call(call);
    if (canonical.no_work) return ServedBy::NothingToDo;

    KernelKey key{driver::current_context(), canonical.problem, options.config};
    key.deterministic = options.deterministic;
    KernelStore& store = KernelStore::global();
    ServedBy served_by = ServedBy::InMemory;
    auto kernel = store.find(key);
    if (!kernel) {
        // On a capturing stream the miss must neither tune nor wait: it gets a kernel of its own (kernel_store.h).
        key.during_capture = driver::is_capturing(stream);
        kernel = store.get_or_build(key, [&] {
            std::optional<driver::RelaxedCaptureMode> relaxed;
            if (key.during_capture) relaxed.emplace();  // loading the module must not invalidate the capture
            BuiltKernel built = build_kernel(key, options);
            served_by = built.served_by;
            if (log::enabled(LogLevel::Info))
                log::info(key.problem.key() + ": " + std::string(to_string(built.served_by)) + " " +
                          built.kernel->config_name + " (" + built.why + ")");
            return built.kernel;
        });
    }
    launch_kernel(*kernel, stream,
                  make_kernel_args(canonical.problem, canonical.a, canonical.b, canonical.c, canonical.alpha,
                                   canonical.beta, {canonical.stride_a, canonical.stride_b, canonical.stride_c}));
    return served_by;
}

GemmCall describe_call(Order order, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                       const void* a, DType a_type, int64_t lda, const void* b, DType b_type, int64_t ldb, float beta,
                       void* c, DType c_type, int64_t ldc) {
    GemmCall call;
    call.order = order;
    call.trans_a = trans_a;
    call.trans_b = trans_b;
    call.m = m;
    call.n = n;
    call.k = k;
    call.alpha = alpha;
    call.a = a;
    call.a_type = a_type;
    call.lda = lda;
    call.b = b;
    call.b_type = b_type;
    call.ldb = ldb;
    call.beta = beta;
    call.c = c;
    call.c_type = c_type;
    call.ldc = ldc;
    return call;
}

}  // namespace

ServedBy gemm(Order order, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k, float alpha,
              const void* a, DType a_type, int64_t lda, const void* b, DType b_type, int64_t ldb, float beta,
              void* c, DType c_type, int64_t ldc, Stream stream, const GemmOptions& options) {
    return run_call(describe_call(order, trans_a, trans_b, m, n, k, alpha, a, a_type, lda, b, b_type, ldb, beta, c,
                                  c_type, ldc),
                    stream, options);
}

ServedBy gemm_strided_batched(Order order, Transpose trans_a, Transpose trans_b, int64_t m, int64_t n, int64_t k,
                              float alpha, const void* a, DType a_type, int64_t lda, int64_t stride_a, const void* b,
                              DType b_type, int64_t ldb, int64_t stride_b, float beta, void* c, DType c_type,
                              int64_t ldc, int64_t stride_c, int64_t batch_count, Stream stream,
                              const GemmOptions& options) {
    GemmCall call = describe_call(order, trans_a, trans_b, m, n, k, alpha, a, a_type, lda, b, b_type, ldb, beta, c,
                                  c_type, ldc);
    call.batch = batch_count;
    call.stride_a = stride_a;
    call.stride_b = stride_b;
    call.stride_c = stride_c;
    return run_call(call, stream, options);
}

std::string_view version() { return JITGEMM_VERSION; }

Statistics statistics() { return current_statistics(); }

void wait_for_background_tuning() { BackgroundTuner::global().wait_idle(); }

void release_workspaces() { driver::release_stream_workspaces(); }

}  // namespace jitgemm
