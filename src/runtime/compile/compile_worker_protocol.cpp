// The compile worker's messages and its loop (compile_worker_protocol.h).
#include "runtime/compile/compile_worker_protocol.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "jitgemm/error.h"

namespace jitgemm::compile_worker {
namespace {

constexpr char kGreetingMagic[4] = {'J', 'G', 'C', 'W'};
constexpr char kRequestMagic[4] = {'J', 'G', 'C', 'Q'};
constexpr char kReplyMagic[4] = {'J', 'G', 'C', 'R'};
// Bounds on what a message may hold: a cubin is at most a few MiB, a source tree well under one, the options and
// headers a few dozen.
constexpr std::uint64_t kMaxString = std::uint64_t{256} << 20;
constexpr std::uint32_t kMaxCount = 4096;

bool write_all(int fd, const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
        // send() with MSG_NOSIGNAL: a peer that is gone is an error to return, not a SIGPIPE for the whole program.
        // On a pipe (a worker started by hand) it fails with ENOTSOCK, and write() does.
        ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK) n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

bool read_exact(int fd, void* out, std::size_t size) {
    auto* p = static_cast<char*>(out);
    while (size > 0) {
        const ssize_t n = ::read(fd, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// Appends a message's fields.
class Writer {
public:
    explicit Writer(const char (&magic)[4]) { bytes_.append(magic, 4); }
    Writer& u32(std::uint32_t v) { return raw(&v, sizeof v); }
    Writer& u64(std::uint64_t v) { return raw(&v, sizeof v); }
    Writer& f64(double v) { return raw(&v, sizeof v); }
    Writer& str(const std::string& s) {
        const std::uint64_t size = s.size();
        raw(&size, sizeof size);
        bytes_ += s;
        return *this;
    }
    bool send_to(int fd) const { return write_all(fd, bytes_); }

private:
    Writer& raw(const void* p, std::size_t n) {
        bytes_.append(static_cast<const char*>(p), n);
        return *this;
    }
    std::string bytes_;
};

// Reads a message's fields; the first failure sticks, so a message is read whole and then judged once.
class Reader {
public:
    explicit Reader(int fd) : fd_(fd) {}
    bool magic(const char (&expected)[4]) {
        char got[4];
        ok_ = ok_ && read_exact(fd_, got, 4) && std::memcmp(got, expected, 4) == 0;
        return ok_;
    }
    std::uint32_t u32() {
        std::uint32_t v = 0;
        ok_ = ok_ && read_exact(fd_, &v, sizeof v);
        return v;
    }
    std::uint64_t u64() {
        std::uint64_t v = 0;
        ok_ = ok_ && read_exact(fd_, &v, sizeof v);
        return v;
    }
    std::uint32_t count() {
        const std::uint32_t n = u32();
        ok_ = ok_ && n <= kMaxCount;
        return ok_ ? n : 0;
    }
    double f64() {
        double v = 0.0;
        ok_ = ok_ && read_exact(fd_, &v, sizeof v);
        return v;
    }
    std::string str() {
        std::uint64_t size = 0;
        ok_ = ok_ && read_exact(fd_, &size, sizeof size) && size <= kMaxString;
        if (!ok_) return {};
        std::string s(static_cast<std::size_t>(size), '\0');
        ok_ = read_exact(fd_, s.data(), s.size());
        return s;
    }
    bool ok() const { return ok_; }

private:
    int fd_;
    bool ok_ = true;
};

// The body of a request, after its magic.
std::optional<ReceivedRequest> read_request_body(Reader& in) {
    ReceivedRequest received;
    received.id = in.u64();
    NvrtcRequest& request = received.request;
    request.file_name = in.str();
    request.source = in.str();
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok(); ++i) request.options.push_back(in.str());
    for (std::uint32_t i = 0, n = in.count(); i < n && in.ok(); ++i) {
        std::string name = in.str();
        std::string text = in.str();
        request.headers.emplace_back(std::move(name), std::move(text));
    }
    if (!in.ok()) return std::nullopt;
    return received;
}

}  // namespace

bool write_greeting(int fd, const Greeting& greeting) {
    return Writer(kGreetingMagic).u32(greeting.protocol).str(greeting.nvrtc_version).send_to(fd);
}

std::optional<Greeting> read_greeting(int fd) {
    Reader in(fd);
    Greeting g;
    if (!in.magic(kGreetingMagic)) return std::nullopt;
    g.protocol = in.u32();
    g.nvrtc_version = in.str();
    if (!in.ok()) return std::nullopt;
    return g;
}

bool write_request(int fd, std::uint64_t id, const NvrtcRequest& request) {
    Writer out(kRequestMagic);
    out.u64(id).str(request.file_name).str(request.source).u32(static_cast<std::uint32_t>(request.options.size()));
    for (const auto& o : request.options) out.str(o);
    out.u32(static_cast<std::uint32_t>(request.headers.size()));
    for (const auto& [name, text] : request.headers) out.str(name).str(text);
    return out.send_to(fd);
}

std::optional<ReceivedRequest> read_request(int fd) {
    Reader in(fd);
    if (!in.magic(kRequestMagic)) return std::nullopt;
    return read_request_body(in);
}

bool write_reply(int fd, const Reply& reply) {
    return Writer(kReplyMagic)
        .u64(reply.id)
        .u32(static_cast<std::uint32_t>(reply.status))
        .str(reply.status == Status::Compiled ? reply.cubin.log : reply.message)
        .str(reply.cubin.image)
        .f64(reply.cubin.seconds)
        .send_to(fd);
}

std::optional<Reply> read_reply(int fd) {
    Reader in(fd);
    if (!in.magic(kReplyMagic)) return std::nullopt;
    Reply reply;
    reply.id = in.u64();
    const std::uint32_t status = in.u32();
    std::string message = in.str();
    reply.cubin.image = in.str();
    reply.cubin.seconds = in.f64();
    if (!in.ok() || status > static_cast<std::uint32_t>(Status::Malformed)) return std::nullopt;
    reply.status = static_cast<Status>(status);
    (reply.status == Status::Compiled ? reply.cubin.log : reply.message) = std::move(message);
    return reply;
}

int serve(int in_fd, int out_fd, int idle_seconds) {
    ::signal(SIGPIPE, SIG_IGN);  // a library that is gone ends the loop through a failed write instead
    if (!write_greeting(out_fd, Greeting{kProtocolVersion, nvrtc_version()})) return 1;
    while (true) {
        pollfd waiting{in_fd, POLLIN, 0};
        int ready;
        do ready = ::poll(&waiting, 1, idle_seconds * 1000);
        while (ready < 0 && errno == EINTR);
        if (ready <= 0) return 0;  // idle long enough (or poll failed): the library starts another when it needs one
        // The stream's end before a request's first byte is the library closing it: the normal way out.
        char magic[4];
        const ssize_t first = ::read(in_fd, magic, 1);
        if (first == 0) return 0;
        Reader in(in_fd);
        const bool framed =
            first == 1 && read_exact(in_fd, magic + 1, 3) && std::memcmp(magic, kRequestMagic, 4) == 0;
        const std::optional<ReceivedRequest> request = framed ? read_request_body(in) : std::nullopt;
        Reply reply;
        if (!request) {
            reply.status = Status::Malformed;
            reply.message = "jitgemm compile worker: the request could not be read";
            write_reply(out_fd, reply);
            return 1;
        }
        reply.id = request->id;
        try {
            reply.cubin = compile_in_this_process(request->request);
        } catch (const Error& e) {
            reply.status = Status::CompileFailed;
            reply.message = e.what();
        }
        if (!write_reply(out_fd, reply)) return 0;
    }
}

}  // namespace jitgemm::compile_worker
