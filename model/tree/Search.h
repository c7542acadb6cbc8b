// Regex search over the frames of a call tree: which frames and nodes match, and how much of the profile the
// matches account for, each sample counted once (like cum) however many matching frames are on its stack.
#pragma once

#include "tree/CallTree.h"

#include <QRegularExpression>
#include <QString>

#include <cstdint>
#include <vector>

namespace qflame {

struct SearchResult {
    QString error;                   // why the pattern does not compile; empty when it does
    std::vector<bool> frameMatches;  // per FrameId: the frame's label matches
    std::vector<bool> nodeMatches;   // per NodeId: the node's frame matches
    size_t matchedFrames = 0;        // frames that match and occur in the tree
    size_t matchedNodes = 0;
    // The value of the samples with a matching frame on their stack: the sum of the totals of matching nodes
    // that have no matching ancestor.
    int64_t matchedTotal = 0;
    int64_t rootTotal = 0;

    bool valid() const { return error.isEmpty(); }
    bool isEmpty() const { return matchedNodes == 0; }
    // matchedTotal / rootTotal, 0 when the tree is empty.
    double share() const { return rootTotal == 0 ? 0.0 : double(matchedTotal) / double(rootTotal); }
};

class Search {
public:
    // Matches `pattern` (a QRegularExpression, unanchored: it may match anywhere) against each frame's label,
    // as the flamegraph shows it ("main.run", "main.run x.go:12", "[libc.so.6]"). An empty pattern matches
    // nothing. An invalid pattern gives an empty result with `error` set.
    static SearchResult run(const CallTree &tree, const QString &pattern,
                            Qt::CaseSensitivity cs = Qt::CaseSensitive);
    static SearchResult run(const CallTree &tree, const QRegularExpression &regex);

    // The matched value within the subtree of `zoom`: all of it when zoom or one of its ancestors matches,
    // otherwise the matched totals below it, each sample counted once.
    static int64_t matchedTotalWithin(const CallTree &tree, const SearchResult &result, NodeId zoom);
};

}   // namespace qflame
