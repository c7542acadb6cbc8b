#include "formats/ChromeCpuProfileFormat.h"

#include "formats/FlamebearerFormat.h"
#include "formats/StackProfile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace qflame {

namespace {

struct Node {
    qint64 id = 0;
    int64_t parent = -1;   // index into the nodes; -1: a root
    std::string name;
    bool skip = false;     // the "(root)" node: not a frame
    uint64_t location = 0; // made on first use
    int64_t count = 0, nanos = 0;
};

class Reader {
public:
    explicit Reader(const std::string &sourceName) : m_source(sourceName) {}

    [[noreturn]] void fail(const std::string &what) const { throw ProfileError(m_source + ": cpuprofile: " + what); }

    int64_t integer(const QJsonValue &v, const std::string &where) const
    {
        const qint64 i = v.toInteger();
        if (!v.isDouble() || double(i) != v.toDouble() || i < -(qint64(1) << 53) || i > (qint64(1) << 53))
            fail(where + " is not a whole number");
        return i;
    }

    void readNodes(const QJsonArray &nodes)
    {
        m_nodes.resize(size_t(nodes.size()));
        for (qsizetype i = 0; i < nodes.size(); ++i) {
            const std::string at = "node " + std::to_string(i);
            const QJsonObject o = nodes[i].toObject();
            Node &n = m_nodes[size_t(i)];
            n.id = integer(o.value(QLatin1String("id")), at + " \"id\"");
            if (!m_index.emplace(n.id, int64_t(i)).second)
                fail(at + " repeats the id " + std::to_string(n.id));
            const QJsonObject frame = o.value(QLatin1String("callFrame")).toObject();
            const QString function = frame.value(QLatin1String("functionName")).toString();
            if (function.isEmpty()) {
                const QString url = frame.value(QLatin1String("url")).toString();
                n.name = (url.isEmpty() ? QStringLiteral("(anonymous)")
                                        : QStringLiteral("(anonymous %1:%2)")
                                              .arg(url)
                                              .arg(frame.value(QLatin1String("lineNumber")).toInteger() + 1))
                             .toStdString();
            } else {
                n.name = function.toStdString();
            }
            n.count = o.value(QLatin1String("hitCount")).toInteger(0);
            if (n.count < 0)
                fail(at + " has a negative hitCount");
        }
        // Parents: from the children lists (current V8), else from "parent" (older files).
        for (qsizetype i = 0; i < nodes.size(); ++i) {
            const QJsonObject o = nodes[i].toObject();
            for (const QJsonValue c : o.value(QLatin1String("children")).toArray())
                setParent(indexOf(integer(c, "a child of node " + std::to_string(i))), int64_t(i));
            if (o.contains(QLatin1String("parent")))
                setParent(int64_t(i), indexOf(integer(o.value(QLatin1String("parent")), "parent of node " +
                                                                                           std::to_string(i))));
        }
        for (Node &n : m_nodes)
            n.skip = n.parent < 0 && n.name == "(root)";
    }

    // Times are whole microseconds; hostile sums and products must fail, not overflow.
    int64_t plus(int64_t a, int64_t b) const
    {
        int64_t sum = 0;
        if (__builtin_add_overflow(a, b, &sum))
            fail("the times overflow 64 bits");
        return sum;
    }
    int64_t nanos(int64_t micros) const
    {
        int64_t out = 0;
        if (__builtin_mul_overflow(micros, int64_t(1000), &out))
            fail("the times overflow 64 bits");
        return out;
    }

    int64_t indexOf(int64_t id) const
    {
        const auto it = m_index.find(id);
        if (it == m_index.end())
            fail("no node has the id " + std::to_string(id));
        return it->second;
    }

    void setParent(int64_t child, int64_t parent)
    {
        Node &c = m_nodes[size_t(child)];
        if (c.parent >= 0 && c.parent != parent)
            fail("node " + std::to_string(c.id) + " has two parents");
        c.parent = parent;
    }

