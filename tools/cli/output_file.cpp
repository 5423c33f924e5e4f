// Writing a command's output file through a temporary file and a rename.
#include "tools/cli/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "cache/file_names.h"
#include "jitgemm/error.h"

namespace jitgemm::cli {
namespace {

bool is_sqlite_database(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char header[16] = {};
    in.read(header, sizeof(header));
    return in.gcount() == sizeof(header) && std::memcmp(header, "SQLite format 3", 16) == 0;
}

std::runtime_error system_error(const std::string& doing, const std::string& path, int error) {
    return std::runtime_error("could not " + doing + " " + path + ": " + std::strerror(error) +
                              "; nothing was written there");
}

// Removes the temporary file unless it was renamed into place.
struct TemporaryFile {
    std::string path;
    bool kept = false;
    ~TemporaryFile() {
        if (!kept) ::unlink(path.c_str());
    }
};

}  // namespace

void check_output_file(const std::string& path, bool force) {
    const bool exists = cache::name_present(path);
    if (exists && is_sqlite_database(path))
        throw Error(ErrorCode::InvalidArgument, "jitgemm: " + path + " is a SQLite database (a tuning cache?); it "
                                                "was left as it is, --force or not: name another output file");
    if (exists && !force)
        throw Error(ErrorCode::InvalidArgument,
                    "jitgemm: " + path + " already exists; it was left as it is (pass --force to replace it)");
}

void write_output_file(const std::string& path, const std::string& text, bool force) {
    check_output_file(path, force);

    const std::filesystem::path target(path);
    const std::string directory = target.has_parent_path() ? target.parent_path().string() : ".";
    TemporaryFile temporary{directory + "/." + target.filename().string() + ".partial-XXXXXX"};
    const int fd = ::mkstemp(temporary.path.data());
    if (fd < 0) throw system_error("create a temporary file beside", path, errno);
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int e = n < 0 ? errno : ENOSPC;
            ::close(fd);
            throw system_error("write", path, e);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) {
        const int e = errno;
        ::close(fd);
        throw system_error("write", path, e);
    }
    if (::close(fd) != 0) throw system_error("write", path, errno);
    ::chmod(temporary.path.c_str(), 0644);  // mkstemp makes it 0600; an output file is for reading
    // Without --force the name must still be free at the moment of the rename.
    const int error = force ? (::rename(temporary.path.c_str(), path.c_str()) == 0 ? 0 : errno)
                            : cache::rename_without_replacing(temporary.path, path);
    if (error == EEXIST)
        throw Error(ErrorCode::InvalidArgument,
                    "jitgemm: " + path + " appeared while it was written; it was left as it is");
    if (error != 0) throw system_error("rename the output into", path, error);
    temporary.kept = true;
}

}  // namespace jitgemm::cli
