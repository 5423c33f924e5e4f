// jitgemm-compile-worker: runs NVRTC for a program that links jitgemm, one compile at a time, over the socket that
// is its standard input and output (src/runtime/compile/compile_workers.h says why and how it is found). Started by
// the library, never by hand: "jitgemm-compile-worker --serve IDLE_SECONDS".
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/compile/compile_worker_protocol.h"

int main(int argc, char** argv) {
    if (argc != 3 || std::strcmp(argv[1], "--serve") != 0 || std::atoi(argv[2]) <= 0) {
        std::fprintf(stderr,
                     "jitgemm-compile-worker compiles kernels for the jitgemm library, which starts it as\n"
                     "  %s --serve IDLE_SECONDS\nwith a socket as its standard input and output.\n",
                     argv[0]);
        return 2;
    }
    // _exit: nothing is buffered, and a sanitizer build need not report NVRTC's own allocations at exit.
    ::_exit(jitgemm::compile_worker::serve(0, 1, std::atoi(argv[2])));
}
