// `jitgemm info`: the versions of jitgemm and NVRTC, the driver, and each GPU's limits — or a clear statement that
// there is no driver or device (exit code 3).
#include <cstdio>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tools/cli/commands.h"
#include "tuner/families/registry.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/option_parsing.h"
#include "runtime/compile/kernel_sources.h"
#include "runtime/compile/compile_workers.h"
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

nlohmann::ordered_json device_json(int ordinal, const DeviceInfo& d, const KnownCeilings& known) {
    const DeviceCeilings& c = known.ceilings;
    return {{"ordinal", ordinal}, {"name", d.name},
            {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
            {"arch", d.arch()}, {"sm_count", d.sm_count}, {"global_memory_bytes", d.global_memory_bytes},
            {"l2_bytes", d.l2_bytes}, {"max_threads_per_block", d.max_threads_per_block},
            {"max_threads_per_sm", d.max_threads_per_sm}, {"max_blocks_per_sm", d.max_blocks_per_sm},
            {"registers_per_block", d.registers_per_block}, {"registers_per_sm", d.registers_per_sm},
            {"shared_per_block", d.shared_per_block}, {"shared_per_block_optin", d.shared_per_block_optin},
            {"shared_per_sm", d.shared_per_sm}, {"fingerprint", d.fingerprint()},
            {"ceilings",
             {{"source", known.source == CeilingSource::Measured ? "measured" : "estimated"},
              {"copy_bytes_per_s", c.dram_bytes_per_s}, {"fp32_flops", c.fp32_flops},
              {"fp32_ridge_flop_per_byte", c.fp32_ridge()}, {"f16_mma_flops", c.f16_mma_flops},
              {"bf16_mma_flops", c.bf16_mma_flops}, {"tf32_mma_flops", c.tf32_mma_flops}}}};
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
    nlohmann::ordered_json devices_json = nlohmann::ordered_json::array();
    int count = 0;
    if (have_gpu) {
        JITGEMM_CU_CHECK(driver::api().cuDeviceGetCount(&count));
        for (int i = 0; i < count; ++i) {
            const DeviceInfo d = query_device_info(i);
            JITGEMM_CU_CHECK(driver::api().cuCtxSetCurrent(driver::primary_context(i)));
            const KnownCeilings known = known_ceilings(d, caches, true);
            if (json) {
                devices_json.push_back(device_json(i, d, known));
            } else {
                print_device_text(devices, i, d, known);
            }
        }
    }
    std::ostringstream cache_text;
    nlohmann::ordered_json cache_json;
    {
        const cache::TuningCache* writable = caches.writable();
        const auto bundles = cache::bundle_paths();
        cache_json = {{"path", writable ? writable->path() : ""},
                      {"selections", writable ? writable->all_selections().size() : 0},
                      {"cubins", writable ? writable->cubin_count() : 0},
                      {"measurements", writable ? writable->measurement_count() : 0}, {"bundles", bundles}};
        cache_text << "tuning cache " << (writable ? writable->path() : std::string("(none writable)"));
        if (writable)
            cache_text << ": " << writable->all_selections().size() << " tuned problems, " << writable->cubin_count()
                       << " cubins, " << writable->measurement_count() << " measurements, "
                       << writable->all_untuned().size() << " untuned problems";
        cache_text << "\n";
        for (const auto& bundle : bundles) cache_text << "bundle " << bundle << "\n";
    }

    // Each family's source hash: what its cubins and the searches it takes part in are keyed by.
    std::ostringstream hashes_text;
    nlohmann::ordered_json hashes_json = nlohmann::ordered_json::object();
    for_each_family([&](auto tag) {
        using Family = decltype(tag);
        const std::string& hash = source_hash(Family::kSourceHeader);
        hashes_text << (hashes_text.tellp() > 0 ? ", " : "") << Family::kName << " " << hash.substr(0, 12);
        hashes_json[std::string(Family::kName)] = hash;
    });
    if (json) {
        const nlohmann::ordered_json out = {
            {"jitgemm_version", std::string(version())}, {"nvrtc_version", nvrtc_version()},
            {"family_source_hashes", hashes_json}, {"compiles_in", compile_worker_status()},
            {"driver_version", have_gpu ? nlohmann::ordered_json(driver_version_text()) : nlohmann::ordered_json()},
            {"gpu_available", have_gpu},
            {"error", have_gpu ? nlohmann::ordered_json() : nlohmann::ordered_json(driver::unavailable_reason())},
            {"cache", cache_json}, {"devices", devices_json}};
        std::cout << out.dump(1) << "\n";
    } else {
        std::cout << "jitgemm " << version() << ", NVRTC " << nvrtc_version() << ", kernel sources "
                  << hashes_text.str() << "\n"
                  << "NVRTC compiles in " << compile_worker_status() << "\n";
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
