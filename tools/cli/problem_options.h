// The command-line options that name problems, shared by `jitgemm tune` and `jitgemm bench`: one problem from flags
// (--m --n --k ...) or many from --manifest FILE (CSV or JSON, see manifest/shape_manifest.h).
#pragma once

#include <boost/program_options.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "tools/manifest/shape_manifest.h"

namespace jitgemm::cli {

void add_problem_options(boost::program_options::options_description& options);

// The sizes --m names: one, or for a range FIRST-LAST (a layer whose M changes every call) FIRST, the powers of two
// between and LAST. Throws Error(InvalidArgument) for other text.
std::vector<std::int64_t> m_values(const std::string& text);
// Whether --m names a range of sizes.
bool m_is_range(const boost::program_options::variables_map& vm);

// The entries the options name (one per size of an --m range). Throws Error(InvalidArgument) for a malformed manifest
// or flags, and when neither a manifest nor --m/--n/--k is given.
std::vector<ManifestEntry> problem_entries(const boost::program_options::variables_map& vm);

}  // namespace jitgemm::cli
