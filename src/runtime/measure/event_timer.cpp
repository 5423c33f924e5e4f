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

void QueuedTimer::start(CUstream stream) {
    if (used_ == starts_.size()) {
        starts_.push_back(driver::make_timing_event());
        stops_.push_back(driver::make_timing_event());
    }
    JITGEMM_CU_CHECK(driver::api().cuEventRecord(starts_[used_].get(), stream));
}

void QueuedTimer::stop(CUstream stream) {
    JITGEMM_CU_CHECK(driver::api().cuEventRecord(stops_[used_++].get(), stream));
}

std::vector<double> QueuedTimer::collect() {
    std::vector<double> ms;
    if (used_ > 0) JITGEMM_CU_CHECK(driver::api().cuEventSynchronize(stops_[used_ - 1].get()));
    for (std::size_t i = 0; i < used_; ++i) {
        float run = 0.0f;
        JITGEMM_CU_CHECK(driver::api().cuEventElapsedTime(&run, starts_[i].get(), stops_[i].get()));
        ms.push_back(run);
    }
    used_ = 0;
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
