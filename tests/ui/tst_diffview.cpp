// The diff views offscreen: the apples in pixels, the share view's distortion, one-side frames, the side-by-side
// common scale, synchronised zoom, and the diff table model.
#include "compare/DiffTableModel.h"
#include "compare/DiffView.h"
#include "controls/SearchBar.h"
#include "flame/FlameView.h"
#include "ProfileFactory.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace qflame;

namespace {

std::shared_ptr<const DiffTree> diffOf(const std::string &before, const std::string &after,
                                       const std::string &type = "apples")
{
    test::FoldedProfile b, a;
    b.sampleTypes = a.sampleTypes = {{type, "count"}};
    b.folded = before;
    a.folded = after;
    const DiffSide base = DiffSide::fromProfiles({test::profileFromFolded(b, "base")}, 0);
    const DiffSide cmp = DiffSide::fromProfiles({test::profileFromFolded(a, "new")}, base.tree->sampleType());
    return DiffTree::build(base, cmp);
}

NodeId named(const DiffTree &d, const std::string &label)
{
    for (NodeId n = 1; n < d.size(); ++n)
        if (d.label(n) == label)
            return n;
    return DiffTree::kAbsent;
}

// The colour at the middle of a node's rectangle.
QColor colorAt(FlameGraphWidget *g, NodeId n)
{
    const QRect r = g->nodeRect(n).toRect();
    return g->grab().toImage().pixelColor(r.center());
}

// A change of options is computed off the GUI thread: waits until the view shows it.
bool waitApplied(DiffView &v)
{
    QSignalSpy spy(&v, &DiffView::applied);
    return v.isApplied() || spy.wait(10000);
}

}   // namespace

class tst_DiffView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void applesInPixels();
    void shareViewDistortsTheApples();
    void oneSideFramesStayVisible();
    void sideBySideCommonScaleAndSync();
    void tableModel();
    void searchDimsAllThreeGraphs();
    void theLatestOptionsWin();
};

void tst_DiffView::applesInPixels()
{
    DiffView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setDiff(diffOf("me 2\njohn 2\nmike 2", "me 1\njohn 2\nmike 2"));
    FlameGraphWidget *g = v.diffGraph()->graph();
    const DiffTree &d = *v.source()->diffPtr();
    const NodeId me = named(d, "me"), john = named(d, "john"), mike = named(d, "mike");
    QCOMPARE(d.deltaTotal(me), -1.0);
    QCOMPARE(d.classOf(me), DiffClass::Faster);
    QCOMPARE(d.classOf(john), DiffClass::Unchanged);
    // me is green (less cost), john and mike neutral grey: nothing happened to them.
    const QColor cMe = colorAt(g, me), cJohn = colorAt(g, john), cMike = colorAt(g, mike);
    QCOMPARE(cJohn, DiffSource::neutralColor());
    QCOMPARE(cMike, DiffSource::neutralColor());
    QVERIFY2(cMe.green() > cMe.red() + 60, qPrintable(cMe.name()));
    QCOMPARE(cMe, DiffSource::deltaColor(-1, 1, false));   // the largest change gets the full colour
    // Width is max(before, after): me keeps its baseline width, 2 of 6 units.
    QCOMPARE(qRound(g->nodeRect(me).width()), qRound(g->width() * 2.0 / 6.0));
    // The legend's scale is the largest |delta| of a non-root frame, in units.
    QCOMPARE(v.source()->scale(), 1.0);
    QVERIFY(v.summaryText().contains(QStringLiteral("<b>6</b> → <b>5</b> (-1, -16.67% of the baseline)")));
    // Colour-blind safe: blue for less cost.
    v.setColorBlindSafe(true);
    const QColor safe = colorAt(g, me);
    QVERIFY2(safe.blue() > safe.red() + 60 && safe.blue() > safe.green(), qPrintable(safe.name()));
}

