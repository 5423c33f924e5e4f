// Problem's key, hash, equality and index-width rule.
#include "runtime/problem/problem.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace jitgemm {
namespace {

// Kernels may form offsets up to one block tile (at most 256 rows or columns) past each edge before masking.
constexpr __int128 kTileSlack = 256;
constexpr __int128 kInt32Max = INT32_MAX;

bool extent_fits_int32(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
    return (static_cast<__int128>(cols) + kTileSlack) * ld + rows + kTileSlack <= kInt32Max;
}

}  // namespace

bool Problem::needs_index64() const {
    const bool ta = trans_a == Transpose::Yes, tb = trans_b == Transpose::Yes;
    return !extent_fits_int32(ta ? k : m, ta ? m : k, lda) || !extent_fits_int32(tb ? n : k, tb ? k : n, ldb) ||
           !extent_fits_int32(m, n, ldc);
}

std::string Problem::key() const {
    std::string s;
    s.reserve(96);
    s += to_string(a_type);
    s += '.';
    s += to_string(b_type);
    s += '.';
    s += to_string(c_type);
    s += '.';
    s += to_string(compute);
    s += '_';
    s += to_string(trans_a);
    s += to_string(trans_b);
    s += "_m" + std::to_string(m) + ".n" + std::to_string(n) + ".k" + std::to_string(k);
    s += "_ld" + std::to_string(lda) + "." + std::to_string(ldb) + "." + std::to_string(ldc);
    s += std::string("_a") + (alpha_one ? "1" : "x") + ".b" +
         (beta_mode == BetaMode::Zero ? "0" : beta_mode == BetaMode::One ? "1" : "x");
    s += "_al" + std::to_string(align_a) + "." + std::to_string(align_b) + "." + std::to_string(align_c);
    return s;
}

std::optional<Problem> Problem::parse_key(std::string_view key) {
    // f32.f32.f32.f32_nt_m4096.n4096.k4096_ld4096.4096.4096_a1.b0_al16.16.16
    char types[4][8] = {}, ta = 0, tb = 0, alpha = 0, beta = 0;
    long long m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
    unsigned al_a = 0, al_b = 0, al_c = 0;
    int used = 0;
    const std::string text(key);
    const int fields = std::sscanf(text.c_str(),
                                   "%7[a-z0-9].%7[a-z0-9].%7[a-z0-9].%7[a-z0-9]_%c%c_m%lld.n%lld.k%lld_ld%lld.%lld.%lld_"
                                   "a%c.b%c_al%u.%u.%u%n",
                                   types[0], types[1], types[2], types[3], &ta, &tb, &m, &n, &k, &lda, &ldb, &ldc,
                                   &alpha, &beta, &al_a, &al_b, &al_c, &used);
    if (fields != 17 || used != static_cast<int>(text.size())) return std::nullopt;
    Problem p;
    const auto a = parse_dtype(types[0]), b = parse_dtype(types[1]), c = parse_dtype(types[2]);
    const auto compute = parse_compute_type(types[3]);
    const auto trans_a = parse_transpose(std::string(1, ta)), trans_b = parse_transpose(std::string(1, tb));
    if (!a || !b || !c || !compute || !trans_a || !trans_b) return std::nullopt;
    if ((alpha != '1' && alpha != 'x') || (beta != '0' && beta != '1' && beta != 'x')) return std::nullopt;
    p.a_type = *a;
    p.b_type = *b;
    p.c_type = *c;
    p.compute = *compute;
    p.trans_a = *trans_a;
    p.trans_b = *trans_b;
    p.m = m;
    p.n = n;
    p.k = k;
    p.lda = lda;
    p.ldb = ldb;
    p.ldc = ldc;
    p.alpha_one = alpha == '1';
    p.beta_mode = beta == '0' ? BetaMode::Zero : beta == '1' ? BetaMode::One : BetaMode::General;
    p.align_a = static_cast<std::uint8_t>(al_a);
    p.align_b = static_cast<std::uint8_t>(al_b);
    p.align_c = static_cast<std::uint8_t>(al_c);
    if (p.key() != text) return std::nullopt;  // only canonical text round-trips
    return p;
}

bool operator==(const Problem& x, const Problem& y) {
    return x.m == y.m && x.n == y.n && x.k == y.k && x.lda == y.lda && x.ldb == y.ldb && x.ldc == y.ldc &&
           x.trans_a == y.trans_a && x.trans_b == y.trans_b && x.a_type == y.a_type && x.b_type == y.b_type &&
           x.c_type == y.c_type && x.compute == y.compute && x.alpha_one == y.alpha_one &&
           x.beta_mode == y.beta_mode && x.align_a == y.align_a && x.align_b == y.align_b && x.align_c == y.align_c;
}

std::size_t ProblemHash::operator()(const Problem& p) const noexcept {
    // Mix each field into a 64-bit state (the constant is 2^64 / golden ratio); cheap, and this runs on every call.
    std::uint64_t h = 0;
    auto mix = [&h](std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
    mix(static_cast<std::uint64_t>(p.m));
    mix(static_cast<std::uint64_t>(p.n));
    mix(static_cast<std::uint64_t>(p.k));
    mix(static_cast<std::uint64_t>(p.lda));
    mix(static_cast<std::uint64_t>(p.ldb));
    mix(static_cast<std::uint64_t>(p.ldc));
    mix(static_cast<std::uint64_t>(p.trans_a) | static_cast<std::uint64_t>(p.trans_b) << 1 |
        static_cast<std::uint64_t>(p.a_type) << 2 | static_cast<std::uint64_t>(p.b_type) << 5 |
        static_cast<std::uint64_t>(p.c_type) << 8 | static_cast<std::uint64_t>(p.compute) << 11 |
        static_cast<std::uint64_t>(p.alpha_one) << 13 | static_cast<std::uint64_t>(p.beta_mode) << 14 |
        static_cast<std::uint64_t>(p.align_a) << 16 | static_cast<std::uint64_t>(p.align_b) << 24 |
        static_cast<std::uint64_t>(p.align_c) << 32);
    return static_cast<std::size_t>(h);
}

std::uint8_t alignment_class(const void* pointer, std::int64_t leading_dimension, int element_bytes) {
    const std::uint64_t bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(pointer)) |
                               static_cast<std::uint64_t>(leading_dimension) * element_bytes | 16u;
    return static_cast<std::uint8_t>(bits & (~bits + 1));  // lowest set bit, at most 16
}

}  // namespace jitgemm
