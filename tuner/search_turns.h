// Searches of several processes on one machine take turns, through flock(2) on files in jitgemm's lock directory:
//   - a search turn per (writable cache file, device, problem): one process searches a problem at a
//     time; another that finds the turn taken waits, then reads the winner from the shared cache instead of
//     searching again (dispatch/kernel_builder.h, the CLI's tune);
//   - a GPU turn per physical GPU (by UUID): a search holds it while its candidates run on the device (reference,
//     verification, timing, the finalists' re-timing), so that two searches never time at the same moment, each
//     measuring the other's kernels. Compiling, most of a search's time, goes on outside it.
// The kernel drops a flock when its holder dies, so a killed tuner leaves no stale turn behind. Where no lock
// directory can be had (see lock_directory), searches run uncoordinated, with one warning.
//
// Why files and flock rather than a row in the SQLite cache: a row outlives a killed holder and needs a lease and a
// clock to expire it; a flock cannot outlive its process, costs one system call, and needs no writable cache (the
// GPU turn matters to processes with different caches or none).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "cache/cache_stack.h"
#include "runtime/device/device_info.h"
#include "runtime/problem/problem.h"

namespace jitgemm {

// An exclusive flock on a lock file, released on destruction (or when the process ends). A default-constructed
// Turn holds nothing: coordination was impossible and the caller goes on alone.
class Turn {
public:
    Turn() = default;
    Turn(Turn&& other) noexcept;
    Turn& operator=(Turn&& other) noexcept;
    ~Turn();
    Turn(const Turn&) = delete;
    Turn& operator=(const Turn&) = delete;

    bool held() const { return fd_ >= 0; }
    // Another holder had the turn when it was asked for: the caller waited for it.
    bool waited() const { return waited_; }

private:
    friend std::optional<Turn> take_turn(const std::filesystem::path& file, std::chrono::milliseconds wait);
    Turn(int fd, bool waited) : fd_(fd), waited_(waited) {}
    int fd_ = -1;
    bool waited_ = false;
};

// The directory of jitgemm's lock files: JITGEMM_LOCK_DIR, else $XDG_RUNTIME_DIR/jitgemm, else
// /tmp/jitgemm-locks-<uid>; created with mode 0700. An existing one must be a real directory (no symbolic link) owned
// by this user and writable by no one else, as whoever may write it decides whose search runs. nullopt, with a
// warning the first time, when there is no such directory.
std::optional<std::filesystem::path> lock_directory();

// Takes the flock on `file`, created (mode 0600, never through a symbolic link) if missing, waiting at most `wait`
// while another holder has it. nullopt when the wait ran out; an unheld Turn, with a warning the first time, when
// the file cannot be opened or locked.
std::optional<Turn> take_turn(const std::filesystem::path& file, std::chrono::milliseconds wait);

// The turn to search `problem` on `device` into the writable cache of `caches`, waiting at most `wait` for another
// process's search of it. An unheld Turn when there is no writable cache (no result to share) or no lock directory;
// nullopt when the other search still runs after `wait`. The lock files are a fixed set of buckets, so that the
// directory stays small: two problems that share one only take turns needlessly.
std::optional<Turn> take_search_turn(const cache::CacheStack& caches, const DeviceInfo& device,
                                     const Problem& problem, std::chrono::milliseconds wait);

// The turn to run work on `device` that another search must not time alongside. Waits up to kGpuTurnWait, then
// goes on without it (one warning): a hung process must not stop every search on the machine.
Turn take_gpu_turn(const DeviceInfo& device);
inline constexpr std::chrono::seconds kGpuTurnWait{120};

}  // namespace jitgemm
