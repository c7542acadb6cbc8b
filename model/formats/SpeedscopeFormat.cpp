#include "formats/SpeedscopeFormat.h"

#include "formats/FlamebearerFormat.h"
#include "formats/StackProfile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <unordered_map>
#include <vector>

namespace qflame {

namespace {

// Values are stored as int64; a weight this large is no real profile's, and rounding it would lose digits.
constexpr double kMaxValue = 4.0e18;

class Reader {
public:
    explicit Reader(const std::string &sourceName) : m_source(sourceName) {}

    [[noreturn]] void fail(const std::string &what) const { throw ProfileError(m_source + ": speedscope: " + what); }

    // The factor from the file's unit to the pprof unit, and the sample type it becomes.
    StackProfileBuilder::SampleType unitOf(const QString &unit, double *factor) const
    {
        *factor = 1;
        if (unit == u"nanoseconds")
            return {"time", "nanoseconds"};
        if (unit == u"microseconds")
            return *factor = 1e3, StackProfileBuilder::SampleType{"time", "nanoseconds"};
        if (unit == u"milliseconds")
            return *factor = 1e6, StackProfileBuilder::SampleType{"time", "nanoseconds"};
        if (unit == u"seconds")
            return *factor = 1e9, StackProfileBuilder::SampleType{"time", "nanoseconds"};
        if (unit == u"bytes")
            return {"space", "bytes"};
        if (unit == u"none" || unit.isEmpty())
            return {"samples", "count"};
        fail("unknown unit \"" + unit.toStdString() + "\" (none, nanoseconds, microseconds, milliseconds, seconds "
             "or bytes)");
    }

    int64_t scaled(const QJsonValue &v, double factor, const std::string &where) const
    {
        if (!v.isDouble())
            fail(where + " is not a number");
        const double x = v.toDouble() * factor;
        if (!std::isfinite(x) || x < 0 || x > kMaxValue)
            fail(where + " is negative or too large");
        return std::llround(x);
    }

    // The location of every shared frame, made on first use: a file names thousands of frames, a profile uses
    // some of them.
    void readFrames(const QJsonObject &top)
    {
        const QJsonValue shared = top.value(QLatin1String("shared"));
        if (!shared.isObject() || !shared.toObject().value(QLatin1String("frames")).isArray())
            fail("no \"shared\" object with a \"frames\" array");
        for (const QJsonValue f : shared.toObject().value(QLatin1String("frames")).toArray()) {
            if (!f.isObject())
                fail("frame " + std::to_string(m_names.size()) + " is not an object");
            const QJsonObject o = f.toObject();
            QString name = o.value(QLatin1String("name")).toString();
            if (name.isEmpty()) {
                const QString file = o.value(QLatin1String("file")).toString();
                name = file.isEmpty() ? QStringLiteral("(anonymous)")
                                      : QStringLiteral("(anonymous %1:%2)")
                                            .arg(file)
                                            .arg(o.value(QLatin1String("line")).toInteger());
            }
            m_names.push_back(name.toStdString());
        }
        m_ids.assign(m_names.size(), 0);
    }

    uint64_t frameId(StackProfileBuilder &b, const QJsonValue &v, const std::string &where)
    {
        const qint64 i = v.toInteger(-1);
        if (!v.isDouble() || double(i) != v.toDouble() || i < 0 || uint64_t(i) >= m_names.size())
            fail(where + " is not the index of one of the " + std::to_string(m_names.size()) + " frames");
        if (!m_ids[size_t(i)])
            m_ids[size_t(i)] = b.location(m_names[size_t(i)]);
        return m_ids[size_t(i)];
    }

