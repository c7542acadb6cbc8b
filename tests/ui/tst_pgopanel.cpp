// The PGO panel (ui/pgoview), offscreen: on hand-built profiles whose edges are worked out here, the edge table
// equals the model's edges, the hot count at thresholds 0, 99 and 100, the regex filter, the sort, the
// candidates, the highlight an edge selection sets in the flamegraph, the saves, a profile without a PGO sample
// type, and in a comparison the inlining changes and the diff flamegraph's marks. Models under
// QAbstractItemModelTester.
#include "PgoTestSupport.h"
#include "ProfileFactory.h"
#include "compare/DiffView.h"
#include "controls/SecondaryPanes.h"
#include "document/DocumentPane.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "formats/ProfileInput.h"
#include "io/ReadOptions.h"
#include "pgo/Preprofile.h"
#include "pgoview/PgoModels.h"
#include "pgoview/PgoPanel.h"

#include "profile.pb.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace qflame;
namespace pb = perftools::profiles;

namespace {

// The PGO tests' message builder (tests/support/PgoTestSupport.h) with one samples/count value per sample.
class Builder : public pgotest::Builder {
public:
    using pgotest::Builder::sample;
    void sample(const std::vector<uint64_t> &leafFirst, int64_t value) { pgotest::Builder::sample(leafFirst, {value}); }
    std::string bytes() const { return message().SerializeAsString(); }
};

// main.main -> main.work -> {main.helper, main.leaf}, main.helper -> main.leaf; start lines 10, 20, 30, 40.
// The compiler's edges (the last two frames of each sample), worked out:
//   main.main  -> main.work    offset 12-10 = 2   weight 700   cum 70.0 %
//   main.work  -> main.helper  offset 25-20 = 5   weight 250   cum 95.0 %
//   main.work  -> main.leaf    offset 25-20 = 5   weight  45   cum 99.5 %   (crosses 99: the last hot edge at 99)
//   main.helper-> main.leaf    offset 33-30 = 3   weight   5   cum 100 %
std::string fourEdges()
{
    Builder b;
    const uint64_t fmain = b.function("main.main", 10), work = b.function("main.work", 20),
                   helper = b.function("main.helper", 30), leaf = b.function("main.leaf", 40);
    const uint64_t lmain = b.location(0x1, {{fmain, 12}}), lwork = b.location(0x2, {{work, 25}}),
                   lhelper = b.location(0x3, {{helper, 33}}), lleaf = b.location(0x4, {{leaf, 41}});
    b.sample({lwork, lmain}, 700);
    b.sample({lhelper, lwork, lmain}, 250);
    b.sample({lleaf, lwork, lmain}, 45);
    b.sample({lleaf, lhelper, lwork, lmain}, 5);
    return b.bytes();
}

// Two rounds of one program: in `base` main.main calls main.work (two locations), in `next` the compiler inlined
// main.work into main.main (one location of two lines: main.work innermost, main.main at line 12).
std::string roundWith(bool inlined)
{
    Builder b;
    const uint64_t fmain = b.function("main.main", 10), work = b.function("main.work", 20),
                   leaf = b.function("main.leaf", 40);
    const uint64_t lleaf = b.location(0x4, {{leaf, 41}});
    if (inlined) {
        const uint64_t both = b.location(0x1, {{work, 25}, {fmain, 12}});
        b.sample({both}, 100);
        b.sample({lleaf, both}, 20);
    } else {
        const uint64_t lmain = b.location(0x1, {{fmain, 12}}), lwork = b.location(0x2, {{work, 25}});
        b.sample({lwork, lmain}, 100);
        b.sample({lleaf, lwork, lmain}, 20);
        // A light call the next round no longer makes: hot at 100 only (cum 120, 140 of 141 cross 99 first).
        const uint64_t other = b.function("main.other", 50);
        b.sample({b.location(0x5, {{other, 51}}), lmain}, 1);
    }
    return b.bytes();
}

QString writeTemp(const QTemporaryDir &dir, const QString &name, const std::string &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()))
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

bool waitComputed(PgoPanel *panel)
{
    if (!panel->isComputing())
        return panel->edges() != nullptr;
    QSignalSpy spy(panel, &PgoPanel::computed);
    return spy.wait(30000) && panel->edges() != nullptr;
}

