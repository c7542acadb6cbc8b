// What the diff tests share: profiles from folded stacks, their diff, a node by its path, a table row by its
// label, and an exact comparison of doubles.
#pragma once

#include "ProfileFactory.h"
#include "diff/DiffTable.h"
#include "diff/DiffTree.h"

#include <QTest>

#include <memory>
#include <string>

// QCOMPARE compares doubles fuzzily; these values are exact.
#define QCOMPARE_EXACT(actual, expected)                                                                           \
    do {                                                                                                           \
        const double a_ = (actual), e_ = (expected);                                                               \
        if (!(a_ == e_))                                                                                           \
            QFAIL(qPrintable(QStringLiteral("%1 is %2, expected %3").arg(QLatin1String(#actual))                  \
                                 .arg(a_, 0, 'g', 17).arg(e_, 0, 'g', 17)));                                        \
    } while (0)

namespace qflame::test {

inline FoldedProfile folded(const std::string &stacks, const std::string &type = "apples",
                            const std::string &unit = "count")
{
    FoldedProfile p;
    p.sampleTypes = {{type, unit}};
    p.folded = stacks;
    return p;
}

inline std::shared_ptr<const DiffTree> diffOf(const FoldedProfile &before, const FoldedProfile &after,
                                              const DiffOptions &options = {},
                                              Granularity granularity = Granularity::Functions)
{
    BuildOptions build;
    build.granularity = granularity;
    const auto base = profileFromFolded(before, "base.pb");
    const DiffSide b = DiffSide::fromProfiles({base}, size_t(base->effectiveDefaultType()), build);
    const DiffSide a = DiffSide::fromProfiles({profileFromFolded(after, "new.pb")}, b.tree->sampleType(), build);
    return DiffTree::build(b, a, options);
}

// The node at a path of labels ("main;a"), or kAbsent.
inline NodeId find(const DiffTree &t, const std::string &path)
{
    NodeId n = DiffTree::kRoot;
    size_t start = 0;
    while (start <= path.size() && !path.empty()) {
        size_t end = path.find(';', start);
        if (end == std::string::npos)
            end = path.size();
        const std::string part = path.substr(start, end - start);
        NodeId next = DiffTree::kAbsent;
        for (NodeId c = t.firstChild(n); c < t.firstChild(n) + t.childCount(n); ++c)
            if (t.label(c) == part)
                next = c;
        if (next == DiffTree::kAbsent)
            return next;
        n = next;
        start = end + 1;
    }
    return n;
}

// The table's row of a label, or an empty row.
inline const DiffRow &rowOf(const DiffTable &table, const std::string &label)
{
    for (const DiffRow &r : table.rows())
        if (table.label(r) == label)
            return r;
    static const DiffRow none;
    return none;
}

}   // namespace qflame::test
