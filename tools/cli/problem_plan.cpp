// Checking, canonicalizing, merging, ordering and sharding manifest entries.
#include "tools/cli/problem_plan.h"

#include <algorithm>
#include <map>

#include "jitgemm/error.h"
#include "runtime/problem/gemm_call.h"
#include "tuner/families/registry.h"
#include "runtime/device/device_ceilings.h"
#include "runtime/device/roofline.h"

namespace jitgemm::cli {
namespace {

[[noreturn]] void unsupported(const ManifestEntry& e, const std::string& field, const std::string& why) {
    throw Error(ErrorCode::InvalidArgument, "jitgemm: " + e.file + ":" + std::to_string(e.line) + ": field '" +
                                                field + "': " + why + " (" + describe(e) + ")");
}

// The manifest's alignment holds for all three pointers, so it must be a whole number of the widest element: 2
// bytes serves 16-bit operands, never an f32 C beside them.
void check_alignment(const ManifestEntry& e) {
    if (e.alignment == 0 || e.alignment >= 16) return;
    for (const DType type : {e.a_type, e.b_type, e.c_type})
        if (e.alignment % size_of(type) != 0)
            unsupported(e, "alignment", std::to_string(e.alignment) + " bytes is not a multiple of the " +
                                            std::to_string(size_of(type)) + "-byte " + std::string(to_string(type)) +
                                            " elements");
}

void check_supported(const ManifestEntry& e) {
    if (e.layout_b != e.layout_a || e.layout_c != e.layout_a || e.layout_d != e.layout_a)
        unsupported(e, "layout", "A, B, C and D must share one layout");
    // The one rule of which types go together is the API's; D is where C is written, so it has C's type.
    if (const auto why = unsupported_dtypes(e.a_type, e.b_type, e.c_type, e.compute)) unsupported(e, "dtype", *why);
    if (e.d_type != e.c_type) unsupported(e, "dtype", "C and D must have the same type");
    check_alignment(e);
    if (e.epilogue != "none") unsupported(e, "epilogue", "'" + e.epilogue + "' is not supported (only none)");
    if (e.k == 0) unsupported(e, "K", "k = 0 is C = beta * C, which is never tuned");
}

// A stand-in address with exactly the entry's alignment: kernels are specialized for the alignment class, never
// for the address itself.
const void* address_with_alignment(int alignment, std::uintptr_t base) {
    return reinterpret_cast<const void*>(base + (alignment == 0 || alignment >= 16 ? 0 : alignment));
}

// Call only after check_supported(e): the workload's shape has one type for A and B.
Problem canonical_problem(const ManifestEntry& e) {
    const GemmCall call = workload_shape(e).with_minimum_leading_dimensions().call(
        address_with_alignment(e.alignment, 0x10000000), address_with_alignment(e.alignment, 0x20000000),
        const_cast<void*>(address_with_alignment(e.alignment, 0x30000000)));
    try {
        return make_canonical_call(call).problem;
    } catch (const Error& error) {
        unsupported(e, "M/N/K", error.what());
    }
}

}  // namespace

void check_entries(const std::vector<ManifestEntry>& entries) {
    for (const ManifestEntry& e : entries) {
        check_supported(e);
        canonical_problem(e);
    }
}

std::vector<PlannedProblem> plan_problems(const std::vector<ManifestEntry>& entries, const DeviceInfo& device) {
    const DeviceCeilings ceilings = estimate_ceilings(device);
    std::vector<PlannedProblem> plan;
    std::map<std::string, std::size_t> by_key;
    for (const ManifestEntry& e : entries) {
        check_supported(e);
        const Problem p = canonical_problem(e);
        const auto [it, fresh] = by_key.emplace(p.key(), plan.size());
        if (fresh) {
            PlannedProblem planned;
            planned.entry = e;
            planned.problem = p;
            planned.estimated_seconds = roofline_floor_seconds(p, ceilings);
            plan.push_back(planned);
        }
        PlannedProblem& planned = plan[it->second];
        planned.names.push_back(e.name);
        planned.frequency += e.frequency;
    }
    std::stable_sort(plan.begin(), plan.end(), [](const PlannedProblem& x, const PlannedProblem& y) {
        return x.frequency * x.estimated_seconds > y.frequency * y.estimated_seconds;
    });
    return plan;
}

std::vector<PlannedProblem> shard_of(const std::vector<PlannedProblem>& plan, int shard, int shards) {
    if (shards < 1 || shard < 0 || shard >= shards)
        throw Error(ErrorCode::InvalidArgument, "jitgemm: shard " + std::to_string(shard) + "/" +
                                                    std::to_string(shards) + " is not one of 0/N .. (N-1)/N");
    std::vector<PlannedProblem> out;
    for (std::size_t i = static_cast<std::size_t>(shard); i < plan.size(); i += static_cast<std::size_t>(shards))
        out.push_back(plan[i]);
    return out;
}

std::pair<int, int> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    try {
        if (slash == std::string::npos) throw std::invalid_argument("no slash");
        std::size_t used = 0;
        const int i = std::stoi(text.substr(0, slash), &used);
        if (used != slash) throw std::invalid_argument("junk");
        const std::string rest = text.substr(slash + 1);
        const int n = std::stoi(rest, &used);
        if (used != rest.size()) throw std::invalid_argument("junk");
        return {i, n};
    } catch (const std::exception&) {
        throw Error(ErrorCode::InvalidArgument, "jitgemm: --shard \"" + text + "\" is not of the form i/N");
    }
}

GemmShape workload_shape(const ManifestEntry& e) {
    GemmShape s;
    s.order = e.layout_a;
    s.trans_a = e.trans_a;
    s.trans_b = e.trans_b;
    s.m = e.m;
    s.n = e.n;
    s.k = e.k;
    s.alpha = static_cast<float>(e.alpha);
    s.beta = static_cast<float>(e.beta);
    s.alignment = e.alignment;
    s.a_type = s.b_type = e.a_type;  // check_supported has made B the same
    s.c_type = e.c_type;
    s.compute = e.compute;
    s.batch = e.batch;  // strided batched, each GEMM's operands right after the last one's
    return s;
}

}  // namespace jitgemm::cli
