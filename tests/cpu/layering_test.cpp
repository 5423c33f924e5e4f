// The layers of docs/architecture.md, checked on the source tree: every #include of the library runs downward — public
// API, dispatch, the tuner's search loop, the kernel families, the runtime, the cache — and none reaches tools/ (the
// command, manifests, the cuBLAS baseline, host references), which are not part of libjitgemm.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace jitgemm {
namespace {

struct Layer {
    const char* folder;   // below the source root, as files live
    const char* include;  // as #include-d: the include paths are the root and src/
    int rank;             // a file may include only its own rank or lower
};

// Longer prefixes first: tuner/families is a layer below the rest of tuner/.
const Layer kLayers[] = {
    {"src/api/", "api/", 60},       {"src/dispatch/", "dispatch/", 50}, {"tuner/families/", "tuner/families/", 35},
    {"tuner/", "tuner/", 40},       {"src/runtime/", "runtime/", 20},   {"cache/", "cache/", 10},
    {"src/log/", "log/", 5},
};

std::optional<Layer> layer_of_file(const std::string& path) {
    for (const Layer& l : kLayers)
        if (path.rfind(l.folder, 0) == 0) return l;
    return std::nullopt;
}

std::optional<Layer> layer_of_include(const std::string& include) {
    for (const Layer& l : kLayers)
        if (include.rfind(l.include, 0) == 0) return l;
    return std::nullopt;
}

std::vector<std::string> violations() {
    const std::filesystem::path root(JITGEMM_SOURCE_DIR);
    const std::regex include_line(R"re(^\s*#\s*include\s+"([^"]+)")re");
    std::vector<std::string> out;
    for (const char* top : {"src", "tuner", "cache"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / top)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".h" && ext != ".cpp") continue;
            const std::string path = entry.path().lexically_relative(root).generic_string();
            const std::optional<Layer> from = layer_of_file(path);
            if (!from) continue;
            std::ifstream in(entry.path());
            std::string line;
            for (int number = 1; std::getline(in, line); ++number) {
                std::smatch m;
                if (!std::regex_search(line, m, include_line)) continue;
                const std::string target = m[1];
                const std::optional<Layer> to = layer_of_include(target);
                if (target.rfind("tools/", 0) == 0 || (to && to->rank > from->rank))
                    out.push_back(path + ":" + std::to_string(number) + " includes \"" + target + "\"");
            }
        }
    }
    return out;
}

TEST(Layering, EveryIncludeOfTheLibraryRunsDownward) {
    const std::vector<std::string> found = violations();
    std::string listed;
    for (const auto& v : found) listed += "\n  " + v;
    EXPECT_TRUE(found.empty()) << "includes that run against the layers of docs/architecture.md:" << listed;
}

TEST(Layering, TheCheckSeesTheTree) {
    // A check that reads nothing passes anything: the tree it walked must hold the layers it checks.
    const std::filesystem::path root(JITGEMM_SOURCE_DIR);
    for (const Layer& l : kLayers) EXPECT_TRUE(std::filesystem::is_directory(root / l.folder)) << l.folder;
    EXPECT_TRUE(layer_of_include("runtime/driver/cuda_driver.h").has_value());
    EXPECT_EQ(layer_of_include("tuner/families/registry.h")->rank, 35);
    EXPECT_EQ(layer_of_file("tuner/tuner.cpp")->rank, 40);
}

}  // namespace
}  // namespace jitgemm
