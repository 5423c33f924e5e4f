// Problem's key, hash, equality, -D constants and index-width rule. The first four walk the rows of
// problem_fields.h; what differs between fields is only their type, so each type has its overloads here: the value
// text, its parse, and its width in the hash.
#include "runtime/problem/problem.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>

#include "runtime/problem/problem_fields.h"

namespace jitgemm {
namespace {

// Kernels may form offsets up to one block tile (at most 256 rows or columns) past each edge before masking.
constexpr __int128 kTileSlack = 256;
constexpr __int128 kInt32Max = INT32_MAX;

bool extent_fits_int32(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
    return (static_cast<__int128>(cols) + kTileSlack) * ld + rows + kTileSlack <= kInt32Max;
}

// The kernel reads these as flags and codes: JG_COMPUTE_TF32 and JG_TRANS_* are 0 or 1, the dtypes the JG_DTYPE_*
// codes of kernel_sources/common/jg_types.cuh, the beta mode the numbers of BetaMode.
static_assert(static_cast<int>(ComputeType::F32) == 0 && static_cast<int>(ComputeType::TF32) == 1);
static_assert(static_cast<int>(Transpose::No) == 0 && static_cast<int>(Transpose::Yes) == 1);
static_assert(static_cast<int>(DType::F32) == 0 && static_cast<int>(DType::F16) == 1 &&
              static_cast<int>(DType::BF16) == 2);

// A field as the integer the kernel's -D constant and the hash take: enums by their underlying value, bool as 0/1.
template <typename T>
long long integer_value(T value) {
    if constexpr (std::is_enum_v<T>)
        return static_cast<long long>(static_cast<std::underlying_type_t<T>>(value));
    else
        return static_cast<long long>(value);
}

// ---- value text, one overload per field type ----

const std::string& key_version_token() {
    static const std::string token = "v" + std::to_string(kProblemKeyVersion) + "_";
    return token;
}

void append_value(std::string& key, std::int64_t value) { key += std::to_string(value); }
void append_value(std::string& key, std::uint8_t value) { key += std::to_string(value); }
void append_value(std::string& key, DType value) { key += to_string(value); }
void append_value(std::string& key, ComputeType value) { key += to_string(value); }
void append_value(std::string& key, Transpose value) { key += to_string(value); }
void append_value(std::string& key, bool one) { key += one ? '1' : 'x'; }  // alpha: 1, or any other value
void append_value(std::string& key, BetaMode value) {
    key += value == BetaMode::Zero ? '0' : value == BetaMode::One ? '1' : 'x';
}

// ---- parsing: each reader takes its value off the front of `rest`; false when the text there is none ----

bool take_literal(std::string_view& rest, std::string_view literal) {
    if (rest.substr(0, literal.size()) != literal) return false;
    rest.remove_prefix(literal.size());
    return true;
}

template <typename Keep>
std::string_view take_while(std::string_view& rest, Keep keep) {
    std::size_t length = 0;
    while (length < rest.size() && keep(rest[length])) ++length;
    const std::string_view taken = rest.substr(0, length);
    rest.remove_prefix(length);
    return taken;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || is_digit(c); }

// Digits only (no sign); false when there are none or the number does not fit T.
template <typename T>
bool read_decimal(std::string_view& rest, T& out) {
    const std::string_view digits = take_while(rest, is_digit);
    const auto end = digits.data() + digits.size();
    const auto [stop, error] = std::from_chars(digits.data(), end, out);
    return !digits.empty() && error == std::errc() && stop == end;
}

// A dtype or compute name: a run of [a-z0-9], which the next lead ('.' or '_') ends.
template <typename T, typename Parse>
bool read_name(std::string_view& rest, T& out, Parse parse) {
    const auto value = parse(take_while(rest, is_name_char));
    if (value) out = *value;
    return value.has_value();
}

// One character: the transposes and the alpha and beta modes.
bool take_char(std::string_view& rest, char& c) {
    if (rest.empty()) return false;
    c = rest.front();
    rest.remove_prefix(1);
    return true;
}

bool read_value(std::string_view& rest, std::int64_t& out) { return read_decimal(rest, out); }
bool read_value(std::string_view& rest, std::uint8_t& out) { return read_decimal(rest, out); }
bool read_value(std::string_view& rest, DType& out) { return read_name(rest, out, parse_dtype); }
bool read_value(std::string_view& rest, ComputeType& out) { return read_name(rest, out, parse_compute_type); }
bool read_value(std::string_view& rest, Transpose& out) {
    char c = 0;
    const auto value = take_char(rest, c) ? parse_transpose(std::string_view(&c, 1)) : std::nullopt;
    if (value) out = *value;
    return value.has_value();
}
bool read_value(std::string_view& rest, bool& one) {
    char c = 0;
    if (!take_char(rest, c) || (c != '1' && c != 'x')) return false;
    one = c == '1';
    return true;
}
bool read_value(std::string_view& rest, BetaMode& out) {
    char c = 0;
    if (!take_char(rest, c) || (c != '0' && c != '1' && c != 'x')) return false;
    out = c == '0' ? BetaMode::Zero : c == '1' ? BetaMode::One : BetaMode::General;
    return true;
}

// ---- equality: the bytes of the rows, in 8-byte words ----
//
// GCC merges a hand-written chain of comparisons of neighbouring members into a few wide ones, but not comparisons
// through member pointers: a fold of `x.*member == y.*member` over the rows made == take 7.2 ns instead of 4.4.
// Comparing the bytes the rows cover is the same test, because every field type has one representation per value and
// the rows cover each of Problem's first bytes exactly once (both checked here); it takes ten word comparisons.

struct ByteSpan {
    std::size_t offset, size;
};
constexpr auto kFieldSpans = std::apply(
    [](const auto&... field) {
        return std::array<ByteSpan, sizeof...(field)>{
            ByteSpan{field.offset, sizeof(typename std::decay_t<decltype(field)>::value_type)}...};
    },
    kProblemFields);

constexpr std::size_t field_bytes_end() {
    std::size_t end = 0;
    for (const ByteSpan& span : kFieldSpans) end = std::max(end, span.offset + span.size);
    return end;
}
constexpr std::size_t kFieldBytes = field_bytes_end();

constexpr bool rows_cover_each_byte_once() {
    for (std::size_t byte = 0; byte < kFieldBytes; ++byte) {
        int covering = 0;
        for (const ByteSpan& span : kFieldSpans) covering += byte >= span.offset && byte < span.offset + span.size;
        if (covering != 1) return false;
    }
    return true;
}

static_assert(std::is_standard_layout_v<Problem> && std::is_trivially_copyable_v<Problem>);
static_assert(std::apply(
                  [](const auto&... field) {
                      return (std::has_unique_object_representations_v<
                                  typename std::decay_t<decltype(field)>::value_type> && ...);
                  },
                  kProblemFields),
              "equal bytes must mean equal values: no floating-point or padded field types");
static_assert(rows_cover_each_byte_once() && kFieldBytes >= sizeof(std::uint64_t),
              "the rows must cover the first bytes of Problem without gaps: a member between them has no row");

// Where word `w` starts; the last word ends with the field bytes, overlapping the one before it.
template <std::size_t W>
constexpr std::size_t kWordOffset = std::min(W * sizeof(std::uint64_t), kFieldBytes - sizeof(std::uint64_t));
constexpr std::size_t kFieldWords = (kFieldBytes + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t);

std::uint64_t word_at(const Problem& p, std::size_t offset) {
    std::uint64_t word;
    std::memcpy(&word, reinterpret_cast<const unsigned char*>(&p) + offset, sizeof word);
    return word;
}

template <std::size_t... W>
bool equal_field_words(const Problem& x, const Problem& y, std::index_sequence<W...>) {
    return ((word_at(x, kWordOffset<W>) == word_at(y, kWordOffset<W>)) && ...);
}

// ---- the hash: 64-bit fields are mixed whole, the narrow ones share one packed word of these widths ----

constexpr int hash_bits(std::uint8_t) { return 8; }
constexpr int hash_bits(DType) { return 3; }
constexpr int hash_bits(ComputeType) { return 2; }
constexpr int hash_bits(Transpose) { return 1; }
constexpr int hash_bits(bool) { return 1; }
constexpr int hash_bits(BetaMode) { return 2; }

template <typename T>
constexpr int packed_bits(const ProblemField<T>&) {
    if constexpr (std::is_same_v<T, std::int64_t>)
        return 0;
    else
        return hash_bits(T{});
}
static_assert(std::apply([](const auto&... field) { return (0 + ... + packed_bits(field)); }, kProblemFields) <= 64,
              "the narrow fields must fit the hash's one packed word");

}  // namespace

bool Problem::needs_index64() const {
    const bool ta = trans_a == Transpose::Yes, tb = trans_b == Transpose::Yes;
    return !extent_fits_int32(ta ? k : m, ta ? m : k, lda) || !extent_fits_int32(tb ? n : k, tb ? k : n, ldb) ||
           !extent_fits_int32(m, n, ldc);
}

std::string Problem::key() const {
    std::string key = key_version_token();
    key.reserve(96);
    const auto append_field = [&](const auto& field) {
        const auto value = this->*field.member;
        if (field.omittable && integer_value(value) == field.omitted_value) return;
        key += field.lead;
        append_value(key, value);
    };
    std::apply([&](const auto&... field) { (append_field(field), ...); }, kProblemFields);
    return key;
}

std::optional<Problem> Problem::parse_key(std::string_view key) {
    std::string_view rest = key;
    if (!take_literal(rest, key_version_token())) return std::nullopt;  // another version's key, or none
    Problem p;
    // Row by row: the lead literally, then the value; an omittable row without its lead takes its omitted value.
    const auto read_field = [&](const auto& field) {
        if (!take_literal(rest, field.lead)) {
            if (!field.omittable) return false;
            p.*field.member = static_cast<typename std::decay_t<decltype(field)>::value_type>(field.omitted_value);
            return true;
        }
        return read_value(rest, p.*field.member);
    };
    const bool read_all = std::apply([&](const auto&... field) { return (read_field(field) && ...); }, kProblemFields);
    if (!read_all || !rest.empty()) return std::nullopt;
    if (p.key() != key) return std::nullopt;  // only canonical text round-trips: "m0064" is not a key
    return p;
}

std::vector<std::pair<std::string, long long>> Problem::defines() const {
    std::vector<std::pair<std::string, long long>> defines;
    defines.reserve(std::tuple_size_v<decltype(kProblemFields)> + 1);
    std::apply(
        [&](const auto&... field) {
            (defines.emplace_back(std::string(field.macro), integer_value(this->*field.member)), ...);
        },
        kProblemFields);
    // A run-time-shape variant's binary must not depend on the sizes it takes at run time: they compile as 0. Its
    // index width is still this call's (a variant of 32-bit offsets serves only the calls whose offsets fit).
    if (runtime_dim != 0) {
        const std::string_view run_time_size = runtime_dim == 1 ? "JG_M" : "JG_N";
        for (auto& [macro, value] : defines)
            if (macro == run_time_size || macro == "JG_LDA" || macro == "JG_LDB" || macro == "JG_LDC") value = 0;
    }
    defines.emplace_back("JG_INDEX64", needs_index64());  // derived: the only define that is no field
    return defines;
}

std::vector<std::pair<std::string, long long>> Problem::defines_with_sizes_at_run_time() const {
    std::vector<std::pair<std::string, long long>> defines = with_runtime_dim(0).defines();
    for (auto& [macro, value] : defines)
        if (macro == "JG_M" || macro == "JG_N" || macro == "JG_K" || macro == "JG_LDA" || macro == "JG_LDB" ||
            macro == "JG_LDC")
            value = 0;
    defines.emplace_back("JG_SIZES_AT_RUN_TIME", 1);
    return defines;
}

bool operator==(const Problem& x, const Problem& y) {
    return equal_field_words(x, y, std::make_index_sequence<kFieldWords>());
}

std::size_t ProblemHash::operator()(const Problem& p) const noexcept {
    // Mix each 64-bit field into a 64-bit state (the constant is 2^64 / golden ratio) and the narrow ones packed
    // into one word, mixed last: seven mixes, cheap, and this runs on every call. The shifts fold to constants.
    std::uint64_t h = 0, packed = 0;
    int shift = 0;
    auto mix = [&h](std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
    auto take = [&](auto value) {
        if constexpr (std::is_same_v<decltype(value), std::int64_t>) {
            mix(static_cast<std::uint64_t>(value));
        } else {
            packed |= static_cast<std::uint64_t>(integer_value(value)) << shift;
            shift += hash_bits(value);
        }
    };
    std::apply([&](const auto&... field) { (take(p.*field.member), ...); }, kProblemFields);
    mix(packed);
    return static_cast<std::size_t>(h);
}

std::uint8_t alignment_class(const void* pointer, std::int64_t leading_dimension, int element_bytes,
                             std::int64_t batch_stride) {
    const std::uint64_t bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(pointer)) |
                               static_cast<std::uint64_t>(leading_dimension) * element_bytes |
                               static_cast<std::uint64_t>(batch_stride) * element_bytes | 16u;
    return static_cast<std::uint8_t>(bits & (~bits + 1));  // lowest set bit, at most 16
}

}  // namespace jitgemm
