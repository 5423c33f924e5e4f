// Ctrl-C in the long commands (tune): the first SIGINT asks them to stop after the work under way, so that every
// finished search stays recorded and the cache is never left mid-write by a signal; a second one stops the process
// at once, as SIGINT normally does.
#pragma once

namespace jitgemm::cli {

// Installs the handler: the first SIGINT sets interrupted() and says so on stderr; the next one is the default.
void stop_after_current_work_on_interrupt();

// Whether a SIGINT asked to stop.
bool interrupted();

// The exit status of a command stopped by SIGINT (128 + 2, as the shell reports it).
inline constexpr int kExitInterrupted = 130;

}  // namespace jitgemm::cli
