// Cached cubins reach the driver only when they are the program's binary, byte for byte as written: real NVRTC
// cubins (compiled here, no GPU needed) against every kind of damage and substitution issue 19 found — flipped
// bytes, truncation, a non-ELF payload, an empty image, another kernel's image, a cubin row of another provenance,
// and a selection pointing at another configuration's cubin.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cache/cache_stack.h"
#include "cache/cubin_check.h"
#include "runtime/compile/cached_compile.h"
#include "runtime/compile/cubin_verification.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "support/cache_test_files.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

using cache_test::TempDir;

Problem small_problem() {
    Problem p;
    p.m = p.n = p.k = p.lda = p.ldb = p.ldc = 64;
    p.alpha_one = true;
    return p;
}

// A program and its real cubin, compiled once for the whole file (NVRTC takes about a second).
struct Compiled {
    KernelProgram program;
    cache::CubinRecord record;
};
const Compiled& compiled(const std::string& config_name) {
    static std::vector<std::pair<std::string, std::unique_ptr<Compiled>>> done;
    for (const auto& [name, c] : done)
        if (name == config_name) return *c;
    const KernelProgram program = kernel_program(*parse_config(config_name), small_problem(), "sm_90a");
    const Cubin cubin = compile_to_cubin(program);
    done.emplace_back(config_name, std::make_unique<Compiled>(Compiled{program, to_cubin_record(program, cubin)}));
    return *done.back().second;
}

constexpr char kSmall[] = "regblock_32x32x16_t4x4_v4_s2_g8";     // 64 threads
constexpr char kLarge[] = "regblock_128x128x8_t8x8_v4_s2_g8";    // 256 threads

TEST(CubinTrust, RealCubinPassesAndEveryKindOfDamageIsCaught) {
    const Compiled& c = compiled(kSmall);
    EXPECT_EQ(c.record.image_hash.size(), 32u);
    EXPECT_EQ(cubin_defect_for(c.program, c.record), std::nullopt);

    cache::CubinRecord flipped = c.record;
    flipped.image[flipped.image.size() / 2] ^= 0x01;
    ASSERT_TRUE(cubin_defect_for(c.program, flipped).has_value());
    EXPECT_NE(cubin_defect_for(c.program, flipped)->find("content hash"), std::string::npos);

    // Without a stored hash (a row of an older file) the structure is still checked.
    cache::CubinRecord unhashed = c.record;
    unhashed.image_hash.clear();
    EXPECT_EQ(cubin_defect_for(c.program, unhashed), std::nullopt);
    cache::CubinRecord truncated = unhashed;
    truncated.image.resize(truncated.image.size() / 2);
    EXPECT_NE(cubin_defect_for(c.program, truncated).value_or("").find("outside"), std::string::npos);
    cache::CubinRecord machine = unhashed;
    machine.image[18] = 62;  // EM_X86_64
    EXPECT_NE(cubin_defect_for(c.program, machine).value_or("").find("not a CUDA ELF"), std::string::npos);
    cache::CubinRecord text = unhashed;
    text.image = "#!/bin/sh\nrm -rf /\n" + std::string(100, ' ');
    EXPECT_NE(cubin_defect_for(c.program, text).value_or("").find("not an ELF file"), std::string::npos);
    cache::CubinRecord empty = unhashed;
    empty.image.clear();
    EXPECT_NE(cubin_defect_for(c.program, empty).value_or("").find("empty"), std::string::npos);
}

// A selection naming the 256-thread configuration must never be launched with the 64-thread one's cubin, whatever
// the rows say about themselves.
TEST(CubinTrust, AnotherProgramsCubinIsNeverAccepted) {
    const Compiled& small = compiled(kSmall);
    const Compiled& large = compiled(kLarge);
    EXPECT_NE(cubin_defect_for(large.program, small.record).value_or("").find("key"), std::string::npos);

    cache::CubinRecord relabelled = small.record;  // the small image under the large program's key and name
    relabelled.key = large.program.cubin_key();
    relabelled.config = large.program.config_name;
    relabelled.image_hash.clear();
    EXPECT_EQ(cubin_defect_for(large.program, relabelled), std::nullopt)
        << "the rows' own fields agree; only the key binds the bytes, which is why a selection's key is recomputed";

    cache::CubinRecord other_nvrtc = small.record;
    other_nvrtc.nvrtc_version = "12.0";
    EXPECT_NE(cubin_defect_for(small.program, other_nvrtc).value_or("").find("NVRTC version"), std::string::npos);
    cache::CubinRecord other_sources = small.record;
    other_sources.kernel_sources_hash = "0123456789abcdef0123456789abcdef";
    EXPECT_NE(cubin_defect_for(small.program, other_sources).value_or("").find("source hash"), std::string::npos);
    cache::CubinRecord other_config = small.record;
    other_config.config = large.program.config_name;
    EXPECT_NE(cubin_defect_for(small.program, other_config).value_or("").find("configuration"), std::string::npos);
    cache::CubinRecord other_symbol = small.record;
    other_symbol.kernel_symbol = "jg_naive";
    EXPECT_NE(cubin_defect_for(small.program, other_symbol).value_or("").find("kernel symbol"), std::string::npos);
}

