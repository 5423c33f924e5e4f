// The progress display of `jitgemm tune`.
#include "tools/cli/tune_progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace jitgemm::cli {
namespace {

std::string duration_text(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    std::ostringstream out;
    if (s >= 3600) out << s / 3600 << "h" << (s % 3600) / 60 << "m";
    else if (s >= 60) out << s / 60 << "m" << s % 60 << "s";
    else out << s << "s";
    return out.str();
}

// The width of the terminal on stderr: the kernel's, else $COLUMNS, else 80.
std::size_t terminal_columns() {
    winsize size{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
        const long parsed = std::strtol(columns, nullptr, 10);
        if (parsed > 0) return static_cast<std::size_t>(parsed);
    }
    return 80;
}

}  // namespace

TuneProgressDisplay::TuneProgressDisplay(int problems, int workers, bool terminal)
    : problems_(problems), terminal_(terminal), slots_(static_cast<std::size_t>(workers)) {}

std::string TuneProgressDisplay::eta_locked() const {
    // A search takes at most its budget, less when it measures every candidate first: the problems finished so far
    // say how long one takes here, the budget bounds it. The workers share the problems not started yet, and each
    // busy one still has its search's remainder.
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    double budget = 0.0, longest_remainder = 0.0;
    int busy = 0;
    for (const Slot& s : slots_) {
        if (!s.busy) continue;
        ++busy;
        budget = std::max(budget, s.progress.budget_seconds);
    }
    if (budget <= 0.0 && done_ == 0) return "?";
    const double per_problem = done_ > 0 ? (budget > 0.0 ? std::min(budget, elapsed * slots_.size() / done_)
                                                          : elapsed * slots_.size() / done_)
                                         : budget;
    for (const Slot& s : slots_)
        if (s.busy) longest_remainder = std::max(longest_remainder, per_problem - s.progress.elapsed_seconds);
    const int waiting = std::max(0, problems_ - done_ - busy);
    const double rounds = std::ceil(static_cast<double>(waiting) / static_cast<double>(slots_.size()));
    return duration_text(std::max(0.0, longest_remainder) + rounds * per_problem);
}

void TuneProgressDisplay::started(int worker, const std::string& problem) {
    std::lock_guard lock(mutex_);
    slots_[static_cast<std::size_t>(worker)] = Slot{problem, {}, true};
    if (terminal_) redraw_locked();
}

void TuneProgressDisplay::progress(int worker, const TuneProgress& progress) {
    std::lock_guard lock(mutex_);
    slots_[static_cast<std::size_t>(worker)].progress = progress;
    const auto now = std::chrono::steady_clock::now();
    if (terminal_ && now - last_draw_ > std::chrono::milliseconds(200)) redraw_locked();
}

void TuneProgressDisplay::finished(int worker, const std::string& line) {
    std::lock_guard lock(mutex_);
    ++done_;
    slots_[static_cast<std::size_t>(worker)].busy = false;
    if (terminal_) std::cerr << "\r\033[K";
    std::cerr << "jitgemm tune: [" << done_ << "/" << problems_ << "] " << line << "\n";
    if (terminal_) redraw_locked();
}

void TuneProgressDisplay::close() {
    std::lock_guard lock(mutex_);
    if (terminal_) std::cerr << "\r\033[K" << std::flush;
}

void TuneProgressDisplay::redraw_locked() {
    last_draw_ = std::chrono::steady_clock::now();
    std::ostringstream line;
    line << "problems " << done_ << "/" << problems_;
    for (std::size_t w = 0; w < slots_.size(); ++w) {
        const Slot& s = slots_[w];
        if (!s.busy) continue;
        line << " | ";
        if (slots_.size() > 1) line << "gpu" << w << " ";
        line << s.problem << " " << s.progress.measured << "/" << s.progress.total;
        if (s.progress.best_ms > 0) {
            char best[32];
            std::snprintf(best, sizeof(best), " best %.3f ms", s.progress.best_ms);
            line << best;
        }
    }
    line << " | ETA " << eta_locked();
    // One line that fits the terminal: a longer one wraps, and each redraw would then scroll.
    std::string text = line.str();
    const std::size_t width = terminal_columns();
    if (text.size() >= width) text.resize(width > 1 ? width - 1 : 0);
    std::cerr << "\r\033[K" << text << std::flush;
}

}  // namespace jitgemm::cli
