// The bandwidth, FFMA and mma.sync probes, and the ceilings kept in the cache.
#include "runtime/measure/ceiling_probes.h"
#include "log/log.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <iostream>

#include "runtime/compile/kernel_program.h"
#include "runtime/compile/cached_compile.h"
#include "runtime/compile/provenance.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/error.h"
#include "runtime/measure/event_timer.h"

namespace jitgemm {
namespace {

constexpr std::size_t kCopyBytes = std::size_t{1} << 30;  // read 1 GiB, write 1 GiB
constexpr int kFfmaIterations = 1 << 16;
constexpr int kMmaIterations = 1 << 14;
constexpr int kRuns = 7;

// The ceilings as the cache names them; each row is one field of DeviceCeilings.
struct CeilingField {
    const char* name;
    double DeviceCeilings::*field;
};
constexpr CeilingField kCeilingFields[] = {
    {"copy_bytes_per_s", &DeviceCeilings::dram_bytes_per_s}, {"fp32_flops", &DeviceCeilings::fp32_flops},
    {"f16_mma_flops", &DeviceCeilings::f16_mma_flops},       {"bf16_mma_flops", &DeviceCeilings::bf16_mma_flops},
    {"tf32_mma_flops", &DeviceCeilings::tf32_mma_flops},
};

// Median milliseconds of kRuns launches after one warm-up.
double median_launch_ms(const std::function<void()>& launch, CUstream stream) {
    EventTimer timer;
    std::vector<double> ms;
    for (int r = 0; r < kRuns + 1; ++r) {
        timer.start(stream);
        launch();
        timer.stop(stream);
        if (r > 0) ms.push_back(timer.elapsed_ms());
    }
    return median(ms);
}

}  // namespace

DeviceCeilings measure_ceilings(const DeviceInfo& device, const cache::CacheStack& caches) {
    const auto& cu = driver::api();
    const KernelProgram program = make_support_program("support/jg_ceilings.cuh", "jg_copy", device.arch());
    const Cubin cubin = obtain_cubin(program, caches, true);
    CUmodule raw = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&raw, cubin.image.data()));
    const driver::ModuleHandle module(raw);
    CUfunction copy = nullptr, ffma = nullptr, mma = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&copy, raw, "jg_copy"));
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&ffma, raw, "jg_ffma"));
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&mma, raw, "jg_mma_rate"));

    const driver::StreamHandle stream = driver::make_stream();
    DeviceCeilings out = estimate_ceilings(device);

    const driver::DeviceBuffer in(kCopyBytes), dst(kCopyBytes);
    JITGEMM_CU_CHECK(cu.cuMemsetD32Async(in.get(), 0x3f800000u, kCopyBytes / 4, stream.get()));
    CUdeviceptr src_ptr = in.get(), dst_ptr = dst.get();
    long long vectors = static_cast<long long>(kCopyBytes / 16);
    void* copy_params[] = {&src_ptr, &dst_ptr, &vectors};
    const unsigned copy_blocks = static_cast<unsigned>(device.sm_count * 8);
    const double copy_ms = median_launch_ms(
        [&] {
            JITGEMM_CU_CHECK(
                cu.cuLaunchKernel(copy, copy_blocks, 1, 1, 512, 1, 1, 0, stream.get(), copy_params, nullptr));
        },
        stream.get());
    out.dram_bytes_per_s = 2.0 * kCopyBytes / (copy_ms * 1e-3);
    out.l2_bytes_per_s = kL2OverDram * out.dram_bytes_per_s;

    const driver::DeviceBuffer sink(64);
    CUdeviceptr sink_ptr = sink.get();
    int iterations = kFfmaIterations;
    float x = 1.0f;
    void* ffma_params[] = {&sink_ptr, &iterations, &x};
    const unsigned blocks = static_cast<unsigned>(device.sm_count * 8), threads = 256;
    const double ffma_ms = median_launch_ms(
        [&] {
            JITGEMM_CU_CHECK(
                cu.cuLaunchKernel(ffma, blocks, 1, 1, threads, 1, 1, 0, stream.get(), ffma_params, nullptr));
        },
        stream.get());
    out.fp32_flops = 16.0 * kFfmaIterations * double(blocks) * threads / (ffma_ms * 1e-3);

    if (device.cc_major >= 8) {
        // Eight accumulator tiles per warp, 16 warps per SM (two blocks of 256 threads): enough independent mma.sync
        // in flight to reach the issue rate.
        const unsigned mma_blocks = static_cast<unsigned>(device.sm_count * 2), mma_threads = 256;
        const double warps = double(mma_blocks) * mma_threads / 32.0;
        int mma_iterations = kMmaIterations;
        const std::pair<int, double DeviceCeilings::*> kinds[] = {{0, &DeviceCeilings::f16_mma_flops},
                                                                   {1, &DeviceCeilings::bf16_mma_flops},
                                                                   {2, &DeviceCeilings::tf32_mma_flops}};
        for (auto [kind, field] : kinds) {
            void* params[] = {&sink_ptr, &mma_iterations, &kind};
            const double ms = median_launch_ms(
                [&] {
                    JITGEMM_CU_CHECK(cu.cuLaunchKernel(mma, mma_blocks, 1, 1, mma_threads, 1, 1, 0, stream.get(),
                                                       params, nullptr));
                },
                stream.get());
            const double flops_per_mma = kind == 2 ? 2.0 * 16 * 8 * 8 : 2.0 * 16 * 8 * 16;
            out.*field = flops_per_mma * 8.0 * kMmaIterations * warps / (ms * 1e-3);
        }
    }
    return out;
}

