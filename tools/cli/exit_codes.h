// Exit codes of the `jitgemm` program, the same for every subcommand.
#pragma once

namespace jitgemm::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;     // the work ran and failed (a wrong result, a CUDA or compile error)
constexpr int kExitUsage = 2;      // bad command line
constexpr int kExitNoGpu = 3;      // no CUDA driver or no CUDA device on this machine

}  // namespace jitgemm::cli
