// Resource rules shared by all families.
#include "tuner/families/common/resource_limits.h"

#include <algorithm>
#include <string>

#include "jitgemm/error.h"
#include "runtime/device/occupancy.h"

namespace jitgemm {

std::optional<Rejection> check_resources(const DeviceInfo& device, int threads, int registers_per_thread,
                                         int shared_bytes, bool optin_shared) {
    if (threads > device.max_threads_per_block)
        return Rejection{PruneRule::Threads, std::to_string(threads) + " threads per block, the device allows " +
                                                 std::to_string(device.max_threads_per_block)};
    const int shared_limit = optin_shared ? device.shared_per_block_optin : device.shared_per_block;
    if (shared_bytes > shared_limit)
        return Rejection{PruneRule::SharedMemory, std::to_string(shared_bytes) +
                                                      " bytes of shared memory per block, the device allows " +
                                                      std::to_string(shared_limit)};
    if (registers_per_thread > 255)
        return Rejection{PruneRule::Registers,
                         "about " + std::to_string(registers_per_thread) + " registers per thread, the limit is 255"};
    if (registers_per_thread * threads > device.registers_per_block)
        return Rejection{PruneRule::Registers, "about " + std::to_string(registers_per_thread * threads) +
                                                   " registers per block, the device allows " +
                                                   std::to_string(device.registers_per_block)};
    if (blocks_per_sm(device, threads, registers_per_thread, shared_bytes).blocks < 1)
        return Rejection{PruneRule::Occupancy, "not one block fits on an SM"};
    return std::nullopt;
}

std::optional<Rejection> require_fp32_inputs_and_output(const Problem& p) {
    if (p.a_type == DType::F32 && p.b_type == DType::F32 && p.c_type == DType::F32) return std::nullopt;
    return Rejection{PruneRule::Dtype, "this family computes fp32 GEMMs only"};
}

bool is_simt_problem(const Problem& p) {
    return p.a_type == DType::F32 && p.b_type == DType::F32 && p.c_type == DType::F32 && p.compute == ComputeType::F32;
}

LaunchDescription tile_grid(std::int64_t tiles_m, std::int64_t tiles_n, int threads, int dynamic_shared_bytes,
                            std::int64_t batch) {
    const std::int64_t blocks = tiles_m * tiles_n;
    if (blocks > INT32_MAX)
        throw Error(ErrorCode::Unsupported, "jitgemm: the problem needs " + std::to_string(blocks) +
                                                " blocks, more than a grid holds (2^31 - 1)");
    LaunchDescription g;
    g.grid.x = static_cast<std::uint32_t>(blocks);
    // kernel_sources/common/jg_batch.cuh: GEMM z of the batch in the grid's third dimension, in turns past 65535.
    g.grid.z = static_cast<std::uint32_t>(std::min<std::int64_t>(batch, 65535));
    g.block.x = static_cast<std::uint32_t>(threads);
    g.dynamic_shared_bytes = static_cast<std::uint32_t>(dynamic_shared_bytes);
    return g;
}

}  // namespace jitgemm
