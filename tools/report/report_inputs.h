// What `jitgemm report` draws, gathered from a tuning cache (its tuned entries and the device's measured ceilings)
// and from `jitgemm bench` output files (CSV or JSON: jitgemm and cuBLAS on the same data). No GPU is needed.
#pragma once

#include <string>
#include <vector>

#include "cache/tuning_cache.h"
#include "tools/report/roofline_report.h"

namespace jitgemm::report {

// The report of one device:
// - points: every bench file's problems, then the cache's tuned entries of the device that no bench row measured
//   (the latest entry of each problem, whatever jitgemm version tuned it);
// - roofs: the device's measured ceilings from the cache, else those a bench JSON file states.
// `device` picks the device by a part of its fingerprint ("H200"); empty: the one device the cache has entries for.
// `cache` may be null (bench files alone). Throws Error(InvalidArgument) when the device is ambiguous or unknown, or
// no roofs are known.
ReportData collect_report(const cache::TuningCache* cache, const std::vector<std::string>& bench_files,
                          const std::string& device);

}  // namespace jitgemm::report
