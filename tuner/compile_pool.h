// CompilePool: NVRTC compiles of a ranked candidate list on a pool of threads sized to the machine. Candidates are
// started in rank order (likely winners first), or in the order a chooser picks from those not yet started (the
// tuner's: what the measurements so far make most promising), and handed back in the order they finish, so the GPU
// can measure one while others compile. cancel() stops starting new compiles; those under way finish and are still
// returned.
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
    // Given the indices not yet started (never empty, in index order), the position in it of the one to start next.
    // Called under the pool's lock, by the thread about to start it.
    using Choose = std::function<std::size_t(const std::vector<std::size_t>& pending)>;

    // Runs job(0), job(1), ... job(count - 1) on `threads` threads (0: one per hardware thread), in that order, or in
    // the order `choose` picks.
    CompilePool(std::size_t count, Job job, unsigned threads = 0, Choose choose = nullptr)
        : count_(count), job_(std::move(job)), choose_(std::move(choose)) {
        pending_.reserve(count);
        for (std::size_t i = 0; i < count; ++i) pending_.push_back(i);
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

    // Threads compiling.
    unsigned threads() const { return static_cast<unsigned>(workers_.size()); }

    // Jobs started so far.
    std::size_t started() const {
        std::lock_guard lock(mutex_);
        return count_ - pending_.size();
    }

private:
    bool drained() const { return running_ == 0 && (cancelled_ || pending_.empty()); }

    void work() {
        while (true) {
            std::size_t index;
            {
                std::lock_guard lock(mutex_);
                if (cancelled_ || pending_.empty()) break;
                const std::size_t at = choose_ ? std::min(choose_(pending_), pending_.size() - 1) : 0;
                index = pending_[at];
                pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(at));
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
    Choose choose_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    bool cancelled_ = false;
    std::vector<std::size_t> pending_;  // not started, in index order
    std::size_t running_ = 0;
    std::deque<std::pair<std::size_t, Result>> finished_;
    std::vector<std::thread> workers_;
};

}  // namespace jitgemm
