// libFuzzer target: the manifest readers on arbitrary text. The first byte picks the format (even: CSV, odd: JSON),
// so one corpus drives both. A malformed manifest must end in Error(InvalidArgument) and nothing else: any other
// exception, a crash, a leak or undefined behaviour (the sanitizers are on) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "jitgemm/error.h"
#include "tools/manifest/shape_manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string name = data[0] % 2 == 0 ? "fuzz.csv" : "fuzz.json";
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        const auto entries = jitgemm::parse_manifest(text, name);
        for (const auto& e : entries) (void)jitgemm::describe(e);
    } catch (const jitgemm::Error& e) {
        if (e.code() != jitgemm::ErrorCode::InvalidArgument) __builtin_trap();
    }
    return 0;
}
