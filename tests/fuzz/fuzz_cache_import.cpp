// libFuzzer target: importing an arbitrary file as a tuning-cache bundle (the bytes are written to a file, opened
// ReadOnly and merged into a fresh cache). A bad bundle must end in Error(CacheError), or in refusals the transfer
// reports; any other exception, a crash or a sanitizer report is a finding. Afterwards every cubin the target holds
// must pass the checks a load makes, whatever the bundle held.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "cache/cache_transfer.h"
#include "cache/cubin_check.h"
#include "cache/file_names.h"
#include "cache/tuning_cache.h"
#include "jitgemm/error.h"

namespace {

const std::filesystem::path& scratch() {
    static const std::filesystem::path dir = [] {
        std::string name = (std::filesystem::temp_directory_path() / "jitgemm-fuzz-XXXXXX").string();
        if (mkdtemp(name.data()) == nullptr) std::abort();
        return std::filesystem::path(name);
    }();
    return dir;
}

void remove_cache(const std::string& path) {
    std::filesystem::remove(path);
    for (const char* suffix : jitgemm::cache::kSqliteCompanionSuffixes) std::filesystem::remove(path + suffix);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace jitgemm::cache;
    const std::string bundle = (scratch() / "bundle.sqlite").string();
    const std::string target = (scratch() / "target.sqlite").string();
    remove_cache(bundle);
    remove_cache(target);
    std::ofstream(bundle, std::ios::binary).write(reinterpret_cast<const char*>(data), size);
    try {
        const auto into = TuningCache::open(target, TuningCache::Access::ReadWrite);
        merge_into(*into, *TuningCache::open(bundle, TuningCache::Access::ReadOnly));
        for (const CubinRecord& cubin : into->all_cubins())
            if (cubin_record_defect(cubin)) __builtin_trap();  // a damaged cubin got through
    } catch (const jitgemm::Error& e) {
        if (e.code() != jitgemm::ErrorCode::CacheError) __builtin_trap();
    }
    return 0;
}
