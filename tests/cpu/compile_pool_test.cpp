// CompilePool: every job runs once and is handed back, jobs start in index order, cancel() stops new jobs but
// returns the ones under way, and next() ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "tuner/compile_pool.h"

namespace jitgemm {
namespace {

TEST(CompilePool, RunsEveryJobOnceAndHandsItBack) {
    std::atomic<int> calls{0};
    CompilePool<int> pool(50, [&](std::size_t i) {
        ++calls;
        return static_cast<int>(i) * 2;
    }, 4);
    std::set<std::size_t> seen;
    while (auto item = pool.next()) {
        EXPECT_EQ(item->second, static_cast<int>(item->first) * 2);
        EXPECT_TRUE(seen.insert(item->first).second);
    }
    EXPECT_EQ(seen.size(), 50u);
    EXPECT_EQ(calls.load(), 50);
}

TEST(CompilePool, StartsJobsInRankOrder) {
    std::mutex mutex;
    std::vector<std::size_t> order;
    CompilePool<int> pool(20, [&](std::size_t i) {
        std::lock_guard lock(mutex);
        order.push_back(i);
        return 0;
    }, 1);
    while (pool.next()) {
    }
    ASSERT_EQ(order.size(), 20u);
    for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i);
}

// A chooser picks each next job among those not yet started: here always the last, so one thread runs them backwards.
TEST(CompilePool, AChooserPicksEachNextJobFromThoseNotStarted) {
    std::mutex mutex;
    std::vector<std::size_t> order;
    std::size_t smallest_pending = 100;
    CompilePool<int> pool(
        10,
        [&](std::size_t i) {
            std::lock_guard lock(mutex);
            order.push_back(i);
            return 0;
        },
        1,
        [&](const std::vector<std::size_t>& pending) {
            EXPECT_TRUE(std::is_sorted(pending.begin(), pending.end()));
            smallest_pending = std::min(smallest_pending, pending.front());
            return pending.size() - 1;
        });
    int returned = 0;
    while (pool.next()) ++returned;
    EXPECT_EQ(returned, 10);
    ASSERT_EQ(order.size(), 10u);
    for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], 9 - i);
    EXPECT_EQ(smallest_pending, 0u);
    EXPECT_EQ(pool.started(), 10u);
}

TEST(CompilePool, CancelStopsNewJobsAndReturnsTheRunningOnes) {
    // The jobs wait at a gate until the pool is cancelled, so that what runs does not depend on how the machine
    // schedules the threads (with sleeping jobs, a busy CI machine could start ten before the test's thread woke).
    std::mutex mutex;
    std::condition_variable changed;
    int started = 0;
    bool open = false;
    CompilePool<int> pool(1000, [&](std::size_t) {
        std::unique_lock lock(mutex);
        ++started;
        changed.notify_all();
        changed.wait(lock, [&] { return open; });
        return 1;
    }, 2);
    {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return started == 2; });  // both threads inside a job
    }
    pool.cancel();
    {
        std::lock_guard lock(mutex);
        open = true;
    }
    changed.notify_all();
    int returned = 0;
    while (pool.next()) ++returned;
    EXPECT_EQ(returned, 2);  // nothing that started is lost
    EXPECT_EQ(started, 2);   // and nothing started after the cancel
    EXPECT_EQ(pool.started(), 2u);
}

TEST(CompilePool, EmptyPoolEndsAtOnce) {
    CompilePool<int> pool(0, [](std::size_t) { return 0; });
    EXPECT_FALSE(pool.next().has_value());
}

}  // namespace
}  // namespace jitgemm
