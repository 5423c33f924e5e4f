// CompilePool: NVRTC compiles of a ranked candidate list on a pool of threads sized to the machine. Candidates are
// started in rank order (likely winners first) and handed back in the order they finish, so the GPU can measure
// one while others compile. cancel() stops starting new compiles; those under way finish and are still returned.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace jitgemm {

template <typename Result>
class CompilePool {
public:
    using Job = std::function<Result(std::size_t index)>;

    // Runs job(0), job(1), ... job(count - 1) on `threads` threads (0: one per hardware thread).
    CompilePool(std::size_t count, Job job, unsigned threads = 0) : count_(count), job_(std::move(job)) {
        if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
        threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(count, 1)));
        for (unsigned t = 0; t < threads; ++t) workers_.emplace_back([this] { work(); });
    }
    ~CompilePool() {
        cancel();
        for (auto& w : workers_) w.join();
    }
    CompilePool(const CompilePool&) = delete;
    CompilePool& operator=(const CompilePool&) = delete;

    void cancel() {
        {
            std::lock_guard lock(mutex_);
            cancelled_ = true;
        }
        changed_.notify_all();
    }

    // The next finished (index, result), waiting for one; nullopt once every started job has been handed back and
    // no more will start.
    std::optional<std::pair<std::size_t, Result>> next() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !finished_.empty() || drained(); });
        if (finished_.empty()) return std::nullopt;
        auto item = std::move(finished_.front());
        finished_.pop_front();
        return item;
    }

    // Jobs started so far.
    std::size_t started() const {
        std::lock_guard lock(mutex_);
        return next_index_;
    }

private:
    bool drained() const { return running_ == 0 && (cancelled_ || next_index_ >= count_); }

    void work() {
        while (true) {
            std::size_t index;
            {
                std::lock_guard lock(mutex_);
                if (cancelled_ || next_index_ >= count_) break;
                index = next_index_++;
                ++running_;
            }
            Result result = job_(index);
            {
                std::lock_guard lock(mutex_);
                finished_.emplace_back(index, std::move(result));
                --running_;
            }
            changed_.notify_all();
        }
        changed_.notify_all();
    }

    const std::size_t count_;
    Job job_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    bool cancelled_ = false;
    std::size_t next_index_ = 0, running_ = 0;
    std::deque<std::pair<std::size_t, Result>> finished_;
    std::vector<std::thread> workers_;
};

}  // namespace jitgemm
