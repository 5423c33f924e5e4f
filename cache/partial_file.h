// PartialFile: a new file that appears at its path only once it is complete. It is written as "<path>.partial" and
// renamed into place at the end, never over an existing file; should anything fail first, the partial file is
// removed, so a reader never sees half a file and a failure leaves nothing behind.
#pragma once

#include <string>

namespace jitgemm::cache {

class PartialFile {
public:
    // Creates an empty "<path>.partial", exclusively. Throws Error(CacheError) when `path` exists, or when the
    // partial file exists (another write to the same path is running, or one was interrupted and left it) or cannot
    // be created.
    explicit PartialFile(std::string path);
    // Removes the partial file, and any -wal, -shm or -journal SQLite left beside it, unless published.
    ~PartialFile();
    PartialFile(const PartialFile&) = delete;
    PartialFile& operator=(const PartialFile&) = delete;

    const std::string& partial_path() const { return partial_path_; }

    // Renames the partial file to the path. Throws Error(CacheError) when a file has appeared there meanwhile, which
    // is then left as it is.
    void publish();

private:
    std::string path_;
    std::string partial_path_;
    bool published_ = false;
};

}  // namespace jitgemm::cache
