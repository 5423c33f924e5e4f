// Manifests as CSV: a header line naming the columns (any order, any subset holding M, N and K, names ignoring
// case), then one problem per line; lines starting with '#' and blank lines are skipped anywhere.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "tools/manifest/shape_manifest.h"

namespace jitgemm::manifest {

// All problems of a CSV manifest, or an exception for the first malformed line (the caller has checked that the
// text is not blank).
std::vector<ManifestEntry> read_csv_manifest(std::string_view text, const std::string& file);

// Every field the table writes, as columns in table order, then one line per entry.
void write_csv_manifest(const std::vector<ManifestEntry>& entries, std::ostream& out);

}  // namespace jitgemm::manifest