    QJsonObject pick(const QJsonObject &top, const std::string &wanted) const
    {
        const QJsonValue profiles = top.value(QLatin1String("profiles"));
        if (!profiles.isArray() || profiles.toArray().isEmpty())
            fail("no \"profiles\" array with a profile in it");
        const QJsonArray all = profiles.toArray();
        if (!wanted.empty()) {
            std::string names;
            for (const QJsonValue p : all) {
                const std::string name = p.toObject().value(QLatin1String("name")).toString().toStdString();
                if (name == wanted)
                    return p.toObject();
                names += (names.empty() ? "" : ", ") + ("\"" + name + "\"");
            }
            fail("no profile named \"" + wanted + "\" (the file has " + names + ")");
        }
        const qint64 active = top.value(QLatin1String("activeProfileIndex")).toInteger(0);
        const QJsonValue chosen = active >= 0 && active < all.size() ? all[active] : all[0];
        if (!chosen.isObject())
            fail("the profile is not an object");
        return chosen.toObject();
    }

    void sampled(StackProfileBuilder &b, const QJsonObject &p, double factor)
    {
        const QJsonValue samples = p.value(QLatin1String("samples")), weights = p.value(QLatin1String("weights"));
        if (!samples.isArray() || !weights.isArray() || samples.toArray().size() != weights.toArray().size())
            fail("a sampled profile needs \"samples\" and \"weights\" arrays of the same length");
        const QJsonArray s = samples.toArray(), w = weights.toArray();
        std::vector<uint64_t> leafFirst;
        for (qsizetype i = 0; i < s.size(); ++i) {
            const std::string at = "sample " + std::to_string(i);
            if (!s[i].isArray())
                fail(at + " is not an array of frame indexes");
            const QJsonArray stack = s[i].toArray();
            leafFirst.clear();
            for (qsizetype k = stack.size(); k-- > 0;)
                leafFirst.push_back(frameId(b, stack[k], at + " frame " + std::to_string(k)));
            const int64_t weight = scaled(w[i], factor, "weight " + std::to_string(i));
            const size_t before = b.stackCount();
            b.addStackIds(leafFirst, m_countToo ? std::vector<int64_t>{1, weight} : std::vector<int64_t>{weight});
            if (b.stackCount() != before)   // a new stack; a repeated one adds to its sample
                store(leafFirst.size(), m_countToo ? 2 : 1);
        }
    }

    // What the stacks will take in the profile (4 bytes a frame, 8 a value): bounded like every reader's
    // (ReadOptions::memoryPerInputByte), since a stack is as deep as the frames open, which a small file can
    // make large for every one of its events.
    void store(size_t frames, size_t values)
    {
        m_stored += 4 * frames + 8 * values;
        if (m_stored > m_budget)
            fail("the stacks take more than " + std::to_string(m_budget) + " bytes in memory, more than the limit "
                 "per byte of input (+64 MiB): so deep and so many stacks are no real profile");
    }

    // An evented profile's time per distinct stack: the stacks open form a tree (a trie of frames), each
    // event moves along it, and the time between two events goes to the node of the stack open then. The tree
    // has at most one node per open event, and each distinct stack is emitted once.
    void evented(StackProfileBuilder &b, const QJsonObject &p, double factor)
    {
        const QJsonValue events = p.value(QLatin1String("events"));
        if (!events.isArray())
            fail("an evented profile needs an \"events\" array");
        struct Node {
            uint64_t location;
            qint64 frameIndex;   // to match closes
            size_t parent;
            int64_t self = 0;
        };
        std::vector<Node> nodes{{0, -1, 0}};   // 0: nothing open
        std::unordered_map<uint64_t, size_t> childOf;   // (parent << 32 | frame index) -> node
        size_t at = 0;   // the node of the stack open now
        int64_t last = 0;
        auto account = [&](int64_t time) {
            if (at != 0 && time > last)
                nodes[at].self += time - last;
            last = std::max(last, time);
        };
        const QJsonArray all = events.toArray();
        for (qsizetype i = 0; i < all.size(); ++i) {
            const std::string where = "event " + std::to_string(i);
            const QJsonObject e = all[i].toObject();
            const QString type = e.value(QLatin1String("type")).toString();
            const int64_t time = scaled(e.value(QLatin1String("at")), factor, where + " \"at\"");
            if (at == 0)
                last = time;   // nothing was open: no time to count, the clock starts here
            else if (time < last)
                fail(where + " is earlier than the one before it (events must be in time order)");
            const uint64_t id = frameId(b, e.value(QLatin1String("frame")), where + " \"frame\"");
            const qint64 frame = e.value(QLatin1String("frame")).toInteger();
            account(time);
            if (type == u"O") {
                const uint64_t key = (uint64_t(at) << 32) | uint64_t(frame);
                const auto [it, added] = childOf.emplace(key, nodes.size());
                if (added)
                    nodes.push_back({id, frame, at});
                at = it->second;
            } else if (type == u"C") {
                if (at == 0 || nodes[at].frameIndex != frame)
                    fail(where + " closes frame " + std::to_string(frame) + ", which is not the innermost open frame");
                at = nodes[at].parent;
            } else {
                fail(where + " has type \"" + type.toStdString() + "\", neither \"O\" (open) nor \"C\" (close)");
            }
        }
        // Frames still open at the end last until the profile's end.
        if (p.value(QLatin1String("endValue")).isDouble())
            account(scaled(p.value(QLatin1String("endValue")), factor, "endValue"));
        std::vector<uint64_t> leafFirst;
        for (size_t n = 1; n < nodes.size(); ++n) {
            if (nodes[n].self == 0)
                continue;
            leafFirst.clear();
            for (size_t k = n; k != 0; k = nodes[k].parent)
                leafFirst.push_back(nodes[k].location);
            store(leafFirst.size(), 1);
            b.appendStackIds(leafFirst, {nodes[n].self});   // distinct by construction
        }
    }

