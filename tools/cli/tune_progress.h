// What `jitgemm tune` shows while it works: on a terminal, one status line redrawn in place (problems done of all,
// each device's problem with candidates done of total and the best time so far, and the ETA); elsewhere (a log file,
// a job runner) one plain line per finished problem. Thread-safe: each device's worker reports into its own slot.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "tuner/tune_options.h"

namespace jitgemm::cli {

class TuneProgressDisplay {
public:
    TuneProgressDisplay(int problems, int workers, bool terminal);

    void started(int worker, const std::string& problem);
    void progress(int worker, const TuneProgress& progress);
    // `line` is the finished problem's summary, printed on its own line in either mode.
    void finished(int worker, const std::string& line);
    // Clears the status line.
    void close();

private:
    void redraw_locked();
    std::string eta_locked() const;

    struct Slot {
        std::string problem;
        TuneProgress progress;
        bool busy = false;
    };
    std::mutex mutex_;
    const int problems_;
    const bool terminal_;
    int done_ = 0;
    std::vector<Slot> slots_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace jitgemm::cli
