// A search that runs short of device memory. Memory taken by others (another process's work, on a shared GPU) says
// nothing of a candidate, and a failure on record is never retried: where the driver answers an allocation, a module
// load or a launch with CUDA_ERROR_OUT_OF_MEMORY, the search must end with that error and record no candidate as
// failed for it. The shortage is made in this process alone, by wrapping the driver's entries after a number of
// calls that succeed: taking the GPU's memory for real would starve the other test processes that ctest runs beside
// this one.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "cache/cache_stack.h"
#include "runtime/device/device_info.h"
#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "support/gpu_test_support.h"
#include "tuner/search_provenance.h"
#include "tuner/tuner.h"

namespace jitgemm {
namespace {

// Calls of the wrapped entries still served before the driver "runs out"; from then on every one of them fails, as
// memory taken by another process stays taken. Negative: no shortage.
std::atomic<int> g_calls_before_shortage{-1};
std::atomic<bool> g_shortage_met{false};

bool out_of_memory_now() {
    int left = g_calls_before_shortage.load();
    while (left > 0 && !g_calls_before_shortage.compare_exchange_weak(left, left - 1)) {
    }
    if (left != 0) return false;
    g_shortage_met = true;
    return true;
}

driver::DriverApi g_real;  // the entries as loaded

CUresult CUDAAPI short_mem_alloc(CUdeviceptr* memory, size_t bytes) {
    return out_of_memory_now() ? CUDA_ERROR_OUT_OF_MEMORY : g_real.cuMemAlloc(memory, bytes);
}
CUresult CUDAAPI short_module_load(CUmodule* module, const void* image) {
    return out_of_memory_now() ? CUDA_ERROR_OUT_OF_MEMORY : g_real.cuModuleLoadData(module, image);
}
CUresult CUDAAPI short_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                              unsigned bz, unsigned shared_bytes, CUstream stream, void** params, void** extra) {
    return out_of_memory_now() ? CUDA_ERROR_OUT_OF_MEMORY
                               : g_real.cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared_bytes, stream, params, extra);
}
CUresult CUDAAPI short_launch_ex(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) {
    return out_of_memory_now() ? CUDA_ERROR_OUT_OF_MEMORY : g_real.cuLaunchKernelEx(config, f, params, extra);
}

enum class Where { Allocation, ModuleLoad, Launch };

// Wraps the entries of `where` for its lifetime, the shortage starting after `calls` calls of them.
class ShortageOfDeviceMemory {
public:
    ShortageOfDeviceMemory(Where where, int calls) : table_(driver::api_for_fault_injection()) {
        g_real = table_;
        g_shortage_met = false;
        g_calls_before_shortage = calls;
        switch (where) {
            case Where::Allocation: table_.cuMemAlloc = short_mem_alloc; break;
            case Where::ModuleLoad: table_.cuModuleLoadData = short_module_load; break;
            case Where::Launch:
                table_.cuLaunchKernel = short_launch;
                table_.cuLaunchKernelEx = short_launch_ex;
                break;
        }
    }
    ~ShortageOfDeviceMemory() {
        table_ = g_real;
        g_calls_before_shortage = -1;
    }
    ShortageOfDeviceMemory(const ShortageOfDeviceMemory&) = delete;
    ShortageOfDeviceMemory& operator=(const ShortageOfDeviceMemory&) = delete;

private:
    driver::DriverApi& table_;
};

const char* name_of(Where where) {
    switch (where) {
        case Where::Allocation: return "cuMemAlloc";
        case Where::ModuleLoad: return "cuModuleLoadData";
        case Where::Launch: return "cuLaunchKernel";
    }
    return "?";
}

TEST(SearchOutOfMemory, EndsWithTheDriversErrorAndRecordsNoCandidateAsFailed) {
    JITGEMM_REQUIRE_GPU();
    const DeviceInfo& device = cached_device_info(driver::device_of(driver::current_context()));
    const auto& caches = cache::CacheStack::global();
    TuneOptions options;
    options.budget_seconds = 1.0;
    std::int64_t size = 256;
    // The shortage at the search's first allocation, load or launch, and later among its operands' allocations (six
    // a search), its candidates' loads and their timing runs (tens of launches each). Each of these is reached within
    // a search of 1 s (the first run, on an H100, met it in 8 of 12 cases where it also waited for the 12th and 60th
    // allocation or load: a search makes fewer).
    const std::pair<Where, int> cases[] = {{Where::Allocation, 0}, {Where::Allocation, 3}, {Where::ModuleLoad, 0},
                                           {Where::ModuleLoad, 2},  {Where::Launch, 0},     {Where::Launch, 5},
                                           {Where::Launch, 40}};
    for (const auto& [where, calls] : cases) {
        // fp32, a new size each time (no search resumes another's record), a multiple of 4: every column starts
        // 16-byte aligned, as the problem's alignment classes say.
        Problem p;
        size += 8;
        p.m = p.n = p.k = size;
        p.lda = p.ldb = p.ldc = size;
        SCOPED_TRACE(std::string(name_of(where)) + " short after " + std::to_string(calls) + " calls, " + p.key());
        bool ended_by_shortage = false;
        bool met = false;
        {
            const ShortageOfDeviceMemory shortage(where, calls);
            try {
                tune_problem(p, device, driver::current_context(), options, caches);
            } catch (const Error& e) {
                ended_by_shortage = true;
                EXPECT_TRUE(driver::is_out_of_memory(e)) << e.what();
            }
            met = g_shortage_met;
        }
        EXPECT_TRUE(met);
        // The search ended with the driver's error: nothing swallowed it.
        EXPECT_EQ(ended_by_shortage, met);
        for (const auto& m : caches.measurements(device.fingerprint(), p.key(), search_provenance(p, device))) {
            EXPECT_EQ(m.detail.find("OUT_OF_MEMORY"), std::string::npos) << m.config << ": " << m.detail;
            EXPECT_EQ(m.detail.find("out of memory"), std::string::npos) << m.config << ": " << m.detail;
        }
        // With the memory back, the same problem's search finds its winner: nothing on record stands in its way.
        const TuneResult again = tune_problem(p, device, driver::current_context(), options, caches);
        EXPECT_TRUE(again.winner.has_value());
    }
}

}  // namespace
}  // namespace jitgemm
