// A small JSON reader for manifests: the whole of RFC 8259 into a tree whose every value and key knows its line,
// so that a bad field deep in a multi-line file is reported where it stands. Numbers are kept as written: the
// field table parses them like CSV text, and nothing is lost to a double on the way.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jitgemm::manifest {

struct JsonMember;

struct JsonValue {
    enum class Kind { Null, Boolean, Number, String, Array, Object };
    Kind kind = Kind::Null;
    int line = 0;                     // where the value starts
    std::string text;                 // String: the decoded content; Number: as written; Boolean: true or false
    std::vector<JsonValue> items;     // Array
    std::vector<JsonMember> members;  // Object, in the order written; duplicate keys are kept for the caller
};

struct JsonMember {
    std::string key;
    int line = 0;  // of the key
    JsonValue value;
};

// "a number", "an object", ... for messages.
std::string_view kind_name(JsonValue::Kind kind);

// Parses one JSON text (nothing but blanks may follow the value). Throws Error(InvalidArgument) naming `file` and
// the line of the first syntax error.
JsonValue parse_json(std::string_view text, const std::string& file);

}  // namespace jitgemm::manifest
