// The Graph tab (ui/graphview) and the call graph's layout (model/graph/GraphLayout): laid out by Graphviz off the
// GUI thread, every node and edge placed, hover/selection/search/focus, pictures, and the --dot text read back
// by Graphviz's own parser.
#include "MainWindow.h"
#include "ProfileFactory.h"
#include "WaitLoad.h"
#include "controls/SecondaryPanes.h"
#include "compare/DiffView.h"
#include "document/DiffPane.h"
#include "document/ProfilePane.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "graph/GraphMarks.h"
#include "graph/GraphLayout.h"
#include "graph/GraphReport.h"
#include "graphview/GraphCanvas.h"
#include "graphview/GraphPane.h"
#include "roundsview/RoundsPane.h"
#include "compare/DiffTableModel.h"
#include "tables/TopTableModel.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <QDir>
#include <QFileInfo>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QTabWidget>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace qflame;

namespace {

std::shared_ptr<const Profile> sample()
{
    return test::profileFromFolded("main;run;parse;lex 40\n"
                                   "main;run;parse;alloc 10\n"
                                   "main;run;eval;alloc 25\n"
                                   "main;run;eval;eval;add 30\n"
                                   "main;gc 15\n");
}

GraphOptions all()
{
    GraphOptions o;
    o.nodeCount = 0;
    o.nodeFraction = 0;
    o.edgeFraction = 0;
    return o;
}

}   // namespace

class tst_GraphView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void layoutPlacesEverything();
    void dotTextIsReadByGraphviz();
    void paneBuildsSelectsSearchesAndFocuses();
    void comparisonColours();
    void paneMarksInliningChangesAndMeasuredNoise();
    void selectionFollowsTableAndFlamegraph();
    void comparisonSelectionAndNoiseFollowOptions();
    void comparisonGraphNormalizedAsTheDiff();
    void roundsComparisonClassesEdges();
};

void tst_GraphView::layoutPlacesEverything()
{
    const auto graph = CallGraph::build({sample()}, 0, {}, all());
    const auto layout = GraphLayout::compute(graph);
    QCOMPARE(layout->nodes().size(), graph->nodes().size());
    QCOMPARE(layout->edges().size(), graph->edges().size());
    for (size_t i = 0; i < layout->nodes().size(); ++i) {
        const QRectF box = layout->nodes()[i].box;
        QVERIFY(box.width() > 10 && box.height() > 10);
        QVERIFY(layout->bounds().adjusted(-1, -1, 1, 1).contains(box));
        for (size_t j = i + 1; j < layout->nodes().size(); ++j)
            QVERIFY(!box.intersects(layout->nodes()[j].box));
    }
    for (const GraphLayoutEdge &e : layout->edges()) {
        QVERIFY(e.spline.size() >= 4);
        QVERIFY(e.hasArrow);
    }
    // Callers above callees: main's box is above lex's.
    const auto nodeNamed = [&](const std::string &name) {
        for (uint32_t i = 0; i < graph->nodes().size(); ++i)
            if (graph->name(i) == name)
                return int(i);
        return -1;
    };
    QVERIFY(layout->nodes()[size_t(nodeNamed("main"))].box.bottom() <
            layout->nodes()[size_t(nodeNamed("lex"))].box.top());
    // The heaviest flat gets the largest font, as pprof's.
    QCOMPARE(layout->nodes()[size_t(nodeNamed("lex"))].fontSize, 8 + 16);
}

void tst_GraphView::dotTextIsReadByGraphviz()
{
    const auto graph = CallGraph::build({sample()}, 0, {}, all());
    const std::string dot = graphDot(*graph);
    GVC_t *gvc = gvContext();
    Agraph_t *g = agmemread(dot.c_str());
    QVERIFY(g);
    QCOMPARE(agnnodes(g), int(graph->nodes().size()) + 1);   // and the legend
    QCOMPARE(agnedges(g), int(graph->edges().size()));
    QCOMPARE(gvLayout(gvc, g, "dot"), 0);
    gvFreeLayout(gvc, g);
    agclose(g);
    gvFreeContext(gvc);
}

