// Turns between processes (tuner/search_turns.h): a second holder waits for the first, and gives up when its wait
// runs out; a killed holder leaves no stale turn; search turns are per cache file and problem; the lock directory is
// refused when it is a symbolic link or others may write it.
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "cache/cache_stack.h"
#include "support/device_profiles.h"
#include "support/process.h"
#include "tuner/search_turns.h"

namespace jitgemm {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A child process that takes the turn of `file`, says so through a pipe, and holds it for `hold` (or until killed).
pid_t holder(const std::filesystem::path& file, milliseconds hold) {
    int ready[2];
    if (pipe(ready) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = fork();
    if (pid == 0) {
        close(ready[0]);
        std::optional<Turn> turn = take_turn(file, milliseconds(0));
        const char held = turn && turn->held() ? 'y' : 'n';
        if (write(ready[1], &held, 1) != 1) _exit(2);
        std::this_thread::sleep_for(hold);
        _exit(0);
    }
    close(ready[1]);
    char held = 'n';
    const bool told = read(ready[0], &held, 1) == 1;
    close(ready[0]);
    if (!told || held != 'y') throw std::runtime_error("the holder could not take the turn");
    return pid;
}

int exit_status(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

TEST(SearchTurns, SecondHolderWaitsForTheFirstAndGivesUpWhenItsWaitRunsOut) {
    testing::TemporaryDirectory dir;
    const std::filesystem::path file = dir.file("turn.lock");
    const auto start = Clock::now();
    const pid_t pid = holder(file, milliseconds(600));
    EXPECT_FALSE(take_turn(file, milliseconds(50)).has_value()) << "taken while another process held it";
    const std::optional<Turn> turn = take_turn(file, milliseconds(10000));
    ASSERT_TRUE(turn.has_value());
    EXPECT_TRUE(turn->held());
    EXPECT_TRUE(turn->waited());
    EXPECT_GE(Clock::now() - start, milliseconds(550)) << "taken before the holder let go";
    EXPECT_EQ(exit_status(pid), 0);
    // Free now: taken at once, without waiting.
    const std::optional<Turn> again = take_turn(dir.file("other.lock"), milliseconds(0));
    ASSERT_TRUE(again.has_value());
    EXPECT_FALSE(again->waited());
}

TEST(SearchTurns, KilledHolderLeavesNoStaleTurn) {
    testing::TemporaryDirectory dir;
    const std::filesystem::path file = dir.file("turn.lock");
    const pid_t pid = holder(file, milliseconds(60000));
    EXPECT_FALSE(take_turn(file, milliseconds(20)).has_value());
    kill(pid, SIGKILL);
    exit_status(pid);
    const std::optional<Turn> turn = take_turn(file, milliseconds(2000));
    ASSERT_TRUE(turn.has_value());
    EXPECT_TRUE(turn->held());
}

TEST(SearchTurns, ThreadsOfOneProcessTakeTurnsToo) {
    // Each take opens its own file description, so two threads (a background search and a call's) exclude each
    // other like two processes.
    testing::TemporaryDirectory dir;
    const std::filesystem::path file = dir.file("turn.lock");
    std::optional<Turn> first = take_turn(file, milliseconds(0));
    ASSERT_TRUE(first && first->held());
    std::thread release([&] {
        std::this_thread::sleep_for(milliseconds(300));
        first.reset();
    });
    const auto start = Clock::now();
    const std::optional<Turn> second = take_turn(file, milliseconds(10000));
    EXPECT_GE(Clock::now() - start, milliseconds(250));
    release.join();
    ASSERT_TRUE(second.has_value());
    EXPECT_TRUE(second->waited());
}

class ScopedLockDirectory {
public:
    explicit ScopedLockDirectory(const std::string& path) { setenv("JITGEMM_LOCK_DIR", path.c_str(), 1); }
    ~ScopedLockDirectory() { unsetenv("JITGEMM_LOCK_DIR"); }
};

Problem square(std::int64_t size) {
    Problem p;
    p.m = p.n = p.k = size;
    p.lda = p.ldb = p.ldc = size;
    p.align_a = p.align_b = p.align_c = 16;
    return p;
}

TEST(SearchTurns, SearchTurnIsPerCacheFileAndProblem) {
    testing::TemporaryDirectory dir;
    const ScopedLockDirectory locks(dir.file("locks"));
    const DeviceInfo device = testing::h200_profile();
    const auto stack_on = [&](const std::string& name) {
        return cache::CacheStack(cache::TuningCache::open(dir.file(name), cache::TuningCache::Access::ReadWrite), {});
    };
    const cache::CacheStack shared = stack_on("shared.sqlite");
    const cache::CacheStack same_file = stack_on("shared.sqlite");
    const cache::CacheStack other = stack_on("other.sqlite");

    const std::optional<Turn> searching = take_search_turn(shared, device, square(512), milliseconds(0));
    ASSERT_TRUE(searching && searching->held());
    EXPECT_FALSE(take_search_turn(same_file, device, square(512), milliseconds(30)).has_value())
        << "a second search of the same problem into the same cache was let through";
    const std::optional<Turn> other_problem = take_search_turn(same_file, device, square(640), milliseconds(0));
    EXPECT_TRUE(other_problem && other_problem->held());
    const std::optional<Turn> other_cache = take_search_turn(other, device, square(512), milliseconds(0));
    EXPECT_TRUE(other_cache && other_cache->held());

    // No writable cache: no result to share, so no turn to wait for.
    const cache::CacheStack read_only(nullptr, {});
    const std::optional<Turn> alone = take_search_turn(read_only, device, square(512), milliseconds(0));
    ASSERT_TRUE(alone.has_value());
    EXPECT_FALSE(alone->held());
}

TEST(SearchTurns, GpuTurnIsOnePerDevice) {
    testing::TemporaryDirectory dir;
    const ScopedLockDirectory locks(dir.file("locks"));
    DeviceInfo gpu = testing::h200_profile();
    gpu.uuid = "0123456789abcdef0123456789abcdef";
    std::optional<Turn> timing(take_gpu_turn(gpu));
    ASSERT_TRUE(timing->held());
    DeviceInfo other_gpu = gpu;
    other_gpu.uuid = "fedcba9876543210fedcba9876543210";
    EXPECT_TRUE(take_gpu_turn(other_gpu).held()) << "a second GPU waited for the first one's turn";
    std::thread release([&] {
        std::this_thread::sleep_for(milliseconds(300));
        timing.reset();
    });
    const auto start = Clock::now();
    const Turn next = take_gpu_turn(gpu);
    EXPECT_GE(Clock::now() - start, milliseconds(250)) << "two searches held one GPU's turn at once";
    release.join();
    EXPECT_TRUE(next.held());
    EXPECT_TRUE(std::filesystem::exists(dir.file("locks/gpu-0123456789abcdef0123456789abcdef.lock")));
}

TEST(SearchTurns, LockDirectoryIsCreatedPrivateAndRefusedWhenOthersCouldWriteIt) {
    testing::TemporaryDirectory dir;
    {
        const ScopedLockDirectory locks(dir.file("fresh"));
        const auto directory = lock_directory();
        ASSERT_TRUE(directory.has_value());
        struct stat st {};
        ASSERT_EQ(stat(directory->c_str(), &st), 0);
        EXPECT_EQ(st.st_mode & 0777, 0700u);
    }
    {
        std::filesystem::create_directory(dir.file("open"));
        chmod(dir.file("open").c_str(), 0777);
        const ScopedLockDirectory locks(dir.file("open"));
        EXPECT_FALSE(lock_directory().has_value()) << "a directory anyone may write was used";
    }
    {
        std::filesystem::create_directory(dir.file("target"));
        chmod(dir.file("target").c_str(), 0700);
        std::filesystem::create_directory_symlink(dir.file("target"), dir.file("link"));
        const ScopedLockDirectory locks(dir.file("link"));
        EXPECT_FALSE(lock_directory().has_value()) << "a symbolic link was followed";
    }
    {
        // Turns still work without a directory: unheld, never blocking.
        const ScopedLockDirectory locks(dir.file("open"));
        EXPECT_FALSE(take_gpu_turn(testing::h200_profile()).held());
    }
}

}  // namespace
}  // namespace jitgemm