    std::shared_ptr<const Profile> read(std::string_view json, const ReadOptions &options)
    {
        m_budget = uint64_t(options.memoryPerInputByte) * json.size() + (uint64_t(64) << 20);
        QJsonParseError error;
        const QJsonDocument doc =
            QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), qsizetype(json.size())), &error);
        if (error.error != QJsonParseError::NoError)
            throw ProfileError(m_source + ": not valid JSON: " + error.errorString().toStdString() + " at offset " +
                               std::to_string(error.offset));
        if (!doc.isObject())
            fail("the document is not an object");
        const QJsonObject top = doc.object();
        readFrames(top);
        const QJsonObject p = pick(top, options.profileName);
        const QString kind = p.value(QLatin1String("type")).toString();
        if (kind != u"sampled" && kind != u"evented")
            fail("profile type \"" + kind.toStdString() + "\" is neither \"sampled\" nor \"evented\"");
        double factor = 1;
        const StackProfileBuilder::SampleType type = unitOf(p.value(QLatin1String("unit")).toString(), &factor);
        m_countToo = kind == u"sampled" && type.unit != "count";
        std::vector<StackProfileBuilder::SampleType> types;
        if (m_countToo)
            types.push_back({"samples", "count"});
        types.push_back(type);
        StackProfileBuilder b(types);
        const std::string name = p.value(QLatin1String("name")).toString().toStdString();
        b.addComment("qflame: imported from speedscope, " + kind.toStdString() + " profile \"" + name + "\"");
        if (kind == u"sampled")
            sampled(b, p, factor);
        else
            evented(b, p, factor);
        if (type.unit == "nanoseconds") {
            const QJsonValue start = p.value(QLatin1String("startValue")), end = p.value(QLatin1String("endValue"));
            if (start.isDouble() && end.isDouble() && end.toDouble() > start.toDouble())
                b.setDurationNanos(scaled(end, factor, "endValue") - scaled(start, factor, "startValue"));
        }
        return b.build(m_source);
    }

private:
    std::string m_source;
    std::vector<std::string> m_names;
    std::vector<uint64_t> m_ids;   // 0: not made yet
    bool m_countToo = false;
    uint64_t m_stored = 0, m_budget = 0;
};

}   // namespace

bool looksLikeSpeedscope(std::string_view head)
{
    if (!looksLikeJsonObject(head))
        return false;
    return head.find("speedscope.app/file-format-schema") != std::string_view::npos ||
           (head.find("\"shared\"") != std::string_view::npos && head.find("\"frames\"") != std::string_view::npos);
}

std::shared_ptr<const Profile> readSpeedscope(std::string_view json, const std::string &sourceName,
                                              const ReadOptions &options)
{
    return Reader(sourceName).read(json, options);
}

}   // namespace qflame
