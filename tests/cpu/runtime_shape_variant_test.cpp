// Run-time-shape variants on the host, for every family's search candidates on random layers: a variant's binary
// (its cubin key) is one for every size along its run-time dimension and every leading dimension, and another than
// the exact kernel's; its launch — grid, block, clusters, shared memory, the workspace of split K — is the exact
// kernel's for the same sizes, so the kernel, which reads the sizes at run time, lays the workspace out as the host
// sized it.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "runtime/compile/kernel_program.h"
#include "support/device_profiles.h"
#include "tuner/families/registry.h"

namespace jitgemm {
namespace {

Problem random_layer(std::mt19937_64& rng) {
    auto pick = [&](std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    Problem p;
    const DType types[] = {DType::F32, DType::F16, DType::BF16};
    p.a_type = p.b_type = types[pick(0, 2)];
    p.c_type = p.a_type == DType::F32 ? DType::F32 : types[pick(0, 2)];
    if (p.a_type == DType::F32 && pick(0, 1)) p.compute = ComputeType::TF32;
    p.trans_a = pick(0, 1) ? Transpose::Yes : Transpose::No;
    p.trans_b = pick(0, 1) ? Transpose::Yes : Transpose::No;
    p.m = pick(0, 3) == 0 ? pick(1, 64) : pick(1, 3000);
    p.n = pick(0, 3) == 0 ? pick(1, 64) : pick(1, 3000);
    p.k = pick(1, 3000);
    // Leading dimensions that keep every operand 16-byte aligned whatever the sizes (a variant's alignment classes
    // hold for all the calls it serves).
    const auto padded = [&](std::int64_t rows) { return (rows + 7) / 8 * 8 + 8 * pick(0, 2); };
    p.lda = padded(p.trans_a == Transpose::Yes ? p.k : p.m);
    p.ldb = padded(p.trans_b == Transpose::Yes ? p.n : p.k);
    p.ldc = padded(p.m);
    p.beta_mode = static_cast<BetaMode>(pick(0, 2));
    return p;
}

// The same layer at another size along `dim`, with leading dimensions to match.
Problem resized(Problem p, std::uint8_t dim, std::int64_t size) {
    (dim == 1 ? p.m : p.n) = size;
    const auto padded = [](std::int64_t rows) { return (rows + 7) / 8 * 8; };
    p.lda = padded(p.trans_a == Transpose::Yes ? p.k : p.m);
    p.ldb = padded(p.trans_b == Transpose::Yes ? p.n : p.k);
    p.ldc = padded(p.m);
    return p;
}

TEST(RuntimeShapeVariantHost, OneBinaryPerLayerAndTheExactKernelsLaunch) {
    const DeviceInfo device = testing::h200_profile();
    std::mt19937_64 rng(std::random_device{}());
    std::map<std::string, int> checked;
    int variants = 0;
    for (int round = 0; round < 60; ++round) {
        const Problem p = random_layer(rng);
        for (const std::uint8_t dim : {std::uint8_t{1}, std::uint8_t{2}}) {
            const Problem variant = p.with_runtime_dim(dim);
            // A decode step's tokens stay a decode step's (at most 64); other sizes anywhere up to 4096.
            const std::int64_t size = dim == 1 ? p.m : p.n;
            const std::int64_t other_size = std::uniform_int_distribution<std::int64_t>(1, size <= 64 ? 64 : 4096)(rng);
            const Problem other = resized(p, dim, other_size).with_runtime_dim(dim);
            for (const AnyConfig& config : enumerate_candidates(p, device)) {
                if (validate(config, variant, device) || validate(config, other, device)) continue;
                if (validate(config, p, device)) continue;
                ++variants;
                ++checked[std::string(family_name(config))];
                SCOPED_TRACE(to_string(config) + " on " + p.key() + " along " + (dim == 1 ? "m" : "n"));
                const std::string key = kernel_program(config, variant, "sm_90a").cubin_key();
                EXPECT_EQ(kernel_program(config, other, "sm_90a").cubin_key(), key) << other.key();
                EXPECT_NE(kernel_program(config, p, "sm_90a").cubin_key(), key);
                const LaunchDescription exact = launch_description(config, p);
                const LaunchDescription launch = launch_description(config, variant);
                EXPECT_TRUE(launch.grid == exact.grid);
                EXPECT_TRUE(launch.block == exact.block);
                EXPECT_TRUE(launch.cluster == exact.cluster);
                EXPECT_EQ(launch.dynamic_shared_bytes, exact.dynamic_shared_bytes);
                EXPECT_EQ(launch.partial_sums_bytes, exact.partial_sums_bytes);
                EXPECT_EQ(launch.partial_sums_zeroed_bytes, exact.partial_sums_zeroed_bytes);
                EXPECT_TRUE(launch.packs.empty());
            }
        }
    }
    for (const auto& [family, count] : checked) RecordProperty("family_" + family, std::to_string(count));
    EXPECT_GT(variants, 100);
    for (const char* family : {"tiled", "regblock", "mma_sync", "wgmma", "decode"})
        EXPECT_GT(checked[family], 0) << "no candidate of " << family << " had a variant";
}

}  // namespace
}  // namespace jitgemm
