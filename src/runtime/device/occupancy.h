// Occupancy arithmetic: how many blocks of a candidate fit on one SM, limited by threads, registers and
// shared memory, with the hardware's allocation granularity. Used to prune before compiling, when registers are
// an estimate; after compiling, the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor has the last word.
#pragma once

#include "runtime/device/device_info.h"

namespace jitgemm {

struct OccupancyLimits {
    int by_threads = 0;
    int by_registers = 0;
    int by_shared_memory = 0;
    int blocks = 0;  // the smallest of the three and the device's block limit
};

OccupancyLimits blocks_per_sm(const DeviceInfo& device, int threads, int registers_per_thread, int shared_bytes);

}  // namespace jitgemm