    // samples and timeDeltas: per node, the samples and the time until the next one (DevTools' accounting).
    void readSamples(const QJsonObject &top)
    {
        const QJsonArray samples = top.value(QLatin1String("samples")).toArray();
        const QJsonArray deltas = top.value(QLatin1String("timeDeltas")).toArray();
        if (deltas.size() != samples.size())
            fail("\"samples\" has " + std::to_string(samples.size()) + " entries but \"timeDeltas\" " +
                 std::to_string(deltas.size()));
        for (Node &n : m_nodes)
            n.count = 0;   // hitCount repeats what the samples say
        std::vector<int64_t> node(size_t(samples.size())), time(size_t(samples.size()));
        int64_t t = top.value(QLatin1String("startTime")).isDouble()
                        ? integer(top.value(QLatin1String("startTime")), "startTime")
                        : 0;
        for (qsizetype i = 0; i < samples.size(); ++i) {
            node[size_t(i)] = indexOf(integer(samples[i], "sample " + std::to_string(i)));
            t = plus(t, integer(deltas[i], "timeDelta " + std::to_string(i)));
            time[size_t(i)] = t;
        }
        // V8 writes a sample late now and then (a negative delta); DevTools orders them by time first.
        std::vector<size_t> order(node.size());
        std::iota(order.begin(), order.end(), size_t(0));
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return time[a] < time[b]; });
        const bool hasEnd = top.value(QLatin1String("endTime")).isDouble();
        const int64_t end = hasEnd ? integer(top.value(QLatin1String("endTime")), "endTime") : 0;
        for (size_t k = 0; k < order.size(); ++k) {
            const size_t i = order[k];
            const int64_t next = k + 1 < order.size() ? time[order[k + 1]] : (hasEnd ? end : time[i]);
            Node &n = m_nodes[size_t(node[i])];
            n.count += 1;
            n.nanos = plus(n.nanos, nanos(std::max<int64_t>(plus(next, -time[i]), 0)));
        }
    }

    std::shared_ptr<const Profile> read(std::string_view json, const ReadOptions &options)
    {
        // What the stacks take in the profile (4 bytes a frame, 8 a value), bounded like every reader's: each
        // sampled node's stack is as deep as its chain of parents, which a small file can make long for all.
        const uint64_t budget = uint64_t(options.memoryPerInputByte) * json.size() + (uint64_t(64) << 20);
        uint64_t stored = 0;
        QJsonParseError error;
        const QJsonDocument doc =
            QJsonDocument::fromJson(QByteArray::fromRawData(json.data(), qsizetype(json.size())), &error);
        if (error.error != QJsonParseError::NoError)
            throw ProfileError(m_source + ": not valid JSON: " + error.errorString().toStdString() + " at offset " +
                               std::to_string(error.offset));
        const QJsonObject top = doc.object();
        if (!top.value(QLatin1String("nodes")).isArray())
            fail("no \"nodes\" array");
        readNodes(top.value(QLatin1String("nodes")).toArray());
        const bool timed = top.value(QLatin1String("samples")).isArray();
        if (timed)
            readSamples(top);
        std::vector<StackProfileBuilder::SampleType> types = {{"samples", "count"}};
        if (timed)
            types.push_back({"cpu", "nanoseconds"});
        StackProfileBuilder b(types);
        b.addComment("qflame: imported from a Chrome .cpuprofile");
        if (timed && top.value(QLatin1String("endTime")).isDouble() && top.value(QLatin1String("startTime")).isDouble())
            b.setDurationNanos(nanos(std::max<int64_t>(plus(integer(top.value(QLatin1String("endTime")), "endTime"),
                                                            -integer(top.value(QLatin1String("startTime")), "startTime")),
                                                       0)));
        std::vector<uint64_t> leafFirst;
        for (size_t i = 0; i < m_nodes.size(); ++i) {
            if (m_nodes[i].count == 0 && m_nodes[i].nanos == 0)
                continue;
            leafFirst.clear();
            for (int64_t at = int64_t(i); at >= 0; at = m_nodes[size_t(at)].parent) {
                if (leafFirst.size() > m_nodes.size())
                    fail("the parents of node " + std::to_string(m_nodes[i].id) + " form a cycle");
                Node &n = m_nodes[size_t(at)];
                if (n.skip)
                    continue;
                if (!n.location)
                    n.location = b.location(n.name);
                leafFirst.push_back(n.location);
            }
            stored += 4 * leafFirst.size() + (timed ? 16 : 8);
            if (stored > budget)
                fail("the stacks take more than " + std::to_string(budget) + " bytes in memory, more than the "
                     "limit per byte of input (+64 MiB): so deep and so many stacks are no real profile");
            const Node &n = m_nodes[i];
            b.appendStackIds(leafFirst, timed ? std::vector<int64_t>{n.count, n.nanos} : std::vector<int64_t>{n.count});
        }
        return b.build(m_source);
    }

private:
    std::string m_source;
    std::vector<Node> m_nodes;
    std::unordered_map<qint64, int64_t> m_index;   // node id -> index
};

}   // namespace

bool looksLikeChromeCpuProfile(std::string_view head)
{
    return looksLikeJsonObject(head) && head.find("\"nodes\"") != std::string_view::npos &&
           head.find("\"callFrame\"") != std::string_view::npos;
}

std::shared_ptr<const Profile> readChromeCpuProfile(std::string_view json, const std::string &sourceName,
                                                    const ReadOptions &options)
{
    return Reader(sourceName).read(json, options);
}

}   // namespace qflame
