// The JSON syntax reader: recursive descent over the text, counting lines as it skips blanks and strings.
#include "tools/manifest/json_value.h"

#include <cctype>
#include <cstdint>

#include "tools/manifest/manifest_error.h"

namespace jitgemm::manifest {
namespace {

// Deeper nesting has no place in a manifest; the limit keeps a hostile file from exhausting the stack.
constexpr int kMaxDepth = 64;

class JsonReader {
public:
    JsonReader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

    JsonValue read_document() {
        skip_blanks();
        if (at_end()) fail(line_, "no JSON value (the file is blank)");
        JsonValue value = read_value(0);
        const int end_line = line_;
        skip_blanks();
        if (!at_end())
            fail(line_, "unexpected " + found() + " after the end of the JSON value" +
                            (line_ != end_line ? " (it ends on line " + std::to_string(end_line) + ")" : ""));
        return value;
    }

private:
    [[noreturn]] void fail(int line, const std::string& what) const { throw_manifest_error(file_, line, what); }

    bool at_end() const { return pos_ >= text_.size(); }

    // The next character as a message shows it.
    std::string found() const {
        if (at_end()) return "end of file";
        const char c = text_[pos_];
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
            return "character " + quoted(std::string_view(&c, 1));
        return "'" + std::string(1, c) + "'";
    }

    void skip_blanks() {
        while (!at_end()) {
            const char c = text_[pos_];
            if (c == '\n') {
                ++line_;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return;
            }
            ++pos_;
        }
    }

    JsonValue read_value(int depth) {
        if (depth >= kMaxDepth) fail(line_, "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
        JsonValue value;
        value.line = line_;
        if (at_end()) fail(line_, "expected a value, got the end of the file");
        const char c = text_[pos_];
        if (c == '{') {
            value.kind = JsonValue::Kind::Object;
            read_object(value, depth);
        } else if (c == '[') {
            value.kind = JsonValue::Kind::Array;
            read_array(value, depth);
        } else if (c == '"') {
            value.kind = JsonValue::Kind::String;
            value.text = read_string();
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            value.kind = JsonValue::Kind::Number;
            value.text = read_number();
        } else if (read_word("true")) {
            value.kind = JsonValue::Kind::Boolean;
            value.text = "true";
        } else if (read_word("false")) {
            value.kind = JsonValue::Kind::Boolean;
            value.text = "false";
        } else if (read_word("null")) {
            value.kind = JsonValue::Kind::Null;
        } else if (c == ']' || c == '}') {
            fail(line_, "expected a value, got " + found() + " (a comma too many before it?)");
        } else {
            fail(line_, "expected a value, got " + found());
        }
        return value;
    }

    bool read_word(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) return false;
        const std::size_t after = pos_ + word.size();
        if (after < text_.size() && std::isalnum(static_cast<unsigned char>(text_[after]))) return false;
        pos_ = after;
        return true;
    }

    void read_object(JsonValue& object, int depth) {
        ++pos_;  // '{'
        skip_blanks();
        if (!at_end() && text_[pos_] == '}') {
            ++pos_;
            return;
        }
        for (;;) {
            skip_blanks();
            if (at_end() || text_[pos_] != '"')
                fail(line_, "expected a key in double quotes, got " + found() +
                                (!at_end() && text_[pos_] == '}' ? " (a comma too many before it?)" : ""));
            JsonMember member;
            member.line = line_;
            member.key = read_string();
            skip_blanks();
            if (at_end() || text_[pos_] != ':')
                fail(line_, "expected ':' after the key " + quoted(member.key) + ", got " + found());
            ++pos_;
            skip_blanks();
            member.value = read_value(depth + 1);
            object.members.push_back(std::move(member));
            if (after_item('}', "the value of " + quoted(object.members.back().key))) return;
        }
    }

    void read_array(JsonValue& array, int depth) {
        ++pos_;  // '['
        skip_blanks();
        if (!at_end() && text_[pos_] == ']') {
            ++pos_;
            return;
        }
        for (;;) {
            skip_blanks();
            array.items.push_back(read_value(depth + 1));
            if (after_item(']', "item " + std::to_string(array.items.size()) + " of the array")) return;
        }
    }

