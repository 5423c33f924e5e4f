// The command-line options that name problems, shared by `jitgemm tune` and `jitgemm bench`: one problem from flags
// (--m --n --k ...) or many from --manifest FILE (CSV or JSON, see manifest/shape_manifest.h).
#pragma once

#include <boost/program_options.hpp>

#include <vector>

#include "tools/manifest/shape_manifest.h"

namespace jitgemm::cli {

void add_problem_options(boost::program_options::options_description& options);

// The entries the options name. Throws Error(InvalidArgument) for a malformed manifest or flags, and when neither
// a manifest nor --m/--n/--k is given.
std::vector<ManifestEntry> problem_entries(const boost::program_options::variables_map& vm);

}  // namespace jitgemm::cli
