// From manifest entries to the work of `jitgemm tune` and `jitgemm bench`: each entry checked against what this
// build supports (an entry it cannot serve is an error naming its file, line and field, before anything runs),
// turned into its canonical Problem, duplicates merged (frequencies summed), ordered by frequency x estimated time
// (so an interrupted pre-warm has done the most valuable work), and split into shards for job arrays.
#pragma once

#include <string>
#include <vector>

#include "runtime/device/device_info.h"
#include "tools/manifest/shape_manifest.h"
#include "runtime/problem/problem.h"
#include "tools/verify/gemm_workload.h"

namespace jitgemm::cli {

struct PlannedProblem {
    ManifestEntry entry;              // the first entry of the problem
    std::vector<std::string> names;   // every entry merged into it
    Problem problem;                  // canonical
    double frequency = 0.0;           // summed over the merged entries
    double estimated_seconds = 0.0;   // the roofline floor on the device
};

// Checks every entry as plan_problems does, without a device: run before the GPU is touched, so a manifest this
// build cannot serve is a usage error on any machine. Throws Error(InvalidArgument) at the first unsupported entry.
void check_entries(const std::vector<ManifestEntry>& entries);

// Throws Error(InvalidArgument) at the first unsupported entry (mixed layouts, a dtype combination that
// unsupported_dtypes() refuses, D of another type than C, an epilogue, ...), naming it.
std::vector<PlannedProblem> plan_problems(const std::vector<ManifestEntry>& entries, const DeviceInfo& device);

// Problem i of every n goes to shard i ("--shard i/N", 0-based, round-robin over the ordered list so each shard gets
// a fair share of the heavy problems). Throws Error(InvalidArgument) for a shard outside 0..N-1.
std::vector<PlannedProblem> shard_of(const std::vector<PlannedProblem>& plan, int shard, int shards);

// Parses "i/N".
std::pair<int, int> parse_shard(const std::string& text);

// The benchmark's operands for an entry: its order, transposes, sizes, scalars, alignment, dtypes and compute type.
GemmShape workload_shape(const ManifestEntry& entry);

}  // namespace jitgemm::cli