void tst_DiffView::shareViewDistortsTheApples()
{
    DiffView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setDiff(diffOf("me 2\njohn 2\nmike 2", "me 1\njohn 2\nmike 2"));
    DiffOptions share;
    share.normalization = Normalization::Total;
    v.setOptions(share);
    QVERIFY(waitApplied(v));
    const DiffTree &d = *v.source()->diffPtr();
    const NodeId john = named(d, "john");
    // Scaled to the baseline total (x 6/5), john "grows" from 2 to 2.4: painted red although nothing happened.
    QCOMPARE(d.afterTotal(john), 2.4);
    QCOMPARE(d.classOf(john), DiffClass::Slower);
    const QColor c = colorAt(v.diffGraph()->graph(), john);
    QVERIFY2(c.red() > c.green() + 60, qPrintable(c.name()));
    QVERIFY(v.summaryText().contains(QStringLiteral("the share view, not cost")));
}

void tst_DiffView::oneSideFramesStayVisible()
{
    DiffView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setDiff(diffOf("main;old 3\nmain;kept 3", "main;new 2\nmain;kept 3"));
    FlameGraphWidget *g = v.diffGraph()->graph();
    const DiffTree &d = *v.source()->diffPtr();
    const NodeId oldNode = named(d, "old"), newNode = named(d, "new");
    QCOMPARE(d.classOf(oldNode), DiffClass::Removed);
    QCOMPARE(d.classOf(newNode), DiffClass::New);
    QVERIFY(!g->nodeRect(oldNode).isEmpty());   // removed frames keep their baseline width
    QVERIFY(!g->nodeRect(newNode).isEmpty());
    QCOMPARE(v.source()->mark(oldNode), FrameMark::Dashed);
    QCOMPARE(v.source()->mark(named(d, "kept")), FrameMark::None);
    // The removed frame is green, the new one red; the dashed outline is drawn at the frame's edge.
    const QColor cOld = colorAt(g, oldNode), cNew = colorAt(g, newNode);
    QVERIFY(cOld.green() > cOld.red());
    QVERIFY(cNew.red() > cNew.green());
    // Width toggles: comparison only makes the removed frame vanish, baseline only the new one.
    v.setWidthMode(DiffWidth::Comparison);
    QVERIFY(waitApplied(v));
    QVERIFY(v.diffGraph()->graph()->nodeRect(oldNode).isEmpty());
    QVERIFY(!v.diffGraph()->graph()->nodeRect(newNode).isEmpty());
    v.setWidthMode(DiffWidth::Baseline);
    QVERIFY(waitApplied(v));
    QVERIFY(v.diffGraph()->graph()->nodeRect(newNode).isEmpty());
}

void tst_DiffView::sideBySideCommonScaleAndSync()
{
    DiffView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.tabs()->setCurrentIndex(1);
    v.setDiff(diffOf("main;a 6\nmain;b 2", "main;a 2\nmain;b 2"));   // 8 -> 4
    FlameGraphWidget *b = v.beforeGraph()->graph(), *a = v.afterGraph()->graph();
    QTest::qWait(50);
    // One absolute scale: the comparison's root is half as wide as the baseline's.
    QCOMPARE(qRound(a->nodeRect(0).width()), qRound(a->width() / 2.0));
    QCOMPARE(qRound(b->nodeRect(0).width()), b->width());
    v.setCommonScale(false);
    QCOMPARE(qRound(a->nodeRect(0).width()), a->width());
    // Zooming one side zooms the other and the diff graph to the same path.
    b->zoomTo(b->tree()->firstChild(b->tree()->firstChild(0)));   // main;a in the baseline
    QCOMPARE(a->tree()->label(a->zoomRoot()), std::string("a"));
    QCOMPARE(v.diffGraph()->graph()->source()->labelBytes(v.diffGraph()->graph()->zoomRoot()), std::string("a"));
    // Selecting a frame selects the same path in the other two graphs.
    a->setSelectedNode(a->tree()->firstChild(a->tree()->firstChild(0)) + 1);   // main;b in the comparison
    QCOMPARE(b->tree()->label(NodeId(b->selectedNode())), std::string("b"));
    FlameGraphWidget *d = v.diffGraph()->graph();
    QCOMPARE(d->source()->labelBytes(NodeId(d->selectedNode())), std::string("b"));
}

