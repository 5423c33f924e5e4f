// Source hashes of searches, from the registry's families.
#include "tuner/search_provenance.h"

#include <map>
#include <set>

#include "cache/content_hash.h"
#include "runtime/compile/kernel_sources.h"
#include "runtime/compile/provenance.h"
#include "tuner/families/registry.h"

namespace jitgemm {

std::string search_sources_hash(const Problem& problem, const DeviceInfo& device) {
    std::map<std::string_view, std::string_view> headers;  // family name -> kernel header, in name order
    headers.emplace(ReferenceConfig::kName, ReferenceConfig::kSourceHeader);
    for_each_family([&](auto tag) {
        using Family = decltype(tag);
        if (!Family::enumerate(problem, device).empty()) headers.emplace(Family::kName, Family::kSourceHeader);
    });
    std::string all;
    for (const auto& [name, header] : headers) {
        all.append(name).push_back('=');
        all.append(source_hash(header)).push_back(';');
    }
    return content_hash_hex(all);
}

cache::Provenance search_provenance(const Problem& problem, const DeviceInfo& device) {
    return current_provenance(device, search_sources_hash(problem, device));
}

cache::CurrentProvenance current_search_provenance(const DeviceInfo& device) {
    return cache::CurrentProvenance([device](const std::string& key) -> std::optional<cache::Provenance> {
        const std::optional<Problem> problem = Problem::parse_key(key);
        if (!problem) return std::nullopt;
        return search_provenance(*problem, device);
    });
}

}  // namespace jitgemm
