// Times device work with a pair of CUDA events, and takes medians of repeated timings.

#pragma once

#include <vector>

#include "runtime/driver/driver_handles.h"

namespace jitgemm {

class EventTimer {
public:
    EventTimer();
    void start(CUstream stream);
    void stop(CUstream stream);
    // Waits for the stop event; milliseconds between start and stop.
    float elapsed_ms() const;

private:
    driver::EventHandle start_, stop_;
};

// Times runs of device work queued back to back, each between its own pair of events, with one wait for all of them:
// the host's round trip after every run would otherwise leave the device idle between runs, a cost like that of a
// whole run for kernels of a few microseconds. What each run measures is unchanged: its events sit in the stream
// around it alone.
class QueuedTimer {
public:
    // Around one run; events are made as runs need them and kept for the next batch.
    void start(CUstream stream);
    void stop(CUstream stream);
    // Waits for the last run; the milliseconds of each run since the last collect(), in order.
    std::vector<double> collect();

private:
    std::vector<driver::EventHandle> starts_, stops_;
    std::size_t used_ = 0;
};

// Median of a non-empty sample (copies it).
double median(std::vector<double> samples);

}  // namespace jitgemm
