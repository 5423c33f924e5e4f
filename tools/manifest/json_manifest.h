// Manifests as JSON: an array of problem objects, or {"problems": [...]}; keys are the field names (ignoring case),
// values JSON numbers or strings (a string holding a number is read like the number).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tools/manifest/shape_manifest.h"

namespace jitgemm::manifest {

// All problems of a JSON manifest, or an exception for the first syntax error or bad field.
std::vector<ManifestEntry> read_json_manifest(std::string_view text, const std::string& file);

// Entries as a JSON manifest, {"problems": [{field: text, ...}]}, every field of the table written as the text the
// CSV writer gives it, so read_json_manifest reads it back equal (same_problem). Written by nlohmann-json.
std::string write_json_manifest(const std::vector<ManifestEntry>& entries);

}  // namespace jitgemm::manifest
