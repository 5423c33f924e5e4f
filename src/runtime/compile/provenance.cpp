// Provenance of the running system.
#include "runtime/compile/provenance.h"

#include "runtime/compile/kernel_sources.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "runtime/driver/cuda_driver.h"
#include "jitgemm/gemm.h"

namespace jitgemm {

std::string driver_version_text() {
    const int v = driver::api().version;
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

cache::Provenance current_provenance(const DeviceInfo& device, const std::string& sources_hash) {
    cache::Provenance p;
    p.library_version = std::string(version());
    p.kernel_sources_hash = sources_hash;
    p.nvrtc_version = nvrtc_version();
    p.driver_version = driver_version_text();
    p.device_name = device.name;
    p.sm_count = device.sm_count;
    return p;
}

}  // namespace jitgemm