    // After a member or item: true at the closing bracket, false after a comma. A missing comma is reported on the
    // line where the comma belongs, the one the previous value ends on.
    bool after_item(char close, const std::string& previous) {
        const int end_line = line_;
        skip_blanks();
        if (!at_end() && text_[pos_] == close) {
            ++pos_;
            return true;
        }
        if (!at_end() && text_[pos_] == ',') {
            ++pos_;
            return false;
        }
        fail(end_line, std::string("expected ',' or '") + close + "' after " + previous + ", got " + found() +
                           (line_ != end_line ? " on line " + std::to_string(line_) : ""));
    }

    std::string read_string() {
        const int start_line = line_;
        ++pos_;  // '"'
        std::string out;
        for (;;) {
            if (at_end()) fail(start_line, "unterminated string: it reaches the end of the file");
            const char c = text_[pos_];
            if (c == '"') {
                ++pos_;
                return out;
            }
            if (c == '\n' || c == '\r') fail(start_line, "unterminated string: it reaches the end of the line");
            if (static_cast<unsigned char>(c) < 0x20)
                fail(line_, "control character " + quoted(std::string_view(&c, 1)) +
                                " inside a string (write it as an escape)");
            if (c != '\\') {
                out += c;
                ++pos_;
                continue;
            }
            ++pos_;
            if (at_end()) fail(start_line, "unterminated string: it reaches the end of the file");
            const char escape = text_[pos_++];
            switch (escape) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'u': append_utf8(read_code_point(), out); break;
                default: fail(line_, "unknown escape '\\" + std::string(1, escape) + "' in a string");
            }
        }
    }

    std::uint32_t read_hex4() {
        if (pos_ + 4 > text_.size()) fail(line_, "\\u needs four hex digits");
        std::uint32_t value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = text_[pos_++];
            value <<= 4;
            if (c >= '0' && c <= '9') value |= static_cast<std::uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f') value |= static_cast<std::uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') value |= static_cast<std::uint32_t>(c - 'A' + 10);
            else fail(line_, "\\u needs four hex digits");
        }
        return value;
    }

    // After "\u": one code point, joining a UTF-16 surrogate pair.
    std::uint32_t read_code_point() {
        const std::uint32_t first = read_hex4();
        if (first >= 0xDC00 && first <= 0xDFFF) fail(line_, "\\u escape is a lone low surrogate");
        if (first < 0xD800 || first > 0xDBFF) return first;
        if (text_.substr(pos_, 2) != "\\u") fail(line_, "\\u escape is a high surrogate without its low half");
        pos_ += 2;
        const std::uint32_t second = read_hex4();
        if (second < 0xDC00 || second > 0xDFFF) fail(line_, "\\u escape is a high surrogate without its low half");
        return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
    }

    static void append_utf8(std::uint32_t code, std::string& out) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    bool digit() const { return !at_end() && text_[pos_] >= '0' && text_[pos_] <= '9'; }

    // JSON's number grammar exactly: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    std::string read_number() {
        const std::size_t start = pos_;
        const auto invalid = [&] {
            std::size_t end = pos_;
            while (end < text_.size() && std::string_view(",]} \t\r\n").find(text_[end]) == std::string_view::npos)
                ++end;
            fail(line_, quoted(text_.substr(start, end - start)) + " is not a JSON number");
        };
        if (text_[pos_] == '-') ++pos_;
        if (!digit()) invalid();
        if (text_[pos_] == '0') {
            ++pos_;
        } else {
            while (digit()) ++pos_;
        }
        if (!at_end() && text_[pos_] == '.') {
            ++pos_;
            if (!digit()) invalid();
            while (digit()) ++pos_;
        }
        if (!at_end() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            ++pos_;
            if (!at_end() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
            if (!digit()) invalid();
            while (digit()) ++pos_;
        }
        if (!at_end() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) invalid();
        return std::string(text_.substr(start, pos_ - start));
    }

    std::string_view text_;
    const std::string& file_;
    std::size_t pos_ = 0;
    int line_ = 1;
};

}  // namespace

std::string_view kind_name(JsonValue::Kind kind) {
    switch (kind) {
        case JsonValue::Kind::Null: return "null";
        case JsonValue::Kind::Boolean: return "a boolean";
        case JsonValue::Kind::Number: return "a number";
        case JsonValue::Kind::String: return "a string";
        case JsonValue::Kind::Array: return "an array";
        case JsonValue::Kind::Object: return "an object";
    }
    return "a value";
}

JsonValue parse_json(std::string_view text, const std::string& file) { return JsonReader(text, file).read_document(); }

}  // namespace jitgemm::manifest
