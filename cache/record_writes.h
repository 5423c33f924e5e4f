// Writing records on a connection, inside a transaction the caller holds: the statements TuningCache's methods and
// the merge of another cache (cache_transfer.cpp) have in common, so that both apply the same rules.
#pragma once

#include <string>
#include <vector>

#include "cache/cache_records.h"

struct sqlite3;

namespace jitgemm::cache {

// Stores `cubin` with its content hash unless a sound cubin of the same key is present (an equal key means an
// identical binary). A cubin that fails cubin_record_defect is not stored (Rejected, with the reason); a stored row
// of the same key that fails it is replaced (Repaired), so a good cubin always wins over a bad one.
struct CubinWrite {
    enum Result { Added, Present, Repaired, Rejected } result = Added;
    std::string defect;  // Rejected: why
};
CubinWrite insert_cubin(sqlite3* db, const std::string& path, const CubinRecord& cubin);

// Appends the measurements, in order.
void insert_measurements(sqlite3* db, const std::string& path, const std::vector<MeasurementRecord>& measurements);

// record_tuning's rule, for `candidate` against the selection stored for the same device, problem and provenance:
// a complete search beats an incomplete one; between two of the same completeness the faster wins, and a tie keeps
// the stored one.
enum class StoredSelection { None, Better, Worse };
StoredSelection compare_with_stored(sqlite3* db, const std::string& path, const SelectionRecord& candidate);

// Stores `selection` in place of the one of the same device, problem and provenance, if any.
void replace_selection(sqlite3* db, const std::string& path, const SelectionRecord& selection);

// Stores `untuned` in place of the record of the same device, problem and provenance, if any.
void replace_untuned(sqlite3* db, const std::string& path, const UntunedRecord& untuned);

// Stores `ceiling` in place of the one of the same device, driver and name, if any.
void replace_ceiling(sqlite3* db, const std::string& path, const CeilingRecord& ceiling);

}  // namespace jitgemm::cache
