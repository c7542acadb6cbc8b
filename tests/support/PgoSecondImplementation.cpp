#include "PgoSecondImplementation.h"

#include "profile.pb.h"

#include <QByteArray>
#include <QFile>
#include <QtGlobal>

#include <zlib.h>

#include <algorithm>
#include <map>
#include <set>

namespace qflame::test {

namespace pb = perftools::profiles;

std::string inflatedFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    const QByteArray raw = f.readAll();
    if (raw.size() < 2 || uchar(raw[0]) != 0x1f || uchar(raw[1]) != 0x8b)
        return raw.toStdString();
    z_stream z{};
    inflateInit2(&z, 16 + MAX_WBITS);
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(raw.data()));
    z.avail_in = uInt(raw.size());
    std::string out;
    char buf[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef *>(buf), z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buf, sizeof buf - z.avail_out);
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END)
        qFatal("cannot inflate %s", qPrintable(path));
    return out;
}

SecondEdges secondImplementationEdges(const pb::Profile &p, double threshold)
{
    int type = -1;
    for (const char *want : {"samples/count", "cpu/nanoseconds"})
        for (int i = 0; i < p.sample_type_size() && type < 0; ++i)
            if (p.string_table(int(p.sample_type(i).type())) + "/" +
                    p.string_table(int(p.sample_type(i).unit())) == want)
                type = i;
    if (type < 0)
        qFatal("oracle: no PGO sample type");
    std::map<uint64_t, const pb::Function *> functions;
    for (const pb::Function &f : p.function())
        functions[f.id()] = &f;
    using Node = std::tuple<uint64_t, std::string, int64_t, int64_t>;   // address, name, start line, line
    std::map<uint64_t, std::vector<Node>> nodesOfLocation;             // outermost first
    for (const pb::Location &l : p.location()) {
        std::vector<Node> &nodes = nodesOfLocation[l.id()];
        for (int k = l.line_size() - 1; k >= 0; --k) {
            auto f = functions.find(l.line(k).function_id());
            if (f == functions.end())
                nodes.emplace_back(l.address(), "", 0, 0);
            else
                nodes.emplace_back(l.address(), p.string_table(int(f->second->name())), f->second->start_line(),
                                   l.line(k).line());
        }
        if (nodes.empty())
            nodes.emplace_back(l.address(), "", 0, 0);
    }
    SecondEdges result;
    std::map<std::pair<Node, Node>, int64_t> nodeEdges;
    for (const pb::Sample &s : p.sample()) {
        const int64_t w = s.value(type);
        if (w == 0 || s.location_id_size() == 0)
            continue;
        std::vector<Node> walk;
        for (int i = std::min(1, s.location_id_size() - 1); i >= 0; --i)
            for (const Node &n : nodesOfLocation.at(s.location_id(i)))
                walk.push_back(n);
        std::set<std::pair<Node, Node>> counted;
        for (size_t i = 0; i + 1 < walk.size(); ++i)
            if (walk[i] != walk[i + 1] && counted.insert({walk[i], walk[i + 1]}).second)
                nodeEdges[{walk[i], walk[i + 1]}] += w;
        for (const Node &n : walk)
            result.startLines |= std::get<2>(n) != 0;
    }
    std::map<std::tuple<std::string, std::string, int64_t>, int64_t> named;
    int64_t total = 0;
    for (const auto &[pair, w] : nodeEdges) {
        const auto &[callerAddress, callerName, callerStart, callerLine] = pair.first;
        named[{callerName, std::get<1>(pair.second), callerLine - callerStart}] += w;
        total += w;
    }
    for (const auto &[key, w] : named)
        result.edges.emplace_back(std::get<0>(key), std::get<1>(key), std::get<2>(key), w, false);
    std::sort(result.edges.begin(), result.edges.end(), [](const SecondEdge &a, const SecondEdge &b) {
        return std::tuple(-std::get<3>(a), std::get<0>(a), std::get<1>(a), std::get<2>(a)) <
               std::tuple(-std::get<3>(b), std::get<0>(b), std::get<1>(b), std::get<2>(b));
    });
    // Hot while no earlier prefix has gone past the threshold: the crossing edge is the last hot one.
    int64_t cum = 0;
    bool crossed = false;
    for (SecondEdge &e : result.edges) {
        std::get<4>(e) = !crossed;
        cum += std::get<3>(e);
        crossed = crossed || double(cum) / double(total) * 100 > threshold;
    }
    return result;
}

}   // namespace qflame::test
