// Tokenizer and formatter for configuration names.
#include "tuner/families/common/config_text.h"

#include <charconv>

namespace jitgemm::config_text {

std::vector<std::string_view> split_fields(std::string_view name) {
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = name.find('_', start);
        fields.push_back(name.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return fields;
}

std::optional<std::vector<std::string_view>> family_fields(std::string_view name, std::string_view family) {
    if (name.size() <= family.size() + 1 || name.substr(0, family.size()) != family || name[family.size()] != '_')
        return std::nullopt;
    return split_fields(name.substr(family.size() + 1));
}

std::optional<std::vector<int>> parse_numbers(std::string_view field, std::string_view prefix, std::size_t count) {
    if (field.substr(0, prefix.size()) != prefix) return std::nullopt;
    field.remove_prefix(prefix.size());
    std::vector<int> numbers;
    while (!field.empty()) {
        int value = 0;
        const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
        if (ec != std::errc() || value <= 0) return std::nullopt;
        numbers.push_back(value);
        field.remove_prefix(static_cast<std::size_t>(ptr - field.data()));
        if (!field.empty()) {
            if (field.front() != 'x') return std::nullopt;
            field.remove_prefix(1);
            if (field.empty()) return std::nullopt;
        }
    }
    if (numbers.size() != count) return std::nullopt;
    return numbers;
}

std::string format_numbers(std::string_view prefix, const std::vector<int>& numbers) {
    std::string out(prefix);
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        if (i > 0) out += 'x';
        out += std::to_string(numbers[i]);
    }
    return out;
}

}  // namespace jitgemm::config_text
