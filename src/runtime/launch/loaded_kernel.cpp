// Module loading and the launch of the hot path.
#include "runtime/launch/loaded_kernel.h"

#include <algorithm>

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "runtime/workspace/stream_workspace.h"

namespace jitgemm {
namespace {

constexpr unsigned kPackThreads = 256;  // per jg_pack (and jg_pack_transpose) block: its __launch_bounds__

// The jg_pack blocks the device holds at once. A launch of more would run in waves, and a last, partial one leaves
// most SMs idle while it runs (half a wave on 777 x 1111 x 3333 before the kernel's register cap: 791 blocks where
// 528 fit); the kernel loops over its chunks instead (a grid-stride loop), so a grid of one wave copies everything.
unsigned pack_wave_blocks(CUfunction pack, CUdevice device) {
    const auto& cu = driver::api();
    int sms = 0, per_sm = 0;
    JITGEMM_CU_CHECK(cu.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device));
    JITGEMM_CU_CHECK(cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pack, kPackThreads, 0));
    return static_cast<unsigned>(std::max(sms * per_sm, 1));
}

// The grid, blocks, shared memory and cluster shape of `launch` as cuLaunchKernelEx takes them, the cluster's
// attribute written to attributes[0] where it has clusters; other attributes go after it (numAttrs counts them).
CUlaunchConfig extended_launch(const LaunchDescription& launch, CUlaunchAttribute* attributes) {
    CUlaunchConfig config{};
    config.gridDimX = launch.grid.x;
    config.gridDimY = launch.grid.y;
    config.gridDimZ = launch.grid.z;
    config.blockDimX = launch.block.x;
    config.blockDimY = launch.block.y;
    config.blockDimZ = launch.block.z;
    config.sharedMemBytes = launch.dynamic_shared_bytes;
    config.attrs = attributes;
    if (launch.clustered()) {
        attributes[0] = CUlaunchAttribute{};
        attributes[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attributes[0].value.clusterDim.x = launch.cluster.x;
        attributes[0].value.clusterDim.y = launch.cluster.y;
        attributes[0].value.clusterDim.z = launch.cluster.z;
        config.numAttrs = 1;
    }
    return config;
}

// The clusters of the launch's shape that the device holds at once, or 0 for a launch without clusters.
int resident_clusters(CUfunction function, const LaunchDescription& launch) {
    if (!launch.clustered()) return 0;
    CUlaunchAttribute cluster;
    const CUlaunchConfig config = extended_launch(launch, &cluster);
    int clusters = 0;
    JITGEMM_CU_CHECK(driver::api().cuOccupancyMaxActiveClusters(&clusters, function, &config));
    return clusters;
}

// A grid-strided launch's grid along x, cut to the clusters the device holds at once where it has more.
LaunchDescription resident_grid(LaunchDescription launch, int resident_clusters) {
    const std::uint64_t clusters = launch.grid.x / launch.cluster.x;
    if (launch.grid_strided && resident_clusters > 0 && clusters > std::uint64_t(resident_clusters))
        launch.grid.x = std::uint32_t(resident_clusters) * launch.cluster.x;
    return launch;
}

}  // namespace

std::string resident_clusters_text(const LoadedKernel& kernel) {
    const LaunchDescription& launch = kernel.launch;
    if (!launch.clustered()) return "";
    return std::to_string(kernel.resident_clusters) + " clusters of " + std::to_string(launch.cluster.count()) +
           " resident, " + std::to_string(launch.grid.count() / launch.cluster.count()) + " launched";
}

std::shared_ptr<const LoadedKernel> load_kernel(const std::string& image, const std::string& symbol,
                                                const LaunchDescription& launch, const std::string& config_name) {
    const auto& cu = driver::api();
    auto kernel = std::make_shared<LoadedKernel>();
    CUmodule module = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&module, image.data()));
    kernel->module = std::make_shared<const driver::ModuleHandle>(module);
    CUdevice device = 0;
    JITGEMM_CU_CHECK(cu.cuCtxGetDevice(&device));
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernel->function, module, symbol.c_str()));
    if (!launch.packs.empty()) {
        JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernel->pack_function, module,
                                                pack_kernel_symbol(pack_kernel_of(launch.packs))));
        // The pack and the GEMM after it ask for the same split of each SM's memory between L1 and shared memory
        // (all to shared memory, which the GEMM needs), so the SMs need not be reconfigured between the two.
        for (CUfunction f : {kernel->pack_function, kernel->function})
            JITGEMM_CU_CHECK(cu.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                                   CU_SHAREDMEM_CARVEOUT_MAX_SHARED));
        kernel->pack_wave_blocks = pack_wave_blocks(kernel->pack_function, device);
    }
    if (launch.dynamic_shared_bytes > 48 * 1024)
        JITGEMM_CU_CHECK(cu.cuFuncSetAttribute(kernel->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                               static_cast<int>(launch.dynamic_shared_bytes)));
    JITGEMM_CU_CHECK(cu.cuFuncGetAttribute(&kernel->registers, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel->function));
    JITGEMM_CU_CHECK(cu.cuFuncGetAttribute(&kernel->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                                           kernel->function));
    int cc_major = 0;
    JITGEMM_CU_CHECK(cu.cuDeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    kernel->programmatic_launch = cc_major >= 9;
    kernel->resident_clusters = resident_clusters(kernel->function, launch);
    kernel->launch = resident_grid(launch, kernel->resident_clusters);
    kernel->config_name = config_name;
    return kernel;
}

