// Hashes of the embedded kernel sources: of one header with everything it includes, and of bytes in general.
#include "runtime/compile/kernel_sources.h"

#include <map>
#include <mutex>
#include <set>

#include "cache/content_hash.h"
#include "jitgemm/error.h"

namespace jitgemm {
namespace {

const EmbeddedSource* find_source(std::string_view name) {
    for (const auto& s : embedded_kernel_sources())
        if (s.name == name) return &s;
    return nullptr;
}

// The quoted #include targets of a source, as written ("common/jg_types.cuh").
std::vector<std::string_view> includes_of(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while ((at = text.find("#include \"", at)) != std::string_view::npos) {
        at += 10;
        const std::size_t end = text.find('"', at);
        if (end == std::string_view::npos) break;
        out.push_back(text.substr(at, end - at));
        at = end;
    }
    return out;
}

void collect(std::string_view name, std::set<std::string_view>& closure) {
    const EmbeddedSource* source = find_source(name);
    if (source == nullptr || !closure.insert(source->name).second) return;
    for (std::string_view included : includes_of(source->text)) collect(included, closure);
}

}  // namespace

std::vector<std::string_view> source_closure(std::string_view header) {
    std::set<std::string_view> closure;
    collect(header, closure);
    return std::vector<std::string_view>(closure.begin(), closure.end());
}

const std::string& source_hash(std::string_view header) {
    static std::mutex mutex;
    static std::map<std::string, std::string, std::less<>> hashes;  // node-based: references stay valid
    std::lock_guard lock(mutex);
    if (const auto it = hashes.find(header); it != hashes.end()) return it->second;
    if (find_source(header) == nullptr)
        throw Error(ErrorCode::Internal, "jitgemm: no embedded kernel source \"" + std::string(header) + "\"");
    // Every file's name and text, NUL-separated, in name order: a rename, an edit or a new include changes it.
    std::string all;
    for (std::string_view name : source_closure(header)) {
        all.append(name).push_back('\0');
        all.append(find_source(name)->text).push_back('\0');
    }
    return hashes.emplace(std::string(header), content_hash_hex(all)).first->second;
}

}  // namespace jitgemm
