// A call tree as a map from each node's path of labels to its (total, self): two trees are equal at their
// granularity when these maps are equal, whatever their node numbering. Nodes whose paths print the same (two
// frames with one label) are summed, as a format that keeps only names would merge them.
#pragma once

#include "tree/CallTree.h"

#include <QString>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace qflame::test {

using TreePaths = std::map<std::string, std::pair<int64_t, int64_t>>;

inline TreePaths treePaths(const CallTree &tree)
{
    TreePaths out;
    std::vector<std::string> pathOf(tree.size());
    for (NodeId n = 1; n < tree.size(); ++n) {   // breadth first: a parent's path is ready before its children's
        const NodeId p = tree.parent(n);
        pathOf[n] = (p == CallTree::kRoot ? std::string() : pathOf[p] + "\n") + tree.label(n);
        auto &[total, self] = out[pathOf[n]];
        total += tree.total(n);
        self += tree.self(n);
    }
    out["<root>"] = {tree.total(CallTree::kRoot), tree.self(CallTree::kRoot)};
    return out;
}

// The first path on which two maps differ, for failure messages; empty when they are equal.
inline QString firstDifference(const TreePaths &expected, const TreePaths &actual)
{
    for (const auto &[path, v] : expected) {
        auto it = actual.find(path);
        if (it == actual.end())
            return QStringLiteral("missing: %1").arg(QString::fromStdString(path));
        if (it->second != v)
            return QStringLiteral("%1: total/self %2/%3, expected %4/%5")
                .arg(QString::fromStdString(path))
                .arg(it->second.first)
                .arg(it->second.second)
                .arg(v.first)
                .arg(v.second);
    }
    for (const auto &[path, v] : actual)
        if (!expected.count(path))
            return QStringLiteral("unexpected: %1").arg(QString::fromStdString(path));
    return {};
}

}   // namespace qflame::test
