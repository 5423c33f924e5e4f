// BackgroundTuner: TunePolicy::Background's worker. A call that misses launches the heuristic default and queues
// its problem here; one thread tunes queued problems in turn (in the caller's context, on its own stream) and swaps
// each winner into the KernelStore, so later calls launch it. At exit the queue is dropped and the running search is
// waited for.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <thread>

#include "dispatch/kernel_store.h"
#include "tuner/tune_options.h"

namespace jitgemm {

class BackgroundTuner {
public:
    static BackgroundTuner& global();
    ~BackgroundTuner();

    // Queues `key` unless it is queued or being tuned.
    void submit(const KernelKey& key, const TuneOptions& options);
    // Returns once the queue is empty and no search runs.
    void wait_idle();

private:
    BackgroundTuner() = default;
    void work();

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::pair<KernelKey, TuneOptions>> queue_;
    std::set<std::string> pending_;  // keys queued or running, by text
    bool running_ = false;
    bool stopping_ = false;
    std::thread worker_;
};

}  // namespace jitgemm