void tst_GraphView::paneBuildsSelectsSearchesAndFocuses()
{
    GraphPane pane;
    pane.resize(900, 700);
    QSignalSpy ready(&pane, &GraphPane::graphReady);
    pane.setInputs({}, {sample()}, 0, Granularity::Functions, {});
    QCOMPARE(ready.count(), 0);   // nothing is built while the tab is hidden
    pane.show();
    QVERIFY(ready.wait(10000));
    const GraphLayout *layout = pane.graphLayout();
    QVERIFY(layout);
    QCOMPARE(layout->graph().nodes().size(), size_t(8));   // main run parse eval lex alloc add gc
    GraphCanvas *canvas = pane.canvas();
    // A click on a node's box selects it and names its function.
    QSignalSpy selected(&pane, &GraphPane::nodeSelected);
    uint32_t parse = 0;
    for (uint32_t i = 0; i < layout->graph().nodes().size(); ++i)
        if (layout->graph().name(i) == "parse")
            parse = i;
    // The widget point over parse's box, found by hovering: the canvas's transform is its own business.
    QPoint over(-1, -1);
    for (int y = 0; y < canvas->height() && over.x() < 0; y += 3)
        for (int x = 0; x < canvas->width() && over.x() < 0; x += 3) {
            QMouseEvent move(QEvent::MouseMove, QPointF(x, y), QPointF(x, y), Qt::NoButton, Qt::NoButton,
                             Qt::NoModifier);
            QCoreApplication::sendEvent(canvas, &move);
            if (canvas->hoveredNode() == int(parse))
                over = QPoint(x, y);
        }
    QVERIFY2(over.x() >= 0, "no point of the canvas is over parse's box");
    QTest::mouseClick(canvas, Qt::LeftButton, {}, over);
    QCOMPARE(canvas->selectedNode(), int(parse));
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toString(), QStringLiteral("parse"));
    // Search: matches stay, the rest fade.
    QCOMPARE(canvas->setSearch(QRegularExpression(QStringLiteral("^(eval|add)$"))), 2);
    const QImage shot = pane.grab().toImage();
    QVERIFY(!shot.isNull());
    shot.save(QDir::currentPath() + QStringLiteral("/tst_graphview-pane.png"));
    canvas->setSearch(QRegularExpression());
    // Zoom keeps the point under the cursor.
    const double zoom = canvas->zoom();
    canvas->zoomBy(2, QPointF(over));
    QCOMPARE(canvas->zoom(), zoom * 2);
    QCOMPARE(canvas->hoveredNode(), int(parse));
    // Double-click: the graph around parse only (pprof's focus): main run parse lex alloc.
    QTest::mouseDClick(canvas, Qt::LeftButton, {}, over);
    QVERIFY(ready.wait(10000));
    QStringList names;
    for (uint32_t i = 0; i < pane.graphLayout()->graph().nodes().size(); ++i)
        names << QString::fromStdString(pane.graphLayout()->graph().name(i));
    names.sort();
    QCOMPARE(names, QStringList({"alloc", "lex", "main", "parse", "run"}));
}

void tst_GraphView::comparisonColours()
{
    const auto before = test::profileFromFolded("main;a 100\nmain;b 50\n");
    const auto after = test::profileFromFolded("main;a 40\nmain;b 52\nmain;c 30\n");
    const auto graph = CallGraph::buildDiff({before}, {after}, 0, {}, all(), 2.0);
    const auto layout = GraphLayout::compute(graph);
    for (uint32_t i = 0; i < graph->nodes().size(); ++i) {
        const QColor c = graphNodeColor(*graph, i, false);
        const std::string &name = graph->name(i);
        if (name == "a")   // less cost: green
            QVERIFY(c.green() > c.red());
        else if (name == "c")   // new: red
            QVERIFY(c.red() > c.green());
        else if (name == "b")   // +2 within noise: grey
            QVERIFY(c.red() == c.green() && c.green() == c.blue());
    }
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("g.png")), svg = dir.filePath(QStringLiteral("g.svg"));
    QCOMPARE(writeGraphPicture(*layout, png, false), QString());
    QCOMPARE(writeGraphPicture(*layout, svg, true), QString());
    QVERIFY(!QImage(png).isNull());
    QVERIFY(QFileInfo(svg).size() > 500);
}

