// GemmWorkload: one GEMM with real data — random normal A, B and C on host and device, each exactly representable
// in its dtype (fp32, fp16 or bf16; the device holds them in that format), C poisoned where the call must write (NaN
// when beta = 0, so an unwritten or wrongly-read element shows), a sentinel in the padding rows of C that the call
// must leave alone — and the check of the result with an error bound for its dtypes. Shared by `jitgemm run`, the
// GPU tests and the benchmarks, so all three mean the same thing by "verified".
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "runtime/driver/driver_handles.h"
#include "jitgemm/gemm.h"
#include "runtime/problem/gemm_call.h"
#include "tools/verify/host_reference.h"

namespace jitgemm {

// A workload's GEMM: the caller's description (1 x 1 x 1 by default; leading dimensions 0 stand for the minimum of
// the shape) and where its operands lie. A and B have one element type.
struct GemmShape : GemmDescription {
    // Byte alignment of the three pointers: 0 or 16 as the allocator gives them; 2 (16-bit types), 4 or 8 to test
    // narrower classes.
    int alignment = 0;

    GemmShape() {
        m = n = k = 1;
        lda = ldb = ldc = 0;
        stride_a = stride_b = stride_c = -1;
    }

    // The shape with every 0 leading dimension replaced by its minimum, and every batch stride of -1 by its packed
    // value: each GEMM's operand right after the last one's, its extent rounded up to 16 bytes (0 when batch is 1).
    GemmShape with_minimum_leading_dimensions() const;
    // "col nt 128x96x64 lda=128 ldb=64 ldc=128 alpha=1 beta=0", then " batch=16 strides=a,b,c" for a batch, the
    // types when they are not all f32 (" bf16->f32") and " tf32" for TF32 compute.
    std::string describe() const;
    // The element types, always: "f32->f32", "bf16->f32" (A and B, then C).
    std::string dtype_text() const;
    // The call this shape makes on operands at a, b and c, as the dispatch layer sees it (leading dimensions as
    // they stand: with_minimum_leading_dimensions() first where they may be 0).
    GemmCall call(const void* a, const void* b, void* c) const;
};

class GemmWorkload {
public:
    // Allocates and fills host and device copies (device memory in the current context). On the device A and B lie
    // between NaN guards (a read outside them shows in C as a NaN), and C's padding holds sentinels.
    GemmWorkload(const GemmShape& shape, std::mt19937_64& rng);

    const GemmShape& shape() const { return shape_; }
    // Restores C on the device to its state before any call (poison and sentinels included).
    void reset_c() const;
    // jitgemm::gemm on the device copies, with the shape's dtypes and options.compute = shape().compute (the rest
    // of `options` as given).
    ServedBy run(Stream stream, const GemmOptions& options = {}) const;

    struct Result {
        CheckSummary reference;            // elements of C against the float64 reference
        std::int64_t padding_changed = 0;  // padding elements of C that differ from their sentinel
        double relative_error = 0.0;       // ||C - reference||_2 / ||reference||_2 over the checked elements
        std::int64_t first_bad_gemm = 0;   // of a batch: the GEMM of the first wrong element
        bool passed() const { return reference.failures == 0 && padding_changed == 0; }
        std::string describe() const;
    };
    // Downloads C (in its dtype) and checks it: every element when the problem is small, else `samples` random
    // elements (spread over the GEMMs of a batch, at least 64 each) plus a scan of every element for non-finite
    // values. Waits for the device.
    Result check(std::mt19937_64& rng, std::int64_t samples = 4096) const;

    // C as the device holds it, in its dtype's bytes: for comparing two runs bit for bit. Waits for the device.
    std::vector<std::byte> c_bytes() const;

    HostGemm host_gemm() const;
    // The call run() makes, as the dispatch layer sees it.
    GemmCall call() const;
    double flops() const { return 2.0 * shape_.m * shape_.n * shape_.k * shape_.batch; }
    // Bytes the call must move at least, at the dtypes' sizes: A and B read once, C written once (and read once when
    // beta != 0), for every GEMM of a batch.
    double min_bytes() const;

private:
    GemmShape shape_;
    std::vector<float> a_, b_, c_before_;  // values exact in their dtypes
    std::vector<bool> c_is_padding_;
    std::size_t offset_ = 0;  // bytes from each buffer's start to its operand (GemmShape::alignment)
    driver::DeviceBuffer da_, db_, dc_;
    template <typename T>
    T* at(const driver::DeviceBuffer& b) const {
        return reinterpret_cast<T*>(b.get() + offset_);
    }
};

}  // namespace jitgemm