KnownCeilings known_ceilings(const DeviceInfo& device, const cache::CacheStack& caches, bool measure) {
    KnownCeilings known;
    known.ceilings = estimate_ceilings(device);
    cache::TuningCache* writable = caches.writable();
    const std::string driver = driver_version_text(), fingerprint = device.fingerprint();
    bool complete = writable != nullptr;
    DeviceCeilings stored = known.ceilings;
    for (const CeilingField& c : kCeilingFields) {
        const std::optional<double> value =
            writable != nullptr ? writable->find_ceiling(fingerprint, driver, c.name) : std::nullopt;
        if (value) stored.*c.field = *value;
        else complete = false;
    }
    if (!complete && measure) {
        stored = measure_ceilings(device, caches);
        complete = true;
        if (writable != nullptr) {
            try {
                for (const CeilingField& c : kCeilingFields)
                    writable->record_ceiling(fingerprint, driver, c.name, stored.*c.field);
            } catch (const Error& e) {
                log::warn(std::string("could not keep the measured ceilings: ") + e.what());
            }
        }
    }
    if (complete) {
        known.ceilings = stored;
        known.ceilings.l2_bytes_per_s = kL2OverDram * stored.dram_bytes_per_s;
        known.source = CeilingSource::Measured;
    }
    return known;
}


std::optional<DeviceCeilings> stored_ceilings(const std::vector<cache::CeilingRecord>& records,
                                              const std::string& fingerprint) {
    struct Driver {
        DeviceCeilings ceilings;
        std::size_t found = 0;
        std::int64_t latest = 0;
    };
    std::map<std::string, Driver> by_driver;
    for (const cache::CeilingRecord& r : records) {
        if (r.device_fingerprint != fingerprint) continue;
        for (const CeilingField& field : kCeilingFields)
            if (r.name == field.name) {
                Driver& d = by_driver[r.driver_version];
                d.ceilings.*field.field = r.value;
                ++d.found;
                d.latest = std::max(d.latest, r.measured_at_unix);
            }
    }
    const Driver* chosen = nullptr;
    for (const auto& [version, d] : by_driver)
        if (d.found == std::size(kCeilingFields) && (chosen == nullptr || d.latest > chosen->latest)) chosen = &d;
    if (chosen == nullptr) return std::nullopt;
    return chosen->ceilings;
}

}  // namespace jitgemm
