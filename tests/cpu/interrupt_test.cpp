// Ctrl-C in `jitgemm tune` (tools/cli/interrupt.h): the first SIGINT is a request to stop after the work under way,
// the process goes on; the second one ends it as SIGINT does.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli/interrupt.h"

namespace jitgemm::cli {
namespace {

TEST(Interrupt, FirstCtrlCAsksToStopAndTheSecondEndsTheProcess) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        stop_after_current_work_on_interrupt();
        if (interrupted()) _exit(10);
        raise(SIGINT);  // the first: recorded, the process goes on
        if (!interrupted()) _exit(11);
        raise(SIGINT);  // the second: the default action
        _exit(12);      // not reached
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status)) << "exit status " << (WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (WIFSIGNALED(status)) {
        EXPECT_EQ(WTERMSIG(status), SIGINT);
    }
}

}  // namespace
}  // namespace jitgemm::cli
