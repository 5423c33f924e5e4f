// The kernel ABI a Hopper family needs, end to end on the device: a kernel that takes the one jg_args argument and a
// 128-byte __grid_constant__ parameter after it, launched through the runtime (load_kernel, launch_kernel) with a 3-D
// grid of 3-D blocks in clusters (cuLaunchKernelEx), whose extra parameter — a TMA descriptor encoded with
// cuTensorMapEncodeTiled from the driver table — comes from a per-call LaunchPreparation. The kernel reports what it
// received, and every block its place in its cluster.
#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <vector>

#include "jitgemm/error.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "runtime/device/device_info.h"
#include "runtime/driver/device_copy.h"
#include "runtime/launch/loaded_kernel.h"
#include "support/abi_probe.h"
#include "support/gpu_test_support.h"

namespace jitgemm {
namespace {


// Encodes a tensor map of the call's A (a 64 x 64 fp32 matrix, 32 x 32 boxes) on every launch, and keeps the bytes
// of the last one for the test to compare.
class EncodeTensorMap : public LaunchPreparation {
public:
    void prepare(const KernelArgs& args, ExtraParameters& extra) const override {
        CUtensorMap map;
        const cuuint64_t dims[2] = {64, 64};
        const cuuint64_t strides[1] = {64 * sizeof(float)};
        const cuuint32_t box[2] = {32, 32};
        const cuuint32_t element_strides[2] = {1, 1};
        JITGEMM_CU_CHECK(driver::api().cuTensorMapEncodeTiled(
            &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<void*>(args.a), dims, strides, box, element_strides,
            CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
        if (!extra.add(&map, sizeof(map))) throw Error(ErrorCode::Internal, "no room for the tensor map");
        std::lock_guard lock(mutex_);
        std::memcpy(last_, &map, sizeof(map));
    }
    std::vector<unsigned char> last() const {
        std::lock_guard lock(mutex_);
        return std::vector<unsigned char>(last_, last_ + sizeof(last_));
    }

private:
    mutable std::mutex mutex_;
    mutable unsigned char last_[sizeof(CUtensorMap)] = {};
};

TEST(LaunchAbi, ClusteredThreeDimensionalLaunchWithATensorMapPreparedPerCall) {
    JITGEMM_REQUIRE_GPU();
    const DeviceInfo& device = cached_device_info(driver::device_of(driver::current_context()));
    if (device.cc_major < 9) GTEST_SKIP() << "clusters and tensor maps need compute capability 9.0";

    const KernelProgram program = testing::abi_probe_program(device.arch());
    const Cubin cubin = compile_to_cubin(program);

    LaunchDescription launch;
    launch.grid = {4, 2, 2};
    launch.block = {32, 2, 2};
    launch.cluster = {2, 1, 1};
    auto preparation = std::make_shared<EncodeTensorMap>();
    launch.preparation = preparation;
    const auto kernel = load_kernel(cubin.image, program.kernel_symbol, launch, program.config_name);

    const driver::DeviceBuffer a(64 * 64 * sizeof(float));
    const driver::DeviceBuffer out(8192);
    JITGEMM_CU_CHECK(driver::api().cuMemsetD32(out.get(), 0xffffffffu, 8192 / 4));
    Problem p;
    p.m = 61;
    p.n = 62;
    p.k = 63;
    p.lda = 64;
    launch_kernel(*kernel, nullptr, make_kernel_args(p, a.as<void>(), nullptr, out.as<void>(), 0.5f, -1.5f));
    testing::synchronize();

    const std::vector<std::byte> bytes = driver::download_bytes(out);
    std::vector<unsigned> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    for (unsigned block = 0; block < 16; ++block) {
        EXPECT_EQ(words[2 * block], block % 2) << "cluster rank of block " << block;  // clusters of 2 along x
        EXPECT_EQ(words[2 * block + 1], 2u) << "cluster size seen by block " << block;
    }
    const std::vector<unsigned char> encoded = preparation->last();
    EXPECT_EQ(std::memcmp(bytes.data() + 4096, encoded.data(), encoded.size()), 0)
        << "the kernel received other bytes than the preparation encoded";
    long long sizes[4];
    std::memcpy(sizes, bytes.data() + 4096 + 128, sizeof(sizes));
    EXPECT_EQ(sizes[0], 61);
    EXPECT_EQ(sizes[1], 62);
    EXPECT_EQ(sizes[2], 63);
    EXPECT_EQ(sizes[3], 64);
    float scalars[2];
    std::memcpy(scalars, bytes.data() + 4096 + 128 + sizeof(sizes), sizeof(scalars));
    EXPECT_EQ(scalars[0], 0.5f);
    EXPECT_EQ(scalars[1], -1.5f);
}

// A launch in clusters knows how many of its clusters the device holds at once (whole clusters go to one GPC each),
// and a grid-strided (persistent) one of more clusters than that is cut to them, where the rest would wait and run
// as a second wave; a grid of one block per piece of work keeps its size.
TEST(LaunchAbi, GridStridedClusterLaunchIsCutToTheClustersResident) {
    JITGEMM_REQUIRE_GPU();
    const DeviceInfo& device = cached_device_info(driver::device_of(driver::current_context()));
    if (device.cc_major < 9) GTEST_SKIP() << "clusters need compute capability 9.0";
    const KernelProgram program = testing::abi_probe_program(device.arch());
    const Cubin cubin = compile_to_cubin(program);

    for (const std::uint32_t cluster : {2u, 4u}) {
        LaunchDescription launch;
        launch.grid = {std::uint32_t(device.sm_count) * 2 * cluster, 1, 1};
        launch.block = {128, 1, 1};
        launch.cluster = {cluster, 1, 1};
        launch.dynamic_shared_bytes = 160 * 1024;  // one block an SM
        const auto whole = load_kernel(cubin.image, program.kernel_symbol, launch, program.config_name);
        EXPECT_GT(whole->resident_clusters, 0);
        EXPECT_LE(whole->resident_clusters, device.sm_count / int(cluster));
        EXPECT_EQ(whole->launch.grid.x, launch.grid.x) << "a grid that is not grid-strided keeps its size";

        launch.grid_strided = true;
        const auto cut = load_kernel(cubin.image, program.kernel_symbol, launch, program.config_name);
        EXPECT_EQ(cut->resident_clusters, whole->resident_clusters);
        EXPECT_EQ(cut->launch.grid.x, std::uint32_t(cut->resident_clusters) * cluster) << "clusters of " << cluster;

        launch.grid.x = cluster;  // fewer clusters than resident: as it is
        EXPECT_EQ(load_kernel(cubin.image, program.kernel_symbol, launch, program.config_name)->launch.grid.x, cluster);
    }
}

}  // namespace
}  // namespace jitgemm
