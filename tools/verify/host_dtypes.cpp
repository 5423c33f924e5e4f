// fp16, bf16 and TF32 rounding on bit patterns. Integer arithmetic on the float's bits gives round-to-nearest-even
// without depending on the host's floating-point environment, except for fp16 subnormals, which are scaled into
// the integers exactly and rounded by nearbyint (the default rounding mode is to nearest even).
#include "tools/verify/host_dtypes.h"

#include <cmath>
#include <cstring>
#include <string>

#include "jitgemm/error.h"

namespace jitgemm {
namespace {

std::uint32_t bits_of(float x) {
    std::uint32_t u = 0;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

float float_of(std::uint32_t u) {
    float x = 0.0f;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

[[noreturn]] void not_sixteen_bits(DType type) {
    throw Error(ErrorCode::Internal,
                "jitgemm: " + std::string(to_string(type)) + " has no 16-bit pattern (only f16 and bf16 do)");
}

constexpr std::uint32_t kFloatExponent = 0x7f800000u;
constexpr std::uint32_t kFloatAbs = 0x7fffffffu;

std::uint16_t half_bits(float x) {
    const std::uint32_t f = bits_of(x);
    const std::uint16_t sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
    const std::uint32_t abs = f & kFloatAbs;
    if (abs > kFloatExponent)  // NaN: quiet, keeping the payload's top bits
        return static_cast<std::uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
    if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520 (a tie that goes up): Inf
    if (abs < 0x38800000u) {
        // Below fp16's smallest normal 2^-14: a multiple of the smallest subnormal 2^-24. Scaling by 2^24 is exact,
        // and a result of 1024 is the pattern of 2^-14, the smallest normal, so the carry needs no special case.
        const float units = std::nearbyint(float_of(abs) * 16777216.0f);
        return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(units));
    }
    // Normal: round the 23-bit mantissa to 10 bits at bit 13 (a carry moves into the exponent, as it must), then
    // rebias the exponent from 127 to 15.
    const std::uint32_t rounded = (abs + 0xfffu + ((abs >> 13) & 1u)) >> 13;
    return static_cast<std::uint16_t>(sign | (rounded - (112u << 10)));
}

float half_value(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu;
    const std::uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
        const float magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 31) return float_of(sign | kFloatExponent | (mantissa << 13));  // Inf or NaN
    return float_of(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

std::uint16_t bfloat_bits(float x) {
    const std::uint32_t f = bits_of(x);
    // A NaN whose payload sits only in the low 16 bits would truncate to Inf: force the quiet bit.
    if ((f & kFloatAbs) > kFloatExponent) return static_cast<std::uint16_t>((f >> 16) | 0x0040u);
    // Round to nearest even at bit 16; finite values past bf16's largest round to Inf, as IEEE rounding does.
    return static_cast<std::uint16_t>((f + 0x7fffu + ((f >> 16) & 1u)) >> 16);
}

float bfloat_value(std::uint16_t b) { return float_of(static_cast<std::uint32_t>(b) << 16); }

}  // namespace

std::uint16_t to_bits(DType type, float x) {
    if (type == DType::F16) return half_bits(x);
    if (type == DType::BF16) return bfloat_bits(x);
    not_sixteen_bits(type);
}

float from_bits(DType type, std::uint16_t bits) {
    if (type == DType::F16) return half_value(bits);
    if (type == DType::BF16) return bfloat_value(bits);
    not_sixteen_bits(type);
}

float round_to(DType type, float x) { return type == DType::F32 ? x : from_bits(type, to_bits(type, x)); }

float round_to_tf32(float x) {
    const std::uint32_t f = bits_of(x);
    if ((f & kFloatExponent) == kFloatExponent) return x;  // Inf and NaN pass through
    // Ties away from zero: add half of the last kept place to the magnitude, then drop the 13 low bits. A carry out
    // of the largest finite values gives Inf, as cvt.rna does.
    return float_of((f + 0x1000u) & ~0x1fffu);
}

std::vector<std::byte> encode(DType type, const std::vector<float>& values) {
    const std::size_t element = static_cast<std::size_t>(size_of(type));
    std::vector<std::byte> bytes(values.size() * element);
    if (type == DType::F32) {
        if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
        return bytes;
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::uint16_t pattern = to_bits(type, values[i]);
        std::memcpy(bytes.data() + i * element, &pattern, element);
    }
    return bytes;
}

std::vector<float> decode(DType type, const std::vector<std::byte>& bytes) {
    const std::size_t element = static_cast<std::size_t>(size_of(type));
    std::vector<float> values(bytes.size() / element);
    if (type == DType::F32) {
        if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * element);
        return values;
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint16_t pattern = 0;
        std::memcpy(&pattern, bytes.data() + i * element, element);
        values[i] = from_bits(type, pattern);
    }
    return values;
}

}  // namespace jitgemm