// A damaged row of the writable cache is reported, skipped and compiled again, and the new binary replaces it.
TEST(CubinTrust, DamagedCachedCubinIsCompiledAgainAndRepaired) {
    TempDir dir;
    const std::string path = dir.file("tuning.sqlite");
    const Compiled& c = compiled(kSmall);
    cache::TuningCache::open(path, cache::TuningCache::Access::ReadWrite)->put_cubin(c.record);
    cache_test::run_sql(path, "UPDATE cubins SET image = CAST(zeroblob(length(image)) AS BLOB)");

    cache::CacheStack stack(cache::TuningCache::open(path, cache::TuningCache::Access::ReadWrite), {});
    testing::internal::CaptureStderr();
    const Cubin cubin = obtain_cubin(c.program, stack, true);
    const std::string warnings = testing::internal::GetCapturedStderr();
    EXPECT_NE(warnings.find("ignoring the cubin " + c.record.key), std::string::npos) << warnings;
    EXPECT_EQ(cache::cubin_image_defect(cubin.image, c.program.kernel_symbol, "sm_90a"), std::nullopt);
    const auto repaired = stack.writable()->find_cubin(c.record.key);
    ASSERT_TRUE(repaired.has_value());
    EXPECT_EQ(cache::cubin_record_defect(*repaired), std::nullopt);
    EXPECT_TRUE(repaired->image == cubin.image);
}

// A bundle holding nothing but a cubin row under the key of the program a call needs (the heuristic default's, say)
// replaces nothing unless the row is of this build: here its NVRTC version differs, so the program is compiled.
TEST(CubinTrust, BundleCubinRowOfAnotherProvenanceIsNotUsed) {
    TempDir dir;
    const std::string bundle = dir.file("bundle.sqlite");
    const Compiled& c = compiled(kSmall);
    cache::CubinRecord planted = c.record;
    planted.nvrtc_version = "12.0";
    planted.image = cache_test::fake_cubin(c.program.kernel_symbol, "sm_90a", "planted");
    planted.image_hash.clear();
    cache::TuningCache::open(bundle, cache::TuningCache::Access::ReadWrite)->put_cubin(planted);

    std::vector<std::unique_ptr<cache::TuningCache>> bundles;
    bundles.push_back(cache::TuningCache::open(bundle, cache::TuningCache::Access::ReadOnly));
    cache::CacheStack stack(nullptr, std::move(bundles));
    testing::internal::CaptureStderr();
    const Cubin cubin = obtain_cubin(c.program, stack, true);
    const std::string warnings = testing::internal::GetCapturedStderr();
    EXPECT_TRUE(cubin.image != planted.image);
    EXPECT_NE(warnings.find("NVRTC version"), std::string::npos) << warnings;
}

// The support modules (the tuner's verification kernels, the roofline probes) hold several kernels: each program
// names one of them, so that its cubin is stored — the cache refuses a row whose image does not define its kernel —
// and the next process finds it instead of compiling again.
TEST(CubinTrust, SupportModulesAreStoredAndFoundAgain) {
    TempDir dir;
    cache::CacheStack stack(
        cache::TuningCache::open(dir.file("tuning.sqlite"), cache::TuningCache::Access::ReadWrite), {});
    for (const auto& [header, entry] : {std::pair<std::string, std::string>{"support/jg_verify.cuh", "jg_compare"},
                                        {"support/jg_ceilings.cuh", "jg_copy"}}) {
        const KernelProgram program = make_support_program(header, entry, "sm_90a");
        testing::internal::CaptureStderr();
        const Cubin cubin = obtain_cubin(program, stack, true);
        const std::string warnings = testing::internal::GetCapturedStderr();
        EXPECT_EQ(warnings, "") << header;
        const auto stored = stack.writable()->find_cubin(program.cubin_key());
        ASSERT_TRUE(stored.has_value()) << header;
        EXPECT_EQ(cache::cubin_record_defect(*stored), std::nullopt) << header;
        EXPECT_TRUE(stored->image == cubin.image) << header;
        EXPECT_TRUE(find_verified_cubin(program, stack).has_value()) << header;
    }
}

}  // namespace
}  // namespace jitgemm
