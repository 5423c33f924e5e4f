// The read roof at a size: how fast the GPU can read N bytes once and do nothing else, timed the way `jitgemm bench`
// times a GEMM (L2 flushed before each run, a pair of events around the launch, median of the runs). A decode step
// is one pass over its weights, so its roof at 32 MB is this figure, not the copy ceiling measured on 2 GiB: at tens
// of MB the launch and the stream's first and last microseconds weigh as much as the bytes. For each size the best
// of several grids (blocks per SM x threads) and loads in flight; also an empty launch (the events' floor).
//   read_roof [--csv FILE] [--runs N] BYTES ...      (suffixes k, M, G: powers of 1024)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "jitgemm/error.h"
#include "runtime/compile/kernel_program.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "runtime/device/device_info.h"
#include "runtime/driver/context.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "runtime/driver/driver_handles.h"
#include "runtime/measure/event_timer.h"
#include "runtime/measure/l2_flush.h"

namespace {

using namespace jitgemm;

long long parse_bytes(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const std::string suffix = end;
    const double scale = suffix == "" ? 1 : suffix == "k" ? 1024.0 : suffix == "M" ? 1048576.0
                                                 : suffix == "G" ? 1073741824.0 : -1;
    if (end == text.c_str() || scale < 0 || value <= 0)
        throw Error(ErrorCode::InvalidArgument, "read_roof: '" + text + "' is not a size (e.g. 32M, 117440512)");
    return static_cast<long long>(value * scale) / 16 * 16;
}

// One read kernel per number of loads in flight a thread keeps.
struct ReadKernel {
    int unroll;
    driver::ModuleHandle module;
    CUfunction function = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
    std::string csv_path;
    int runs = 50;
    std::vector<long long> sizes;
    try {
        for (int i = 1; i < argc; ++i) {
            if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv_path = argv[++i];
            else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::max(5, std::atoi(argv[++i]));
            else sizes.push_back(parse_bytes(argv[i]));
        }
        if (sizes.empty()) {
            std::fprintf(stderr, "usage: read_roof [--csv FILE] [--runs N] BYTES ...\n");
            return 2;
        }
        if (!driver::is_available()) {
            std::fprintf(stderr, "read_roof: no GPU here: %s\n", driver::unavailable_reason().c_str());
            return 3;
        }
        driver::current_context();
        const auto& cu = driver::api();
        const DeviceInfo device = query_device_info(0);
        std::vector<ReadKernel> kernels;
        for (int unroll : {1, 4, 8}) {
            KernelProgram program = make_support_program("support/jg_read_roof.cuh", "jg_read", device.arch());
            program.options.push_back("-DREAD_UNROLL=" + std::to_string(unroll));
            const Cubin cubin = compile_to_cubin(program);
            CUmodule raw = nullptr;
            JITGEMM_CU_CHECK(cu.cuModuleLoadData(&raw, cubin.image.data()));
            ReadKernel k{unroll, driver::ModuleHandle(raw)};
            JITGEMM_CU_CHECK(cu.cuModuleGetFunction(&k.function, raw, "jg_read"));
            kernels.push_back(std::move(k));
        }
        long long largest = 0;
        for (long long s : sizes) largest = std::max(largest, s);
        const driver::DeviceBuffer buffer(static_cast<std::size_t>(largest)), sink(4);
        JITGEMM_CU_CHECK(cu.cuMemsetD32(buffer.get(), 0x3f800000u, buffer.bytes() / 4));
        const driver::StreamHandle stream = driver::make_stream();
        const L2Flusher flusher(device);
        EventTimer timer;

        const auto time_ms = [&](CUfunction f, unsigned blocks, unsigned threads, long long vectors) {
            CUdeviceptr in = buffer.get(), out = sink.get();
            void* params[] = {&in, &vectors, &out};
            const auto launch = [&] {
                JITGEMM_CU_CHECK(cu.cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, stream.get(), params, nullptr));
            };
            launch();  // warm-up
            std::vector<double> ms;
            for (int r = 0; r < runs; ++r) {
                flusher.flush(stream.get());
                timer.start(stream.get());
                launch();
                timer.stop(stream.get());
                ms.push_back(timer.elapsed_ms());
            }
            return median(ms);
        };

        std::ofstream csv;
        if (!csv_path.empty()) {
            csv.open(csv_path);
            csv << "gpu,bytes,best_us,best_unroll,best_blocks_per_sm,best_threads,read_gbs,empty_launch_us\n";
        }
        const double empty_us = 1e3 * time_ms(kernels.front().function, device.sm_count, 256, 0);
        std::printf("%s: an empty launch %.2f us (L2 flushed before, events around it)\n", device.name.c_str(),
                    empty_us);
        std::printf("%14s %10s %9s %s\n", "bytes", "best us", "GB/s", "grid (loads in flight x blocks/SM x threads)");
        for (long long bytes : sizes) {
            double best = 1e30;
            int best_unroll = 0, best_per_sm = 0, best_threads = 0;
            for (const ReadKernel& k : kernels)
                for (int per_sm : {1, 2, 4, 8})
                    for (int threads : {256, 512, 1024}) {
                        if (per_sm * threads > 2048) continue;
                        const double us = 1e3 * time_ms(k.function, static_cast<unsigned>(device.sm_count * per_sm),
                                                        static_cast<unsigned>(threads), bytes / 16);
                        if (us < best) {
                            best = us;
                            best_unroll = k.unroll;
                            best_per_sm = per_sm;
                            best_threads = threads;
                        }
                    }
            const double gbs = bytes / (best * 1e-6) / 1e9;
            std::printf("%14lld %10.2f %9.0f %d x %d x %d\n", bytes, best, gbs, best_unroll, best_per_sm, best_threads);
            if (csv.is_open())
                csv << '"' << device.name << "\"," << bytes << ',' << best << ',' << best_unroll << ',' << best_per_sm
                    << ',' << best_threads << ',' << gbs << ',' << empty_us << '\n';
        }
        return 0;
    } catch (const Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
