// The grammar of configuration names: a family name, then '_'-separated fields, each an optional letter prefix and
// 'x'-separated numbers ("regblock_128x128x8_t8x8_v4_s2_g8"). One tokenizer for every family's parse().
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jitgemm::config_text {

// Splits "family_f1_f2" into {"family", "f1", "f2"}.
std::vector<std::string_view> split_fields(std::string_view name);

// The fields after "<family>_" of a name of that family ("mma_sync_128x128x32_w2x4" -> {"128x128x32", "w2x4"}); nullopt
// when the name is not of that family. Family names may hold '_'.
std::optional<std::vector<std::string_view>> family_fields(std::string_view name, std::string_view family);

// Parses a field of the form <prefix><n1>x<n2>x...; exactly `count` positive numbers, or nullopt.
std::optional<std::vector<int>> parse_numbers(std::string_view field, std::string_view prefix, std::size_t count);

// Joins numbers with 'x' behind a prefix: ("t", {8, 8}) -> "t8x8".
std::string format_numbers(std::string_view prefix, const std::vector<int>& numbers);

}  // namespace jitgemm::config_text
