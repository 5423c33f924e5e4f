// Creating, publishing and cleaning up a partial file.
#include "cache/partial_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "cache/file_names.h"
#include "jitgemm/error.h"

namespace jitgemm::cache {
namespace {

Error exists_error(const std::string& path) {
    return Error(ErrorCode::CacheError,
                 "jitgemm: " + path + " already exists; it was left as it is and nothing was written there.");
}

}  // namespace

PartialFile::PartialFile(std::string path) : path_(std::move(path)), partial_path_(path_ + ".partial") {
    if (name_present(path_)) throw exists_error(path_);
    const int fd = ::open(partial_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        const int error = errno;
        if (error == EEXIST)
            throw Error(ErrorCode::CacheError, "jitgemm: cannot write " + path_ + ": " + partial_path_ +
                                                   " exists (another write to the same path is running, or one was "
                                                   "interrupted; remove it if none is running).");
        throw Error(ErrorCode::CacheError,
                    "jitgemm: could not create " + partial_path_ + ": " + std::strerror(error) + ".");
    }
    ::close(fd);
}

PartialFile::~PartialFile() {
    if (published_) return;
    std::error_code ignored;  // nothing more can be done about a file that will not go away
    for (const char* suffix : kSqliteCompanionSuffixes) std::filesystem::remove(partial_path_ + suffix, ignored);
    std::filesystem::remove(partial_path_, ignored);
}

void PartialFile::publish() {
    const int error = rename_without_replacing(partial_path_, path_);
    if (error == EEXIST) throw exists_error(path_);
    if (error != 0)
        throw Error(ErrorCode::CacheError, "jitgemm: could not rename " + partial_path_ + " to " + path_ + ": " +
                                               std::strerror(error) + ".");
    published_ = true;
}

}  // namespace jitgemm::cache
