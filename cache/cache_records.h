// The records of the tuning cache: plain values, shared by the cache (which stores them), the tuner (which makes
// them) and the CLI (which lists, exports and merges them). Nothing here knows SQLite.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace jitgemm::cache {

// What makes a stored result valid for the running system. An entry whose provenance differs from the current one
// is never used and never deleted (it may be right for another machine or version).
struct Provenance {
    std::string library_version;      // jitgemm::version()
    // The source hash of the search: of the kernel families that search the problem (schema 4 on; before, of every
    // kernel source), so that editing one family leaves the entries of problems that other families serve valid.
    std::string kernel_sources_hash;
    std::string nvrtc_version;        // "13.0"
    std::string driver_version;       // "13.0"
    std::string device_name;          // "NVIDIA H200"
    int sm_count = 0;

    friend bool operator==(const Provenance& x, const Provenance& y) {
        return x.library_version == y.library_version && x.kernel_sources_hash == y.kernel_sources_hash &&
               x.nvrtc_version == y.nvrtc_version && x.driver_version == y.driver_version &&
               x.device_name == y.device_name && x.sm_count == y.sm_count;
    }
    friend bool operator!=(const Provenance& x, const Provenance& y) { return !(x == y); }
};

// What the running system accepts as current, problem by problem: the provenance a search of that problem made now
// would carry (its source hash covers the families that search the problem, so it differs between problems). Made
// from one Provenance, every problem has that one; made from a function, nullopt says the problem is not one this
// build knows, and no entry of it is current.
class CurrentProvenance {
public:
    using OfProblem = std::function<std::optional<Provenance>(const std::string& problem_key)>;
    CurrentProvenance() = default;  // nothing is current
    CurrentProvenance(Provenance same_for_every_problem);  // NOLINT: implicit, a Provenance is the common case
    explicit CurrentProvenance(OfProblem of_problem) : of_(std::move(of_problem)) {}

    std::optional<Provenance> of(const std::string& problem_key) const {
        return of_ ? of_(problem_key) : std::nullopt;
    }
    bool is_current(const std::string& problem_key, const Provenance& provenance) const {
        const std::optional<Provenance> current = of(problem_key);
        return current && *current == provenance;
    }

private:
    OfProblem of_;
};

// One line for people: "library 0.1.0, sources 5f3a, NVRTC 13.0, driver 13.0, NVIDIA H200, 132 SMs".
std::string describe(const Provenance& provenance);

// How one candidate's evaluation ended. Failures are data: stored, and never tried again for the same problem,
// device and provenance.
enum class CandidateOutcome {
    Passed,         // compiled, verified, timed
    Invalid,        // rejected after compile (no block fits: cuOccupancyMaxActiveBlocksPerMultiprocessor == 0)
    CompileFailed,  // NVRTC rejected it
    Spilled,        // the compiler spilled registers to local memory
    LaunchFailed,   // the launch or the kernel failed
    Incorrect,      // ran, but its result differs from the reference
    Serialized,     // ptxas serialized its wgmma instructions (warning C7510): correct, but far from the Tensor Cores' rate
};

std::string_view to_string(CandidateOutcome);
std::optional<CandidateOutcome> parse_candidate_outcome(std::string_view);

// The winner of one problem's search on one device.
struct SelectionRecord {
    std::string device_fingerprint;  // DeviceInfo::fingerprint(): "NVIDIA H200/cc9.0/sm132"
    std::string problem_key;         // Problem::key()
    std::string config;              // canonical configuration name of the winner
    std::string cubin_key;           // key of its cubin in the cubin table
    double time_ms = 0.0;            // median time of the winner
    double tflops = 0.0;
    std::int64_t tuned_at_unix = 0;
    double search_seconds = 0.0;     // wall time of the search
    int candidates_measured = 0;     // candidates that reached an outcome
    int candidates_total = 0;        // candidates left after pruning
    bool search_complete = false;    // every candidate left after pruning reached an outcome
    Provenance provenance;
};

// A compiled kernel. The key (KernelProgram::cubin_key) covers the kernel sources, config, arch, NVRTC version and
// options, so an equal key means an identical binary.
struct CubinRecord {
    std::string key;
    std::string arch;           // "sm_90a"
    std::string kernel_symbol;  // "jg_regblock"
    std::string config;
    std::string nvrtc_version;
    std::string kernel_sources_hash;
    std::string image;          // the ELF bytes
    std::int64_t created_at_unix = 0;
    // content_hash_hex(image) when the row was written (cache/cubin_check.h); empty in rows written before schema
    // version 5. The cache sets it on every write.
    std::string image_hash;
};

// The configuration a run-time-shape variant's cubin is recorded under: the configuration's name, this marker and the
// run-time size ("mma_sync_128x128x64_w2x2_s3_g8+runtime-n"; src/dispatch/runtime_shape_variant.h). No selection
// names such a cubin, yet it serves every size of a layer between the tuned ones, so pruning and filtered exports
// keep it.
inline constexpr std::string_view kRuntimeVariantMarker = "+runtime-";
inline bool is_runtime_variant(const CubinRecord& cubin) {
    return cubin.config.find(kRuntimeVariantMarker) != std::string::npos;
}
// The configuration whose variant a cubin is ("mma_sync_128x128x64_w2x2_s3_g8"); the whole name of any other cubin.
inline std::string_view variant_base_config(std::string_view config) {
    return config.substr(0, config.find(kRuntimeVariantMarker));
}

// One candidate's evaluation for one problem.
struct MeasurementRecord {
    std::string device_fingerprint;
    std::string problem_key;
    std::string config;
    CandidateOutcome outcome = CandidateOutcome::Passed;
    double time_ms = 0.0;  // median; 0 unless Passed
    std::string detail;    // why it failed, registers, ...
    Provenance provenance;
    std::int64_t measured_at_unix = 0;
};

// A problem that was served untuned (tuning policy "off"), for offline tuning with `jitgemm tune`.
struct UntunedRecord {
    std::string device_fingerprint;
    std::string problem_key;
    Provenance provenance;
    std::int64_t first_seen_unix = 0;
    std::int64_t last_seen_unix = 0;
    std::int64_t calls = 0;
};

// A measured ceiling of a device ("copy_bytes_per_s", "fp32_flops", ...). It is kept per driver version because a
// driver update can move it, and measured once per driver because measuring takes seconds.
struct CeilingRecord {
    std::string device_fingerprint;
    std::string driver_version;
    std::string name;
    double value = 0.0;
    std::int64_t measured_at_unix = 0;
};

}  // namespace jitgemm::cache
