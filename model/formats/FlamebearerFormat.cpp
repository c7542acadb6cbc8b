#include "formats/FlamebearerFormat.h"

#include "formats/StackProfile.h"
#include "io/ReadOptions.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <vector>

namespace qflame {

namespace {

struct Bar {
    int64_t x = 0, total = 0, self = 0;
    uint32_t name = 0;
    int64_t parent = -1;       // index into the previous level's bars; -1 on level 0
    int64_t childTotal = 0;
};

class Reader {
public:
    explicit Reader(const std::string &sourceName) : m_source(sourceName) {}

    [[noreturn]] void fail(const std::string &what) const { throw ProfileError(m_source + ": " + what); }

    int64_t integer(const QJsonValue &v, const std::string &where) const
    {
        const qint64 i = v.toInteger();
        if (!v.isDouble() || double(i) != v.toDouble())
            fail("flamebearer: " + where + " is not a whole number");
        return i;
    }

    std::vector<std::string> names(const QJsonObject &fb) const
    {
        const QJsonValue v = fb.value(QLatin1String("names"));
        if (!v.isArray())
            fail("flamebearer: \"names\" is missing or not an array");
        std::vector<std::string> out;
        for (const QJsonValue n : v.toArray()) {
            if (!n.isString())
                fail("flamebearer: names[" + std::to_string(out.size()) + "] is not a string");
            out.push_back(n.toString().toStdString());
        }
        return out;
    }

    // Decodes the rows and links every bar to the bar of the row above that spans it.
    std::vector<std::vector<Bar>> levels(const QJsonObject &fb, size_t nameCount) const
    {
        const QJsonValue v = fb.value(QLatin1String("levels"));
        if (!v.isArray())
            fail("flamebearer: \"levels\" is missing or not an array");
        std::vector<std::vector<Bar>> out;
        for (const QJsonValue row : v.toArray()) {
            const std::string at = "level " + std::to_string(out.size());
            if (!row.isArray() || row.toArray().size() % 4 != 0)
                fail("flamebearer: " + at + " is not an array of groups of 4 numbers");
            const QJsonArray items = row.toArray();
            std::vector<Bar> bars(size_t(items.size() / 4));
            int64_t end = 0;
            for (size_t i = 0; i < bars.size(); ++i) {
                const std::string bar = at + " bar " + std::to_string(i);
                Bar &b = bars[i];
                const int64_t delta = integer(items[qsizetype(4 * i)], bar + " offset");
                b.total = integer(items[qsizetype(4 * i + 1)], bar + " total");
                b.self = integer(items[qsizetype(4 * i + 2)], bar + " self");
                const int64_t name = integer(items[qsizetype(4 * i + 3)], bar + " name");
                if (delta < 0 || b.total < 0 || b.self < 0 || b.self > b.total)
                    fail("flamebearer: " + bar + " has a negative offset or value, or self above total");
                if (name < 0 || uint64_t(name) >= nameCount)
                    fail("flamebearer: " + bar + " names index " + std::to_string(name) + " of " +
                         std::to_string(nameCount) + " names");
                b.x = end + delta;
                b.name = uint32_t(name);
                end = b.x + b.total;
            }
            if (!out.empty())
                link(out.back(), bars, at);
            out.push_back(std::move(bars));
        }
        return out;
    }

    void link(std::vector<Bar> &parents, std::vector<Bar> &children, const std::string &at) const
    {
        size_t p = 0;
        for (size_t i = 0; i < children.size(); ++i) {
            Bar &c = children[i];
            if (c.total == 0)
                continue;   // an empty bar holds no value and cannot be placed: it adds nothing
            while (p < parents.size() && (parents[p].total == 0 || parents[p].x + parents[p].total <= c.x))
                ++p;
            if (p == parents.size() || c.x < parents[p].x || c.x + c.total > parents[p].x + parents[p].total)
                fail("flamebearer: " + at + " bar " + std::to_string(i) + " does not lie within a bar of the level above");
            c.parent = int64_t(p);
            parents[p].childTotal += c.total;
        }
    }

