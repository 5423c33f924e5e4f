// The one table per public enum: to_string and parse for the API, the CLI, logs and the cache all come from here.
#include <array>
#include <optional>
#include <string_view>
#include <utility>

#include "jitgemm/error.h"
#include "jitgemm/gemm.h"
#include "jitgemm/types.h"

namespace jitgemm {
namespace {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

constexpr NameTable<DType, 3> kDTypeNames{{{DType::F32, "f32"}, {DType::F16, "f16"}, {DType::BF16, "bf16"}}};
constexpr NameTable<ComputeType, 2> kComputeNames{{{ComputeType::F32, "f32"}, {ComputeType::TF32, "tf32"}}};
constexpr NameTable<Transpose, 2> kTransposeNames{{{Transpose::No, "n"}, {Transpose::Yes, "t"}}};
constexpr NameTable<Order, 2> kOrderNames{{{Order::ColumnMajor, "col"}, {Order::RowMajor, "row"}}};
constexpr NameTable<ErrorCode, 9> kErrorNames{{{ErrorCode::InvalidArgument, "invalid argument"},
                                               {ErrorCode::Unsupported, "unsupported"},
                                               {ErrorCode::NoDriver, "no CUDA driver"},
                                               {ErrorCode::NoDevice, "no CUDA device"},
                                               {ErrorCode::CudaError, "CUDA error"},
                                               {ErrorCode::CompileError, "compile error"},
                                               {ErrorCode::CacheError, "cache error"},
                                               {ErrorCode::Internal, "internal error"},
                                               {ErrorCode::NotTuned, "not tuned"}}};
constexpr NameTable<ServedBy, 7> kServedByNames{{{ServedBy::InMemory, "in-memory"},
                                                 {ServedBy::CachedTuned, "cached-tuned"},
                                                 {ServedBy::NearestTuned, "nearest-tuned"},
                                                 {ServedBy::FreshlyTuned, "freshly-tuned"},
                                                 {ServedBy::HeuristicDefault, "heuristic-default"},
                                                 {ServedBy::Requested, "requested-config"},
                                                 {ServedBy::NothingToDo, "nothing-to-do"}}};

constexpr NameTable<TunePolicy, 5> kTunePolicyNames{{{TunePolicy::FromEnvironment, "from-environment"},
                                                     {TunePolicy::Now, "now"},
                                                     {TunePolicy::Background, "background"},
                                                     {TunePolicy::Off, "off"},
                                                     {TunePolicy::Never, "never"}}};

template <typename Enum, std::size_t N>
std::string_view name_of(const NameTable<Enum, N>& table, Enum value) {
    for (const auto& [entry, name] : table)
        if (entry == value) return name;
    return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> value_of(const NameTable<Enum, N>& table, std::string_view name) {
    for (const auto& [entry, entry_name] : table)
        if (entry_name == name) return entry;
    return std::nullopt;
}

}  // namespace

std::string_view to_string(DType v) { return name_of(kDTypeNames, v); }
std::string_view to_string(ComputeType v) { return name_of(kComputeNames, v); }
std::string_view to_string(Transpose v) { return name_of(kTransposeNames, v); }
std::string_view to_string(Order v) { return name_of(kOrderNames, v); }
std::string_view to_string(ErrorCode v) { return name_of(kErrorNames, v); }
std::string_view to_string(ServedBy v) { return name_of(kServedByNames, v); }
std::string_view to_string(TunePolicy v) { return name_of(kTunePolicyNames, v); }
std::optional<TunePolicy> parse_tune_policy(std::string_view s) { return value_of(kTunePolicyNames, s); }

std::optional<DType> parse_dtype(std::string_view s) { return value_of(kDTypeNames, s); }
std::optional<ComputeType> parse_compute_type(std::string_view s) { return value_of(kComputeNames, s); }
std::optional<Transpose> parse_transpose(std::string_view s) { return value_of(kTransposeNames, s); }
std::optional<Order> parse_order(std::string_view s) { return value_of(kOrderNames, s); }

int size_of(DType type) { return type == DType::F32 ? 4 : 2; }

}  // namespace jitgemm
