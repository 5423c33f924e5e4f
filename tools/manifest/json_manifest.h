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

}  // namespace jitgemm::manifest
