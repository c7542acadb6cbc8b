// Search over a call tree: matching frames and nodes, and the matched total with each sample counted once,
// on small trees whose numbers are worked out by hand.
#include "ProfileFactory.h"
#include "tree/CallTreeBuilder.h"
#include "tree/Search.h"

#include <QTest>

using namespace qflame;

namespace {

// 27 in all. b sits under a (twice) and directly under main; c;b nests b under c under a.
const char *kTree = "main;a;b 10\n"
                    "main;a;c;b 5\n"
                    "main;b 3\n"
                    "main;d;e 7\n"
                    "x 2\n";

// f recursing directly and through g: 10 in all, every sample has f at least once.
const char *kRecursive = "main;f;f;f 4\n"
                         "main;f;g;f 6\n";

std::shared_ptr<const CallTree> tree(const char *folded, Granularity g = Granularity::Functions)
{
    BuildOptions o;
    o.granularity = g;
    return CallTreeBuilder::build({test::profileFromFolded(folded)}, 0, o);
}

NodeId nodeAt(const CallTree &t, const QString &path)
{
    NodeId n = CallTree::kRoot;
    for (const QString &name : path.split(QLatin1Char(';'))) {
        NodeId found = CallTree::kRoot;
        for (NodeId c = t.firstChild(n); c < t.firstChild(n) + t.childCount(n); ++c)
            if (t.label(c) == name.toStdString())
                found = c;
        if (found == CallTree::kRoot)
            return CallTree::kRoot;
        n = found;
    }
    return n;
}

QStringList matchedFrameLabels(const CallTree &t, const SearchResult &r)
{
    QStringList out;
    for (FrameId f = 0; f < r.frameMatches.size(); ++f)
        if (r.frameMatches[f])
            out << QString::fromStdString(t.frames().label(f));
    out.sort();
    return out;
}

}   // namespace

class tst_Search : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchedTotals_data();
    void matchedTotals();
    void marksFramesAndNodes();
    void caseSensitivity();
    void invalidAndEmptyPatterns();
    void matchesLabelsAtLineGranularity();
    void totalWithinZoom_data();
    void totalWithinZoom();
};

void tst_Search::matchedTotals_data()
{
    QTest::addColumn<QString>("folded");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<qint64>("matchedTotal");
    QTest::addColumn<int>("matchedNodes");
    QTest::addColumn<int>("matchedFrames");
    QTest::addColumn<qint64>("rootTotal");
    // b: 10 + 5 + 3, its three nodes counted once each as none is below another.
    QTest::newRow("leaf in three places") << kTree << "^b$" << qint64(18) << 3 << 1 << qint64(27);
    // a (15) contains both of its b nodes: only main;b (3) adds.
    QTest::newRow("nested matches") << kTree << "^[ab]$" << qint64(18) << 4 << 2 << qint64(27);
    // c is under a: a's 15 already holds it; e adds 7.
    QTest::newRow("match inside match") << kTree << "^(a|c|e)$" << qint64(22) << 3 << 3 << qint64(27);
    // Unanchored, like the filters: "a" alone would match main too.
    QTest::newRow("unanchored") << kTree << "ai" << qint64(25) << 1 << 1 << qint64(27);
    QTest::newRow("everything") << kTree << "." << qint64(27) << 9 << 7 << qint64(27);
    QTest::newRow("nothing") << kTree << "zzz" << qint64(0) << 0 << 0 << qint64(27);
    // f is on every stack, up to three times: each sample still counts once.
    QTest::newRow("direct recursion") << kRecursive << "^f$" << qint64(10) << 4 << 1 << qint64(10);
    // g sits between two f's: matching g alone gives 6, matching both still 10.
    QTest::newRow("recursion through g") << kRecursive << "^g$" << qint64(6) << 1 << 1 << qint64(10);
    QTest::newRow("f or g") << kRecursive << "^[fg]$" << qint64(10) << 5 << 2 << qint64(10);
    // The synthetic root is no frame of the profile: "root" matches no node.
    QTest::newRow("root is not a frame") << kRecursive << "^root$" << qint64(0) << 0 << 0 << qint64(10);
}

void tst_Search::matchedTotals()
{
    QFETCH(QString, folded);
    QFETCH(QString, pattern);
    QFETCH(qint64, matchedTotal);
    QFETCH(int, matchedNodes);
    QFETCH(int, matchedFrames);
    QFETCH(qint64, rootTotal);
    const auto t = tree(folded.toUtf8().constData());
    const SearchResult r = Search::run(*t, pattern);
    QVERIFY(r.valid());
    QCOMPARE(r.matchedTotal, matchedTotal);
    QCOMPARE(int(r.matchedNodes), matchedNodes);
    QCOMPARE(int(r.matchedFrames), matchedFrames);
    QCOMPARE(r.rootTotal, rootTotal);
    QCOMPARE(r.share(), double(matchedTotal) / double(rootTotal));
    QCOMPARE(r.isEmpty(), matchedNodes == 0);
}

