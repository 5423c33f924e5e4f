// Recorded GPU measurements of named configurations (bench/results/*-measured-rows.txt, written by
// bench/collect_measured_rows.py from fixed-row logs) and how well the cost model orders them, without a GPU. The
// model only ranks candidates for the tuner to measure, so what matters is the order: for two configurations of one
// problem whose measured times differ by more than the noise, does the model put the faster first; and the model's
// own pick among a problem's rows, how much slower it ran than the fastest.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "runtime/device/device_ceilings.h"
#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"

namespace jitgemm::testing {

struct MeasuredRow {
    Problem problem;
    std::string config;
    double microseconds = 0.0;
};

struct MeasuredRows {
    DeviceInfo device;         // the profile of the file's device (an H100 only, so far)
    DeviceCeilings ceilings;   // as measured there (the file's header), L2 and shared memory derived as on the device
    std::vector<MeasuredRow> rows;
};

// Throws std::runtime_error on a file that is missing or malformed, or names a GPU without a profile here.
MeasuredRows read_measured_rows(const std::string& path);

struct RankingScore {
    int problems = 0;          // with two rows or more
    int pairs = 0;             // pairs of rows of one problem whose times differ by more than `noise`
    double ordered = 0.0;      // of those, ordered as measured (a tie in the model counts a half)
    double pick_slowdown = 0.0;  // geometric mean over problems: the model's fastest row's time / the fastest time
    int unestimated = 0;       // rows whose configuration does not parse or is invalid for its problem
    double ordered_share() const { return pairs > 0 ? ordered / pairs : 0.0; }
};

// Scores the registry's cost model on `rows`; where `detail` is given, prints each problem's rows (measured and
// estimated) to it.
RankingScore score_ranking(const MeasuredRows& rows, double noise = 0.03, std::FILE* detail = nullptr);

}  // namespace jitgemm::testing
