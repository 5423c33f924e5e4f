// The wgmma family's tensor maps, encoded per operand pointer and kept.
#include "tuner/families/wgmma/wgmma_tensor_maps.h"

#include <cstring>
#include <string>
#include <utility>

#include "jitgemm/error.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "tuner/families/common/operand_packing.h"

namespace jitgemm {

static_assert(sizeof(CUtensorMap) == 128, "a tensor map is 128 bytes");

WgmmaTensorMaps::WgmmaTensorMaps(const Problem& problem, TensorMapBoxes boxes) : problem_(problem), boxes_(boxes) {}

TensorMapShape tensor_map_shape(const Problem& p, TensorMapBoxes boxes, int operand, long long ld,
                                long long batch_stride) {
    // The stored matrix: `contiguous` elements along its first dimension, `columns` of them, ld apart (C: m by n).
    const bool is_c = operand == 2;
    const auto [contiguous, columns] =
        is_c ? std::pair<std::int64_t, std::int64_t>{p.m, p.n} : stored_extent(p, operand);
    const std::uint64_t element_bytes = size_of(is_c ? p.c_type : p.a_type);
    TensorMapShape s;
    s.dims[0] = static_cast<std::uint64_t>(contiguous);
    s.dims[1] = static_cast<std::uint64_t>(columns);
    // One column has no stride to speak of; the driver still wants a multiple of 16 bytes.
    s.stride_bytes = columns == 1 ? (s.dims[0] * element_bytes + 15) / 16 * 16
                                  : static_cast<std::uint64_t>(ld) * element_bytes;
    // One 128-byte swizzle row of contiguous elements (64 16-bit ones, 32 fp32 ones) by the tile's rows (k-major) or
    // its k depth (m/n-major).
    s.box[0] = static_cast<std::uint32_t>(128 / element_bytes);
    s.box[1] = static_cast<std::uint32_t>(is_c                      ? boxes.c_rows
                                          : k_contiguous(p, operand) ? (operand == 0 ? boxes.a_rows : boxes.b_rows)
                                                                     : boxes.bk);
    if (p.batch > 1) {
        s.rank = 3;
        s.dims[2] = batch_stride == 0 ? 1 : static_cast<std::uint64_t>(p.batch);
        // The driver wants every stride a multiple of 16 bytes, also that of a dimension of one.
        s.batch_stride_bytes = batch_stride == 0 ? s.stride_bytes * s.dims[1]
                                                 : static_cast<std::uint64_t>(batch_stride) * element_bytes;
    }
    return s;
}

WgmmaTensorMaps::Map WgmmaTensorMaps::encode(const void* base, int operand, long long ld,
                                             long long batch_stride) const {
    const Problem& p = problem_;
    const TensorMapShape shape = tensor_map_shape(p, boxes_, operand, ld, batch_stride);
    const cuuint64_t dims[3] = {shape.dims[0], shape.dims[1], shape.dims[2]};
    const cuuint64_t strides[2] = {shape.stride_bytes, shape.batch_stride_bytes};
    const cuuint32_t box[3] = {shape.box[0], shape.box[1], shape.box[2]};
    const cuuint32_t element_strides[3] = {1, 1, 1};
    CUtensorMap map;
    // fp32 operands of TF32 are copied as they are (FLOAT32, not TFLOAT32): the instruction reads the TF32 part of
    // each value, the 13 low mantissa bits ignored.
    const DType element = operand == 2 ? p.c_type : p.a_type;
    const CUtensorMapDataType type = element == DType::BF16  ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                     : element == DType::F16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                                             : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    const CUresult result = driver::api().cuTensorMapEncodeTiled(
        &map, type, static_cast<cuuint32_t>(shape.rank), const_cast<void*>(base), dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (result != CUDA_SUCCESS)
        driver::check(result,
                      ("cuTensorMapEncodeTiled for operand " + std::string(1, "ABC"[operand]) + " (" +
                       std::to_string(shape.dims[0]) + " x " + std::to_string(shape.dims[1]) + ", leading dimension " +
                       std::to_string(ld) + (shape.rank == 3 ? ", " + std::to_string(shape.dims[2]) + " GEMMs " +
                                                                   std::to_string(shape.batch_stride_bytes) +
                                                                   " bytes apart"
                                                             : std::string()) +
                       ")")
                          .c_str(),
                      __FILE__, __LINE__);
    Map out;
    std::memcpy(out.bytes, &map, sizeof(map));
    return out;
}

void WgmmaTensorMaps::prepare(const KernelArgs& args, ExtraParameters& extra) const {
    Encoded found;
    bool hit = false;
    {
        std::lock_guard lock(mutex_);
        for (int i = 0; i < kept_count_ && !hit; ++i) {
            const Encoded& e = kept_[i];
            // C's fields count only where C has a map (kept with whatever C the entry was made for otherwise).
            const bool same_c = boxes_.c_rows == 0 || (e.c == args.c && e.ldc == args.ldc &&
                                                       e.batch_stride_c == args.batch_stride_c);
            if (e.a == args.a && e.b == args.b && e.lda == args.lda && e.ldb == args.ldb &&
                e.batch_stride_a == args.batch_stride_a && e.batch_stride_b == args.batch_stride_b && same_c) {
                found = e;
                hit = true;
            }
        }
    }
    if (!hit) {
        found.a = args.a;
        found.b = args.b;
        found.lda = args.lda;
        found.ldb = args.ldb;
        found.batch_stride_a = args.batch_stride_a;
        found.batch_stride_b = args.batch_stride_b;
        found.c = args.c;
        found.ldc = args.ldc;
        found.batch_stride_c = args.batch_stride_c;
        found.map_a = encode(args.a, 0, args.lda, args.batch_stride_a);
        found.map_b = encode(args.b, 1, args.ldb, args.batch_stride_b);
        if (boxes_.c_rows > 0) found.map_c = encode(args.c, 2, args.ldc, args.batch_stride_c);
        std::lock_guard lock(mutex_);
        kept_[next_slot_] = found;
        next_slot_ = (next_slot_ + 1) % kKept;
        if (kept_count_ < kKept) ++kept_count_;
    }
    if (!extra.add(found.map_a.bytes, sizeof(Map)) || !extra.add(found.map_b.bytes, sizeof(Map)) ||
        (boxes_.c_rows > 0 && !extra.add(found.map_c.bytes, sizeof(Map))))
        throw Error(ErrorCode::Internal, "jitgemm: no room for the wgmma family's tensor maps");
}

}  // namespace jitgemm
