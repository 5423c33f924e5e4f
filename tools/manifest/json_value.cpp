// The JSON reader: nlohmann-json's SAX parser does the syntax; this file builds the tree and gives every value and
// key its line. nlohmann tells no positions to a SAX handler, so the text is fed through an iterator that counts the
// line breaks it passes: when an event arrives, the parser has just read the event's token, which therefore ends on
// the counted line.
#include "tools/manifest/json_value.h"

#include <cstdint>
#include <iterator>
#include <regex>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/manifest/manifest_error.h"

namespace jitgemm::manifest {
namespace {

// Deeper nesting has no place in a manifest; the limit keeps a hostile file from building a tree whose
// destruction would exhaust the stack.
constexpr int kMaxDepth = 64;

// Where the parser is in the text: the line of the last character it took, and that character.
struct Position {
    int line = 1;
    char last = '\0';
};

// A character iterator over the text that moves `position` along with it.
class CountingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    CountingIterator(const char* at, Position* position) : at_(at), position_(position) {}
    const char& operator*() const { return *at_; }
    CountingIterator& operator++() {
        if (position_->last == '\n') ++position_->line;  // the break belongs to the line it ends
        position_->last = *at_;
        ++at_;
        return *this;
    }
    bool operator==(const CountingIterator& other) const { return at_ == other.at_; }
    bool operator!=(const CountingIterator& other) const { return at_ != other.at_; }

private:
    const char* at_;
    Position* position_;
};

class TreeBuilder : public nlohmann::json_sax<nlohmann::json> {
public:
    TreeBuilder(const Position& position, const std::string& file) : position_(position), file_(file) {}

    JsonValue take() { return std::move(root_); }

    bool null() override { return scalar(JsonValue::Kind::Null, "", position_.line); }
    bool boolean(bool value) override {
        return scalar(JsonValue::Kind::Boolean, value ? "true" : "false", position_.line);
    }
    bool number_integer(number_integer_t value) override { return number(std::to_string(value)); }
    bool number_unsigned(number_unsigned_t value) override { return number(std::to_string(value)); }
    bool number_float(number_float_t, const string_t& as_written) override { return number(as_written); }
    bool string(string_t& value) override { return scalar(JsonValue::Kind::String, value, position_.line); }
    bool binary(binary_t&) override { return scalar(JsonValue::Kind::Null, "", position_.line); }  // not in text

    bool start_object(std::size_t) override { return open(JsonValue::Kind::Object); }
    bool start_array(std::size_t) override { return open(JsonValue::Kind::Array); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& key) override {
        open_.back().members.push_back(JsonMember{key, position_.line, {}});
        last_ = "the key " + manifest::quoted(key);
        last_line_ = position_.line;
        return true;
    }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& error) override {
        // "[json.exception.parse_error.101] parse error at line 4, column 5: syntax error while parsing object
        // separator - invalid literal; last read: '1\n    "'; expected '}'": the line and the reason are kept, the
        // rest said in our words, with the last thing that did read well.
        static const std::regex parts(R"(at line (\d+), column (\d+): (?:syntax error while parsing [^-]*- )?(.*))");
        static const std::regex last_read(R"(; last read: '.*'(?=;|$))");
        std::cmatch found;
        int line = position_.line;
        std::string what = error.what();
        if (std::regex_search(error.what(), found, parts)) {
            line = std::stoi(found[1].str());
            what = "column " + found[2].str() + ": " + std::regex_replace(found[3].str(), last_read, "");
        }
        if (!last_.empty()) what += " (after " + last_ + ", line " + std::to_string(last_line_) + ")";
        throw_manifest_error(file_, line, "JSON syntax error, " + what);
    }

private:
    // The parser read one character past a number to see where it ends; that character is on the number's line
    // (a line break counts to the line it ends), so the counted line is the number's.
    bool number(const std::string& as_written) { return scalar(JsonValue::Kind::Number, as_written, position_.line); }

    bool scalar(JsonValue::Kind kind, std::string text, int line) {
        JsonValue value;
        value.kind = kind;
        value.line = line;
        value.text = std::move(text);
        last_ = kind == JsonValue::Kind::String ? "the string " + manifest::quoted(value.text)
                                                : "the value " + value.text;
        if (kind == JsonValue::Kind::Null) last_ = "null";
        last_line_ = line;
        place(std::move(value));
        return true;
    }

    bool open(JsonValue::Kind kind) {
        if (static_cast<int>(open_.size()) >= kMaxDepth)
            throw_manifest_error(file_, position_.line,
                                 "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
        JsonValue value;
        value.kind = kind;
        value.line = position_.line;
        open_.push_back(std::move(value));
        return true;
    }

    bool close() {
        JsonValue done = std::move(open_.back());
        open_.pop_back();
        last_ = done.kind == JsonValue::Kind::Object ? "the end of the object from line " + std::to_string(done.line)
                                                     : "the end of the array from line " + std::to_string(done.line);
        last_line_ = position_.line;
        place(std::move(done));
        return true;
    }

    // A finished value goes to the member or item it is the value of, or becomes the document.
    void place(JsonValue value) {
        if (open_.empty()) {
            root_ = std::move(value);
        } else if (open_.back().kind == JsonValue::Kind::Object) {
            open_.back().members.back().value = std::move(value);
        } else {
            open_.back().items.push_back(std::move(value));
        }
    }

    const Position& position_;
    const std::string& file_;
    std::vector<JsonValue> open_;  // the objects and arrays being read, outermost first
    JsonValue root_;
    std::string last_;             // the last thing read whole, for syntax messages
    int last_line_ = 0;
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

JsonValue parse_json(std::string_view text, const std::string& file) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw_manifest_error(file, 1, "no JSON value (the file is blank)");
    Position position;
    TreeBuilder builder(position, file);
    const CountingIterator first(text.data(), &position), last(text.data() + text.size(), &position);
    nlohmann::json::sax_parse(first, last, &builder);
    return builder.take();
}

}  // namespace jitgemm::manifest