bool waitLoaded(DocumentPane &pane)
{
    QSignalSpy spy(&pane, &DocumentPane::loadFinished);
    return spy.wait(30000) && spy.front().front().toBool();
}

QString cell(QAbstractItemModel *m, int row, int column)
{
    return m->index(row, column).data().toString();
}

void testModel(QAbstractItemModel *m, QObject *parent)
{
    new QAbstractItemModelTester(m, QAbstractItemModelTester::FailureReportingMode::QtTest, parent);
}

}   // namespace

class tst_PgoPanel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void edgeTableIsTheModelsEdges();
    void hotCountAtThresholds();
    void filterAndSort();
    void candidates();
    void selectingAnEdgeHighlightsItsFrames();
    void saves();
    void notAPgoProfile();
    void inliningChangesAndDiffMarks();
};

void tst_PgoPanel::edgeTableIsTheModelsEdges()
{
    const auto p = readPprof(fourEdges(), "four");
    PgoPanel panel;
    testModel(panel.edgeModel(), &panel);
    testModel(panel.edgeFilter(), &panel);
    panel.setProfiles({p}, 1234);
    QVERIFY(waitComputed(&panel));
    const PgoEdges e = computePgoEdges({p});
    QCOMPARE(e.edges, (std::vector<PgoEdge>{{"main.main", "main.work", 2, 700, true},
                                            {"main.work", "main.helper", 5, 250, true},
                                            {"main.work", "main.leaf", 5, 45, true},
                                            {"main.helper", "main.leaf", 3, 5, false}}));
    QAbstractItemModel *m = panel.edgeModel();
    QCOMPARE(m->rowCount(), int(e.edges.size()));
    for (int r = 0; r < m->rowCount(); ++r) {
        const PgoEdge &x = e.edges[size_t(r)];
        QCOMPARE(cell(m, r, PgoEdgeModel::Rank), QString::number(r + 1));
        QCOMPARE(cell(m, r, PgoEdgeModel::Caller).toStdString(), x.caller);
        QCOMPARE(cell(m, r, PgoEdgeModel::Callee).toStdString(), x.callee);
        QCOMPARE(cell(m, r, PgoEdgeModel::Offset), QString::number(x.offset));
        QCOMPARE(cell(m, r, PgoEdgeModel::Weight), QString::number(x.weight));
        QCOMPARE(cell(m, r, PgoEdgeModel::Hot), x.hot ? QStringLiteral("hot") : QString());
    }
    QCOMPARE(cell(m, 2, PgoEdgeModel::Share), QStringLiteral("4.50%"));
    QCOMPARE(cell(m, 2, PgoEdgeModel::Cum), QStringLiteral("99.50%"));
    QCOMPARE(cell(m, 3, PgoEdgeModel::Cum), QStringLiteral("100.00%"));
    // The readiness lines are the model's, one a line, in its order.
    QStringList lines;
    for (const PgoReadinessLine &l : pgoReadiness({p}, e, 1234))
        lines << QString::fromStdString(formatReadinessLine(l));
    QCOMPARE(panel.readinessText(), lines.join(QLatin1Char('\n')));
    QVERIFY(panel.readinessText().startsWith(QLatin1String("ok: sample-type: ")));
}

void tst_PgoPanel::hotCountAtThresholds()
{
    PgoPanel panel;
    testModel(panel.edgeModel(), &panel);
    panel.setProfiles({readPprof(fourEdges(), "four")}, 0);
    QVERIFY(waitComputed(&panel));
    QCOMPARE(panel.threshold(), 99.0);   // the compiler's default
    QCOMPARE(panel.hotText(), QStringLiteral("3 of 4 edges hot, 99.50% of the weight"));
    panel.setThreshold(0);   // the first edge's share is above 0: it alone is hot
    QCOMPARE(panel.hotText(), QStringLiteral("1 of 4 edges hot, 70.00% of the weight"));
    QCOMPARE(cell(panel.edgeModel(), 1, PgoEdgeModel::Hot), QString());
    panel.setThreshold(100);   // no share exceeds 100: every edge is hot
    QCOMPARE(panel.hotText(), QStringLiteral("4 of 4 edges hot, 100.00% of the weight"));
    QCOMPARE(cell(panel.edgeModel(), 3, PgoEdgeModel::Hot), QStringLiteral("hot"));
    panel.setThreshold(95);   // 95.0 does not exceed 95: the third edge (99.5) crosses
    QCOMPARE(panel.hotText(), QStringLiteral("3 of 4 edges hot, 99.50% of the weight"));
    // The computed list is untouched: the slider marks a copy.
    QCOMPARE(panel.edges()->hotCount, size_t(3));
}

