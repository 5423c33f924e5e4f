// Compile worker processes (compile_workers.h): finding the program, starting, lending and retiring workers.
#include "runtime/compile/compile_workers.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "jitgemm/error.h"
#include "log/log.h"
#include "runtime/compile/compile_worker_protocol.h"

extern char** environ;

namespace jitgemm {
namespace {

constexpr const char* kWorkerName = "jitgemm-compile-worker";
// Long enough for a worker to load NVRTC on a busy machine or under a sanitizer; a program that never greets (no
// worker at all) is given up on after it.
constexpr int kGreetingTimeoutMs = 30000;

struct Worker {
    pid_t pid = -1;
    int fd = -1;
};

// Ends a worker that is not lent: its socket closed, the process killed (it may be mid-compile) and reaped.
void retire(const Worker& w) {
    ::close(w.fd);
    ::kill(w.pid, SIGKILL);
    while (::waitpid(w.pid, nullptr, 0) < 0 && errno == EINTR) {
    }
}

bool executable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

std::string directory_of_this_executable() {
    std::string buffer(4096, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
    if (n <= 0) return {};
    buffer.resize(static_cast<std::size_t>(n));
    const std::size_t slash = buffer.rfind('/');
    return slash == std::string::npos ? std::string() : buffer.substr(0, slash);
}

// The worker program, or empty with the reason in `why`.
std::string locate_worker(std::string& why) {
    if (const char* chosen = std::getenv("JITGEMM_COMPILE_WORKER"); chosen != nullptr && *chosen != '\0') {
        const std::string path = chosen;
        if (path == "off") {
            why = "JITGEMM_COMPILE_WORKER=off";
            return {};
        }
        if (executable(path)) return path;
        why = "JITGEMM_COMPILE_WORKER=" + path + " is no executable file";
        log::warn_once("compile worker path", why + "; every compile runs in this process");
        return {};
    }
    std::vector<std::string> places;
    if (const std::string here = directory_of_this_executable(); !here.empty()) {
        places.push_back(here + "/" + kWorkerName);
        places.push_back(here + "/../libexec/jitgemm/" + kWorkerName);
    }
#ifdef JITGEMM_COMPILE_WORKER_INSTALLED
    places.push_back(JITGEMM_COMPILE_WORKER_INSTALLED);
#endif
#ifdef JITGEMM_COMPILE_WORKER_BUILT
    places.push_back(JITGEMM_COMPILE_WORKER_BUILT);
#endif
    for (const std::string& p : places)
        if (executable(p)) return p;
    why = std::string("no ") + kWorkerName + " beside the program, installed or built";
    return {};
}

}  // namespace

struct CompileWorkerPool::State {
    std::string path;
    unsigned max_workers = 1;
    int idle_seconds = 60;
    mutable std::mutex mutex;
    std::condition_variable changed;
    std::vector<Worker> idle;
    unsigned alive = 0;  // started and not retired: idle, lent, or being started
    std::string why_not;  // set when the pool gave up on its program (or had none)
    pid_t owner = ::getpid();  // the process whose workers these are
    std::uint64_t next_id = 1;

    // Gives up on the program: every later compile runs in the caller's process. Under the lock.
    void give_up(const std::string& why) {
        if (why_not.empty()) {
            why_not = why;
            log::warn_once("compile worker " + path, "compile worker " + path + ": " + why +
                                                         "; compiles run in this process");
        }
        changed.notify_all();
    }