std::shared_ptr<const LoadedKernel> with_launch(const LoadedKernel& kernel, const LaunchDescription& launch) {
    if (launch.dynamic_shared_bytes > 48 * 1024 && launch.dynamic_shared_bytes > kernel.launch.dynamic_shared_bytes)
        JITGEMM_CU_CHECK(driver::api().cuFuncSetAttribute(kernel.function,
                                                          CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                          static_cast<int>(launch.dynamic_shared_bytes)));
    auto relaunched = std::make_shared<LoadedKernel>(kernel);
    relaunched->resident_clusters = resident_clusters(kernel.function, launch);
    relaunched->launch = resident_grid(launch, relaunched->resident_clusters);
    return relaunched;
}

namespace {

// The GEMM's launch: its KernelArgs, then what the family's preparation adds. after_pack: the launch follows this
// kernel's pack launch in the stream, and may overlap its end where the device allows (programmatic_launch).
void launch_gemm(const LoadedKernel& kernel, CUstream stream, const KernelArgs& args, bool after_pack) {
    const LaunchDescription& d = kernel.launch;
    ExtraParameters extra;
    if (d.preparation) d.preparation->prepare(args, extra);
    void* params[1 + ExtraParameters::kMax];
    params[0] = const_cast<KernelArgs*>(&args);
    for (int i = 0; i < extra.count(); ++i) params[1 + i] = extra.parameter(i);
    const bool overlap = after_pack && kernel.programmatic_launch;
    if (!overlap && !d.clustered()) {
        JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.function, d.grid.x, d.grid.y, d.grid.z, d.block.x,
                                                      d.block.y, d.block.z, d.dynamic_shared_bytes, stream, params,
                                                      nullptr));
        return;
    }
    CUlaunchAttribute attributes[2] = {};
    CUlaunchConfig config = extended_launch(d, attributes);
    config.hStream = stream;
    if (overlap) {
        attributes[config.numAttrs].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attributes[config.numAttrs++].value.programmaticStreamSerializationAllowed = 1;
    }
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernelEx(&config, kernel.function, params, nullptr));
}

// kernel_sources/jg_pack.cuh's jg_pack_job: eight-byte fields only, so the layouts agree.
struct PackJob {
    const void* src = nullptr;
    void* dst = nullptr;
    long long ld_src = 0, rows = 0, cols = 0, chunks_per_column = 0, chunks = 0;  // chunks = 0: no copy
    long long extent = 0;  // elements from src to the end of its last column
};
static_assert(sizeof(PackJob) == 64, "PackJob mirrors jg_pack_job");

PackJob pack_job(const OperandPack& op, const void* src, CUdeviceptr dst) {
    // ld_to: whole 128-byte lines, or whole tiles (tiled)
    const std::int64_t chunks_per_column = op.ld_to * op.element_bytes / 16;
    return {src, reinterpret_cast<void*>(dst), op.ld_from, op.rows, op.cols, chunks_per_column,
            chunks_per_column * op.cols_to, op.cols > 0 ? (op.cols - 1) * op.ld_from + op.rows : 0};
}

// kernel_sources/common/jg_pack_transpose.cuh's jg_pack_transpose_job, eight-byte fields only likewise.
struct TransposeJob {
    const void* src = nullptr;
    void* dst = nullptr;
    long long ld_src = 0, rows = 0, cols = 0, ld_dst = 0, transpose = 0, tiles_down = 0;
    long long tiles = 0;  // 0: no copy
};
static_assert(sizeof(TransposeJob) == 72, "TransposeJob mirrors jg_pack_transpose_job");

constexpr long long kTransposeTile = 64;  // jg_pack_transpose.cuh's TILE

TransposeJob transpose_job(const OperandPack& op, const void* src, CUdeviceptr dst) {
    // Tiles cover the source's rows and columns, and the copy's padding (zeros) past them: past `cols` where the copy
    // is transposed, past `rows` where it is not.
    const long long down = op.transposed ? op.rows : op.ld_to, across = op.transposed ? op.ld_to : op.cols;
    const long long tiles_down = (down + kTransposeTile - 1) / kTransposeTile;
    const long long tiles_across = (across + kTransposeTile - 1) / kTransposeTile;
    return {src, reinterpret_cast<void*>(dst), op.ld_from, op.rows, op.cols, op.ld_to, op.transposed ? 1 : 0,
            tiles_down, op.cols > 0 && op.rows > 0 ? tiles_down * tiles_across : 0};
}

