// The wgmma family's per-call launch step: the TMA descriptors (tensor maps) of the call's A and B — and of C, where the
// kernel stores C through the TMA — encoded with cuTensorMapEncodeTiled and passed after the KernelArgs as the
// kernel's __grid_constant__ parameters. Encoding is pure host work but not free, so the maps of the last few operand
// pointers are kept: a program that calls with the same weights, activations and output buffers encodes nothing after
// its first calls.
//
// Each map describes its operand as kernel_sources/wgmma/wgmma.cuh reads it: a 2-D tensor of 16-bit or fp32 elements
// whose first dimension is the contiguous one, with boxes of one 128-byte swizzle row of contiguous elements (64
// 16-bit ones, 32 fp32 ones) by the tile's other extent — BM (A; half of it in a pair along n) or BN (B; half of it
// in a pair along m) rows where the operand is k-contiguous, BK where it is m- or n-contiguous — and 128-byte swizzle;
// the parts of a box past the tensor read as zeros. C's map: m contiguous, boxes of one 128-byte row of m by a
// consumer's columns, 128-byte swizzle; the parts of a box past the tensor are not written.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>

#include "runtime/launch/launch_preparation.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

struct TensorMapBoxes {
    int a_rows = 0;  // rows of a k-major op(A) box: the tile's BM, or each block's half of it in a pair along n
    int b_rows = 0;  // rows of a k-major op(B)^T box: the tile's BN, or each block's half of it in a pair along m
    int bk = 0;
    int c_rows = 0;  // columns of C per box where the kernel stores C through the TMA (a consumer's); 0: no C map
};

// The tensor one map describes: the stored operand's contiguous extent and its columns (first dimension first), the
// byte stride between columns, and the box the kernel loads; for a batched problem (rank 3) the GEMMs of the batch
// as its third dimension, batch_stride_bytes apart (one, where all GEMMs share the operand: batch stride 0).
struct TensorMapShape {
    int rank = 2;
    std::uint64_t dims[3] = {0, 0, 1};
    std::uint64_t stride_bytes = 0, batch_stride_bytes = 0;
    std::uint32_t box[3] = {0, 0, 1};
};
// Operand 0 (A) or 1 (B) of `problem` (its input type's elements), or 2 (C, its output type's), with leading
// dimension `ld` and, in a batch, `batch_stride` elements between GEMMs, as the kernel reads (or writes) it.
TensorMapShape tensor_map_shape(const Problem& problem, TensorMapBoxes boxes, int operand, long long ld,
                                long long batch_stride = 0);

class WgmmaTensorMaps : public LaunchPreparation {
public:
    // `problem` is the problem the kernel computes (packed operands with their copy's leading dimension).
    WgmmaTensorMaps(const Problem& problem, TensorMapBoxes boxes);
    // Adds the maps of args.a and args.b, and of args.c where the boxes say so (with their batch strides); throws
    // Error(CudaError) when the driver refuses to encode them.
    void prepare(const KernelArgs& args, ExtraParameters& extra) const override;

private:
    struct alignas(64) Map {
        unsigned char bytes[128];
    };
    struct Encoded {
        const void* a = nullptr;
        const void* b = nullptr;
        const void* c = nullptr;
        long long lda = 0, ldb = 0, ldc = 0;
        long long batch_stride_a = 0, batch_stride_b = 0, batch_stride_c = 0;
        Map map_a, map_b, map_c;
    };
    Map encode(const void* base, int operand, long long ld, long long batch_stride) const;

    Problem problem_;
    TensorMapBoxes boxes_;
    static constexpr int kKept = 4;
    mutable std::mutex mutex_;
    mutable std::array<Encoded, kKept> kept_{};
    mutable int kept_count_ = 0, next_slot_ = 0;
};

}  // namespace jitgemm