    // A new worker that greeted as it must, or nullopt (and the pool gives up, with the reason).
    std::optional<Worker> start(std::string& why) {
        int sockets[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
            why = "socketpair failed";
            return std::nullopt;
        }
        posix_spawn_file_actions_t files;
        posix_spawn_file_actions_init(&files);
        posix_spawn_file_actions_adddup2(&files, sockets[1], 0);  // dup2 leaves the copies open across exec
        posix_spawn_file_actions_adddup2(&files, sockets[1], 1);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        // Its own process group: the terminal's Ctrl-C goes to the program, which ends its searches its own way.
        posix_spawnattr_setpgroup(&attributes, 0);
        sigset_t none, defaults;
        sigemptyset(&none);
        sigemptyset(&defaults);
        for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&defaults, s);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setsigdefault(&attributes, &defaults);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
        const std::string idle = std::to_string(idle_seconds);
        char* argv[] = {const_cast<char*>(path.c_str()), const_cast<char*>("--serve"),
                        const_cast<char*>(idle.c_str()), nullptr};
        pid_t pid = -1;
        const int spawned = ::posix_spawn(&pid, path.c_str(), &files, &attributes, argv, environ);
        posix_spawn_file_actions_destroy(&files);
        posix_spawnattr_destroy(&attributes);
        ::close(sockets[1]);
        if (spawned != 0) {
            ::close(sockets[0]);
            why = "could not start it (" + std::string(std::strerror(spawned)) + ")";
            return std::nullopt;
        }
        const Worker w{pid, sockets[0]};
        pollfd greeting{w.fd, POLLIN, 0};
        int ready;
        do ready = ::poll(&greeting, 1, kGreetingTimeoutMs);
        while (ready < 0 && errno == EINTR);
        const std::optional<compile_worker::Greeting> hello =
            ready > 0 ? compile_worker::read_greeting(w.fd) : std::nullopt;
        if (!hello) why = "it did not greet as a compile worker";
        else if (hello->protocol != compile_worker::kProtocolVersion)
            why = "it speaks protocol " + std::to_string(hello->protocol) + ", this library " +
                  std::to_string(compile_worker::kProtocolVersion);
        else if (hello->nvrtc_version != nvrtc_version())
            why = "its NVRTC is " + hello->nvrtc_version + ", this process's " + nvrtc_version() +
                  " (a cubin's key names the NVRTC that built it)";
        else return w;
        retire(w);
        return std::nullopt;
    }

    // An idle worker or a new one; nullopt once the pool has given up.
    std::optional<Worker> lend() {
        std::unique_lock lock(mutex);
        if (owner != ::getpid()) {
            // A child forked from the workers' process: their sockets are shared with the parent, whose requests
            // and replies would interleave with the child's. The child lets go of its copies and starts its own.
            for (const Worker& w : idle) ::close(w.fd);
            idle.clear();
            alive = 0;
            owner = ::getpid();
        }
        while (true) {
            if (!why_not.empty()) return std::nullopt;
            if (!idle.empty()) {
                const Worker w = idle.back();
                idle.pop_back();
                return w;
            }
            if (alive < max_workers) break;
            changed.wait(lock);
        }
        ++alive;
        lock.unlock();
        std::string why;
        std::optional<Worker> w = start(why);
        lock.lock();
        if (!w) {
            --alive;
            give_up(why);
        }
        return w;
    }

    void take_back(const Worker& w) {
        {
            std::lock_guard lock(mutex);
            idle.push_back(w);
        }
        changed.notify_one();
    }

