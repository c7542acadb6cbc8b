#include "report/JsonOut.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>

namespace qflame {

struct JsonOut::Impl {
    rapidjson::StringBuffer buffer;
    // The writer copies string bytes as they are: a name that is not UTF-8 is made valid first (string()), so the
    // document always is.
    rapidjson::Writer<rapidjson::StringBuffer> writer{buffer};
};

namespace {

// The text with every byte sequence that is not UTF-8 replaced by U+FFFD (pprof names may hold any byte).
std::string validUtf8(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        bool ok = n > 0 && i + n <= s.size();
        for (size_t k = 1; ok && k < n; ++k)
            ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
        if (ok && n > 1) {   // no overlong forms, surrogates or code points past U+10FFFF
            uint32_t cp = c & (0xff >> (n + 1));
            for (size_t k = 1; k < n; ++k)
                cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
            static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
            ok = cp >= least[n] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
        }
        if (ok) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            out += "\xef\xbf\xbd";
            ++i;
        }
    }
    return out;
}

bool isValidUtf8(std::string_view s)
{
    for (unsigned char c : s)
        if (c >= 0x80)
            return validUtf8(s) == s;
    return true;
}

}   // namespace

JsonOut::JsonOut() : m(std::make_unique<Impl>()) {}
JsonOut::~JsonOut() = default;

void JsonOut::beginObject() { m->writer.StartObject(); }
void JsonOut::endObject() { m->writer.EndObject(); }
void JsonOut::beginArray() { m->writer.StartArray(); }
void JsonOut::endArray() { m->writer.EndArray(); }

void JsonOut::key(std::string_view name)
{
    m->writer.Key(name.data(), rapidjson::SizeType(name.size()));
}

void JsonOut::integer(int64_t value)
{
    constexpr int64_t kExact = int64_t(1) << 53;
    if (value >= -kExact && value <= kExact) {
        m->writer.Int64(value);
    } else {
        const std::string digits = std::to_string(value);
        m->writer.String(digits.data(), rapidjson::SizeType(digits.size()));
    }
}

void JsonOut::number(double value)
{
    if (std::isfinite(value))
        m->writer.Double(value);
    else
        m->writer.Null();
}

void JsonOut::string(std::string_view text)
{
    if (isValidUtf8(text)) {
        m->writer.String(text.data(), rapidjson::SizeType(text.size()));
    } else {
        const std::string valid = validUtf8(text);
        m->writer.String(valid.data(), rapidjson::SizeType(valid.size()));
    }
}

void JsonOut::boolean(bool value) { m->writer.Bool(value); }
void JsonOut::null() { m->writer.Null(); }

std::string JsonOut::text() const
{
    return std::string(m->buffer.GetString(), m->buffer.GetSize()) + "\n";
}

}   // namespace qflame
