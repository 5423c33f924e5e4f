// Reading a whole cache, or the records an export's filter selects, into memory.
#include "cache/cache_contents.h"

#include <set>
#include <tuple>

#include "jitgemm/error.h"

namespace jitgemm::cache {
namespace {

// What keys selections, measurements and untuned records alike: one problem on one device under one provenance.
using ProblemIdentity =
    std::tuple<std::string, std::string, std::string, std::string, std::string, std::string, std::string, int>;
ProblemIdentity identity(const std::string& device, const std::string& problem, const Provenance& p) {
    return {device,          problem,          p.library_version, p.kernel_sources_hash, p.nvrtc_version,
            p.driver_version, p.device_name, p.sm_count};
}

bool is_empty(const SelectionFilter& filter) {
    return filter.device.empty() && filter.dtype.empty() && filter.shape.empty() && filter.problem.empty();
}

Error missing_cubin(const SelectionRecord& s, const std::string& source, const std::string& consequence) {
    return Error(ErrorCode::CacheError, "jitgemm: the tuning cache " + source +
                                            " holds a selection whose cubin is missing (device " +
                                            s.device_fingerprint + ", problem " + s.problem_key + ", config " +
                                            s.config + ", cubin " + s.cubin_key + "); " + consequence + ".");
}

}  // namespace

CacheContents read_contents(const TuningCache& source) {
    return {source.all_selections(), source.all_cubins(), source.all_measurements(), source.all_untuned(),
            source.all_ceilings()};
}

CacheContents read_selected_contents(const TuningCache& source, const SelectionFilter& filter,
                                     const std::string& consequence) {
    SelectionRecord probe;
    filter.matches(probe);  // rejects a malformed filter even when the cache holds no selection to test it on
    if (is_empty(filter)) {
        CacheContents everything = read_contents(source);
        require_cubins_of_selections(everything, source.path(), consequence);
        return everything;
    }
    CacheContents selected;
    std::set<ProblemIdentity> problems;
    std::set<std::string> devices, cubin_keys, configs;
    for (SelectionRecord& s : source.all_selections()) {
        if (!filter.matches(s)) continue;
        configs.insert(s.config);
        if (cubin_keys.insert(s.cubin_key).second) {
            auto cubin = source.find_cubin(s.cubin_key);
            if (!cubin) throw missing_cubin(s, source.path(), consequence);
            selected.cubins.push_back(std::move(*cubin));
        }
        for (MeasurementRecord& m : source.measurements(s.device_fingerprint, s.problem_key, s.provenance))
            selected.measurements.push_back(std::move(m));
        problems.insert(identity(s.device_fingerprint, s.problem_key, s.provenance));
        devices.insert(s.device_fingerprint);
        selected.selections.push_back(std::move(s));
    }
    // The run-time-shape variants of the selected configurations: they serve the sizes between the tuned ones, with no
    // selection of their own (a variant of the same configuration for another layer comes along too: a few cubins).
    for (CubinRecord& cubin : source.all_cubins())
        if (is_runtime_variant(cubin) && configs.count(std::string(variant_base_config(cubin.config))) != 0 &&
            cubin_keys.insert(cubin.key).second)
            selected.cubins.push_back(std::move(cubin));
    for (UntunedRecord& u : source.all_untuned())
        if (problems.count(identity(u.device_fingerprint, u.problem_key, u.provenance)) != 0)
            selected.untuned.push_back(std::move(u));
    for (CeilingRecord& c : source.all_ceilings())
        if (devices.count(c.device_fingerprint) != 0) selected.ceilings.push_back(std::move(c));
    return selected;
}

void require_cubins_of_selections(const CacheContents& contents, const std::string& source,
                                  const std::string& consequence) {
    std::set<std::string> keys;
    for (const CubinRecord& cubin : contents.cubins) keys.insert(cubin.key);
    for (const SelectionRecord& s : contents.selections)
        if (keys.count(s.cubin_key) == 0) throw missing_cubin(s, source, consequence);
}

}  // namespace jitgemm::cache
