// Blocks per SM from threads, registers and shared memory.
#include "runtime/device/occupancy.h"

#include <algorithm>

namespace jitgemm {
namespace {

int round_up(int value, int granularity) { return (value + granularity - 1) / granularity * granularity; }

}  // namespace

OccupancyLimits blocks_per_sm(const DeviceInfo& device, int threads, int registers_per_thread, int shared_bytes) {
    OccupancyLimits limits;
    const int warps = (threads + device.warp_size - 1) / device.warp_size;
    limits.by_threads = device.max_threads_per_sm / (warps * device.warp_size);
    // Registers are allocated per warp in units of 256 (8 per thread, rounded).
    const int registers_per_warp = round_up(round_up(std::max(registers_per_thread, 1), 8) * device.warp_size, 256);
    limits.by_registers = device.registers_per_sm / (registers_per_warp * warps);
    // Shared memory is allocated in 128-byte units; the driver reserves a little per block.
    const int shared_per_block = round_up(shared_bytes, 128) + device.reserved_shared_per_block;
    limits.by_shared_memory = shared_per_block > 0 ? device.shared_per_sm / shared_per_block : device.max_blocks_per_sm;
    limits.blocks = std::min({limits.by_threads, limits.by_registers, limits.by_shared_memory, device.max_blocks_per_sm});
    return limits;
}

}  // namespace jitgemm