    // A worker lost mid-use (or that went idle too long and exited): retired, its place free for a new one.
    void lose(const Worker& w) {
        retire(w);
        {
            std::lock_guard lock(mutex);
            --alive;
        }
        changed.notify_one();
    }
};

CompileWorkerPool::CompileWorkerPool(std::string path, unsigned max_workers, int idle_seconds, std::string why_none)
    : state_(std::make_unique<State>()) {
    state_->path = std::move(path);
    state_->max_workers = std::max(1u, max_workers);
    state_->idle_seconds = std::max(1, idle_seconds);
    if (state_->path.empty()) state_->why_not = why_none.empty() ? "no compile worker" : std::move(why_none);
}

CompileWorkerPool::~CompileWorkerPool() {
    for (const Worker& w : state_->idle) retire(w);
}

void CompileAbandonment::abandon() {
    std::lock_guard lock(mutex_);
    abandoned_ = true;
    // The compiles under way read EOF at once; they then retire their workers, which may be mid-compile.
    for (const int fd : fds_) ::shutdown(fd, SHUT_RDWR);
}

bool CompileAbandonment::abandoned() const {
    std::lock_guard lock(mutex_);
    return abandoned_;
}

bool CompileAbandonment::enlist(int fd) {
    std::lock_guard lock(mutex_);
    if (abandoned_) return false;
    fds_.push_back(fd);
    return true;
}

void CompileAbandonment::release(int fd) {
    std::lock_guard lock(mutex_);
    fds_.erase(std::remove(fds_.begin(), fds_.end(), fd), fds_.end());
}

void throw_compile_abandoned() {
    throw Error(ErrorCode::CompileError, "jitgemm: compile abandoned: the search that asked for it has stopped");
}

std::optional<Cubin> CompileWorkerPool::compile(const NvrtcRequest& request, CompileAbandonment* abandonment) {
    // Two tries: a worker that has just exited idle is found so only when it is lent, and the next one serves.
    for (int attempt = 0; attempt < 2; ++attempt) {
        const std::optional<Worker> w = state_->lend();
        if (!w) return std::nullopt;
        if (abandonment != nullptr && !abandonment->enlist(w->fd)) {
            state_->take_back(*w);
            throw_compile_abandoned();
        }
        std::uint64_t id;
        {
            std::lock_guard lock(state_->mutex);
            id = state_->next_id++;
        }
        std::optional<compile_worker::Reply> reply;
        if (compile_worker::write_request(w->fd, id, request)) reply = compile_worker::read_reply(w->fd);
        if (abandonment != nullptr) abandonment->release(w->fd);
        if (reply && reply->id != id) reply.reset();  // an answer to another request: the stream is out of step
        if (!reply) {
            state_->lose(*w);
            if (abandonment != nullptr && abandonment->abandoned()) throw_compile_abandoned();
            continue;
        }
        if (reply->status == compile_worker::Status::Malformed) {
            state_->lose(*w);
            std::lock_guard lock(state_->mutex);
            state_->give_up("it could not read a request: " + reply->message);
            return std::nullopt;
        }
        // A reply read whole before an abandonment stands; but the abandonment may have shut the worker's socket
        // after it, so that worker is retired rather than lent again with a dead socket.
        if (abandonment != nullptr && abandonment->abandoned()) state_->lose(*w);
        else state_->take_back(*w);
        if (reply->status == compile_worker::Status::CompileFailed) throw Error(ErrorCode::CompileError, reply->message);
        return std::move(reply->cubin);
    }
    log::warn_once("compile worker lost " + state_->path,
                   "compile worker " + state_->path + " ended during a compile; that compile runs in this process");
    return std::nullopt;
}

std::string CompileWorkerPool::status() const {
    std::lock_guard lock(state_->mutex);
    if (!state_->why_not.empty())
        return "this process (" + state_->why_not + (state_->path.empty() ? "" : ": " + state_->path) + ")";
    return "worker processes (" + state_->path + ", up to " + std::to_string(state_->max_workers) + ")";
}

unsigned CompileWorkerPool::idle_workers() const {
    std::lock_guard lock(state_->mutex);
    return static_cast<unsigned>(state_->idle.size());
}

void CompileWorkerPool::kill_idle_workers_for_testing() {
    std::lock_guard lock(state_->mutex);
    for (const Worker& w : state_->idle) ::kill(w.pid, SIGKILL);  // reaped when the pool finds it gone
}

namespace {

// The process's pool, never destroyed: its idle workers see their sockets close when the process ends, and exit.
CompileWorkerPool& process_pool() {
    static CompileWorkerPool* const pool = [] {
        std::string why;
        std::string path = locate_worker(why);
        if (path.empty()) log::debug("compiles run in this process: " + why);
        return new CompileWorkerPool(path, std::max(1u, std::thread::hardware_concurrency()), 60, why);
    }();
    return *pool;
}

}  // namespace

std::optional<Cubin> compile_in_worker(const NvrtcRequest& request, CompileAbandonment* abandonment) {
    return process_pool().compile(request, abandonment);
}

std::string compile_worker_status() { return process_pool().status(); }

}  // namespace jitgemm