void tst_PgoPanel::filterAndSort()
{
    PgoPanel panel;
    testModel(panel.edgeFilter(), &panel);
    panel.setProfiles({readPprof(fourEdges(), "four")}, 0);
    QVERIFY(waitComputed(&panel));
    QAbstractItemModel *f = panel.edgeFilter();
    auto ranks = [f] {
        QStringList r;
        for (int i = 0; i < f->rowCount(); ++i)
            r << cell(f, i, PgoEdgeModel::Rank);
        return r;
    };
    panel.filterEdit()->setText(QStringLiteral("helper"));   // caller or callee
    QCOMPARE(ranks(), (QStringList{"2", "4"}));
    panel.filterEdit()->setText(QStringLiteral("^main\\.leaf$"));
    QCOMPARE(ranks(), (QStringList{"3", "4"}));
    panel.filterEdit()->setText(QStringLiteral("main\\.(main|helper)$"));
    QCOMPARE(ranks(), (QStringList{"1", "2", "4"}));
    panel.filterEdit()->setText(QStringLiteral("("));   // invalid: the last valid filter stays
    QCOMPARE(ranks(), (QStringList{"1", "2", "4"}));
    panel.filterEdit()->clear();
    QCOMPARE(ranks(), (QStringList{"1", "2", "3", "4"}));
    // Sorting by the numbers, not their text.
    panel.edgeTable()->sortByColumn(PgoEdgeModel::Weight, Qt::AscendingOrder);
    QCOMPARE(ranks(), (QStringList{"4", "3", "2", "1"}));
    panel.edgeTable()->sortByColumn(PgoEdgeModel::Callee, Qt::AscendingOrder);
    QCOMPARE(cell(f, 0, PgoEdgeModel::Callee), QStringLiteral("main.helper"));
}

void tst_PgoPanel::candidates()
{
    PgoPanel panel;
    testModel(panel.candidatesTable()->model(), &panel);
    panel.setProfiles({readPprof(fourEdges(), "four")}, 0);
    QVERIFY(waitComputed(&panel));
    // One site with two callees: main.work +5 calls main.helper (250) and main.leaf (45).
    QAbstractItemModel *m = panel.candidatesTable()->model();
    QCOMPARE(m->rowCount(), 1);
    QCOMPARE(cell(m, 0, PgoCandidatesModel::Caller), QStringLiteral("main.work"));
    QCOMPARE(cell(m, 0, PgoCandidatesModel::Offset), QStringLiteral("5"));
    QCOMPARE(cell(m, 0, PgoCandidatesModel::Callees), QStringLiteral("2"));
    QCOMPARE(cell(m, 0, PgoCandidatesModel::Heaviest), QStringLiteral("main.helper"));
    QCOMPARE(cell(m, 0, PgoCandidatesModel::Weight), QStringLiteral("250"));
    QCOMPARE(cell(m, 0, PgoCandidatesModel::SiteShare), QStringLiteral("84.75%"));   // 250 / 295
    QCOMPARE(cell(m, 0, PgoCandidatesModel::TotalShare), QStringLiteral("25.00%"));  // 250 / 1000
}

void tst_PgoPanel::selectingAnEdgeHighlightsItsFrames()
{
    QTemporaryDir dir;
    ProfilePane pane;
    pane.resize(1000, 700);
    pane.open({writeTemp(dir, QStringLiteral("four.pb"), fourEdges())});
    QVERIFY(waitLoaded(pane));
    PgoPanel *panel = pane.pgoPanel();
    // The edges are computed once the panel is shown, not for every tab opened.
    QVERIFY(!panel->isComputing());
    QCOMPARE(panel->edgeTable()->model()->rowCount(), 0);
    pane.showPgo();
    QCOMPARE(pane.secondaryPanes()->currentPane(), panel);
    QVERIFY(waitComputed(panel));
    FlameGraphWidget *g = pane.flameGraph();
    auto highlighted = [g] {
        std::set<std::string> names;
        const FrameTable &frames = g->tree()->frames();
        for (FrameId f = 0; f < g->matches().size(); ++f)
            if (g->matches()[f])
                names.insert(frames.label(f));
        return names;
    };
    QVERIFY(g->matches().empty());
    QTableView *t = panel->edgeTable();
    t->setCurrentIndex(t->model()->index(1, PgoEdgeModel::Caller));   // main.work -> main.helper
    QCOMPARE(highlighted(), (std::set<std::string>{"main.helper", "main.work"}));
    t->setCurrentIndex(t->model()->index(3, PgoEdgeModel::Caller));   // main.helper -> main.leaf
    QCOMPARE(highlighted(), (std::set<std::string>{"main.helper", "main.leaf"}));
    t->setCurrentIndex(QModelIndex());   // no edge: no highlight (the search bar is empty)
    QVERIFY(g->matches().empty());
}