    StackProfileBuilder::SampleType sampleType(const QJsonObject &meta, int64_t *scale, int64_t *period) const
    {
        const std::string units = meta.value(QLatin1String("units")).toString().toStdString();
        std::string name = meta.value(QLatin1String("name")).toString().toStdString();
        *scale = 1;
        *period = 0;
        if (units == "samples" || units == "trace_samples") {
            // Pyroscope shows these as time: ticks / sampleRate seconds.
            const int64_t rate = meta.value(QLatin1String("sampleRate")).toInteger();
            if (rate > 0 && 1000000000 % rate == 0) {
                *scale = 1000000000 / rate;
                *period = *scale > 1 ? *scale : 0;   // a tick of 1 ns says nothing about the sampling period
                return {name.empty() ? "cpu" : name, "nanoseconds"};
            }
            return {name.empty() ? "samples" : name, "count"};
        }
        if (units == "bytes")
            return {name.empty() ? "space" : name, "bytes"};
        if (units == "lock_nanoseconds")
            return {name.empty() ? "delay" : name, "nanoseconds"};
        return {name.empty() ? "samples" : name, "count"};
    }

private:
    std::string m_source;
};

}   // namespace

bool looksLikeJsonObject(std::string_view text)
{
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    const size_t first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{';
}

std::shared_ptr<const Profile> readFlamebearer(std::string_view json, const std::string &sourceName)
{
    Reader r(sourceName);
    QJsonParseError error;
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), qsizetype(json.size())), &error);
    if (error.error != QJsonParseError::NoError)
        r.fail("not valid JSON: " + error.errorString().toStdString() + " at offset " + std::to_string(error.offset));
    if (!doc.isObject())
        r.fail("not flamebearer JSON: the document is not an object");
    const QJsonObject top = doc.object();
    // The /render answer and the UI's export wrap the graph in "flamebearer"; older Pyroscope versions kept the
    // metadata fields inside it.
    const QJsonObject fb = top.value(QLatin1String("flamebearer")).isObject()
                               ? top.value(QLatin1String("flamebearer")).toObject()
                               : top;
    if (!fb.contains(QLatin1String("levels")) || !fb.contains(QLatin1String("names")))
        r.fail("not flamebearer JSON: no \"flamebearer\" object with \"names\" and \"levels\"");
    const QJsonObject meta =
        top.value(QLatin1String("metadata")).isObject() ? top.value(QLatin1String("metadata")).toObject() : fb;
    const QString format = meta.value(QLatin1String("format")).toString(QStringLiteral("single"));
    if (format != QLatin1String("single"))
        r.fail("flamebearer format \"" + format.toStdString() +
               "\" is not a single profile (a diff holds two): open the two profiles and compare them instead");

    const std::vector<std::string> names = r.names(fb);
    std::vector<std::vector<Bar>> levels = r.levels(fb, names.size());
    for (size_t l = 0; l < levels.size(); ++l)
        for (size_t i = 0; i < levels[l].size(); ++i) {
            const Bar &b = levels[l][i];
            if (b.total != 0 && b.self + b.childTotal != b.total)
                r.fail("flamebearer: level " + std::to_string(l) + " bar " + std::to_string(i) + " has total " +
                       std::to_string(b.total) + " but self " + std::to_string(b.self) + " and children " +
                       std::to_string(b.childTotal));
        }

    int64_t scale = 1, period = 0;
    StackProfileBuilder builder({r.sampleType(meta, &scale, &period)});
    if (period)
        builder.setPeriod({"cpu", "nanoseconds"}, period);
    builder.addComment("qflame: imported from flamebearer JSON");
    std::vector<std::string_view> stack;
    for (size_t l = 0; l < levels.size(); ++l)
        for (const Bar &b : levels[l]) {
            if (b.self == 0)
                continue;
            int64_t value = 0;
            if (__builtin_mul_overflow(b.self, scale, &value))
                r.fail("flamebearer: a value overflows when scaled to nanoseconds");
            stack.assign(l, std::string_view());
            const Bar *at = &b;
            for (size_t k = l; k-- > 0;) {   // level 0 is the root, not a frame
                stack[k] = names[at->name];
                at = &levels[k][size_t(at->parent)];
            }
            builder.addStack(stack, {value});
        }
    return builder.build(sourceName);
}

}   // namespace qflame
