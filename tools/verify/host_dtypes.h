// Host conversions between float and the element types a GEMM may store (fp16, bf16), and the TF32 rounding the
// Tensor Cores apply to fp32 inputs. The verification layer makes its operands exactly representable in their dtype
// with these, so the float64 reference sees the very values the device reads; they are written out in software
// (no compiler half type) so they behave the same on every host and are tested bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "jitgemm/types.h"

namespace jitgemm {

// x rounded to nearest, ties to even, into `type` and back to float: identity for F32. fp16 values beyond its range
// become +-Inf (65520 and above), tiny ones fp16 subnormals or zero; NaN stays NaN, Inf stays Inf.
float round_to(DType type, float x);

// The 16-bit pattern of x in an F16 or BF16 element, rounded to nearest even (NaN becomes a quiet NaN).
// Throws Error(Internal) for F32, which has no 16-bit pattern.
std::uint16_t to_bits(DType type, float x);

// The value of a 16-bit F16 or BF16 pattern (exact: every such value is a float). Throws Error(Internal) for F32.
float from_bits(DType type, std::uint16_t bits);

// x rounded to TF32 (10 explicit mantissa bits, fp32's exponent) to nearest, ties away from zero, as PTX
// cvt.rna.tf32.f32 does; the 13 low mantissa bits of the result are zero. NaN and Inf are kept.
float round_to_tf32(float x);

// Host values as the device stores them: size_of(type) bytes an element, native byte order.
std::vector<std::byte> encode(DType type, const std::vector<float>& values);
// The inverse: `bytes` holds whole elements of `type` (a trailing partial element is ignored).
std::vector<float> decode(DType type, const std::vector<std::byte>& bytes);

}  // namespace jitgemm
