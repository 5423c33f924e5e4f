// The library carries every kernel source of kernel_sources/ byte for byte (so nothing is read from the source tree
// at run time), and the source hash is the one cached entries are checked against.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cache/content_hash.h"
#include "jitgemm/error.h"
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

TEST(EmbeddedSources, ContentHashIsXxh3Of128Bits) {
    EXPECT_EQ(content_hash_hex(""), "99aa06d3014798d86001c324468d497f");  // XXH3-128 of nothing (xxHash's test)
    EXPECT_EQ(content_hash_hex("a").size(), 32u);
    EXPECT_NE(content_hash_hex("a"), content_hash_hex("b"));
}

// A family's source hash covers its own header and every header it includes, and nothing else: the closure of the
// mma_sync kernel holds the shared headers it includes and not another family's kernel.
TEST(EmbeddedSources, SourceHashCoversAFamilysHeaderAndItsIncludesOnly) {
    const auto closure = source_closure("mma_sync/mma_sync.cuh");
    const auto has = [&](std::string_view name) {
        return std::find(closure.begin(), closure.end(), name) != closure.end();
    };
    EXPECT_TRUE(has("mma_sync/mma_sync.cuh"));
    EXPECT_TRUE(has("mma_sync/bulk_pack.cuh"));
    EXPECT_TRUE(has("common/jg_args.cuh"));
    EXPECT_TRUE(has("common/jg_types.cuh"));  // included through jg_problem.cuh and jg_memory.cuh
    EXPECT_FALSE(has("regblock.cuh"));
    EXPECT_FALSE(has("support/jg_verify.cuh"));
    const auto regblock = source_closure("regblock.cuh");
    EXPECT_EQ(std::find(regblock.begin(), regblock.end(), "mma_sync/mma_sync.cuh"), regblock.end());
    EXPECT_NE(source_hash("regblock.cuh"), source_hash("mma_sync/mma_sync.cuh"));
    EXPECT_EQ(source_hash("regblock.cuh"), source_hash("regblock.cuh"));
    EXPECT_EQ(source_hash("regblock.cuh").size(), 32u);
    EXPECT_THROW(source_hash("no_such_family.cuh"), Error);
}

}  // namespace
}  // namespace jitgemm
