// A minimal CUDA ELF image for the cache tests: what cache/cubin_check.h accepts as a cubin of `kernel_symbol` for
// `arch` (an ELF-64 little-endian header with e_machine 190 and the SM number where CUDA 12+ puts it, a section
// table, and a symbol table defining the kernel as a global function), carrying `payload` so that different
// records have different bytes. The driver would not load it; the cache tests never hand it to one.
#pragma once

#include <cstdint>
#include <string>

namespace jitgemm::cache_test {

namespace fake_cubin_detail {
inline void put(std::string& out, std::size_t at, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}
}  // namespace fake_cubin_detail

inline std::string fake_cubin(const std::string& kernel_symbol = "jg_regblock", const std::string& arch = "sm_90a",
                              const std::string& payload = "") {
    using fake_cubin_detail::put;
    int sm = 0;
    for (std::size_t i = 3; i < arch.size() && arch[i] >= '0' && arch[i] <= '9'; ++i) sm = sm * 10 + (arch[i] - '0');
    // Layout: header (64) | strtab | symtab (2 symbols of 24) | payload | section table (4 sections of 64).
    const std::string strtab = std::string("\0", 1) + kernel_symbol + std::string("\0", 1);
    const std::size_t strtab_at = 64, symtab_at = strtab_at + strtab.size(), payload_at = symtab_at + 48;
    const std::size_t sections_at = (payload_at + payload.size() + 7) / 8 * 8;
    std::string out(sections_at + 4 * 64, '\0');
    out.replace(0, 4, "\x7f" "ELF");
    out[4] = 2;  // ELFCLASS64
    out[5] = 1;  // little-endian
    out[6] = 1;  // EI_VERSION
    out[7] = 0x33;
    out[8] = 8;  // ABI version 8: the SM number in bits 8-15 of e_flags
    put(out, 16, 2, 2);                       // ET_EXEC
    put(out, 18, 190, 2);                     // EM_CUDA
    put(out, 20, 1, 4);                       // e_version
    put(out, 40, sections_at, 8);             // e_shoff
    put(out, 48, 0x6000004u | (sm << 8), 4);  // e_flags
    put(out, 52, 64, 2);                      // e_ehsize
    put(out, 58, 64, 2);                      // e_shentsize
    put(out, 60, 4, 2);                       // e_shnum
    put(out, 62, 1, 2);                       // e_shstrndx
    out.replace(strtab_at, strtab.size(), strtab);
    put(out, symtab_at + 24, 1, 4);             // the kernel's name at offset 1 of strtab
    out[symtab_at + 24 + 4] = (1 << 4) | 2;     // STB_GLOBAL, STT_FUNC
    out.replace(payload_at, payload.size(), payload);
    auto section = [&](int index, std::uint32_t type, std::size_t offset, std::size_t size, std::uint32_t link,
                       std::size_t entry_size) {
        const std::size_t at = sections_at + index * 64;
        put(out, at + 4, type, 4);
        put(out, at + 24, offset, 8);
        put(out, at + 32, size, 8);
        put(out, at + 40, link, 4);
        put(out, at + 56, entry_size, 8);
    };
    section(1, 3, strtab_at, strtab.size(), 0, 0);  // SHT_STRTAB
    section(2, 2, symtab_at, 48, 1, 24);            // SHT_SYMTAB, names in section 1
    section(3, 1, payload_at, payload.size(), 0, 0);  // SHT_PROGBITS
    return out;
}

}  // namespace jitgemm::cache_test
