// The progress display of `jitgemm tune`.
#include "tools/cli/tune_progress.h"

#include <cstdio>
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

}  // namespace

TuneProgressDisplay::TuneProgressDisplay(int problems, int workers, bool terminal)
    : problems_(problems), terminal_(terminal), slots_(static_cast<std::size_t>(workers)) {}

std::string TuneProgressDisplay::eta_locked() const {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (done_ == 0) return "?";
    const double per_problem = elapsed / done_;
    return duration_text(per_problem * (problems_ - done_));
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
    std::string text = line.str();
    if (text.size() > 160) text.resize(160);
    std::cerr << "\r\033[K" << text << std::flush;
}

}  // namespace jitgemm::cli
