// The background tuning thread.
#include "dispatch/background_tuner.h"
#include "log/log.h"

#include <iostream>

#include "dispatch/kernel_builder.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/error.h"

namespace jitgemm {
namespace {

std::string text_of(const KernelKey& key) {
    return std::to_string(reinterpret_cast<std::uintptr_t>(key.context)) + "|" + key.problem.key();
}

}  // namespace

BackgroundTuner& BackgroundTuner::global() {
    static BackgroundTuner tuner;
    return tuner;
}

BackgroundTuner::~BackgroundTuner() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    changed_.notify_all();
    if (worker_.joinable()) worker_.join();
}

void BackgroundTuner::submit(const KernelKey& key, const TuneOptions& options) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ || !pending_.insert(text_of(key)).second) return;
        queue_.emplace_back(key, options);
        if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    }
    changed_.notify_all();
}

void BackgroundTuner::wait_idle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return queue_.empty() && !running_; });
}

void BackgroundTuner::work() {
    while (true) {
        std::pair<KernelKey, TuneOptions> job;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            job = std::move(queue_.front());
            queue_.pop_front();
            running_ = true;
        }
        const KernelKey& key = job.first;
        try {
            JITGEMM_CU_CHECK(driver::api().cuCtxSetCurrent(key.context));
            BuiltKernel searched = search_once(key, job.second);
            if (searched.kernel) KernelStore::global().replace(key, std::move(searched.kernel));
        } catch (const std::exception& e) {
            log::warn("background tuning of " + key.problem.key() + " failed: " + e.what());
        }
        {
            std::lock_guard lock(mutex_);
            running_ = false;
            pending_.erase(text_of(key));
        }
        changed_.notify_all();
    }
}

}  // namespace jitgemm