// Copies the packed operands through jg_pack_transpose, both in one launch of at most a wave of blocks, which loop
// over the 64 x 64 tiles; it also zeroes `zero_bytes` at `zero` (the split-K counters).
void launch_transposing_packs(const LoadedKernel& kernel, CUstream stream, TransposeJob first, TransposeJob second,
                              CUdeviceptr zero, std::int64_t zero_bytes) {
    const unsigned blocks = static_cast<unsigned>(
        std::min<std::int64_t>(first.tiles + second.tiles, kernel.pack_wave_blocks));
    void* zero_pointer = reinterpret_cast<void*>(zero);
    int zero_words = static_cast<int>(zero_bytes / 4);
    void* params[] = {&first, &second, &zero_pointer, &zero_words};
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.pack_function, std::max(blocks, 1u), 1, 1, kPackThreads, 1,
                                                  1, 0, stream, params, nullptr));
}

// Copies the packed operands, both in one launch (jg_pack.cuh), each thread JG_PACK_CHUNKS_PER_THREAD 16-byte
// chunks of the copies. The launch also zeroes `zero_bytes` at `zero` (the split-K counters).
void launch_packs(const LoadedKernel& kernel, CUstream stream, PackJob first, PackJob second, int element_bytes,
                  CUdeviceptr zero, std::int64_t zero_bytes) {
    constexpr std::int64_t kChunksPerThread = 4;  // jg_pack.cuh's JG_PACK_CHUNKS_PER_THREAD
    const std::int64_t threads_needed = (first.chunks + second.chunks + kChunksPerThread - 1) / kChunksPerThread;
    const unsigned threads = kPackThreads;
    const unsigned blocks = static_cast<unsigned>(
        std::min<std::int64_t>((threads_needed + threads - 1) / threads, kernel.pack_wave_blocks));
    void* zero_pointer = reinterpret_cast<void*>(zero);
    int zero_words = static_cast<int>(zero_bytes / 4);
    void* params[] = {&first, &second, &element_bytes, &zero_pointer, &zero_words};
    JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.pack_function, std::max(blocks, 1u), 1, 1, threads, 1, 1, 0,
                                                  stream, params, nullptr));
}

}  // namespace

void launch_kernel(const LoadedKernel& kernel, CUstream stream, KernelArgs args) {
    const LaunchDescription& d = kernel.launch;
    if (d.packs.empty() && d.partial_sums_bytes == 0) {
        launch_gemm(kernel, stream, args, false);
        return;
    }
    // One share of the stream's workspace: the partial sums, then each packed copy, each on its own 256-byte boundary.
    const auto slot_bytes = [](std::int64_t bytes) { return (bytes + 255) / 256 * 256; };
    std::int64_t total = slot_bytes(d.partial_sums_bytes);
    for (const OperandPack& op : d.packs) total += slot_bytes(op.bytes());
    const driver::StreamWorkspace workspace(static_cast<std::size_t>(total),
                                            static_cast<std::size_t>(d.partial_sums_zeroed_bytes), stream);
    const CUdeviceptr partial_sums = d.partial_sums_bytes > 0 ? workspace.get() : 0;
    args.workspace = reinterpret_cast<void*>(partial_sums);
    // The counters are zero already in the stream's kept workspace (the kernels leave them so); in a graph's own
    // allocation they are zeroed here, or by the pack launch where there is one.
    const std::int64_t zero_bytes = workspace.head_is_zero() ? 0 : d.partial_sums_zeroed_bytes;
    if (zero_bytes > 0 && d.packs.empty())
        JITGEMM_CU_CHECK(
            driver::api().cuMemsetD32Async(partial_sums, 0, static_cast<std::size_t>(zero_bytes / 4), stream));
    CUdeviceptr next = workspace.get() + static_cast<CUdeviceptr>(slot_bytes(d.partial_sums_bytes));
    if (!d.packs.empty()) {
        const bool through_tiles = pack_kernel_of(d.packs) == PackKernel::Transposing;  // 64 x 64 tiles of shared memory
        PackJob jobs[2];
        TransposeJob tile_jobs[2];
        for (std::size_t i = 0; i < d.packs.size() && i < 2; ++i) {
            const OperandPack& op = d.packs[i];
            const void* src = op.operand == 0 ? args.a : args.b;
            if (through_tiles) tile_jobs[i] = transpose_job(op, src, next);
            else jobs[i] = pack_job(op, src, next);
            (op.operand == 0 ? args.a : args.b) = reinterpret_cast<const void*>(next);
            (op.operand == 0 ? args.lda : args.ldb) = op.ld_to;
            next += static_cast<CUdeviceptr>(slot_bytes(op.bytes()));
        }
        if (through_tiles)
            launch_transposing_packs(kernel, stream, tile_jobs[0], tile_jobs[1], partial_sums, zero_bytes);
        else
            launch_packs(kernel, stream, jobs[0], jobs[1], d.packs.front().element_bytes, partial_sums, zero_bytes);
    }
    launch_gemm(kernel, stream, args, !d.packs.empty());
}

}  // namespace jitgemm
