// The host conversions of verify/host_dtypes.h against known bit patterns: fp16 and bf16 round-to-nearest-even
// (ties, overflow to Inf, fp16 subnormals, NaN and Inf), TF32's ties-away-from-zero rounding, and the byte
// encoding the workloads upload.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "jitgemm/error.h"
#include "tools/verify/host_dtypes.h"

namespace jitgemm {
namespace {

float float_of(std::uint32_t u) {
    float x = 0.0f;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

std::uint32_t bits_of(float x) {
    std::uint32_t u = 0;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(HostDtypesF16, KnownPatterns) {
    EXPECT_EQ(to_bits(DType::F16, 1.0f), 0x3C00);
    EXPECT_EQ(to_bits(DType::F16, -2.0f), 0xC000);
    EXPECT_EQ(to_bits(DType::F16, 0.0f), 0x0000);
    EXPECT_EQ(to_bits(DType::F16, -0.0f), 0x8000);
    EXPECT_EQ(to_bits(DType::F16, 0.5f), 0x3800);
    EXPECT_EQ(to_bits(DType::F16, 65504.0f), 0x7BFF);        // the largest finite fp16
    EXPECT_EQ(to_bits(DType::F16, 6.103515625e-05f), 0x0400);  // 2^-14, the smallest normal
    EXPECT_EQ(to_bits(DType::F16, -12288.0f), 0xF200);
    EXPECT_EQ(from_bits(DType::F16, 0x3C00), 1.0f);
    EXPECT_EQ(from_bits(DType::F16, 0x7BFF), 65504.0f);
    EXPECT_EQ(from_bits(DType::F16, 0x3555), 0.333251953125f);
}

TEST(HostDtypesF16, OverflowGoesToInfinityAtTheTie) {
    EXPECT_EQ(to_bits(DType::F16, 65519.0f), 0x7BFF);  // below the tie: stays finite
    EXPECT_EQ(to_bits(DType::F16, 65520.0f), 0x7C00);  // the tie with an odd 65504 goes up, to Inf
    EXPECT_EQ(to_bits(DType::F16, -65520.0f), 0xFC00);
    EXPECT_EQ(to_bits(DType::F16, 1e10f), 0x7C00);
    EXPECT_EQ(to_bits(DType::F16, std::numeric_limits<float>::max()), 0x7C00);
    EXPECT_EQ(to_bits(DType::F16, kInf), 0x7C00);
    EXPECT_EQ(to_bits(DType::F16, -kInf), 0xFC00);
    EXPECT_EQ(round_to(DType::F16, 70000.0f), kInf);
    EXPECT_EQ(from_bits(DType::F16, 0x7C00), kInf);
}

TEST(HostDtypesF16, SubnormalsRoundToNearestEven) {
    const float smallest = std::ldexp(1.0f, -24);
    EXPECT_EQ(to_bits(DType::F16, smallest), 0x0001);
    EXPECT_EQ(from_bits(DType::F16, 0x0001), smallest);
    EXPECT_EQ(from_bits(DType::F16, 0x03FF), 1023 * smallest);  // the largest subnormal
    EXPECT_EQ(from_bits(DType::F16, 0x8001), -smallest);
    EXPECT_EQ(to_bits(DType::F16, 0.5f * smallest), 0x0000);    // tie with 0: to even, 0
    EXPECT_EQ(to_bits(DType::F16, 0.51f * smallest), 0x0001);
    EXPECT_EQ(to_bits(DType::F16, 1.5f * smallest), 0x0002);    // tie between 1 and 2: to even, 2
    EXPECT_EQ(to_bits(DType::F16, 2.5f * smallest), 0x0002);    // tie between 2 and 3: to even, 2
    EXPECT_EQ(to_bits(DType::F16, 1023.5f * smallest), 0x0400);  // rounds up into the smallest normal
    EXPECT_EQ(to_bits(DType::F16, -0.25f * smallest), 0x8000);   // underflows to -0
    EXPECT_EQ(to_bits(DType::F16, std::numeric_limits<float>::denorm_min()), 0x0000);
}

TEST(HostDtypesF16, NormalTiesRoundToEven) {
    // Between 1 and 1 + 2^-10 the tie is 1 + 2^-11: to the even 1.0. Between 1 + 2^-10 and 1 + 2^-9, up to the even.
    EXPECT_EQ(to_bits(DType::F16, 1.0f + std::ldexp(1.0f, -11)), 0x3C00);
    EXPECT_EQ(to_bits(DType::F16, 1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02);
    EXPECT_EQ(to_bits(DType::F16, 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3C01);  // past the tie
    EXPECT_EQ(to_bits(DType::F16, 2047.0f), 0x67FF);
    EXPECT_EQ(to_bits(DType::F16, 2049.0f), 0x6800);  // 2048 + 1: tie, to even 2048
    EXPECT_EQ(to_bits(DType::F16, 2051.0f), 0x6802);  // 2050 + 1: tie, to even 2052
}

TEST(HostDtypesF16, NaNStaysNaN) {
    const std::uint16_t h = to_bits(DType::F16, kNaN);
    EXPECT_EQ(h & 0x7C00, 0x7C00);
    EXPECT_NE(h & 0x03FF, 0);
    EXPECT_TRUE(std::isnan(round_to(DType::F16, kNaN)));
    EXPECT_TRUE(std::isnan(round_to(DType::F16, float_of(0x7f800001u))));  // a signalling NaN with a low payload
    EXPECT_TRUE(std::isnan(from_bits(DType::F16, 0x7E00)));
}

TEST(HostDtypesBf16, KnownPatterns) {
    EXPECT_EQ(to_bits(DType::BF16, 1.0f), 0x3F80);
    EXPECT_EQ(to_bits(DType::BF16, -2.0f), 0xC000);
    EXPECT_EQ(to_bits(DType::BF16, -12288.0f), 0xC640);
    EXPECT_EQ(from_bits(DType::BF16, 0x3F80), 1.0f);
    EXPECT_EQ(from_bits(DType::BF16, 0x4049), 3.140625f);
    EXPECT_EQ(to_bits(DType::BF16, 3.14159265f), 0x4049);
    EXPECT_EQ(to_bits(DType::BF16, kInf), 0x7F80);
    EXPECT_EQ(to_bits(DType::BF16, std::numeric_limits<float>::max()), 0x7F80);  // past the largest bf16: Inf
    EXPECT_EQ(from_bits(DType::BF16, 0x7F7F), float_of(0x7F7F0000u));           // the largest bf16 is exact
}

TEST(HostDtypesBf16, TiesRoundToEven) {
    EXPECT_EQ(to_bits(DType::BF16, float_of(0x3F808000u)), 0x3F80);  // tie, 0x3F80 is even: down
    EXPECT_EQ(to_bits(DType::BF16, float_of(0x3F818000u)), 0x3F82);  // tie, 0x3F81 is odd: up
    EXPECT_EQ(to_bits(DType::BF16, float_of(0x3F808001u)), 0x3F81);  // past the tie: up
    EXPECT_EQ(to_bits(DType::BF16, float_of(0x3F807FFFu)), 0x3F80);  // below the tie: down
    EXPECT_EQ(to_bits(DType::BF16, float_of(0x00018000u)), 0x0002);  // float subnormals round the same way
}

TEST(HostDtypesBf16, NaNStaysNaN) {
    EXPECT_TRUE(std::isnan(round_to(DType::BF16, kNaN)));
    // A NaN whose payload lies only in the 16 bits bf16 drops must not become Inf.
    EXPECT_TRUE(std::isnan(round_to(DType::BF16, float_of(0x7f800001u))));
    EXPECT_TRUE(std::isnan(round_to(DType::BF16, float_of(0xff800001u))));
    EXPECT_TRUE(std::isnan(round_to(DType::BF16, float_of(0x7fffffffu))));  // must not carry into the sign
    EXPECT_TRUE(std::isnan(from_bits(DType::BF16, 0x7FC0)));
}

TEST(HostDtypesF32, RoundToIsTheIdentityAndHasNoSixteenBitPattern) {
    for (const float x : {1.0f, -0.1f, 3.14159265f, 1e-40f, 65520.0f, kInf})
        EXPECT_EQ(bits_of(round_to(DType::F32, x)), bits_of(x));
    EXPECT_TRUE(std::isnan(round_to(DType::F32, kNaN)));
    EXPECT_THROW(to_bits(DType::F32, 1.0f), Error);
    EXPECT_THROW(from_bits(DType::F32, 0x3C00), Error);
}

TEST(HostDtypesTf32, RoundsToNearestTiesAwayFromZero) {
    EXPECT_EQ(round_to_tf32(1.0f), 1.0f);
    EXPECT_EQ(bits_of(round_to_tf32(float_of(0x3F800FFFu))), 0x3F800000u);  // below the tie: down
    EXPECT_EQ(bits_of(round_to_tf32(float_of(0x3F801000u))), 0x3F802000u);  // tie, even below: still away
    EXPECT_EQ(bits_of(round_to_tf32(float_of(0x3F803000u))), 0x3F804000u);  // tie, odd below: away
    EXPECT_EQ(bits_of(round_to_tf32(float_of(0xBF801000u))), 0xBF802000u);  // negative ties go away from zero too
    EXPECT_EQ(bits_of(round_to_tf32(float_of(0x3F801001u))), 0x3F802000u);
    EXPECT_EQ(bits_of(round_to_tf32(float_of(0x3FFFF000u))), 0x40000000u);  // a carry into the exponent
    EXPECT_EQ(round_to_tf32(1.0f + std::ldexp(1.0f, -10)), 1.0f + std::ldexp(1.0f, -10));  // 10 bits are kept
    EXPECT_EQ(round_to_tf32(std::numeric_limits<float>::max()), kInf);
    EXPECT_EQ(round_to_tf32(-kInf), -kInf);
    EXPECT_TRUE(std::isnan(round_to_tf32(kNaN)));
    for (const float x : {0.1f, -3.7f, 1e-30f, 12345.678f}) EXPECT_EQ(bits_of(round_to_tf32(x)) & 0x1FFFu, 0u);
}

TEST(HostDtypesEncoding, RoundTripsEveryDtype) {
    const std::vector<float> values{1.0f, -0.5f, 65504.0f, -12288.0f, std::ldexp(1.0f, -24)};
    for (const DType type : {DType::F32, DType::F16, DType::BF16}) {
        std::vector<float> exact;
        for (const float x : values) exact.push_back(round_to(type, x));
        const std::vector<std::byte> bytes = encode(type, exact);
        EXPECT_EQ(bytes.size(), exact.size() * static_cast<std::size_t>(size_of(type))) << to_string(type);
        EXPECT_EQ(decode(type, bytes), exact) << to_string(type);
    }
    const std::vector<std::byte> one = encode(DType::F16, {1.0f});
    std::uint16_t pattern = 0;
    std::memcpy(&pattern, one.data(), 2);
    EXPECT_EQ(pattern, 0x3C00);
}

}  // namespace
}  // namespace jitgemm
