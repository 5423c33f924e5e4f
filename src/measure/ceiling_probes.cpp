// The bandwidth and FFMA probes.
#include "measure/ceiling_probes.h"

#include "compile/kernel_program.h"
#include "dispatch/cubin_source.h"
#include "driver/cuda_driver.h"
#include "driver/driver_check.h"
#include "measure/event_timer.h"

namespace jitgemm {
namespace {

constexpr std::size_t kCopyBytes = std::size_t{1} << 30;  // read 1 GiB, write 1 GiB
constexpr int kFfmaIterations = 1 << 16;
constexpr int kRuns = 7;

}  // namespace

MeasuredCeilings measure_ceilings(const DeviceInfo& device, const cache::CacheStack& caches) {
    const auto& cu = driver::api();
    const KernelProgram program = make_support_program("jg_ceilings.cuh", device.arch());
    const Cubin cubin = obtain_cubin(program, caches, true);
    CUmodule raw = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleLoadData(&raw, cubin.image.data()));
    const driver::ModuleHandle module(raw);
    CUfunction copy = nullptr, ffma = nullptr;
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&copy, raw, "jg_copy"));
    JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&ffma, raw, "jg_ffma"));

    const driver::StreamHandle stream = driver::make_stream();
    EventTimer timer;
    MeasuredCeilings out;

    const driver::DeviceBuffer in(kCopyBytes), dst(kCopyBytes);
    JITGEMM_CU_CHECK(cu.cuMemsetD32Async(in.get(), 0x3f800000u, kCopyBytes / 4, stream.get()));
    CUdeviceptr src_ptr = in.get(), dst_ptr = dst.get();
    long long vectors = static_cast<long long>(kCopyBytes / 16);
    void* copy_params[] = {&src_ptr, &dst_ptr, &vectors};
    const unsigned copy_blocks = static_cast<unsigned>(device.sm_count * 8);
    std::vector<double> copy_ms;
    for (int r = 0; r < kRuns + 1; ++r) {
        timer.start(stream.get());
        JITGEMM_CU_CHECK(cu.cuLaunchKernel(copy, copy_blocks, 1, 1, 512, 1, 1, 0, stream.get(), copy_params, nullptr));
        timer.stop(stream.get());
        if (r > 0) copy_ms.push_back(timer.elapsed_ms());  // the first run is a warm-up
    }
    out.copy_bytes_per_s = 2.0 * kCopyBytes / (median(copy_ms) * 1e-3);

    const driver::DeviceBuffer sink(64);
    CUdeviceptr sink_ptr = sink.get();
    int iterations = kFfmaIterations;
    float x = 1.0f;
    void* ffma_params[] = {&sink_ptr, &iterations, &x};
    const unsigned blocks = static_cast<unsigned>(device.sm_count * 8), threads = 256;
    std::vector<double> ffma_ms;
    for (int r = 0; r < kRuns + 1; ++r) {
        timer.start(stream.get());
        JITGEMM_CU_CHECK(cu.cuLaunchKernel(ffma, blocks, 1, 1, threads, 1, 1, 0, stream.get(), ffma_params, nullptr));
        timer.stop(stream.get());
        if (r > 0) ffma_ms.push_back(timer.elapsed_ms());
    }
    out.fp32_flops = 16.0 * kFfmaIterations * double(blocks) * threads / (median(ffma_ms) * 1e-3);
    return out;
}

}  // namespace jitgemm

#include <iostream>

#include "dispatch/provenance.h"
#include "jitgemm/error.h"

namespace jitgemm {
namespace {

constexpr const char* kCopyName = "copy_bytes_per_s";
constexpr const char* kFlopsName = "fp32_flops";

}  // namespace

KnownCeilings known_ceilings(const DeviceInfo& device, const cache::CacheStack& caches, bool measure) {
    KnownCeilings known;
    known.ceilings = estimate_ceilings(device);
    cache::TuningCache* writable = caches.writable();
    const std::string driver = driver_version_text(), fingerprint = device.fingerprint();
    std::optional<double> copy, flops;
    if (writable != nullptr) {
        copy = writable->find_ceiling(fingerprint, driver, kCopyName);
        flops = writable->find_ceiling(fingerprint, driver, kFlopsName);
    }
    if ((!copy || !flops) && measure) {
        const MeasuredCeilings m = measure_ceilings(device, caches);
        copy = m.copy_bytes_per_s;
        flops = m.fp32_flops;
        if (writable != nullptr) {
            try {
                writable->record_ceiling(fingerprint, driver, kCopyName, *copy);
                writable->record_ceiling(fingerprint, driver, kFlopsName, *flops);
            } catch (const Error& e) {
                std::cerr << "jitgemm: warning: could not keep the measured ceilings: " << e.what() << "\n";
            }
        }
    }
    if (copy && flops) {
        known.ceilings.dram_bytes_per_s = *copy;
        known.ceilings.fp32_flops = *flops;
        known.ceilings.l2_bytes_per_s = 2.5 * *copy;
        known.source = CeilingSource::Measured;
    }
    return known;
}

}  // namespace jitgemm