void tst_PgoPanel::saves()
{
    QTemporaryDir dir;
    const auto p = readPprof(fourEdges(), "four");
    PgoPanel panel;
    panel.setProfiles({p}, 4321);
    QVERIFY(waitComputed(&panel));
    QVERIFY(panel.savePreprofileButton()->isEnabled());
    const QString pre = dir.filePath(QStringLiteral("four.pgo"));
    panel.savePreprofile(pre);
    QFile f(pre);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().toStdString(), preprofileText(computePgoEdges({p})));
    QVERIFY(panel.statusText().startsWith(QLatin1String("Wrote ")));

    const QString trimmed = dir.filePath(QStringLiteral("four.trimmed.pb.gz"));
    QSignalSpy saved(&panel, &PgoPanel::saved);
    panel.saveTrimmed(trimmed);
    QVERIFY(saved.wait(30000));
    QVERIFY2(saved.front().front().toBool(), qPrintable(saved.front().back().toString()));
    // The trimmed file gives the compiler the identical edges; the status gives both sizes.
    QCOMPARE(computePgoEdges({readProfileFile(trimmed)}).edges, computePgoEdges({p}).edges);
    const qint64 size = QFileInfo(trimmed).size();
    QVERIFY(size > 0 && size < 1024);
    QCOMPARE(panel.statusText(), QStringLiteral("Wrote %1: 4.2 KiB → %2 B, 4 edges, the same as the profile's")
                                     .arg(trimmed).arg(size));   // 4321 bytes before
}

void tst_PgoPanel::notAPgoProfile()
{
    // A heap profile: neither samples/count nor cpu/nanoseconds, so go build -pgo would fail.
    const auto heap = test::profileFromFolded("main;alloc 10", "alloc_space", "bytes", "heap.pb.gz");
    std::string expected;
    try {
        computePgoEdges({heap});
    } catch (const ProfileError &e) {
        expected = e.what();
    }
    QVERIFY(!expected.empty());
    PgoPanel panel;
    testModel(panel.edgeModel(), &panel);
    QSignalSpy computed(&panel, &PgoPanel::computed);
    panel.setProfiles({heap}, 0);
    QVERIFY(computed.wait(30000));
    QCOMPARE(panel.readinessText().toStdString(), expected);
    QCOMPARE(panel.edgeModel()->rowCount(), 0);
    QVERIFY(!panel.saveTrimmedButton()->isEnabled());
    QVERIFY(!panel.savePreprofileButton()->isEnabled());
    QCOMPARE(panel.hotText(), QString());
}

