// How each record maps to the columns of its table. Each column list here is the only place a query names those
// columns, and the bind_ and read_ functions beside it (record_columns.cpp) visit the fields in that same order.
#pragma once

#include <string>

#include "cache/cache_records.h"
#include "cache/sqlite_handles.h"

namespace jitgemm::cache {

// The six provenance columns that selections, measurements and untuned problems carry.
const std::string& provenance_column_names();        // "library_version, ..., sm_count"
const std::string& provenance_column_definitions();  // the same, with their types, for CREATE TABLE
void bind_provenance(Statement& statement, const Provenance& provenance);
Provenance read_provenance(Statement& statement);

// "device_fingerprint = ? AND problem_key = ? AND library_version = ? AND ...": one problem on one device under
// exactly one provenance, in the tables that are keyed so.
const std::string& problem_match();
void bind_problem(Statement& statement, const std::string& device_fingerprint, const std::string& problem_key,
                  const Provenance& provenance);

const std::string& selection_columns();
void bind_selection(Statement& statement, const SelectionRecord& selection);
SelectionRecord read_selection(Statement& statement);

const std::string& cubin_columns();
void bind_cubin(Statement& statement, const CubinRecord& cubin);
CubinRecord read_cubin(Statement& statement);

const std::string& measurement_columns();
void bind_measurement(Statement& statement, const MeasurementRecord& measurement);
MeasurementRecord read_measurement(Statement& statement);

const std::string& untuned_columns();
void bind_untuned(Statement& statement, const UntunedRecord& untuned);
UntunedRecord read_untuned(Statement& statement);

const std::string& ceiling_columns();
void bind_ceiling(Statement& statement, const CeilingRecord& ceiling);
CeilingRecord read_ceiling(Statement& statement);
// "device_fingerprint = ? AND driver_version = ? AND name = ?": the key of the ceilings table.
const std::string& ceiling_match();
void bind_ceiling_key(Statement& statement, const std::string& device_fingerprint, const std::string& driver_version,
                      const std::string& name);

// "?, ?, ?": one parameter per column of a comma-separated column list.
std::string placeholders(const std::string& columns);
// "a = ? AND b = ? AND c = ?": every column of a comma-separated column list equal to its parameter, so a row
// bound with the list's bind_ function is matched field by field.
std::string column_match(const std::string& columns);

}  // namespace jitgemm::cache
