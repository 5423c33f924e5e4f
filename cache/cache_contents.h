// CacheContents: records of a cache held in memory, as an export or a merge carries them from one file to another:
// the whole cache, or the part an export's filter selects.
#pragma once

#include <string>
#include <vector>

#include "cache/cache_records.h"
#include "cache/cache_transfer.h"
#include "cache/tuning_cache.h"

namespace jitgemm::cache {

struct CacheContents {
    std::vector<SelectionRecord> selections;
    std::vector<CubinRecord> cubins;
    std::vector<MeasurementRecord> measurements;
    std::vector<UntunedRecord> untuned;
    std::vector<CeilingRecord> ceilings;
};

// Every record of `source`.
CacheContents read_contents(const TuningCache& source);

// What export_bundle takes for `filter` (cache_transfer.h says what). `consequence` ends the error's sentence.
CacheContents read_selected_contents(const TuningCache& source, const SelectionFilter& filter,
                                     const std::string& consequence);

// Throws Error(CacheError) naming the first selection of `contents` whose cubin is not among its cubins; `source`
// is the file they came from and `consequence` ends the sentence ("nothing was merged into ...").
void require_cubins_of_selections(const CacheContents& contents, const std::string& source,
                                  const std::string& consequence);

}  // namespace jitgemm::cache