void tst_GraphView::paneMarksInliningChangesAndMeasuredNoise()
{
    const auto before = test::profileFromFolded("main;a 100\nmain;b 50\n");
    const auto after = test::profileFromFolded("main;a 40\nmain;b 52\nmain;c 30\n");
    GraphPane pane;
    pane.resize(900, 700);
    QSignalSpy ready(&pane, &GraphPane::graphReady);
    // b: +2/s against 2 * 0.5 measured (rounds of 1 s): slower, where Poisson's 2 * sqrt(102) calls it noise.
    MeasuredNoise noise;
    noise.cumStandardError = {{"b", 0.5}};
    noise.edgeStandardError = {{{"main", "b"}, 0.5}};   // and the call main -> b, measured per file as well
    noise.source = "the spread of the rounds x (3 observations) and y (3)";
    pane.setMeasuredNoise(std::make_shared<MeasuredNoise>(noise), 1, 1);
    pane.setInputs({before}, {after}, 0, Granularity::Functions, {});
    pane.show();
    QVERIFY(ready.wait(10000));
    const CallGraph *g = &pane.graphLayout()->graph();
    QVERIFY(g->hasMeasuredNoise());
    for (uint32_t i = 0; i < g->nodes().size(); ++i)
        if (g->name(i) == "b")
            QCOMPARE(g->classOf(g->nodes()[i]), DiffClass::Slower);
    QCOMPARE(measuredEdgeCount(*g), size_t(1));
    for (uint32_t e = 0; e < g->edges().size(); ++e)   // main -> b: +2 against 2 * 0.5, where Poisson says noise
        if (g->name(g->edges()[e].to) == "b")
            QCOMPARE(g->classOf(g->edges()[e]), DiffClass::Slower);
    bool stated = false;
    for (const QLabel *label : pane.findChildren<QLabel *>())
        stated = stated || label->text().contains(QStringLiteral("1 of 4 nodes and 1 of 3 edges by the noise measured"));
    QVERIFY(stated);
    // The PGO panel's changes arrive after the layout: marks only, nothing moves.
    InliningChanges changes;
    changes.inlining.push_back({InliningChange::Kind::BecameInlined, "main", "a", {10, 0}, {0, 4}});
    const QRectF bounds = pane.graphLayout()->bounds();
    pane.setInliningChanges(std::make_shared<InliningChanges>(changes));
    g = &pane.graphLayout()->graph();
    QCOMPARE(pane.graphLayout()->bounds(), bounds);
    QCOMPARE(ready.count(), 1);   // no new layout
    int marked = 0;
    for (uint32_t e = 0; e < g->edges().size(); ++e)
        if (!edgeInliningText(*g, e).empty()) {
            ++marked;
            QCOMPARE(g->name(g->edges()[e].to), std::string("a"));
        }
    QCOMPARE(marked, 1);
    // The purple band and label are painted.
    const QImage shot = pane.grab().toImage();
    shot.save(QDir::currentPath() + QStringLiteral("/tst_graphview-inlining.png"));
    int purple = 0;
    for (int y = 0; y < shot.height(); ++y)
        for (int x = 0; x < shot.width(); ++x) {
            const QColor c = shot.pixelColor(x, y);
            purple += c.blue() > c.green() + 60 && c.red() > c.green() + 30;
        }
    QVERIFY2(purple > 50, qPrintable(QString::number(purple)));
    // A function selected elsewhere selects its node; one the graph lacks clears the selection.
    QSignalSpy selected(&pane, &GraphPane::nodeSelected);
    pane.selectFunction(QStringLiteral("c"));
    QCOMPARE(pane.selectedName(), QStringLiteral("c"));
    QCOMPARE(selected.count(), 1);
    pane.selectFunction(QStringLiteral("c"));   // already selected: nothing
    QCOMPARE(selected.count(), 1);
    pane.selectFunction(QStringLiteral("nowhere"));
    QCOMPARE(pane.canvas()->selectedNode(), -1);
}

