// The reports' JSON (`--json` of every verb; docs/json.md is the schema): RapidJSON's writer with the house rules.
// Integers stay exact: a JSON number where a double reader keeps it (|v| <= 2^53), a string of its digits beyond.
// Names are written byte for byte as JSON strings; bytes that are not UTF-8 are written as U+FFFD.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace qflame {

class JsonOut {
public:
    JsonOut();
    ~JsonOut();

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(std::string_view name);

    void integer(int64_t value);   // exact: a number up to 2^53, else a string
    void number(double value);     // the shortest text that reads back as the same double; null if not finite
    void string(std::string_view text);
    void boolean(bool value);
    void null();

    // key + value in one call.
    void field(std::string_view name, int64_t value) { key(name), integer(value); }
    void field(std::string_view name, std::string_view text) { key(name), string(text); }
    void field(std::string_view name, const char *text) { key(name), string(text); }
    void fieldNumber(std::string_view name, double value) { key(name), number(value); }
    void fieldBool(std::string_view name, bool value) { key(name), boolean(value); }

    // The document so far, with a final newline.
    std::string text() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

}   // namespace qflame
