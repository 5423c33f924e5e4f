// Compile worker processes: where this process's NVRTC compiles run when it has them.
//
// Why processes: NVRTC compiles in one process do not run side by side beyond about two at once — on the 16-core
// GPU machine, 16 threads each took 0.60 s for a compile that one thread did in 0.09 s, while 16 processes took
// 0.12 s each (bench/results/2026-12-05-h100-s26.md) — and a search spends most of its time waiting for compiles.
//
// The worker is the program jitgemm-compile-worker (tools/compile_worker), found at the first of:
//   $JITGEMM_COMPILE_WORKER (a path; "off" keeps every compile in this process),
//   beside this process's executable, or in ../libexec/jitgemm/ from it,
//   where `make install` puts it (CMAKE_INSTALL_LIBEXECDIR/jitgemm), and where this build made it.
// A worker is started when a compile finds none idle (at most one per hardware thread), greets with its NVRTC's
// version, which must be this process's, and is given the whole program (source, options, every header), so that
// what it compiles depends on nothing of its own. It runs in its own process group (a Ctrl-C meant for the program
// reaches the program, which then stops its searches), and exits when the library closes its socket (this process
// ending included) or after a minute idle. A worker that cannot start, greets wrongly, or dies mid-compile costs
// nothing but time: the compile runs in this process instead (compile_to_cubin), and what went wrong is logged once.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runtime/compile/nvrtc_compiler.h"

namespace jitgemm {

// Compiles that may be given up together: a search's, once it has stopped and will use none of them. abandon() ends
// the worker compiles under way for it at once (their workers are killed) and keeps later ones from starting; each
// throws Error(CompileError) saying so. A compile in this process cannot be interrupted and runs to its end.
class CompileAbandonment {
public:
    void abandon();
    bool abandoned() const;

private:
    friend class CompileWorkerPool;
    bool enlist(int fd);  // false once abandoned
    void release(int fd);
    mutable std::mutex mutex_;
    bool abandoned_ = false;
    std::vector<int> fds_;  // the sockets of the workers compiling for it
};

// The error an abandoned compile throws.
[[noreturn]] void throw_compile_abandoned();

// Compiles `request` in a worker process: the cubin (its log, its image not yet checked), or nullopt where no
// worker could (none found, none started, the one used was lost), for the caller to compile in this process. Throws
// Error(CompileError) when NVRTC rejected the program, as compile_in_this_process does, or when `abandonment` was
// abandoned before or during the compile.
std::optional<Cubin> compile_in_worker(const NvrtcRequest& request, CompileAbandonment* abandonment = nullptr);

// Where compiles run, for `jitgemm info` and the log: "worker processes (PATH)", or "this process (why)".
std::string compile_worker_status();

// A set of workers started from one program (the process-wide one above, or a test's own).
class CompileWorkerPool {
public:
    // `path`: the worker program; empty: none (every compile returns nullopt, status() names `why_none`). At most
    // `max_workers` at once, each exiting after `idle_seconds` without a request.
    CompileWorkerPool(std::string path, unsigned max_workers, int idle_seconds = 60, std::string why_none = {});
    ~CompileWorkerPool();
    CompileWorkerPool(const CompileWorkerPool&) = delete;
    CompileWorkerPool& operator=(const CompileWorkerPool&) = delete;

    std::optional<Cubin> compile(const NvrtcRequest& request, CompileAbandonment* abandonment = nullptr);

    // "worker processes (PATH)" or "this process (why)": why is the last reason a worker could not be used
    // (a worker that would not start or greeted wrongly makes the pool give up on its program).
    std::string status() const;
    // Workers idle now (tests).
    unsigned idle_workers() const;
    // Kills the idle workers without telling the pool (tests: a worker that died between compiles).
    void kill_idle_workers_for_testing();

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace jitgemm
