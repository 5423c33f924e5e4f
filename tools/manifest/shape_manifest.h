// Shape manifests: the list of GEMM problems that `jitgemm tune --manifest FILE` pre-tunes, read from CSV or JSON.
//
// Both formats use the same field names (the table in manifest_fields.cpp is the one place that names them, gives
// their defaults and parses them). Reading is all or nothing: one malformed value anywhere throws, naming the file,
// the line and the field, so an operator never pre-warms half a list without noticing.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "jitgemm/types.h"

namespace jitgemm {

// One problem of a manifest. The defaults are those of a missing column or key (the public list is row-major
// fp32 with alpha = 1, beta = 0); the field table's default texts parse to exactly these, a test checks it.
struct ManifestEntry {
    std::string name;  // never empty after reading: the reader fills in "MxNxK"
    std::int64_t m = 0, n = 0, k = 0, batch = 1;
    Transpose trans_a = Transpose::No, trans_b = Transpose::No;
    Order layout_a = Order::RowMajor, layout_b = Order::RowMajor, layout_c = Order::RowMajor,
          layout_d = Order::RowMajor;
    DType a_type = DType::F32, b_type = DType::F32, c_type = DType::F32, d_type = DType::F32;
    ComputeType compute = ComputeType::F32;
    double alpha = 1.0, beta = 0.0;
    std::string epilogue = "none";  // kept as written; the tuner rejects what it cannot do
    int alignment = 0;              // bytes; 0 is natural, whatever the allocator gives
    std::int64_t workspace_limit = 0;  // bytes
    double frequency = 1.0;            // relative weight of this problem, > 0
    // Where it was read: for messages.
    std::string file;
    int line = 0;
};

// Reads a whole manifest: CSV if the name ends in .csv, JSON if .json, else by its first non-blank character
// ('[' or '{' is JSON, anything else CSV). Throws Error(InvalidArgument) for an unreadable file, an empty one, one
// without problems, or any malformed line, e.g.
//   "jitgemm: shapes.csv:7: field 'K': \"12x\" is not an integer"
// and returns nothing from a half-read file.
std::vector<ManifestEntry> read_manifest(const std::string& path);

// The same from text already in memory; `name` is used in messages and picks the format like a file name.
std::vector<ManifestEntry> parse_manifest(const std::string& text, const std::string& name);

// Writes entries as CSV with every field as a column (a header, then one line each), which read_manifest reads back
// equal (same_problem). Throws Error(InvalidArgument) for a text field holding a line break, which CSV lines cannot.
void write_manifest_csv(const std::vector<ManifestEntry>& entries, std::ostream& out);

// One line for logs: "decode_m1 (1x4096x4096, n n, row, f32, freq 1)"; fields away from their defaults are added
// before the frequency, and layouts or dtypes that differ between operands are shown as A/B/C/D.
std::string describe(const ManifestEntry& entry);

// Equal in every field of the problem; where it was read (file, line) does not count.
bool same_problem(const ManifestEntry& x, const ManifestEntry& y);

}  // namespace jitgemm