void tst_DiffView::tableModel()
{
    DiffTableModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto d = diffOf("main;a 6\nmain;b 2\nmain;c 1", "main;a 2\nmain;b 5\nmain;d 1");
    m.setTable(DiffTable::compute(d));
    QCOMPARE(m.rowCount(), 5);   // main, a, b, c, d
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&m);
    proxy.setSortRole(DiffTableModel::SortRole);
    proxy.sort(DiffTableModel::DeltaCum, Qt::DescendingOrder);   // by |delta|
    QStringList order;
    for (int r = 0; r < proxy.rowCount(); ++r)
        order << proxy.index(r, DiffTableModel::Name).data().toString() + QLatin1Char(' ') +
                     proxy.index(r, DiffTableModel::DeltaCum).data().toString();
    QCOMPARE(order.mid(0, 2), QStringList({"a -4", "b +3"}));
    auto row = [&](const QString &name) {
        for (int r = 0; r < m.rowCount(); ++r)
            if (m.index(r, 0).data().toString() == name)
                return r;
        return -1;
    };
    QCOMPARE(m.index(row("a"), DiffTableModel::DeltaCumPercent).data().toString(), QStringLiteral("-66.67%"));
    QCOMPARE(m.index(row("d"), DiffTableModel::DeltaCumPercent).data().toString(), QStringLiteral("new"));
    QCOMPARE(m.index(row("d"), DiffTableModel::Class).data().toString(), QStringLiteral("new"));
    QCOMPARE(m.index(row("c"), DiffTableModel::Class).data().toString(), QStringLiteral("removed"));
    QCOMPARE(m.index(row("main"), DiffTableModel::DeltaCum).data().toString(), QStringLiteral("-1"));
    QCOMPARE(m.index(row("b"), DiffTableModel::BeforeFlat).data(DiffTableModel::ValueRole).toDouble(), 2.0);
}

void tst_DiffView::searchDimsAllThreeGraphs()
{
    DiffView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setDiff(diffOf("main;a 6\nmain;b 2", "main;a 2\nmain;b 2\nmain;c 1"));
    v.searchBar()->setPattern(QStringLiteral("^[ac]$"));
    QCOMPARE(v.searchBar()->resultText(), QStringLiteral("2 function(s) match"));
    // In each graph, b is dimmed and a keeps its colour.
    for (FlameView *view : {v.diffGraph(), v.beforeGraph(), v.afterGraph()}) {
        FlameGraphWidget *g = view->graph();
        NodeId a = 0, b = 0;
        for (NodeId n = 1; n < g->layout()->size(); ++n) {
            if (g->source()->labelBytes(n) == "a")
                a = n;
            if (g->source()->labelBytes(n) == "b")
                b = n;
        }
        QVERIFY(a && b);
        QCOMPARE(colorAt(g, a).rgb(), g->frameColor(a).rgb());
        QCOMPARE(colorAt(g, b).rgb(), dimmed(g->frameColor(b), g->palette().color(QPalette::Base)).rgb());
    }
    QCOMPARE(v.table()->model()->rowCount(), 2);   // the table follows
    v.searchBar()->setPattern(QString());
    QCOMPARE(v.table()->model()->rowCount(), 4);
}

// Options changed twice in a row: the first change's result, computed off the GUI thread, must not be shown after
// the second's, whichever job ends first; and until then the view keeps what it showed.
void tst_DiffView::theLatestOptionsWin()
{
    DiffView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setDiff(diffOf("me 2\njohn 2\nmike 2", "me 1\njohn 2\nmike 2"));
    QVERIFY(v.isApplied());   // a new diff is shown at once
    const auto before = v.source()->diffPtr();
    QSignalSpy applied(&v, &DiffView::applied);
    DiffOptions share;
    share.normalization = Normalization::Total;
    v.setOptions(share);
    QVERIFY(!v.isApplied());
    QCOMPARE(v.source()->diffPtr(), before);   // still the last one shown
    DiffOptions factor;
    factor.normalization = Normalization::Factor;
    factor.factor = 2;
    v.setOptions(factor);
    QVERIFY(waitApplied(v));
    QTest::qWait(100);   // the first job's result, had it been delivered, would have come by now
    QCOMPARE(applied.count(), 1);
    QCOMPARE(v.source()->diff().options().normalization, Normalization::Factor);
    QCOMPARE(v.source()->diff().afterTotal(DiffTree::kRoot), 10.0);   // 5 x 2
    QVERIFY(v.summaryText().contains(QStringLiteral("<b>6</b> → <b>10</b>")));
}

QTEST_MAIN(tst_DiffView)
#include "tst_diffview.moc"
