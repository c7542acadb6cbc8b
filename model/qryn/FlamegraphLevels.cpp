#include "qryn/FlamegraphLevels.h"

namespace qflame::qryn {

bool decodeLevels(const std::vector<std::vector<int64_t>> &levels, size_t nameCount, const LevelLayout &layout,
                  std::vector<FlameNode> *nodes, QString *why)
{
    auto fail = [&](const QString &reason) {
        if (why)
            *why = reason;
        return false;
    };
    nodes->clear();
    size_t aboveBegin = 0, aboveEnd = 0;   // the previous level's nodes in *nodes
    for (size_t depth = 0; depth < levels.size(); ++depth) {
        const std::vector<int64_t> &level = levels[depth];
        if (level.size() % size_t(layout.stride) != 0)
            return fail(QStringLiteral("level %1 has %2 numbers, not a multiple of %3")
                            .arg(depth).arg(level.size()).arg(layout.stride));
        const size_t begin = nodes->size();
        size_t parent = aboveBegin;
        int64_t rightEdge = 0;
        for (size_t i = 0; i < level.size(); i += size_t(layout.stride)) {
            FlameNode n;
            const int64_t offset = level[i + layout.offset];
            n.total = level[i + layout.total];
            n.self = level[i + layout.self];
            const int64_t name = level[i + layout.name];
            if (offset < 0 || n.total < 0 || n.self < 0 || n.self > n.total)
                return fail(QStringLiteral("level %1 node %2 has offset %3, total %4, self %5")
                                .arg(depth).arg(i / layout.stride).arg(offset).arg(n.total).arg(n.self));
            if (name < 0 || uint64_t(name) >= nameCount)
                return fail(QStringLiteral("level %1 node %2 names index %3 of %4 names")
                                .arg(depth).arg(i / layout.stride).arg(name).arg(nameCount));
            n.x = rightEdge + offset;
            rightEdge = n.x + n.total;
            if (n.total == 0)
                continue;
            n.name = uint32_t(name);
            n.depth = uint32_t(depth);
            if (depth > 0) {
                // Nodes and their parents both run left to right, so the parent search only moves forward.
                while (parent < aboveEnd && (*nodes)[parent].x + (*nodes)[parent].total <= n.x)
                    ++parent;
                if (parent == aboveEnd || (*nodes)[parent].x > n.x ||
                    n.x + n.total > (*nodes)[parent].x + (*nodes)[parent].total)
                    return fail(QStringLiteral("level %1 node %2 (x %3, total %4) lies outside every node of level %5")
                                    .arg(depth).arg(i / layout.stride).arg(n.x).arg(n.total).arg(depth - 1));
                n.parent = int32_t(parent);
            }
            nodes->push_back(n);
        }
        aboveBegin = begin;
        aboveEnd = nodes->size();
    }
    return true;
}

bool stacksFromNodes(const std::vector<FlameNode> &nodes, const std::vector<std::string> &names, uint64_t maxFrames,
                     StackSet *out, QString *why)
{
    out->names = names;
    std::vector<uint32_t> path;
    uint64_t frames = 0;
    for (const FlameNode &n : nodes) {
        if (n.self == 0 || n.depth == 0)
            continue;
        frames += n.depth;
        if (frames > maxFrames) {
            if (why)
                *why = QStringLiteral("its stacks hold more than %1 frames, more than the limit for the answer's size "
                                      "(3 bytes of memory per byte + 64 MiB): no real flamegraph is shaped so")
                           .arg(maxFrames);
            return false;
        }
        path.clear();
        for (const FlameNode *p = &n; p->depth > 0; p = &nodes[size_t(p->parent)])
            path.push_back(p->name);
        out->stacks.emplace_back(path.rbegin(), path.rend());
        out->values.push_back({n.self});
    }
    return true;
}

StackSet stacksFromNodes(const std::vector<FlameNode> &nodes, const std::vector<std::string> &names)
{
    StackSet out;
    stacksFromNodes(nodes, names, UINT64_MAX, &out, nullptr);
    return out;
}

}   // namespace qflame::qryn
