// From a JSON tree to manifest entries: where the list of problems is, and each object's keys to RawProblem values;
// and entries back to JSON.
#include "tools/manifest/json_manifest.h"

#include <nlohmann/json.hpp>

#include "tools/manifest/json_value.h"
#include "tools/manifest/manifest_error.h"
#include "tools/manifest/manifest_fields.h"

namespace jitgemm::manifest {
namespace {

bool same_name(std::string_view x, std::string_view y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
        if (lower(x[i]) != lower(y[i])) return false;
    }
    return true;
}

const char* const kShape = "a manifest is an array of problems or an object {\"problems\": [...]}";

// The array of problems: the document itself or its "problems" member, the only key an outer object may have.
const JsonValue& problem_list(const JsonValue& root, const std::string& file) {
    if (root.kind == JsonValue::Kind::Array) return root;
    if (root.kind != JsonValue::Kind::Object)
        throw_manifest_error(file, root.line, std::string(kShape) + ", not " + std::string(kind_name(root.kind)));
    const JsonValue* list = nullptr;
    for (const JsonMember& member : root.members) {
        if (!same_name(member.key, "problems"))
            throw_manifest_error(file, member.line,
                                 "unknown key " + manifest::quoted(member.key) + " (" + kShape + ")");
        if (list) throw_manifest_error(file, member.line, "key \"problems\" given twice");
        list = &member.value;
    }
    if (!list) throw_manifest_error(file, root.line, std::string("no key \"problems\" (") + kShape + ")");
    if (list->kind != JsonValue::Kind::Array)
        throw_manifest_error(file, list->line,
                             "\"problems\" is " + std::string(kind_name(list->kind)) + ", expected an array");
    return *list;
}

ManifestEntry read_problem(const JsonValue& object, std::size_t index, const std::string& file) {
    const auto& fields = manifest_fields();
    if (object.kind != JsonValue::Kind::Object)
        throw_manifest_error(file, object.line,
                             "problem " + std::to_string(index + 1) + " is " + std::string(kind_name(object.kind)) +
                                 ", expected an object");
    RawProblem raw(file, object.line);
    for (const JsonMember& member : object.members) {
        const std::optional<std::size_t> field = find_field(member.key);
        if (!field) throw_unknown_field(file, member.line, member.key);
        const std::string what = "field '" + std::string(fields[*field].name) + "'";
        if (raw.values[*field])
            throw_manifest_error(file, member.line,
                                 what + " given twice (also on line " + std::to_string(raw.values[*field]->line) +
                                     ")");
        const JsonValue& value = member.value;
        if (value.kind != JsonValue::Kind::Number && value.kind != JsonValue::Kind::String)
            throw_manifest_error(file, value.line,
                                 what + ": expected a number or a string, got " + std::string(kind_name(value.kind)) +
                                     (value.kind == JsonValue::Kind::Null ? " (leave the key out for the default)"
                                                                          : ""));
        raw.values[*field] = RawValue{value.text, value.line};
    }
    return make_entry(raw);
}

}  // namespace

std::vector<ManifestEntry> read_json_manifest(std::string_view text, const std::string& file) {
    const JsonValue root = parse_json(text, file);
    const JsonValue& list = problem_list(root, file);
    if (list.items.empty()) throw_manifest_error(file, list.line, "no problems: the array is empty");
    std::vector<ManifestEntry> entries;
    entries.reserve(list.items.size());
    for (std::size_t i = 0; i < list.items.size(); ++i) entries.push_back(read_problem(list.items[i], i, file));
    return entries;
}

std::string write_json_manifest(const std::vector<ManifestEntry>& entries) {
    nlohmann::ordered_json problems = nlohmann::ordered_json::array();
    for (const ManifestEntry& entry : entries) {
        nlohmann::ordered_json problem = nlohmann::ordered_json::object();
        for (const ManifestField& field : manifest_fields())
            if (field.format) problem[std::string(field.name)] = field.format(entry);
        problems.push_back(std::move(problem));
    }
    return nlohmann::ordered_json{{"problems", problems}}.dump(1) + "\n";
}

}  // namespace jitgemm::manifest
