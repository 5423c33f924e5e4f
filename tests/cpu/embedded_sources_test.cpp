// The library carries every kernel source of kernel_sources/ byte for byte (so nothing is read from the source tree
// at run time), and the source hash is the one cached entries are checked against.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/compile/kernel_sources.h"

namespace jitgemm {
namespace {

TEST(EmbeddedSources, EveryKernelSourceIsEmbeddedVerbatim) {
    std::size_t on_disk = 0;
    const std::filesystem::path root(JITGEMM_KERNEL_SOURCE_DIR);
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
        if (entry.path().extension() != ".cuh") continue;
        ++on_disk;
        std::ifstream in(entry.path(), std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        const auto& sources = embedded_kernel_sources();
        const auto it = std::find_if(sources.begin(), sources.end(), [&](const EmbeddedSource& s) {
            return s.name == entry.path().lexically_relative(root).generic_string();
        });
        ASSERT_NE(it, sources.end()) << entry.path();
        EXPECT_EQ(it->text, text.str()) << entry.path() << " differs from its embedded copy: rebuild";
    }
    EXPECT_EQ(on_disk, embedded_kernel_sources().size());
    EXPECT_GE(on_disk, 6u);
}

TEST(EmbeddedSources, HashIsSixteenHexDigitsAndFnvIsCorrect) {
    EXPECT_EQ(kernel_sources_hash().size(), 16u);
    EXPECT_EQ(kernel_sources_hash().find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_EQ(fnv1a_hex(""), "cbf29ce484222325");   // the FNV-1a 64 offset basis
    EXPECT_EQ(fnv1a_hex("a"), "af63dc4c8601ec8c");  // published test vector
}

}  // namespace
}  // namespace jitgemm