void tst_GraphView::selectionFollowsTableAndFlamegraph()
{
    ProfilePane tab;
    tab.resize(1200, 900);
    tab.show();
    tab.open({QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz")});
    QVERIFY(test::waitLoad(tab));
    auto *graph = tab.findChild<GraphPane *>();
    QVERIFY(graph);
    QSignalSpy ready(graph, &GraphPane::graphReady);
    tab.secondaryPanes()->showPane(graph);
    QVERIFY(ready.wait(20000));
    const CallGraph &g = graph->graphLayout()->graph();
    // A top table row selects its function's node.
    QTableView *table = tab.topTable();
    const QModelIndex first = table->model()->index(0, 0);
    const std::string firstName =
        tab.view().tree->frames().label(FrameId(first.data(TopTableModel::FrameRole).toUInt()));
    table->setCurrentIndex(first);
    QCOMPARE(graph->selectedName().toStdString(), firstName);
    // A node selects its function's row.
    const std::string other = g.name(g.nodes().size() - 1);
    graph->selectFunction(QString::fromStdString(other));
    QCOMPARE(tab.view().tree->frames().label(FrameId(table->currentIndex().data(TopTableModel::FrameRole).toUInt())),
             other);
    // A frame of the flamegraph selects its function's node.
    const CallTree &tree = *tab.view().tree;
    NodeId frame = CallTree::kRoot;   // a frame deep enough to be another function than the one selected
    for (NodeId n = tree.firstChild(CallTree::kRoot); n < tree.size() && frame == CallTree::kRoot; ++n) {
        const std::string &label = tree.frames().label(tree.frame(n));
        for (uint32_t i = 0; i < g.nodes().size(); ++i)
            if (g.name(i) == label && label != other)
                frame = n;
    }
    QVERIFY(frame != CallTree::kRoot);
    tab.flameGraph()->setSelectedNode(int64_t(frame));
    QCOMPARE(graph->selectedName().toStdString(), tree.frames().label(tree.frame(frame)));
}

void tst_GraphView::comparisonSelectionAndNoiseFollowOptions()
{
    DiffPane tab;
    tab.resize(1200, 900);
    tab.show();
    tab.open({QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz")},
             {QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz")});
    QVERIFY(test::waitLoad(tab));
    auto *graph = tab.findChild<GraphPane *>();
    QVERIFY(graph);
    QSignalSpy ready(graph, &GraphPane::graphReady);
    tab.diffView()->secondaryPanes()->showPane(graph);
    QVERIFY(ready.wait(20000));
    const CallGraph &g = graph->graphLayout()->graph();
    QVERIFY(!g.hasMeasuredNoise());
    // A diff table row selects its function's node.
    QTableView *table = tab.diffView()->table();
    const FrameTable &frames = tab.diffView()->diffTable()->tree().frames();
    const QModelIndex first = table->model()->index(0, 0);
    const std::string firstName = frames.label(FrameId(first.data(DiffTableModel::FrameRole).toUInt()));
    table->setCurrentIndex(first);
    QCOMPARE(graph->selectedName().toStdString(), firstName);
    // A node selects its function's row.
    std::string other;
    for (uint32_t i = 0; i < g.nodes().size() && other.empty(); ++i)
        if (g.name(i) != firstName)
            other = g.name(i);
    graph->selectFunction(QString::fromStdString(other));
    QCOMPARE(frames.label(FrameId(table->currentIndex().data(DiffTableModel::FrameRole).toUInt())), other);
    // A frame of the diff flamegraph selects its function's node.
    const DiffTree &diff = *tab.diffView()->diff();
    NodeId frame = DiffTree::kRoot;
    for (NodeId n = 1; n < diff.size() && frame == DiffTree::kRoot; ++n)
        if (diff.frames().label(diff.frame(n)) == firstName)
            frame = n;
    QVERIFY(frame != DiffTree::kRoot);
    tab.diffView()->diffGraph()->graph()->setSelectedNode(int64_t(frame));
    QCOMPARE(graph->selectedName().toStdString(), firstName);

    // The rounds' measured noise is per second: the graph uses it once the comparison is per second, and drops it
    // when the normalisation changes back, without reopening.
    MeasuredNoise noise;
    noise.normalization = Normalization::PerSecond;
    noise.cumStandardError = {{firstName, 0.5}};
    noise.source = "the spread of two rounds (test)";
    tab.diffView()->setMeasuredNoise(std::make_shared<MeasuredNoise>(noise));
    DiffOptions perSecond = tab.diffView()->options();
    perSecond.normalization = Normalization::PerSecond;
    tab.diffView()->setOptions(perSecond);
    QTRY_VERIFY_WITH_TIMEOUT(graph->graphLayout() && graph->graphLayout()->graph().hasMeasuredNoise() &&
                                 !graph->isBuilding(), 20000);
    DiffOptions none = perSecond;
    none.normalization = Normalization::None;
    tab.diffView()->setOptions(none);
    QTRY_VERIFY_WITH_TIMEOUT(graph->graphLayout() && !graph->graphLayout()->graph().hasMeasuredNoise() &&
                                 !graph->isBuilding(), 20000);
    // The threshold k reaches the graph too: k = 0 calls nothing noise.
    const int readyBefore = ready.count();
    DiffOptions noNoise = none;
    noNoise.noiseK = 0;
    tab.diffView()->setOptions(noNoise);
    QTRY_VERIFY_WITH_TIMEOUT(ready.count() > readyBefore && !graph->isBuilding(), 20000);
    const CallGraph &g0 = graph->graphLayout()->graph();
    for (uint32_t i = 0; i < g0.nodes().size(); ++i)
        QVERIFY(g0.classOf(g0.nodes()[i]) != DiffClass::WithinNoise);
}

// The comparison's Graph under the diff's normalisation: the model's scales (the diff tree's), its values, and the
// diff's sentence in the status line; back to absolute values when the normalisation is none again.
void tst_GraphView::comparisonGraphNormalizedAsTheDiff()
{
    DiffPane tab;
    tab.resize(1400, 900);
    tab.show();
    tab.open({QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz")},
             {QStringLiteral(QFLAME_TEST_DATA "/gen__optimized.cpu.pb.gz")});
    QVERIFY(test::waitLoad(tab));
    auto *graph = tab.findChild<GraphPane *>();
    QSignalSpy ready(graph, &GraphPane::graphReady);
    tab.diffView()->secondaryPanes()->showPane(graph);
    QVERIFY(ready.wait(20000));
    QVERIFY(!graph->graphLayout()->graph().isNormalized());
    DiffOptions total = tab.diffView()->options();
    total.normalization = Normalization::Total;
    tab.diffView()->setOptions(total);
    QTRY_VERIFY_WITH_TIMEOUT(graph->graphLayout() && graph->graphLayout()->graph().isNormalized() &&
                                 !graph->isBuilding(), 20000);
    const CallGraph &g = graph->graphLayout()->graph();
    const DiffTree &shown = *tab.diffView()->shownDiff();
    QCOMPARE(g.scale(0), shown.beforeScale());
    QCOMPARE(g.scale(1), shown.afterScale());
    QVERIFY(g.scale(1) != 1.0);
    // Each node's cum delta is the diff table's for its function (pprof's cum in both, scaled alike).
    const DiffTable &table = *tab.diffView()->diffTable();
    QCOMPARE(table.tree().options().normalization, Normalization::Total);
    int checked = 0;
    for (const DiffRow &row : table.rows())
        for (uint32_t i = 0; i < g.nodes().size(); ++i)
            if (g.name(i) == table.label(row)) {
                QCOMPARE(g.cumDelta(g.nodes()[i]), row.deltaCum);
                QCOMPARE(g.classOf(g.nodes()[i]), row.diffClass);
                ++checked;
            }
    QVERIFY(checked > 10);
    const std::string sentence = "Normalisation: " + shown.normalizationDescription();
    bool stated = false;
    for (const QLabel *label : graph->findChildren<QLabel *>())
        stated = stated || label->text().contains(QString::fromStdString(sentence));
    QVERIFY2(stated, sentence.c_str());
    const QImage shot = tab.grab().toImage();
    shot.save(QDir::currentPath() + QStringLiteral("/tst_graphview-normalized.png"));
    DiffOptions none = total;
    none.normalization = Normalization::None;
    tab.diffView()->setOptions(none);
    QTRY_VERIFY_WITH_TIMEOUT(graph->graphLayout() && !graph->graphLayout()->graph().isNormalized() &&
                                 !graph->isBuilding(), 20000);
}

// The window's path: rounds of files, Compare Two, the comparison's Graph. Two rounds of two 1-second files
// (tst_roundspane's): main -> a weighs 6 and 10, then 11 and 11: 8/s -> 11/s against 2 * sqrt(2^2 + 0^2) measured
// from the files, noise (without sample counts Poisson's would call it slower); main -> b 4, 4 then 8, 8: no spread
// at all, so not measured, slower by its sign.
void tst_GraphView::roundsComparisonClassesEdges()
{
    QTemporaryDir dir;
    auto write = [&dir](const char *name, const std::string &folded) {
        test::FoldedProfile spec;
        spec.sampleTypes = {{"cpu", "nanoseconds"}};
        spec.folded = folded;
        spec.durationNanos = 1000000000;
        const QString path = dir.filePath(QLatin1String(name));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(QByteArray::fromStdString(test::pprofBytes(spec))) < 0)
            qFatal("cannot write %s", qPrintable(path));
        return path;
    };
    const QString b1 = write("b1.pb", "main;a 6\nmain;b 4"), b2 = write("b2.pb", "main;a 10\nmain;b 4"),
                  n1 = write("n1.pb", "main;a 11\nmain;b 8"), n2 = write("n2.pb", "main;a 11\nmain;b 8");
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    w.openRounds({{"base", {b1, b2}}, {"new", {n1, n2}}});
    auto *rounds = qobject_cast<RoundsPane *>(w.tabs()->currentWidget());
    QVERIFY(rounds);
    QVERIFY(test::waitLoad(*rounds));
    rounds->roundsTable()->selectAll();
    rounds->compareButton()->click();
    DiffPane *diff = w.currentDiff();
    QVERIFY(diff);
    if (!diff->hasContent())
        QVERIFY(test::waitLoad(*diff));
    auto *graph = diff->findChild<GraphPane *>();
    diff->diffView()->secondaryPanes()->showPane(graph);
    QTRY_VERIFY_WITH_TIMEOUT(graph->graphLayout() && graph->graphLayout()->graph().hasMeasuredNoise() &&
                                 !graph->isBuilding(), 20000);
    const CallGraph &g = graph->graphLayout()->graph();
    QCOMPARE(g.diffOptions().normalization, Normalization::PerSecond);
    QCOMPARE(measuredEdgeCount(g), size_t(1));
    std::map<std::string, DiffClass> classes;
    for (uint32_t e = 0; e < g.edges().size(); ++e) {
        classes[g.name(g.edges()[e].to)] = g.classOf(g.edges()[e]);
        if (g.name(g.edges()[e].to) == "a") {
            QCOMPARE(g.measuredEdgeError(e), 2.0);
            QCOMPARE(g.edgeDelta(g.edges()[e]), 3.0);
        }
    }
    QCOMPARE(classes.at("a"), DiffClass::WithinNoise);
    QCOMPARE(classes.at("b"), DiffClass::Slower);
    const QImage shot = diff->grab().toImage();
    shot.save(QDir::currentPath() + QStringLiteral("/tst_graphview-rounds.png"));
}

QTEST_MAIN(tst_GraphView)
#include "tst_graphview.moc"
