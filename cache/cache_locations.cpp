// Where the tuning-cache files are: the writable cache's path and the read-only bundles, from the environment.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <system_error>

#include "cache/tuning_cache.h"
#include "jitgemm/error.h"
#include "log/log.h"

namespace jitgemm::cache {
namespace {

// An empty variable counts as unset, as the XDG base-directory specification asks.
std::optional<std::filesystem::path> directory_from(const char* variable) {
    const char* value = std::getenv(variable);
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::filesystem::path(value);
}

std::vector<std::string> sqlite_files_in(const std::filesystem::path& directory) {
    std::vector<std::string> files;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(directory, error))
        if (entry.path().extension() == ".sqlite" && entry.is_regular_file(error))
            files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());  // one directory, so the order of the paths is the order of the names
    return files;
}

}  // namespace

std::string default_cache_path() {
    std::filesystem::path directory;
    if (auto own = directory_from("JITGEMM_CACHE"))
        directory = *own;
    else if (auto xdg = directory_from("XDG_CACHE_HOME"))
        directory = *xdg / "jitgemm";
    else if (auto home = directory_from("HOME"))
        directory = *home / ".cache" / "jitgemm";
    else
        throw Error(ErrorCode::CacheError,
                    "jitgemm: there is no place for the tuning cache: none of JITGEMM_CACHE, XDG_CACHE_HOME and HOME "
                    "is set (set JITGEMM_CACHE to a directory).");
    return (directory / "tuning.sqlite").string();
}

std::vector<std::string> bundle_paths() {
    std::vector<std::string> paths;
    const char* list = std::getenv("JITGEMM_CACHE_PATH");
    std::istringstream entries(list != nullptr ? list : "");
    for (std::string entry; std::getline(entries, entry, ':');) {
        std::error_code error;
        const auto status = std::filesystem::status(entry, error);
        if (entry.empty()) continue;
        if (error || !std::filesystem::exists(status)) {
            log::warn("JITGEMM_CACHE_PATH names " + entry + ", which does not exist; it is skipped");
            continue;
        }
        if (std::filesystem::is_directory(status)) {
            const std::vector<std::string> files = sqlite_files_in(entry);
            paths.insert(paths.end(), files.begin(), files.end());
        } else {
            paths.push_back(entry);
        }
    }
    return paths;
}

}  // namespace jitgemm::cache
