// Writes folded stacks from a call tree (the format is described in formats/FoldedFormat.h, which reads it).
#include "export/FoldedWriter.h"

#include <vector>

namespace qflame {

namespace {

std::string foldedFrame(const std::string &label)
{
    std::string out = label;
    for (char &c : out) {
        if (c == ';')
            c = ':';
        else if (c == '\n' || c == '\r')
            c = ' ';
    }
    return out;
}

}   // namespace

std::string writeFolded(const CallTree &tree)
{
    std::string out;
    if (tree.self(CallTree::kRoot) != 0)
        out.append(" ").append(std::to_string(tree.self(CallTree::kRoot))).append("\n");   // not " " + ...: GCC 12's -Wrestrict misfires on it at -O3
    // Depth first with an explicit stack; `prefix` holds the frames of the path to the node being visited.
    struct Visit {
        NodeId node;
        size_t prefixLength;   // length of `prefix` before this node's frame was appended
    };
    std::vector<Visit> todo;
    const NodeId first = tree.firstChild(CallTree::kRoot);
    for (uint32_t i = tree.childCount(CallTree::kRoot); i-- > 0;)
        todo.push_back({NodeId(first + i), 0});
    std::string prefix;
    while (!todo.empty()) {
        const Visit v = todo.back();
        todo.pop_back();
        prefix.resize(v.prefixLength);
        if (v.prefixLength > 0)
            prefix += ';';
        prefix += foldedFrame(tree.label(v.node));
        if (tree.self(v.node) != 0)
            out += prefix + " " + std::to_string(tree.self(v.node)) + "\n";
        const NodeId c = tree.firstChild(v.node);
        for (uint32_t i = tree.childCount(v.node); i-- > 0;)
            todo.push_back({NodeId(c + i), prefix.size()});
    }
    return out;
}

}   // namespace qflame
