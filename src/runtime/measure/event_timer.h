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

// Median of a non-empty sample (copies it).
double median(std::vector<double> samples);

}  // namespace jitgemm
