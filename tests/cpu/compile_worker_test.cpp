// Compile worker processes (src/runtime/compile/compile_workers.h): a worker's cubin is this process's, byte for
// byte; NVRTC's rejection comes back as CompileError with its log; a worker that died is replaced; a program that is
// no worker is given up on (the caller compiles in its own process); and the messages between them are read whole or
// refused, with every length bounded.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "bench/bench_problem.h"
#include "cache/cubin_check.h"
#include "jitgemm/error.h"
#include "runtime/compile/compile_worker_protocol.h"
#include "runtime/compile/compile_workers.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

// The naive kernel for an m x n x k fp32 problem, for sm_80: the quickest real program to compile.
KernelProgram naive_program(std::int64_t m, std::int64_t n, std::int64_t k) {
    return kernel_program(*parse_config("naive_16x16"),
                          bench_problem(m, n, k, Transpose::No, Transpose::No, DType::F32, ComputeType::F32), "sm_80");
}

// Both ends of a stream socket, closed at the end of the scope.
struct SocketPair {
    int ends[2] = {-1, -1};
    SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends), 0); }
    ~SocketPair() {
        for (const int fd : ends)
            if (fd >= 0) ::close(fd);
    }
    void close_end(int i) {
        ::close(ends[i]);
        ends[i] = -1;
    }
};

TEST(CompileWorker, CompilesTheSameCubinAsThisProcess) {
    CompileWorkerPool pool(JITGEMM_COMPILE_WORKER_PATH, 2);
    const KernelProgram program = naive_program(100, 70, 33);
    const NvrtcRequest request = nvrtc_request(program);
    const std::optional<Cubin> from_worker = pool.compile(request);
    ASSERT_TRUE(from_worker.has_value()) << pool.status();
    EXPECT_EQ(cache::cubin_image_defect(from_worker->image, program.kernel_symbol, program.arch), std::nullopt);
    EXPECT_EQ(from_worker->image, compile_in_this_process(request).image);
    EXPECT_GT(from_worker->seconds, 0.0);
    EXPECT_EQ(pool.idle_workers(), 1u);  // kept for the next compile
    EXPECT_NE(pool.status().find("worker processes"), std::string::npos) << pool.status();
}