void tst_Search::marksFramesAndNodes()
{
    const auto t = tree(kTree);
    const SearchResult r = Search::run(*t, QStringLiteral("^[ab]$"));
    QCOMPARE(matchedFrameLabels(*t, r), QStringList({"a", "b"}));
    QCOMPARE(r.nodeMatches.size(), t->size());
    QCOMPARE(r.frameMatches.size(), t->frames().size());
    QStringList nodes;
    for (NodeId n = 0; n < t->size(); ++n)
        if (r.nodeMatches[n]) {
            QStringList path;
            for (NodeId p : t->pathTo(n))
                path << QString::fromStdString(t->label(p));
            nodes << path.join(QLatin1Char(';'));
        }
    nodes.sort();
    QCOMPARE(nodes, QStringList({"main;a", "main;a;b", "main;a;c;b", "main;b"}));
    QCOMPARE(r.share(), 18.0 / 27.0);
}

void tst_Search::caseSensitivity()
{
    const auto t = tree(kTree);
    QCOMPARE(Search::run(*t, QStringLiteral("MAIN")).matchedTotal, int64_t(0));
    QCOMPARE(Search::run(*t, QStringLiteral("MAIN"), Qt::CaseInsensitive).matchedTotal, int64_t(25));
    QCOMPARE(Search::run(*t, QStringLiteral("^X$"), Qt::CaseInsensitive).matchedTotal, int64_t(2));
}

void tst_Search::invalidAndEmptyPatterns()
{
    const auto t = tree(kTree);
    const SearchResult bad = Search::run(*t, QStringLiteral("a("));
    QVERIFY(!bad.valid());
    QCOMPARE(bad.error, QStringLiteral("missing closing parenthesis"));
    QCOMPARE(bad.matchedTotal, int64_t(0));
    QCOMPARE(bad.nodeMatches.size(), t->size());   // sized, all false: a view can use it as it is
    QVERIFY(std::none_of(bad.nodeMatches.begin(), bad.nodeMatches.end(), [](bool b) { return b; }));
    const SearchResult empty = Search::run(*t, QString());
    QVERIFY(empty.valid());
    QVERIFY(empty.isEmpty());
    QCOMPARE(empty.rootTotal, int64_t(27));
    QCOMPARE(empty.share(), 0.0);
}

void tst_Search::matchesLabelsAtLineGranularity()
{
    // At line granularity a frame's label carries file:line, and search sees the label as the flamegraph shows it.
    const auto t = tree("main@m.go:3;f@f.go:10 4\n"
                        "main@m.go:3;f@f.go:12 6\n"
                        "main@m.go:4;f@f.go:12 1\n",
                        Granularity::Lines);
    QCOMPARE(Search::run(*t, QStringLiteral("f\\.go:12$")).matchedTotal, int64_t(7));
    QCOMPARE(Search::run(*t, QStringLiteral("^f ")).matchedTotal, int64_t(11));
    const SearchResult m3 = Search::run(*t, QStringLiteral(":3$"));
    QCOMPARE(m3.matchedTotal, int64_t(10));
    QCOMPARE(matchedFrameLabels(*t, m3), QStringList({"main m.go:3"}));
}

void tst_Search::totalWithinZoom_data()
{
    QTest::addColumn<QString>("folded");
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("zoom");
    QTest::addColumn<qint64>("within");
    QTest::newRow("b under a") << kTree << "^b$" << "main;a" << qint64(15);
    QTest::newRow("b under d") << kTree << "^b$" << "main;d" << qint64(0);
    QTest::newRow("ancestor matches") << kTree << "^a$" << "main;a;c" << qint64(5);
    QTest::newRow("zoom matches") << kTree << "^c$" << "main;a;c" << qint64(5);
    QTest::newRow("whole tree") << kTree << "^b$" << "" << qint64(18);
    QTest::newRow("recursion below zoom") << kRecursive << "^f$" << "main" << qint64(10);
    QTest::newRow("g's subtree") << kRecursive << "^f$" << "main;f;g" << qint64(6);
}

void tst_Search::totalWithinZoom()
{
    QFETCH(QString, folded);
    QFETCH(QString, pattern);
    QFETCH(QString, zoom);
    QFETCH(qint64, within);
    const auto t = tree(folded.toUtf8().constData());
    const NodeId z = zoom.isEmpty() ? CallTree::kRoot : nodeAt(*t, zoom);
    QVERIFY(zoom.isEmpty() || z != CallTree::kRoot);
    QCOMPARE(Search::matchedTotalWithin(*t, Search::run(*t, pattern), z), within);
}

QTEST_GUILESS_MAIN(tst_Search)
#include "tst_search.moc"
