// Turns through flock(2): the lock directory, the files in it, and the waits.
#include "tuner/search_turns.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <thread>

#include "cache/content_hash.h"
#include "log/log.h"

namespace jitgemm {
namespace {

// Search turns hash into this many lock files.
constexpr unsigned kSearchTurnBuckets = 1u << 16;

std::string text_of_errno() { return std::strerror(errno); }

std::optional<std::filesystem::path> chosen_lock_directory() {
    if (const char* set = std::getenv("JITGEMM_LOCK_DIR"); set != nullptr && *set != '\0') return set;
    if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime != nullptr && *runtime != '\0')
        return std::filesystem::path(runtime) / "jitgemm";
    return std::filesystem::path("/tmp") / ("jitgemm-locks-" + std::to_string(getuid()));
}

// Why `directory` may not hold lock files, or an empty string. Creates it when missing.
std::string directory_defect(const std::filesystem::path& directory) {
    if (mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST) return "cannot create it: " + text_of_errno();
    struct stat st {};
    if (lstat(directory.c_str(), &st) != 0) return "cannot examine it: " + text_of_errno();
    if (!S_ISDIR(st.st_mode)) return "it is not a directory (a symbolic link?)";
    if (st.st_uid != getuid()) return "it belongs to another user";
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) return "others may write to it";
    return {};
}

std::string gpu_turn_name(const DeviceInfo& device) {
    // The UUID names the physical GPU whatever CUDA_VISIBLE_DEVICES calls it; a device without one (a profile)
    // falls back to its fingerprint.
    return "gpu-" + (device.uuid.empty() ? content_hash_hex(device.fingerprint()) : device.uuid) + ".lock";
}

std::string search_turn_name(const std::string& cache_path, const DeviceInfo& device, const Problem& problem) {
    std::error_code ignored;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(cache_path, ignored);
    const std::string identity =
        (canonical.empty() ? cache_path : canonical.string()) + "\n" + device.fingerprint() + "\n" + problem.key();
    const unsigned bucket =
        static_cast<unsigned>(std::stoul(content_hash_hex(identity).substr(0, 8), nullptr, 16)) % kSearchTurnBuckets;
    return "search-" + std::to_string(bucket) + ".lock";
}

}  // namespace

Turn::Turn(Turn&& other) noexcept : fd_(other.fd_), waited_(other.waited_) { other.fd_ = -1; }

Turn& Turn::operator=(Turn&& other) noexcept {
    if (this != &other) {
        if (fd_ >= 0) close(fd_);
        fd_ = other.fd_;
        waited_ = other.waited_;
        other.fd_ = -1;
    }
    return *this;
}

Turn::~Turn() {
    if (fd_ >= 0) close(fd_);  // drops the flock
}

std::optional<std::filesystem::path> lock_directory() {
    const std::optional<std::filesystem::path> directory = chosen_lock_directory();
    const std::string defect = directory_defect(*directory);
    if (defect.empty()) return directory;
    log::warn_once("lock directory " + directory->string(),
              "searches of several processes cannot take turns: the lock directory " + directory->string() +
                  " is unusable (" + defect + "; JITGEMM_LOCK_DIR names another)");
    return std::nullopt;
}

std::optional<Turn> take_turn(const std::filesystem::path& file, std::chrono::milliseconds wait) {
    const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        log::warn_once("lock file " + file.string(), "cannot open the lock file " + file.string() + " (" +
                                                    text_of_errno() + "); going on without taking turns");
        return Turn();
    }
    const auto deadline = std::chrono::steady_clock::now() + wait;
    auto pause = std::chrono::milliseconds(1);
    bool waited = false;
    while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            log::warn_once("lock file " + file.string(), "cannot lock " + file.string() + " (" + text_of_errno() +
                                                        "); going on without taking turns");
            close(fd);
            return Turn();
        }
        waited = true;
        if (std::chrono::steady_clock::now() >= deadline) {
            close(fd);
            return std::nullopt;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(50));
    }
    return Turn(fd, waited);
}

std::optional<Turn> take_search_turn(const cache::CacheStack& caches, const DeviceInfo& device,
                                     const Problem& problem, std::chrono::milliseconds wait) {
    if (caches.writable() == nullptr) return Turn();
    const std::optional<std::filesystem::path> directory = lock_directory();
    if (!directory) return Turn();
    return take_turn(*directory / search_turn_name(caches.writable()->path(), device, problem), wait);
}

Turn take_gpu_turn(const DeviceInfo& device) {
    const std::optional<std::filesystem::path> directory = lock_directory();
    if (!directory) return Turn();
    const std::filesystem::path file = *directory / gpu_turn_name(device);
    if (std::optional<Turn> turn = take_turn(file, kGpuTurnWait)) return std::move(*turn);
    log::warn_once("gpu turn " + file.string(), "another process has held " + file.string() + " for over " +
                                               std::to_string(kGpuTurnWait.count()) +
                                               " s; timing without waiting for it");
    return Turn();
}

}  // namespace jitgemm