TEST(CompileWorker, ARejectedProgramIsACompileErrorWithNvrtcsLogAndTheWorkerServesOn) {
    CompileWorkerPool pool(JITGEMM_COMPILE_WORKER_PATH, 1);
    NvrtcRequest bad = nvrtc_request(naive_program(8, 8, 8));
    bad.file_name = "not_cpp.cu";
    bad.source = "this is not C++;\n";
    try {
        pool.compile(bad);
        FAIL() << "a program NVRTC rejects compiled";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::CompileError);
        EXPECT_NE(std::string(e.what()).find("NVRTC could not compile not_cpp.cu"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("log:"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(pool.compile(nvrtc_request(naive_program(8, 8, 8))).has_value()) << pool.status();
    EXPECT_EQ(pool.idle_workers(), 1u);
}

TEST(CompileWorker, AWorkerThatDiedBetweenCompilesIsReplaced) {
    CompileWorkerPool pool(JITGEMM_COMPILE_WORKER_PATH, 1);
    const NvrtcRequest request = nvrtc_request(naive_program(64, 64, 64));
    const std::optional<Cubin> first = pool.compile(request);
    ASSERT_TRUE(first.has_value()) << pool.status();
    pool.kill_idle_workers_for_testing();
    const std::optional<Cubin> second = pool.compile(request);
    ASSERT_TRUE(second.has_value()) << pool.status();
    EXPECT_EQ(first->image, second->image);
    EXPECT_NE(pool.status().find("worker processes"), std::string::npos) << pool.status();
}

TEST(CompileWorker, AnIdleWorkerExitsAndTheNextCompileStartsAnother) {
    CompileWorkerPool pool(JITGEMM_COMPILE_WORKER_PATH, 1, /*idle_seconds=*/1);
    const NvrtcRequest request = nvrtc_request(naive_program(5, 6, 7));
    ASSERT_TRUE(pool.compile(request).has_value()) << pool.status();
    std::this_thread::sleep_for(std::chrono::milliseconds(1600));
    EXPECT_TRUE(pool.compile(request).has_value()) << pool.status();
}

TEST(CompileWorker, ParallelCompilesEachGetAWorkerAndTheRightCubin) {
    CompileWorkerPool pool(JITGEMM_COMPILE_WORKER_PATH, 3);
    std::vector<std::future<bool>> done;
    for (int i = 0; i < 6; ++i)
        done.push_back(std::async(std::launch::async, [&pool, i] {
            const KernelProgram program = naive_program(17 + i, 9, 31);
            const std::optional<Cubin> c = pool.compile(nvrtc_request(program));
            return c && !cache::cubin_image_defect(c->image, program.kernel_symbol, program.arch);
        }));
    for (auto& d : done) EXPECT_TRUE(d.get());
    EXPECT_LE(pool.idle_workers(), 3u);
    EXPECT_GE(pool.idle_workers(), 1u);
}

TEST(CompileWorker, AForkedChildStartsItsOwnWorkersAndTheParentsStayInStep) {
    CompileWorkerPool pool(JITGEMM_COMPILE_WORKER_PATH, 1);
    const NvrtcRequest parents = nvrtc_request(naive_program(40, 41, 42));
    const NvrtcRequest childs = nvrtc_request(naive_program(50, 51, 52));
    const std::string childs_cubin = compile_in_this_process(childs).image;
    const std::optional<Cubin> first = pool.compile(parents);  // leaves one idle worker, which the child inherits
    ASSERT_TRUE(first.has_value()) << pool.status();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const std::optional<Cubin> c = pool.compile(childs);
        ::_exit(c && c->image == childs_cubin ? 0 : 1);
    }
    const std::optional<Cubin> again = pool.compile(parents);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child's compile went wrong";
    ASSERT_TRUE(again.has_value()) << pool.status();
    EXPECT_EQ(again->image, first->image);
}

TEST(CompileWorker, AnAbandonedCompileEndsAtOnceAndLaterOnesDoNotStart) {
    // A Hopper kernel with a large tile: among the slowest programs to compile (0.4 s on the build machine).
    Problem p = bench_problem(4096, 4096, 4096, Transpose::No, Transpose::No, DType::BF16, ComputeType::F32);
    const KernelProgram slow = kernel_program(*parse_config("wgmma_128x256x64_c2_s4_g8"), p, "sm_90a");
    const auto clock = std::chrono::steady_clock::now;
    const auto started = clock();
    const Cubin whole = compile_in_this_process(nvrtc_request(slow));
    const auto whole_time = clock() - started;

    CompileWorkerPool pool(JITGEMM_COMPILE_WORKER_PATH, 2);
    ASSERT_TRUE(pool.compile(nvrtc_request(naive_program(8, 8, 8))).has_value()) << pool.status();  // a worker up
    CompileAbandonment search;
    const auto begun = clock();
    std::future<std::string> outcome = std::async(std::launch::async, [&] {
        try {
            pool.compile(nvrtc_request(slow), &search);
            return std::string("compiled");
        } catch (const Error& e) {
            return std::string(e.what());
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    search.abandon();
    EXPECT_NE(outcome.get().find("abandoned"), std::string::npos);
    EXPECT_LT(clock() - begun, whole_time / 2) << "the abandoned compile was waited for";
    // Abandoned: the next compile under it does not start, in a worker or here.
    EXPECT_THROW(pool.compile(nvrtc_request(naive_program(9, 9, 9)), &search), Error);
    EXPECT_THROW(compile_unless_abandoned(naive_program(9, 9, 9), search), Error);
    // The pool serves on, and the program compiles whole.
    CompileAbandonment next;
    const std::optional<Cubin> again = pool.compile(nvrtc_request(slow), &next);
    ASSERT_TRUE(again.has_value()) << pool.status();
    EXPECT_EQ(again->image, whole.image);
}

TEST(CompileWorker, AProgramThatIsNoWorkerIsGivenUpOn) {
    for (const char* impostor : {"/bin/true", "/bin/echo"}) {
        if (::access(impostor, X_OK) != 0) continue;
        CompileWorkerPool pool(impostor, 2);
        EXPECT_EQ(pool.compile(nvrtc_request(naive_program(8, 8, 8))), std::nullopt) << impostor;
        EXPECT_NE(pool.status().find("did not greet"), std::string::npos) << pool.status();
        EXPECT_NE(pool.status().find("this process"), std::string::npos) << pool.status();
        EXPECT_EQ(pool.compile(nvrtc_request(naive_program(8, 8, 8))), std::nullopt) << "tried again";
    }
}

TEST(CompileWorker, NoProgramMeansThisProcessAndSaysWhy) {
    CompileWorkerPool pool("", 4, 60, "JITGEMM_COMPILE_WORKER=off");
    EXPECT_EQ(pool.compile(nvrtc_request(naive_program(8, 8, 8))), std::nullopt);
    EXPECT_EQ(pool.status(), "this process (JITGEMM_COMPILE_WORKER=off)");
}

TEST(CompileWorker, TheProcessCompilesThroughWorkersWhereTheBuildMadeOne) {
    // compile_to_cubin's pool finds the worker this build made (or the one $JITGEMM_COMPILE_WORKER names).
    const char* chosen = std::getenv("JITGEMM_COMPILE_WORKER");
    if (chosen != nullptr && *chosen != '\0') GTEST_SKIP() << "JITGEMM_COMPILE_WORKER=" << chosen;
    const KernelProgram program = naive_program(3, 4, 5);
    EXPECT_EQ(compile_to_cubin(program).image, compile_in_this_process(nvrtc_request(program)).image);
    EXPECT_NE(compile_worker_status().find("worker processes"), std::string::npos) << compile_worker_status();
}

TEST(CompileWorkerProtocol, MessagesArriveWhole) {
    SocketPair s;
    NvrtcRequest request = nvrtc_request(naive_program(9, 9, 9));
    request.options.push_back(std::string("-DWITH_NUL=\0x", 13));
    // Every header goes along (hundreds of KiB): more than the socket holds, so it is written while it is read.
    std::future<bool> written =
        std::async(std::launch::async, [&] { return compile_worker::write_request(s.ends[0], 77, request); });
    const std::optional<compile_worker::ReceivedRequest> got = compile_worker::read_request(s.ends[1]);
    ASSERT_TRUE(written.get());
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->id, 77u);
    EXPECT_EQ(got->request.file_name, request.file_name);
    EXPECT_EQ(got->request.source, request.source);
    EXPECT_EQ(got->request.options, request.options);
    EXPECT_EQ(got->request.headers, request.headers);

    compile_worker::Reply reply;
    reply.id = 77;
    reply.cubin.image = std::string("\x7f" "ELF\0\1", 6);
    reply.cubin.log = "ptxas info";
    reply.cubin.seconds = 0.25;
    ASSERT_TRUE(compile_worker::write_reply(s.ends[1], reply));
    const std::optional<compile_worker::Reply> back = compile_worker::read_reply(s.ends[0]);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->id, 77u);
    EXPECT_EQ(back->status, compile_worker::Status::Compiled);
    EXPECT_EQ(back->cubin.image, reply.cubin.image);
    EXPECT_EQ(back->cubin.log, "ptxas info");
    EXPECT_EQ(back->cubin.seconds, 0.25);

    compile_worker::Reply failed;
    failed.status = compile_worker::Status::CompileFailed;
    failed.message = "jitgemm: NVRTC could not compile x.cu";
    ASSERT_TRUE(compile_worker::write_reply(s.ends[1], failed));
    const std::optional<compile_worker::Reply> failed_back = compile_worker::read_reply(s.ends[0]);
    ASSERT_TRUE(failed_back.has_value());
    EXPECT_EQ(failed_back->status, compile_worker::Status::CompileFailed);
    EXPECT_EQ(failed_back->message, failed.message);
}

TEST(CompileWorkerProtocol, ForeignOrTruncatedOrHugeMessagesAreRefused) {
    {  // another magic
        SocketPair s;
        ASSERT_EQ(::write(s.ends[0], "JGCRxxxx", 8), 8);
        s.close_end(0);
        EXPECT_EQ(compile_worker::read_request(s.ends[1]), std::nullopt);
    }
    {  // a length of 2^60: refused before any allocation
        SocketPair s;
        const std::uint64_t huge = std::uint64_t{1} << 60;
        ASSERT_EQ(::write(s.ends[0], "JGCQ", 4), 4);
        ASSERT_EQ(::write(s.ends[0], &huge, sizeof huge), static_cast<ssize_t>(sizeof huge));
        s.close_end(0);
        EXPECT_EQ(compile_worker::read_request(s.ends[1]), std::nullopt);
    }
    {  // cut short
        SocketPair s;
        NvrtcRequest request;
        request.file_name = "short.cu";
        request.source = std::string(200, 'x');
        ASSERT_TRUE(compile_worker::write_request(s.ends[0], 1, request));
        SocketPair t;
        char buffer[100];
        ASSERT_EQ(::read(s.ends[1], buffer, sizeof buffer), static_cast<ssize_t>(sizeof buffer));
        ASSERT_EQ(::write(t.ends[0], buffer, sizeof buffer), static_cast<ssize_t>(sizeof buffer));
        t.close_end(0);
        EXPECT_EQ(compile_worker::read_request(t.ends[1]), std::nullopt);
    }
    {  // a reply whose status is unknown
        SocketPair s;
        compile_worker::Reply reply;
        reply.status = static_cast<compile_worker::Status>(7);
        ASSERT_TRUE(compile_worker::write_reply(s.ends[0], reply));
        EXPECT_EQ(compile_worker::read_reply(s.ends[1]), std::nullopt);
    }
    {  // writing to a peer that is gone fails instead of raising SIGPIPE
        SocketPair s;
        s.close_end(1);
        EXPECT_FALSE(compile_worker::write_request(s.ends[0], 1, nvrtc_request(naive_program(9, 9, 9))));
    }
}

TEST(CompileWorkerProtocol, TheLoopGreetsCompilesAndStopsAtTheEndOrAMalformedRequest) {
    {
        SocketPair s;
        std::future<int> served = std::async(std::launch::async, [&] {
            return compile_worker::serve(s.ends[1], s.ends[1], 60);
        });
        const std::optional<compile_worker::Greeting> hello = compile_worker::read_greeting(s.ends[0]);
        ASSERT_TRUE(hello.has_value());
        EXPECT_EQ(hello->protocol, compile_worker::kProtocolVersion);
        EXPECT_EQ(hello->nvrtc_version, nvrtc_version());
        const KernelProgram program = naive_program(12, 12, 12);
        ASSERT_TRUE(compile_worker::write_request(s.ends[0], 5, nvrtc_request(program)));
        const std::optional<compile_worker::Reply> reply = compile_worker::read_reply(s.ends[0]);
        ASSERT_TRUE(reply.has_value());
        EXPECT_EQ(reply->id, 5u);
        EXPECT_EQ(reply->status, compile_worker::Status::Compiled);
        EXPECT_EQ(cache::cubin_image_defect(reply->cubin.image, program.kernel_symbol, program.arch), std::nullopt);
        ::shutdown(s.ends[0], SHUT_WR);  // the library closing its end: a clean exit
        EXPECT_EQ(served.get(), 0);
    }
    {
        SocketPair s;
        std::future<int> served = std::async(std::launch::async, [&] {
            return compile_worker::serve(s.ends[1], s.ends[1], 60);
        });
        ASSERT_TRUE(compile_worker::read_greeting(s.ends[0]).has_value());
        ASSERT_EQ(::write(s.ends[0], "HELLO, WORLD", 12), 12);
        const std::optional<compile_worker::Reply> reply = compile_worker::read_reply(s.ends[0]);
        ASSERT_TRUE(reply.has_value());
        EXPECT_EQ(reply->status, compile_worker::Status::Malformed);
        EXPECT_EQ(served.get(), 1);
    }
    {  // idle: the loop ends by itself
        SocketPair s;
        const auto start = std::chrono::steady_clock::now();
        EXPECT_EQ(compile_worker::serve(s.ends[1], s.ends[1], 1), 0);
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    }
}

}  // namespace
}  // namespace jitgemm
