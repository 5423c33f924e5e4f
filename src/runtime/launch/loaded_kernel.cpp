// Module loading and the launch of the hot path.
#include "runtime/launch/loaded_kernel.h"

#include <algorithm>

#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "runtime/workspace/stream_workspace.h"

namespace jitgemm {
namespace {

constexpr unsigned kPackThreads = 256;  // per jg_pack block: its __launch_bounds__

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

}  // namespace

std::shared_ptr<const LoadedKernel> load_kernel(const std::string& image, const std::string& symbol,
                                                const LaunchGeometry& geometry, const std::string& config_name) {
    const auto& cu = driver::api();
    auto kernel = std::make_shared<LoadedKernel>();
    CUmodule module = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&module, image.data()));
    kernel->module = driver::ModuleHandle(module);
    CUdevice device = 0;
    JITGEMM_CU_CHECK(cu.cuCtxGetDevice(&device));
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernel->function, module, symbol.c_str()));
    if (!geometry.packs.empty()) {
        const char* pack = geometry.packs.front().tiled ? "jg_pack_tiles" : "jg_pack";
        JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&kernel->pack_function, module, pack));
        // The pack and the GEMM after it ask for the same split of each SM's memory between L1 and shared memory
        // (all to shared memory, which the GEMM needs), so the SMs need not be reconfigured between the two.
        for (CUfunction f : {kernel->pack_function, kernel->function})
            JITGEMM_CU_CHECK(cu.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                                   CU_SHAREDMEM_CARVEOUT_MAX_SHARED));
        kernel->pack_wave_blocks = pack_wave_blocks(kernel->pack_function, device);
    }
    if (geometry.dynamic_shared_bytes > 48 * 1024)
        JITGEMM_CU_CHECK(cu.cuFuncSetAttribute(kernel->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                               static_cast<int>(geometry.dynamic_shared_bytes)));
    JITGEMM_CU_CHECK(cu.cuFuncGetAttribute(&kernel->registers, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel->function));
    JITGEMM_CU_CHECK(cu.cuFuncGetAttribute(&kernel->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                                           kernel->function));
    int cc_major = 0;
    JITGEMM_CU_CHECK(cu.cuDeviceGetAttribute(&cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    kernel->programmatic_launch = cc_major >= 9;
    kernel->geometry = geometry;
    kernel->config_name = config_name;
    return kernel;
}

namespace {

// The kernel's parameters: (A, B, C, alpha, beta) and, for the Tensor Core family, its scratch. The driver reads as
// many of them as the kernel declares, so the other families ignore the sixth. after_pack: the launch follows this
// kernel's pack launch in the stream, and may overlap its end where the device allows (programmatic_launch).
void launch_gemm(const LoadedKernel& kernel, CUstream stream, const void* a, const void* b, void* c, float alpha,
                 float beta, CUdeviceptr scratch, bool after_pack) {
    void* scratch_pointer = reinterpret_cast<void*>(scratch);
    void* params[] = {&a, &b, &c, &alpha, &beta, &scratch_pointer};
    const LaunchGeometry& g = kernel.geometry;
    if (!(after_pack && kernel.programmatic_launch)) {
        JITGEMM_CU_CHECK(driver::api().cuLaunchKernel(kernel.function, g.grid, 1, 1, g.block, 1, 1,
                                                      g.dynamic_shared_bytes, stream, params, nullptr));
        return;
    }
    CUlaunchAttribute overlap{};
    overlap.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    overlap.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config{};
    config.gridDimX = g.grid;
    config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = g.block;
    config.blockDimY = config.blockDimZ = 1;
    config.sharedMemBytes = g.dynamic_shared_bytes;
    config.hStream = stream;
    config.attrs = &overlap;
    config.numAttrs = 1;
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

void launch_kernel(const LoadedKernel& kernel, CUstream stream, const void* a, const void* b, void* c, float alpha,
                   float beta) {
    const LaunchGeometry& g = kernel.geometry;
    if (g.packs.empty() && g.scratch_bytes == 0) {
        launch_gemm(kernel, stream, a, b, c, alpha, beta, 0, false);
        return;
    }
    // One stream-ordered workspace: the kernel's scratch, then each packed copy, each on its own 256-byte boundary.
    const auto slot_bytes = [](std::int64_t bytes) { return (bytes + 255) / 256 * 256; };
    std::int64_t total = slot_bytes(g.scratch_bytes);
    for (const OperandPack& op : g.packs) total += slot_bytes(op.bytes());
    const driver::StreamWorkspace workspace(static_cast<std::size_t>(total), stream);
    const CUdeviceptr scratch = g.scratch_bytes > 0 ? workspace.get() : 0;
    if (g.scratch_zeroed_bytes > 0 && g.packs.empty())  // else the pack launch zeroes them
        JITGEMM_CU_CHECK(driver::api().cuMemsetD32Async(scratch, 0, static_cast<std::size_t>(g.scratch_zeroed_bytes / 4),
                                                        stream));
    CUdeviceptr next = workspace.get() + static_cast<CUdeviceptr>(slot_bytes(g.scratch_bytes));
    const void* operands[2] = {a, b};
    if (!g.packs.empty()) {
        PackJob jobs[2];
        for (std::size_t i = 0; i < g.packs.size() && i < 2; ++i) {
            const OperandPack& op = g.packs[i];
            jobs[i] = pack_job(op, operands[op.operand], next);
            operands[op.operand] = reinterpret_cast<const void*>(next);
            next += static_cast<CUdeviceptr>(slot_bytes(op.bytes()));
        }
        launch_packs(kernel, stream, jobs[0], jobs[1], g.packs.front().element_bytes, scratch, g.scratch_zeroed_bytes);
    }
    launch_gemm(kernel, stream, operands[0], operands[1], c, alpha, beta, scratch, !g.packs.empty());
}

}  // namespace jitgemm
