// What a compile worker process and the library say to each other over one stream socket (the worker's standard
// input and output): the worker's greeting, then any number of requests, each answered before the next is read.
//
//   greeting  "JGCW" u32 protocol, string NVRTC version ("13.0")
//   request   "JGCQ" u64 id, string file name, string source, u32 count + strings options, u32 count + (string name,
//             string text) headers
//   reply     "JGCR" u64 id (the request's), u32 status, string message (the NVRTC log, or the error), string image,
//             f64 seconds
//
// Integers are little-endian as the machine's, a string is a u64 length and its bytes, a f64 its 8 bytes: both ends
// run on one machine. Every length and count is bounded before anything is allocated for it, so a peer that is no
// worker (or a broken one) gives a read that fails, never a huge allocation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/compile/nvrtc_compiler.h"

namespace jitgemm::compile_worker {

inline constexpr std::uint32_t kProtocolVersion = 1;

struct Greeting {
    std::uint32_t protocol = kProtocolVersion;
    std::string nvrtc_version;
};

enum class Status : std::uint32_t {
    Compiled = 0,       // image and log are the cubin's
    CompileFailed = 1,  // message is the Error's (CompileError) as compile_in_this_process throws it
    Malformed = 2,      // the request could not be read; the worker stops
};

struct Reply {
    std::uint64_t id = 0;  // the request's: a reply that answers another request is refused
    Status status = Status::Compiled;
    std::string message;
    Cubin cubin;
};

// Each write returns false when the peer is gone (no SIGPIPE is raised); each read returns nullopt when the stream
// ends or holds something else than the message.
bool write_greeting(int fd, const Greeting& greeting);
std::optional<Greeting> read_greeting(int fd);
struct ReceivedRequest {
    std::uint64_t id = 0;
    NvrtcRequest request;
};
bool write_request(int fd, std::uint64_t id, const NvrtcRequest& request);
std::optional<ReceivedRequest> read_request(int fd);
bool write_reply(int fd, const Reply& reply);
std::optional<Reply> read_reply(int fd);

// The worker's loop: greets, then compiles each request in this process and replies, until the stream ends, a
// request is malformed, or no request comes for `idle_seconds` (an idle worker frees its memory; the library starts
// another when it needs one). Returns the process's exit status.
int serve(int in_fd, int out_fd, int idle_seconds);

}  // namespace jitgemm::compile_worker
