// The SIGINT handler of the long commands.
#include "tools/cli/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace jitgemm::cli {
namespace {

std::atomic<bool> stop_requested{false};

void on_interrupt(int) {
    stop_requested.store(true);
    // Only async-signal-safe calls here: write(2) and signal(2).
    static const char kMessage[] =
        "\njitgemm: stopping after the searches under way (their results are kept); Ctrl-C again stops now\n";
    [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
    signal(SIGINT, SIG_DFL);
}

}  // namespace

void stop_after_current_work_on_interrupt() {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
}

bool interrupted() { return stop_requested.load(); }

}  // namespace jitgemm::cli
