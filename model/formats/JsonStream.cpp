#include "formats/JsonStream.h"

#include "io/ReadOptions.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cmath>
#include <vector>

namespace qflame {

namespace {

// RapidJSON's handler: keeps the stack of open containers (role, kind, count, the current key) and reports each
// value with where it is.
class Handler {
public:
    Handler(JsonVisitor &visitor, const std::string &where, uint32_t maxDepth)
        : m_visitor(visitor), m_where(where), m_maxDepth(maxDepth)
    {
        m_open.push_back(Open{kJsonTop, true, 0, {}});
    }

    bool Null() { return scalar(JsonScalar{}); }
    bool Bool(bool b)
    {
        JsonScalar v;
        v.kind = JsonScalar::Bool;
        v.boolean = b;
        return scalar(v);
    }
    bool Int(int i) { return Int64(i); }
    bool Uint(unsigned u) { return Int64(u); }
    bool Int64(int64_t i)
    {
        JsonScalar v;
        v.kind = JsonScalar::Number;
        v.integral = true;
        v.integer = i;
        v.number = double(i);
        return scalar(v);
    }
    bool Uint64(uint64_t u)
    {
        if (u <= uint64_t(INT64_MAX))
            return Int64(int64_t(u));
        return Double(double(u));
    }
    bool Double(double d)
    {
        JsonScalar v;
        v.kind = JsonScalar::Number;
        v.number = d;
        // 2^63 itself does not fit; every whole double below it does, exactly.
        if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
            v.integral = true;
            v.integer = int64_t(d);
        }
        return scalar(v);
    }
    bool RawNumber(const char *, rapidjson::SizeType, bool) { return false; }   // not asked for
    bool String(const char *s, rapidjson::SizeType length, bool)
    {
        JsonScalar v;
        v.kind = JsonScalar::String;
        v.text = std::string_view(s, length);
        return scalar(v);
    }
    bool Key(const char *s, rapidjson::SizeType length, bool)
    {
        if (m_skipDepth == 0)
            m_open.back().key.assign(s, length);
        return true;
    }
    bool StartObject() { return start(false); }
    bool EndObject(rapidjson::SizeType) { return end(); }
    bool StartArray() { return start(true); }
    bool EndArray(rapidjson::SizeType) { return end(); }

private:
    struct Open {
        int role;
        bool isArray;
        uint64_t count;
        std::string key;   // in an object: the key of the value to come
    };

    JsonAt here() const
    {
        const Open &o = m_open.back();
        return JsonAt{o.role, o.isArray ? std::string_view() : std::string_view(o.key), o.count};
    }

    bool scalar(const JsonScalar &v)
    {
        if (m_skipDepth > 0)
            return true;   // inside a skipped container: neither reported nor counted
        m_visitor.scalar(here(), v);
        ++m_open.back().count;
        return true;
    }

    bool start(bool isArray)
    {
        if (++m_depth > m_maxDepth)
            throw ProfileError(m_where + "JSON nested deeper than " + std::to_string(m_maxDepth) +
                               " levels (the maxJsonDepth limit)");
        if (m_skipDepth > 0) {
            ++m_skipDepth;
            return true;
        }
        const int role = m_visitor.enter(here(), isArray);
        ++m_open.back().count;
        if (role == kJsonSkip) {
            m_skipDepth = 1;
            return true;
        }
        m_open.push_back(Open{role, isArray, 0, {}});
        return true;
    }

    bool end()
    {
        --m_depth;
        if (m_skipDepth > 0) {
            --m_skipDepth;
            return true;
        }
        const Open closed = std::move(m_open.back());
        m_open.pop_back();
        m_visitor.leave(closed.role, closed.count);
        return true;
    }

    JsonVisitor &m_visitor;
    const std::string &m_where;
    uint32_t m_maxDepth;
    uint32_t m_depth = 0;
    uint32_t m_skipDepth = 0;   // > 0: inside a skipped container, this many levels deep
    std::vector<Open> m_open;   // the top is the innermost open container; the first is the document's place
};

}   // namespace

void readJson(std::string_view json, JsonVisitor &visitor, const std::string &where, uint32_t maxDepth)
{
    size_t bom = json.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    rapidjson::MemoryStream stream(json.data() + bom, json.size() - bom);
    Handler handler(visitor, where, maxDepth);
    rapidjson::Reader reader;
    // Iterative: nesting costs the reader's own stack, not the thread's; encoding validated: a name is UTF-8 or
    // the file is refused. Not kParseFullPrecisionFlag: in Debian's RapidJSON 1.1.0 its big-number path
    // overflows an int (UBSan, diyfp.h) on exponents like 1e-2147483649; the default path is within a few ULP,
    // far below the nanosecond a speedscope weight is rounded to (integers are read exactly either way).
    constexpr unsigned kFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;
    const rapidjson::ParseResult result = reader.Parse<kFlags>(stream, handler);
    if (result.IsError()) {
        std::string what = rapidjson::GetParseError_En(result.Code());
        if (!what.empty() && what.back() == '.')
            what.pop_back();
        if (!what.empty() && what[0] >= 'A' && what[0] <= 'Z')
            what[0] = char(what[0] - 'A' + 'a');
        throw ProfileError(where + "not valid JSON: " + what + " at offset " + std::to_string(result.Offset() + bom));
    }
}

}   // namespace qflame
