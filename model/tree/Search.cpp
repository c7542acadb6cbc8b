#include "tree/Search.h"

namespace qflame {

SearchResult Search::run(const CallTree &tree, const QString &pattern, Qt::CaseSensitivity cs)
{
    if (pattern.isEmpty()) {
        SearchResult r;
        r.frameMatches.assign(tree.frames().size(), false);
        r.nodeMatches.assign(tree.size(), false);
        r.rootTotal = tree.total(CallTree::kRoot);
        return r;
    }
    QRegularExpression re(pattern, cs == Qt::CaseInsensitive ? QRegularExpression::CaseInsensitiveOption
                                                             : QRegularExpression::NoPatternOption);
    return run(tree, re);
}

SearchResult Search::run(const CallTree &tree, const QRegularExpression &regex)
{
    SearchResult r;
    r.frameMatches.assign(tree.frames().size(), false);
    r.nodeMatches.assign(tree.size(), false);
    r.rootTotal = tree.total(CallTree::kRoot);
    if (!regex.isValid()) {
        r.error = regex.errorString();
        return r;
    }
    if (regex.pattern().isEmpty())
        return r;
    const FrameTable &frames = tree.frames();
    for (FrameId f = 1; f < frames.size(); ++f)   // frame 0 is the synthetic root, never a match
        r.frameMatches[f] = regex.match(QString::fromStdString(frames.label(f))).hasMatch();

    // Parents come before children (breadth-first ids), so one forward pass knows whether an ancestor matched.
    std::vector<bool> covered(tree.size(), false);   // the node or one of its ancestors matches
    std::vector<bool> frameSeen(frames.size(), false);
    for (NodeId n = 1; n < tree.size(); ++n) {
        const bool match = r.frameMatches[tree.frame(n)];
        const bool above = covered[tree.parent(n)];
        covered[n] = match || above;
        if (!match)
            continue;
        r.nodeMatches[n] = true;
        ++r.matchedNodes;
        if (!frameSeen[tree.frame(n)]) {
            frameSeen[tree.frame(n)] = true;
            ++r.matchedFrames;
        }
        if (!above)
            r.matchedTotal += tree.total(n);
    }
    return r;
}

int64_t Search::matchedTotalWithin(const CallTree &tree, const SearchResult &result, NodeId zoom)
{
    if (result.nodeMatches.size() != tree.size())
        return 0;
    for (NodeId a = zoom; a != CallTree::kRoot; a = tree.parent(a))
        if (result.nodeMatches[a])
            return tree.total(zoom);
    int64_t sum = 0;
    std::vector<NodeId> stack{zoom};
    while (!stack.empty()) {
        const NodeId n = stack.back();
        stack.pop_back();
        for (NodeId c = tree.firstChild(n); c < tree.firstChild(n) + tree.childCount(n); ++c) {
            if (result.nodeMatches[c])
                sum += tree.total(c);   // its whole subtree is matched: no need to look below
            else
                stack.push_back(c);
        }
    }
    return sum;
}

}   // namespace qflame
