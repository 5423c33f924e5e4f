// The sanity of measured values that arrive from another file (import, merge): a time that is not a finite
// positive number, or counts that contradict each other, would win or lose comparisons it has no right to (an
// imported time_ms of -1e300 replaced a good selection). Rows that fail are not copied; the transfer reports them.
#pragma once

#include <optional>
#include <string>

#include "cache/cache_records.h"

namespace jitgemm::cache {

// Why the record's values cannot be true, or nullopt.
std::optional<std::string> selection_defect(const SelectionRecord& selection);
std::optional<std::string> measurement_defect(const MeasurementRecord& measurement);
std::optional<std::string> ceiling_defect(const CeilingRecord& ceiling);

}  // namespace jitgemm::cache
