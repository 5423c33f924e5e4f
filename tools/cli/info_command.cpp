// `jitgemm info`: the versions of jitgemm and NVRTC, the driver, and each GPU's limits — or a clear statement that
// there is no driver or device (exit code 3).
#include <cstdio>
#include <iostream>
#include <sstream>

#include "tools/cli/commands.h"
#include "tuner/families/registry.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/json_text.h"
#include "tools/cli/option_parsing.h"
#include "runtime/compile/kernel_sources.h"
#include "runtime/compile/nvrtc_compiler.h"
#include "cache/cache_stack.h"
#include "runtime/device/device_info.h"
#include "runtime/compile/provenance.h"
#include "runtime/driver/context.h"
#include "runtime/measure/ceiling_probes.h"
#include "runtime/driver/cuda_driver.h"
#include "runtime/driver/driver_check.h"
#include "jitgemm/jitgemm.h"

namespace jitgemm::cli {
namespace {


const char* source_name(const KnownCeilings& k) {
    return k.source == CeilingSource::Measured ? "measured" : "estimated from clocks, generation and bus";
}

void print_device_text(std::ostream& out, int ordinal, const DeviceInfo& d, const KnownCeilings& known) {
    out << "device " << ordinal << ": " << d.name << "\n"
        << "  compute capability     " << d.cc_major << "." << d.cc_minor << " (NVRTC target " << d.arch() << ")\n"
        << "  SMs                    " << d.sm_count << "\n"
        << "  global memory          " << d.global_memory_bytes / (1024 * 1024) << " MiB\n"
        << "  L2 cache               " << d.l2_bytes / 1024 << " KiB\n"
        << "  threads per block/SM   " << d.max_threads_per_block << " / " << d.max_threads_per_sm << "\n"
        << "  blocks per SM          " << d.max_blocks_per_sm << "\n"
        << "  registers per block/SM " << d.registers_per_block << " / " << d.registers_per_sm << "\n"
        << "  shared memory          " << d.shared_per_block << " B per block, " << d.shared_per_block_optin
        << " B with opt-in, " << d.shared_per_sm << " B per SM (" << d.reserved_shared_per_block
        << " B reserved per block)\n"
        << "  clocks                 SM " << d.sm_clock_khz / 1000 << " MHz, memory " << d.memory_clock_khz / 1000
        << " MHz, " << d.memory_bus_bits << "-bit bus\n"
        << "  fingerprint            " << d.fingerprint() << "\n";
    const DeviceCeilings& c = known.ceilings;
    char line[512];
    std::snprintf(line, sizeof(line),
                  "  roofline (%s)\n    copy bandwidth       %.2f TB/s (read + write)\n"
                  "    fp32 FFMA            %7.1f TFLOP/s, ridge point %6.1f FLOP/byte\n"
                  "    fp16 mma.sync        %7.1f TFLOP/s, ridge point %6.1f FLOP/byte\n"
                  "    bf16 mma.sync        %7.1f TFLOP/s, ridge point %6.1f FLOP/byte\n"
                  "    tf32 mma.sync        %7.1f TFLOP/s, ridge point %6.1f FLOP/byte\n",
                  source_name(known), c.dram_bytes_per_s / 1e12, c.fp32_flops / 1e12, c.fp32_ridge(),
                  c.f16_mma_flops / 1e12, c.ridge(DType::F16, ComputeType::F32), c.bf16_mma_flops / 1e12,
                  c.ridge(DType::BF16, ComputeType::F32), c.tf32_mma_flops / 1e12,
                  c.ridge(DType::F32, ComputeType::TF32));
    out << line;
}

void print_device_json(std::ostream& out, int ordinal, const DeviceInfo& d, const KnownCeilings& known) {
    out << "{\"ordinal\": " << ordinal << ", \"name\": " << json_string(d.name) << ", \"compute_capability\": \""
        << d.cc_major << "." << d.cc_minor << "\", \"arch\": \"" << d.arch() << "\", \"sm_count\": " << d.sm_count
        << ", \"global_memory_bytes\": " << d.global_memory_bytes << ", \"l2_bytes\": " << d.l2_bytes
        << ", \"max_threads_per_block\": " << d.max_threads_per_block
        << ", \"max_threads_per_sm\": " << d.max_threads_per_sm << ", \"max_blocks_per_sm\": " << d.max_blocks_per_sm
        << ", \"registers_per_block\": " << d.registers_per_block << ", \"registers_per_sm\": " << d.registers_per_sm
        << ", \"shared_per_block\": " << d.shared_per_block << ", \"shared_per_block_optin\": "
        << d.shared_per_block_optin << ", \"shared_per_sm\": " << d.shared_per_sm
        << ", \"fingerprint\": " << json_string(d.fingerprint()) << ", \"ceilings\": {\"source\": \""
        << (known.source == CeilingSource::Measured ? "measured" : "estimated")
        << "\", \"copy_bytes_per_s\": " << known.ceilings.dram_bytes_per_s
        << ", \"fp32_flops\": " << known.ceilings.fp32_flops << ", \"fp32_ridge_flop_per_byte\": "
        << known.ceilings.fp32_ridge() << ", \"f16_mma_flops\": " << known.ceilings.f16_mma_flops
        << ", \"bf16_mma_flops\": " << known.ceilings.bf16_mma_flops
        << ", \"tf32_mma_flops\": " << known.ceilings.tf32_mma_flops << "}}";
}

}  // namespace

int info_command(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    po::options_description options;
    options.add_options()("json", "print JSON instead of text");
    int exit_code = kExitOk;
    const auto vm = parse_options("info", "usage: jitgemm info [--json]\nThe GPUs, their limits, and versions.",
                                  options, args, exit_code);
    if (!vm) return exit_code;
    const bool json = vm->count("json") > 0;

    const bool have_gpu = driver::is_available();
    const cache::CacheStack& caches = cache::CacheStack::global();
    std::ostringstream devices;
    int count = 0;
    if (have_gpu) {
        JITGEMM_CU_CHECK(driver::api().cuDeviceGetCount(&count));
        for (int i = 0; i < count; ++i) {
            const DeviceInfo d = query_device_info(i);
            JITGEMM_CU_CHECK(driver::api().cuCtxSetCurrent(driver::primary_context(i)));
            const KnownCeilings known = known_ceilings(d, caches, true);
            if (json) {
                if (i > 0) devices << ", ";
                print_device_json(devices, i, d, known);
            } else {
                print_device_text(devices, i, d, known);
            }
        }
    }
    std::ostringstream cache_text, cache_json;
    {
        const cache::TuningCache* writable = caches.writable();
        cache_json << "{\"path\": " << json_string(writable ? writable->path() : "") << ", \"selections\": "
                   << (writable ? writable->all_selections().size() : 0) << ", \"cubins\": "
                   << (writable ? writable->cubin_count() : 0) << ", \"measurements\": "
                   << (writable ? writable->measurement_count() : 0) << ", \"bundles\": [";
        cache_text << "tuning cache " << (writable ? writable->path() : std::string("(none writable)"));
        if (writable)
            cache_text << ": " << writable->all_selections().size() << " tuned problems, " << writable->cubin_count()
                       << " cubins, " << writable->measurement_count() << " measurements, "
                       << writable->all_untuned().size() << " untuned problems";
        cache_text << "\n";
        const auto bundles = cache::bundle_paths();
        for (std::size_t b = 0; b < bundles.size(); ++b) {
            cache_text << "bundle " << bundles[b] << "\n";
            cache_json << (b ? ", " : "") << json_string(bundles[b]);
        }
        cache_json << "]}";
    }

    // Each family's source hash: what its cubins and the searches it takes part in are keyed by.
    std::ostringstream hashes_text, hashes_json;
    for_each_family([&](auto tag) {
        using Family = decltype(tag);
        const std::string& hash = source_hash(Family::kSourceHeader);
        hashes_text << (hashes_text.tellp() > 0 ? ", " : "") << Family::kName << " " << hash.substr(0, 12);
        hashes_json << (hashes_json.tellp() > 0 ? ", " : "") << "\"" << Family::kName << "\": \"" << hash << "\"";
    });
    if (json) {
        std::cout << "{\"jitgemm_version\": \"" << version() << "\", \"nvrtc_version\": \"" << nvrtc_version()
                  << "\", \"family_source_hashes\": {" << hashes_json.str() << "}, \"driver_version\": "
                  << (have_gpu ? "\"" + driver_version_text() + "\"" : std::string("null"))
                  << ", \"gpu_available\": " << (have_gpu ? "true" : "false") << ", \"error\": "
                  << (have_gpu ? std::string("null") : json_string(driver::unavailable_reason()))
                  << ", \"cache\": " << cache_json.str() << ", \"devices\": [" << devices.str() << "]}\n";
    } else {
        std::cout << "jitgemm " << version() << ", NVRTC " << nvrtc_version() << ", kernel sources "
                  << hashes_text.str() << "\n";
        if (have_gpu) {
            std::cout << "CUDA driver " << driver_version_text() << ", " << count
                      << (count == 1 ? " device\n" : " devices\n")
                      << devices.str();
        } else {
            std::cout << "No GPU: " << driver::unavailable_reason() << "\n";
        }
        std::cout << cache_text.str();
    }
    return have_gpu ? kExitOk : kExitNoGpu;
}

}  // namespace jitgemm::cli
