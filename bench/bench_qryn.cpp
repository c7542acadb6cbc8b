// A qryn server's flamegraph (SelectMergeStacktraces' answer) decoded the way QrynClient does it off the GUI
// thread: the protobuf, the levels back into nodes, the nodes' stacks into a profile, its call tree and flat
// table. Two shapes: the generator's call trees encoded as qryn encodes a flamegraph (qryn.md §5), and the
// worst case the stall test serves, every node a function of its own.
#include "BenchTrees.h"

#include "LargeFlamegraph.h"   // tests/qryn: the stall test's answer
#include "qryn/QuerierCodec.h"
#include "qryn/StacksToTree.h"
#include "querier.pb.h"

#include <benchmark/benchmark.h>

#include <QString>

#include <unordered_map>

namespace qflame::bench {

namespace {

QByteArray serialized(const querier::v1::SelectMergeStacktracesResponse &r)
{
    const std::string bytes = r.SerializeAsString();
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

// Level by level, left to right, [x offset from the previous node's right edge, total, self, name index]; the
// first level is the synthetic root "total".
QByteArray levelsOf(const CallTree &tree)
{
    querier::v1::SelectMergeStacktracesResponse r;
    querier::v1::FlameGraph *g = r.mutable_flamegraph();
    std::unordered_map<std::string, int64_t> nameIndex;
    auto name = [&](const std::string &s) {
        auto [it, added] = nameIndex.emplace(s, int64_t(nameIndex.size()));
        if (added)
            g->add_names(s);
        return it->second;
    };
    name("total");
    struct Placed {
        NodeId node;
        int64_t x;
    };
    std::vector<Placed> level{{CallTree::kRoot, 0}}, next;
    int64_t maxSelf = 0;
    while (!level.empty()) {
        auto *values = g->add_levels();
        int64_t previousRight = 0;
        next.clear();
        for (const Placed &p : level) {
            values->add_values(p.x - previousRight);
            values->add_values(tree.total(p.node));
            values->add_values(tree.self(p.node));
            values->add_values(p.node == CallTree::kRoot ? 0 : name(tree.label(p.node)));
            previousRight = p.x + tree.total(p.node);
            maxSelf = std::max(maxSelf, tree.self(p.node));
            int64_t x = p.x;
            for (NodeId c = tree.firstChild(p.node); c < tree.firstChild(p.node) + tree.childCount(p.node); ++c) {
                if (tree.total(c) > 0)
                    next.push_back({c, x});
                x += tree.total(c);
            }
        }
        level.swap(next);
    }
    g->set_total(tree.total(CallTree::kRoot));
    g->set_max_self(maxSelf);
    return serialized(r);
}

void decode(benchmark::State &state, const QByteArray &body)
{
    qryn::ProfileType type;
    qryn::ProfileType::parse(QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds"), &type);
    size_t nodes = 0;
    for (auto _ : state) {
        auto graph = qryn::codec::selectMergeStacktracesResponse(body);
        if (!graph) {
            state.SkipWithError("the body does not decode");
            return;
        }
        qryn::MergedFlamegraph m;
        m.graph = std::move(*graph);
        QString why;
        if (!qryn::buildMergedFlamegraph(&m, type, 0, "bench", &why)) {
            state.SkipWithError(why.toStdString().c_str());
            return;
        }
        nodes = m.tree->size();
        benchmark::DoNotOptimize(m.flat);
    }
    state.counters["tree_nodes"] = double(nodes);
    state.counters["body_MB"] = double(body.size()) / 1e6;
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(nodes));
}

void BM_QrynFlamegraphDecode(benchmark::State &state)
{
    static std::unordered_map<int64_t, QByteArray> bodies;
    QByteArray &body = bodies[state.range(0)];
    if (body.isEmpty())
        body = levelsOf(*treeOfNodes(uint64_t(state.range(0))));
    decode(state, body);
}

void BM_QrynFlamegraphDecodeDistinct(benchmark::State &state)
{
    static const QByteArray body = test::largeFlamegraphBody(20'000, 20);   // 400,000 nodes, 400,000 names
    decode(state, body);
}

}   // namespace

BENCHMARK(BM_QrynFlamegraphDecode)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_QrynFlamegraphDecodeDistinct)->Unit(benchmark::kMillisecond);

}   // namespace qflame::bench
