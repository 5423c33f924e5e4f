// Event timing and medians.
#include "runtime/measure/event_timer.h"

#include <algorithm>

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"

namespace jitgemm {

EventTimer::EventTimer() : start_(driver::make_timing_event()), stop_(driver::make_timing_event()) {}

void EventTimer::start(CUstream stream) { JITGEMM_CU_CHECK(driver::api().cuEventRecord(start_.get(), stream)); }
void EventTimer::stop(CUstream stream) { JITGEMM_CU_CHECK(driver::api().cuEventRecord(stop_.get(), stream)); }

float EventTimer::elapsed_ms() const {
    JITGEMM_CU_CHECK(driver::api().cuEventSynchronize(stop_.get()));
    float ms = 0.0f;
    JITGEMM_CU_CHECK(driver::api().cuEventElapsedTime(&ms, start_.get(), stop_.get()));
    return ms;
}

double median(std::vector<double> samples) {
    if (samples.empty()) return 0.0;
    const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
    std::nth_element(samples.begin(), middle, samples.end());
    if (samples.size() % 2 == 1) return *middle;
    const double upper = *middle;
    return (upper + *std::max_element(samples.begin(), middle)) / 2;
}

}  // namespace jitgemm
