// The ELF checks of a cubin. Offsets and sizes come from the ELF-64 specification (all fields little-endian, as the
// CUDA toolchain writes them); the machine number and where the architecture sits in e_flags from NVIDIA's cubins:
// e_machine 190 (EM_CUDA), and the SM number in bits 8-15 of e_flags from ELF ABI version 8 on (CUDA 12 and later;
// sm_80 -> 0x50, sm_90a -> 0x5a, sm_120 -> 0x78), in bits 0-7 before.
#include "cache/cubin_check.h"

#include <cctype>
#include <cstdint>
#include <cstring>
#include <vector>

#include "cache/content_hash.h"

namespace jitgemm::cache {
namespace {

constexpr std::size_t kElfHeaderBytes = 64;
constexpr std::size_t kSectionHeaderBytes = 64;
constexpr std::size_t kSymbolBytes = 24;
constexpr std::uint16_t kMachineCuda = 190;
constexpr std::uint32_t kSectionSymbolTable = 2;
constexpr std::uint32_t kSectionNoBits = 8;
constexpr unsigned kSymbolFunction = 2;
constexpr unsigned kBindingGlobal = 1;

template <typename T>
T read_le(std::string_view bytes, std::size_t at) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        value |= static_cast<T>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return value;
}

struct Section {
    std::uint32_t type;
    std::uint64_t offset, size;
    std::uint32_t link;
    std::uint64_t entry_size;
};

// The SM number of "sm_90a" (90), or -1.
int sm_number(std::string_view arch) {
    if (arch.substr(0, 3) != "sm_") return -1;
    int n = 0;
    std::size_t i = 3;
    for (; i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])); ++i) n = n * 10 + (arch[i] - '0');
    return i == 3 ? -1 : n;
}

bool is_identifier(std::string_view name) {
    if (name.empty() || name.size() > 256 || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    for (const char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

}  // namespace

std::optional<std::string> cubin_image_defect(std::string_view image, std::string_view kernel_symbol,
                                              std::string_view arch) {
    if (image.empty()) return "the image is empty";
    if (image.size() > kMaxCubinBytes) return "the image is larger than " + std::to_string(kMaxCubinBytes) + " bytes";
    if (image.size() < kElfHeaderBytes || image.substr(0, 4) != std::string_view("\x7f" "ELF", 4))
        return "the image is not an ELF file";
    if (image[4] != 2 || image[5] != 1) return "the image is not a 64-bit little-endian ELF file";
    if (read_le<std::uint16_t>(image, 18) != kMachineCuda) return "the image is not a CUDA ELF file (e_machine)";

    const int wanted_sm = sm_number(arch);
    const std::uint32_t flags = read_le<std::uint32_t>(image, 48);
    const int image_sm = static_cast<unsigned char>(image[8]) >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
    if (wanted_sm < 0 || image_sm != wanted_sm)
        return "the image is built for sm_" + std::to_string(image_sm) + ", not " + std::string(arch);

    const std::uint64_t section_table = read_le<std::uint64_t>(image, 40);
    const std::uint16_t section_entry = read_le<std::uint16_t>(image, 58);
    const std::uint16_t section_count = read_le<std::uint16_t>(image, 60);
    if (section_entry != kSectionHeaderBytes || section_count == 0 || section_table > image.size() ||
        (image.size() - section_table) / kSectionHeaderBytes < section_count)
        return "the image's section table lies outside it (truncated?)";
    std::vector<Section> sections(section_count);
    for (std::size_t i = 0; i < section_count; ++i) {
        const std::size_t at = section_table + i * kSectionHeaderBytes;
        Section& s = sections[i];
        s.type = read_le<std::uint32_t>(image, at + 4);
        s.offset = read_le<std::uint64_t>(image, at + 24);
        s.size = read_le<std::uint64_t>(image, at + 32);
        s.link = read_le<std::uint32_t>(image, at + 40);
        s.entry_size = read_le<std::uint64_t>(image, at + 56);
        if (s.type != kSectionNoBits && (s.offset > image.size() || s.size > image.size() - s.offset))
            return "section " + std::to_string(i) + " of the image lies outside it (truncated?)";
    }

    for (const Section& symbols : sections) {
        if (symbols.type != kSectionSymbolTable) continue;
        if (symbols.entry_size != kSymbolBytes || symbols.link >= sections.size())
            return "the image's symbol table is malformed";
        const Section& names = sections[symbols.link];
        const std::string_view name_bytes = image.substr(names.offset, names.size);
        const std::uint64_t end = symbols.offset + symbols.size;
        for (std::uint64_t at = symbols.offset; at + kSymbolBytes <= end; at += kSymbolBytes) {
            const std::uint32_t name_offset = read_le<std::uint32_t>(image, at);
            const unsigned char info = static_cast<unsigned char>(image[at + 4]);
            if (name_offset >= name_bytes.size() || (info & 0xf) != kSymbolFunction || (info >> 4) != kBindingGlobal)
                continue;
            const std::string_view rest = name_bytes.substr(name_offset);
            if (rest.substr(0, rest.find('\0')) == kernel_symbol) return std::nullopt;
        }
    }
    return "the image defines no global function " + std::string(kernel_symbol);
}

std::optional<std::string> cubin_record_defect(const CubinRecord& cubin) {
    if (!is_identifier(cubin.kernel_symbol)) return "its kernel symbol is not an identifier";
    if (!cubin.image_hash.empty() && content_hash_hex(cubin.image) != cubin.image_hash)
        return "its image does not match the content hash stored with it (changed after it was written)";
    return cubin_image_defect(cubin.image, cubin.kernel_symbol, cubin.arch);
}

CubinRecord with_image_hash(CubinRecord cubin) {
    cubin.image_hash = content_hash_hex(cubin.image);
    return cubin;
}

}  // namespace jitgemm::cache