void tst_PgoPanel::inliningChangesAndDiffMarks()
{
    QTemporaryDir dir;
    const QString base = writeTemp(dir, QStringLiteral("base.pb"), roundWith(false));
    const QString next = writeTemp(dir, QStringLiteral("next.pb"), roundWith(true));
    DiffPane pane;
    pane.resize(1200, 800);
    PgoPanel *panel = pane.pgoPanel();
    testModel(panel->inliningTable()->model(), &pane);
    testModel(panel->hotChangesTable()->model(), &pane);
    QSignalSpy ready(panel, &PgoPanel::inliningChangesReady);
    pane.open({base}, {next});
    QVERIFY(waitLoaded(pane));
    QVERIFY(ready.count() > 0 || ready.wait(30000));
    QVERIFY(panel->tabs()->isTabVisible(2));

    // main.main -> main.work: a real call of weight 120 in the baseline, inlined (120) in the new round.
    const InliningChanges changes =
        computeInliningChanges({readProfileFile(base)}, {readProfileFile(next)});
    QAbstractItemModel *m = panel->inliningTable()->model();
    QCOMPARE(m->rowCount(), int(changes.inlining.size()));
    QCOMPARE(m->rowCount(), 1);
    QCOMPARE(cell(m, 0, InliningModel::Kind), QStringLiteral("became inlined"));
    QCOMPARE(cell(m, 0, InliningModel::Caller), QStringLiteral("main.main"));
    QCOMPARE(cell(m, 0, InliningModel::Callee), QStringLiteral("main.work"));
    QCOMPARE(cell(m, 0, InliningModel::BaseCalled), QStringLiteral("120"));   // main.other's sample is not in it
    QCOMPARE(cell(m, 0, InliningModel::BaseInlined), QStringLiteral("0"));
    QCOMPARE(cell(m, 0, InliningModel::NewCalled), QStringLiteral("0"));
    QCOMPARE(cell(m, 0, InliningModel::NewInlined), QStringLiteral("120"));
    QCOMPARE(panel->hotChangesTable()->model()->rowCount(), int(changes.hotEdges.size()));
    QCOMPARE(panel->tabs()->tabText(3), QStringLiteral("Hot edges appeared / vanished (%1, at 99 %)")
                                            .arg(changes.hotEdges.size()));
    QCOMPARE(changes.hotEdges.size(), size_t(0));   // at 99 main.main -> main.other is cold in the baseline
    // At 100 every edge is hot, main.main -> main.other (offset 2, weight 1) too, and the new round lacks it: it
    // vanished. The list is recomputed on the pool once the threshold rests.
    QSignalSpy updated(panel, &PgoPanel::hotChangesUpdated);
    panel->setThreshold(100);
    QVERIFY(updated.wait(30000));
    QAbstractItemModel *hot = panel->hotChangesTable()->model();
    QCOMPARE(hot->rowCount(), 1);
    QCOMPARE(cell(hot, 0, HotEdgeChangesModel::Change), QStringLiteral("vanished"));
    QCOMPARE(cell(hot, 0, HotEdgeChangesModel::Caller), QStringLiteral("main.main"));
    QCOMPARE(cell(hot, 0, HotEdgeChangesModel::Callee), QStringLiteral("main.other"));
    QCOMPARE(cell(hot, 0, HotEdgeChangesModel::Offset), QStringLiteral("2"));
    QCOMPARE(cell(hot, 0, HotEdgeChangesModel::BaseWeight), QStringLiteral("1"));
    QCOMPARE(cell(hot, 0, HotEdgeChangesModel::NewWeight), QStringLiteral("0"));
    QCOMPARE(panel->tabs()->tabText(3), QStringLiteral("Hot edges appeared / vanished (1, at 100 %)"));
    panel->setThreshold(99);
    QVERIFY(updated.wait(30000));
    QCOMPARE(hot->rowCount(), 0);

    // The diff flamegraph marks main.work under main.main, and no other frame.
    const DiffSource *s = pane.diffView()->source();
    QVERIFY(s);
    const DiffTree &d = s->diff();
    std::vector<std::string> marked;
    for (NodeId n = 1; n < d.size(); ++n)
        if (s->callMarked(n))
            marked.push_back(d.label(d.parent(n)) + " -> " + d.label(n));
    QCOMPARE(marked, (std::vector<std::string>{"main.main -> main.work"}));
    // The legend of the mark, in the frame's tooltip and on the diff legend.
    for (NodeId n = 1; n < d.size(); ++n)
        QCOMPARE(s->describe(n, {}).contains(QLatin1String("Purple outline: the call from main.main changed inlining")),
                 s->callMarked(n));

    // An edge of the new side selected: its caller and callee keep their colour in the diff flamegraph.
    QTableView *edges = panel->edgeTable();
    QCOMPARE(edges->model()->rowCount(), 2);   // main.main -> main.work (120), main.work -> main.leaf (20)
    edges->setCurrentIndex(edges->model()->index(1, PgoEdgeModel::Caller));
    FlameGraphWidget *g = pane.diffView()->diffGraph()->graph();
    std::set<std::string> lit;
    for (FrameId f = 0; f < g->matches().size(); ++f)
        if (g->matches()[f])
            lit.insert(d.frames().label(f));
    QCOMPARE(lit, (std::set<std::string>{"main.leaf", "main.work"}));
}

QTEST_MAIN(tst_PgoPanel)
#include "tst_pgopanel.moc"
