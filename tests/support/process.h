// Running a program of the build (the jitgemm command, the README example) from a test: exit code and output.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

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
