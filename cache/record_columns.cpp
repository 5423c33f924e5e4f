// The column lists of the records and the functions that bind and read them in list order.
#include "cache/record_columns.h"

#include <algorithm>

namespace jitgemm::cache {
namespace {

struct Column {
    const char* name;
    const char* type;
};
// In the order bind_provenance and read_provenance visit the fields.
constexpr Column kProvenanceColumns[] = {
    {"library_version", "TEXT"}, {"kernel_sources_hash", "TEXT"}, {"nvrtc_version", "TEXT"},
    {"driver_version", "TEXT"},  {"device_name", "TEXT"},         {"sm_count", "INTEGER"},
};

template <typename Format>
std::string each_provenance_column(const char* separator, Format format) {
    std::string out;
    for (const Column& column : kProvenanceColumns) out += (out.empty() ? "" : separator) + format(column);
    return out;
}

}  // namespace

const std::string& provenance_column_names() {
    static const std::string names = each_provenance_column(", ", [](const Column& c) { return std::string(c.name); });
    return names;
}

const std::string& provenance_column_definitions() {
    static const std::string definitions =
        each_provenance_column(", ", [](const Column& c) { return std::string(c.name) + " " + c.type + " NOT NULL"; });
    return definitions;
}

void bind_provenance(Statement& statement, const Provenance& provenance) {
    statement.bind_text(provenance.library_version)
        .bind_text(provenance.kernel_sources_hash)
        .bind_text(provenance.nvrtc_version)
        .bind_text(provenance.driver_version)
        .bind_text(provenance.device_name)
        .bind_int(provenance.sm_count);
}

Provenance read_provenance(Statement& statement) {
    Provenance provenance;
    provenance.library_version = statement.column_text();
    provenance.kernel_sources_hash = statement.column_text();
    provenance.nvrtc_version = statement.column_text();
    provenance.driver_version = statement.column_text();
    provenance.device_name = statement.column_text();
    provenance.sm_count = static_cast<int>(statement.column_int());
    return provenance;
}

const std::string& problem_match() {
    static const std::string match =
        "device_fingerprint = ? AND problem_key = ? AND " +
        each_provenance_column(" AND ", [](const Column& c) { return std::string(c.name) + " = ?"; });
    return match;
}

void bind_problem(Statement& statement, const std::string& device_fingerprint, const std::string& problem_key,
                  const Provenance& provenance) {
    statement.bind_text(device_fingerprint).bind_text(problem_key);
    bind_provenance(statement, provenance);
}

const std::string& selection_columns() {
    static const std::string columns =
        "device_fingerprint, problem_key, config, cubin_key, time_ms, tflops, tuned_at, search_seconds, "
        "candidates_measured, candidates_total, search_complete, " +
        provenance_column_names();
    return columns;
}

void bind_selection(Statement& statement, const SelectionRecord& selection) {
    statement.bind_text(selection.device_fingerprint)
        .bind_text(selection.problem_key)
        .bind_text(selection.config)
        .bind_text(selection.cubin_key)
        .bind_real(selection.time_ms)
        .bind_real(selection.tflops)
        .bind_int(selection.tuned_at_unix)
        .bind_real(selection.search_seconds)
        .bind_int(selection.candidates_measured)
        .bind_int(selection.candidates_total)
        .bind_int(selection.search_complete ? 1 : 0);
    bind_provenance(statement, selection.provenance);
}

SelectionRecord read_selection(Statement& statement) {
    SelectionRecord selection;
    selection.device_fingerprint = statement.column_text();
    selection.problem_key = statement.column_text();
    selection.config = statement.column_text();
    selection.cubin_key = statement.column_text();
    selection.time_ms = statement.column_real();
    selection.tflops = statement.column_real();
    selection.tuned_at_unix = statement.column_int();
    selection.search_seconds = statement.column_real();
    selection.candidates_measured = static_cast<int>(statement.column_int());
    selection.candidates_total = static_cast<int>(statement.column_int());
    selection.search_complete = statement.column_int() != 0;
    selection.provenance = read_provenance(statement);
    return selection;
}

const std::string& cubin_columns() {
    static const std::string columns =
        "key, arch, kernel_symbol, config, nvrtc_version, kernel_sources_hash, image, created_at, image_hash";
    return columns;
}

void bind_cubin(Statement& statement, const CubinRecord& cubin) {
    statement.bind_text(cubin.key)
        .bind_text(cubin.arch)
        .bind_text(cubin.kernel_symbol)
        .bind_text(cubin.config)
        .bind_text(cubin.nvrtc_version)
        .bind_text(cubin.kernel_sources_hash)
        .bind_blob(cubin.image)
        .bind_int(cubin.created_at_unix)
        .bind_text(cubin.image_hash);
}

CubinRecord read_cubin(Statement& statement) {
    CubinRecord cubin;
    cubin.key = statement.column_text();
    cubin.arch = statement.column_text();
    cubin.kernel_symbol = statement.column_text();
    cubin.config = statement.column_text();
    cubin.nvrtc_version = statement.column_text();
    cubin.kernel_sources_hash = statement.column_text();
    cubin.image = statement.column_blob();
    cubin.created_at_unix = statement.column_int();
    cubin.image_hash = statement.column_text();
    return cubin;
}

const std::string& measurement_columns() {
    static const std::string columns = "device_fingerprint, problem_key, config, outcome, time_ms, detail, " +
                                       provenance_column_names() + ", measured_at";
    return columns;
}

void bind_measurement(Statement& statement, const MeasurementRecord& measurement) {
    statement.bind_text(measurement.device_fingerprint)
        .bind_text(measurement.problem_key)
        .bind_text(measurement.config)
        .bind_text(to_string(measurement.outcome))
        .bind_real(measurement.time_ms)
        .bind_text(measurement.detail);
    bind_provenance(statement, measurement.provenance);
    statement.bind_int(measurement.measured_at_unix);
}

MeasurementRecord read_measurement(Statement& statement) {
    MeasurementRecord measurement;
    measurement.device_fingerprint = statement.column_text();
    measurement.problem_key = statement.column_text();
    measurement.config = statement.column_text();
    const std::string outcome = statement.column_text();
    const auto parsed = parse_candidate_outcome(outcome);
    if (!parsed)
        throw Error(ErrorCode::CacheError, "jitgemm: the tuning cache " + statement.path() +
                                               " holds a measurement with the unknown outcome \"" + outcome + "\".");
    measurement.outcome = *parsed;
    measurement.time_ms = statement.column_real();
    measurement.detail = statement.column_text();
    measurement.provenance = read_provenance(statement);
    measurement.measured_at_unix = statement.column_int();
    return measurement;
}

const std::string& untuned_columns() {
    static const std::string columns =
        "device_fingerprint, problem_key, " + provenance_column_names() + ", first_seen, last_seen, calls";
    return columns;
}

void bind_untuned(Statement& statement, const UntunedRecord& untuned) {
    statement.bind_text(untuned.device_fingerprint).bind_text(untuned.problem_key);
    bind_provenance(statement, untuned.provenance);
    statement.bind_int(untuned.first_seen_unix).bind_int(untuned.last_seen_unix).bind_int(untuned.calls);
}

UntunedRecord read_untuned(Statement& statement) {
    UntunedRecord untuned;
    untuned.device_fingerprint = statement.column_text();
    untuned.problem_key = statement.column_text();
    untuned.provenance = read_provenance(statement);
    untuned.first_seen_unix = statement.column_int();
    untuned.last_seen_unix = statement.column_int();
    untuned.calls = statement.column_int();
    return untuned;
}

namespace {
constexpr char kCeilingKeyColumns[] = "device_fingerprint, driver_version, name";  // the table's primary key
}  // namespace

const std::string& ceiling_columns() {
    static const std::string columns = std::string(kCeilingKeyColumns) + ", value, measured_at";
    return columns;
}

void bind_ceiling(Statement& statement, const CeilingRecord& ceiling) {
    bind_ceiling_key(statement, ceiling.device_fingerprint, ceiling.driver_version, ceiling.name);
    statement.bind_real(ceiling.value).bind_int(ceiling.measured_at_unix);
}

CeilingRecord read_ceiling(Statement& statement) {
    CeilingRecord ceiling;
    ceiling.device_fingerprint = statement.column_text();
    ceiling.driver_version = statement.column_text();
    ceiling.name = statement.column_text();
    ceiling.value = statement.column_real();
    ceiling.measured_at_unix = statement.column_int();
    return ceiling;
}

const std::string& ceiling_match() {
    static const std::string match = column_match(kCeilingKeyColumns);
    return match;
}

void bind_ceiling_key(Statement& statement, const std::string& device_fingerprint, const std::string& driver_version,
                      const std::string& name) {
    statement.bind_text(device_fingerprint).bind_text(driver_version).bind_text(name);
}

std::string placeholders(const std::string& columns) {
    const auto count = 1 + std::count(columns.begin(), columns.end(), ',');
    std::string out = "?";
    for (int i = 1; i < count; ++i) out += ", ?";
    return out;
}

std::string column_match(const std::string& columns) {
    std::string match;
    std::size_t start = 0;
    while (start < columns.size()) {
        std::size_t end = columns.find(',', start);
        if (end == std::string::npos) end = columns.size();
        const std::size_t first = columns.find_first_not_of(' ', start);
        match += (match.empty() ? "" : " AND ") + columns.substr(first, end - first) + " = ?";
        start = end + 1;
    }
    return match;
}

}  // namespace jitgemm::cache
