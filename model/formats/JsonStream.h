// JSON read as a stream of values by RapidJSON's SAX reader, for the readers of JSON profiles (flamebearer,
// speedscope, .cpuprofile, a server's render answers): they keep only what they store, never a document tree.
//
// Qt's QJsonDocument, which they used, builds the whole tree first: 5-9 bytes of memory per byte of input for
// small values ("0," "[]," "{}," "\"\","), and 12-13 MB/s for them on this machine (80 s for 1 GiB); RapidJSON's
// reader keeps nothing and reads the same at 100-140 MB/s (docs/robustness.md, "Hostile shapes").
//
// A visitor is told where each value is by roles: every container gets the role its visitor's enter() gave it
// (kJsonSkip: nothing inside is reported), and each value arrives with its container's role and its key (in an
// object) or index (in an array). A reader thus matches the few paths of its schema without keeping a path.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace qflame {

struct JsonScalar {
    enum Kind { Null, Bool, Number, String };
    Kind kind = Null;
    bool boolean = false;
    bool integral = false;   // a whole number within int64, written as one ("3") or not ("3.0", "3e0")
    int64_t integer = 0;     // when integral
    double number = 0;       // every number, as a double
    std::string_view text;   // a string's UTF-8 text (valid only during the call)
    bool isNumber() const { return kind == Number; }
    bool isString() const { return kind == String; }
};

inline constexpr int kJsonTop = 0;    // the role of the document's own place
inline constexpr int kJsonSkip = -1;  // enter()'s answer for a container whose content does not matter

struct JsonAt {
    int role;              // the role of the container the value is in
    std::string_view key;  // in an object: the value's key (valid only during the call)
    uint64_t index;        // its position in its container
};

class JsonVisitor {
public:
    virtual ~JsonVisitor() = default;
    // A container (array or object) begins at `at`: the role its values will carry, or kJsonSkip.
    virtual int enter(const JsonAt &at, bool isArray) = 0;
    // The container that enter() gave `role` ends, after `count` values.
    virtual void leave(int role, uint64_t count) { (void)role, (void)count; }
    virtual void scalar(const JsonAt &at, const JsonScalar &value) = 0;
};

// Reads all of `json` (a UTF-8 BOM first is allowed), calling `visitor`. Throws ProfileError
// "<where>not valid JSON: <what> at offset N" for text that is not one JSON value (encoding checked), and
// "<where>JSON nested deeper than N levels (the maxJsonDepth limit)" past `maxDepth`; what the visitor throws
// passes through.
void readJson(std::string_view json, JsonVisitor &visitor, const std::string &where, uint32_t maxDepth);

}   // namespace qflame
