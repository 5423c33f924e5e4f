// The provenance of a search: what a tuned entry of a problem must carry to be used. Its source hash covers the
// kernel families that search the problem — their own sources and the shared headers they include — and the
// reference family the search verifies against, so that editing one family makes stale exactly the entries whose
// search it took part in (a search of a problem it does not compute stays valid; one it competed in is redone, since
// it may now win).
#pragma once

#include <string>

#include "cache/cache_records.h"
#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

// XXH3-128 over the source hashes of the families that search `problem` on `device` and of the reference family.
std::string search_sources_hash(const Problem& problem, const DeviceInfo& device);

// The provenance a search of `problem` made now carries.
cache::Provenance search_provenance(const Problem& problem, const DeviceInfo& device);

// search_provenance for any problem key of this device (nullopt for a key that is not a problem of this version).
cache::CurrentProvenance current_search_provenance(const DeviceInfo& device);

}  // namespace jitgemm
