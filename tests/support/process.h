// Running a program of the build (the jitgemm command, the README example) from a test: exit code and output.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace jitgemm::testing {

struct ProcessResult {
    int exit_code = -1;   // -1 when it did not exit normally
    std::string output;   // stdout and stderr together
};

inline ProcessResult run_process(const std::string& command) {
    ProcessResult r;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) return r;
    std::array<char, 4096> buffer;
    std::size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
    const int status = pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// Starts `args` (args[0] a path) as a child process with its stdout, and its stderr where `with_stderr`, written to
// the file `output_path` (created or truncated), and returns its pid at once: for tests that kill a command part-way
// and may show what it said up to its end. -1 when fork failed.
inline pid_t start_process_writing_to(const std::vector<std::string>& args, const std::string& output_path,
                                      bool with_stderr) {
    const pid_t child = fork();
    if (child != 0) return child;
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int output = ::open(output_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (output < 0) _exit(126);
    dup2(output, 1);
    if (with_stderr) dup2(output, 2);
    execv(argv[0], argv.data());
    _exit(127);
}

// As above with stdout (and stderr, when `quiet_stderr`) to /dev/null.
inline pid_t start_process(const std::vector<std::string>& args, bool quiet_stderr = false) {
    return start_process_writing_to(args, "/dev/null", quiet_stderr);
}

// How many times `what` occurs in `text`.
inline std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// Writes `text` to a new or truncated file: the manifests and inputs the command-line tests hand to the program.
inline void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A fresh directory under the system's temporary directory, removed when the object goes.
class TemporaryDirectory {
public:
    TemporaryDirectory();
    ~TemporaryDirectory();
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

}  // namespace jitgemm::testing
