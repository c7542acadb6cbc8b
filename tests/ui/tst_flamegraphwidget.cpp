// The flamegraph widget offscreen: hit testing and colours at known pixels, zoom, history, keys, tooltip text.
#include "flame/FlameGraphWidget.h"
#include "flame/FlamePainter.h"
#include "flame/FlameView.h"
#include "flame/FrameDetails.h"
#include "formats/ProfileInput.h"
#include "ProfileFactory.h"
#include "tree/CallTreeBuilder.h"

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QImage>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTest>


using namespace qflame;

class tst_FlameGraphWidget : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void hitTestsKnownPoints();
    void paintsFramesAndGaps();
    void clickZoomsAndHistoryGoesBackAndForward();
    void keyboard();
    void tooltipText();
    void detailsPanelText();
    void paintsRealProfile();
    void arrowsMoveBetweenFrames();
    void icicleHitTests();
    void viewportZoomKeys();
    void exportsPngAndSvg();
    void colourSchemes();
    void searchDimsNonMatches();
    void subPixelFramesStayVisible();
    void fiveThousandLevelsScroll();

private:
    // root 10 -> main 10 -> {a 6, b 2}, main's self 2. 1000 px wide: a [0,600), b [600,800), gap [800,1000).
    FlameGraphWidget *m_w = nullptr;
    int y(int depth) const { return m_w->height() - depth * m_w->rowHeight() - m_w->rowHeight() / 2; }
};

void tst_FlameGraphWidget::init()
{
    m_w = new FlameGraphWidget;
    m_w->setTree(CallTreeBuilder::build({test::profileFromFolded("main;a 6\nmain;b 2\nmain 2\n")}, 0));
    m_w->resize(1000, 10 * m_w->rowHeight());
    m_w->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_w));
}

void tst_FlameGraphWidget::cleanup()
{
    delete m_w;
}

void tst_FlameGraphWidget::hitTestsKnownPoints()
{
    const CallTree &t = *m_w->tree();
    auto at = [&](int x, int depth) {
        const int64_t n = m_w->nodeAt(QPoint(x, y(depth)));
        return n < 0 ? std::string("-") : t.label(NodeId(n));
    };
    QCOMPARE(at(5, 0), std::string("root"));
    QCOMPARE(at(995, 1), std::string("main"));
    QCOMPARE(at(10, 2), std::string("a"));
    QCOMPARE(at(599, 2), std::string("a"));
    QCOMPARE(at(600, 2), std::string("b"));
    QCOMPARE(at(799, 2), std::string("b"));
    QCOMPARE(at(800, 2), std::string("-"));   // main's self
    QCOMPARE(at(10, 3), std::string("-"));
    const QRectF b = m_w->nodeRect(3);
    QCOMPARE(b, QRectF(600, m_w->height() - 3 * m_w->rowHeight(), 200, m_w->rowHeight()));
}

void tst_FlameGraphWidget::paintsFramesAndGaps()
{
    const QImage img = m_w->grab().toImage();
    const QColor background = m_w->palette().color(QPalette::Base);
    QCOMPARE(img.pixelColor(900, y(2)), background);           // no frame above main's self
    QCOMPARE(img.pixelColor(300, y(4)), background);           // above the deepest row
    const QColor a = img.pixelColor(300, y(2)), b = img.pixelColor(700, y(2)), main = img.pixelColor(990, y(1));
    QVERIFY(a != background && b != background && main != background);
    // Frames get warm flamegraph hues (red to yellow).
    for (const QColor &c : {a, b, main})
        QVERIFY2(c.hsvHue() >= 0 && c.hsvHue() < 60, qPrintable(c.name()));
    // Selecting a frame in the table outlines it in the highlight colour.
    m_w->setHighlightedFrame(m_w->tree()->frame(3));
    const QImage outlined = m_w->grab().toImage();
    QCOMPARE(outlined.pixelColor(601, y(2)), m_w->palette().color(QPalette::Highlight));
    QCOMPARE(outlined.pixelColor(300, y(2)), a);
}

void tst_FlameGraphWidget::clickZoomsAndHistoryGoesBackAndForward()
{
    QSignalSpy zoomed(m_w, &FlameGraphWidget::zoomChanged);
    QTest::mouseClick(m_w, Qt::LeftButton, {}, QPoint(700, y(2)));   // b
    QCOMPARE(m_w->zoomRoot(), NodeId(3));
    QCOMPARE(zoomed.count(), 1);
    // b now spans the whole width; its ancestors stay below it, full width.
    QCOMPARE(m_w->nodeAt(QPoint(10, y(2))), int64_t(3));
    QCOMPARE(m_w->nodeAt(QPoint(990, y(2))), int64_t(3));
    QCOMPARE(m_w->nodeAt(QPoint(10, y(1))), int64_t(1));
    QCOMPARE(m_w->nodeRect(2), QRectF());   // a is out of view
    QVERIFY(m_w->canGoBack());
    m_w->back();
    QCOMPARE(m_w->zoomRoot(), NodeId(CallTree::kRoot));
    QVERIFY(m_w->canGoForward());
    m_w->forward();
    QCOMPARE(m_w->zoomRoot(), NodeId(3));
    QTest::mouseClick(m_w, Qt::BackButton, {}, QPoint(10, 10));
    QCOMPARE(m_w->zoomRoot(), NodeId(CallTree::kRoot));
    QTest::mouseClick(m_w, Qt::ForwardButton, {}, QPoint(10, 10));
    QCOMPARE(m_w->zoomRoot(), NodeId(3));
}

void tst_FlameGraphWidget::keyboard()
{
    m_w->zoomTo(2);
    m_w->zoomTo(3);
    QTest::keyClick(m_w, Qt::Key_Backspace);
    QCOMPARE(m_w->zoomRoot(), NodeId(2));
    QTest::keyClick(m_w, Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(m_w->zoomRoot(), NodeId(3));
    QTest::keyClick(m_w, Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(m_w->zoomRoot(), NodeId(2));
    QTest::keyClick(m_w, Qt::Key_Escape);
    QCOMPARE(m_w->zoomRoot(), NodeId(CallTree::kRoot));
    m_w->zoomTo(3);
    QTest::keyClick(m_w, Qt::Key_0);
    QCOMPARE(m_w->zoomRoot(), NodeId(CallTree::kRoot));
}

void tst_FlameGraphWidget::tooltipText()
{
    QCOMPARE(m_w->describe(2), QStringLiteral("a\nTotal: 6 (60.00% of view, 60.00% of profile)\n"
                                              "Self: 6 (60.00% of view, 60.00% of profile)\n"
                                              "Samples: 1 (1 ending here)"));
    m_w->zoomTo(1);
    QCOMPARE(m_w->describe(1), QStringLiteral("main\nTotal: 10 (100% of view, 100% of profile)\n"
                                              "Self: 2 (20.00% of view, 20.00% of profile)\n"
                                              "Samples: 3 (1 ending here)"));
    // Values in their unit.
    FlameGraphWidget w;
    test::FoldedProfile spec;
    spec.sampleTypes = {{"cpu", "nanoseconds"}};
    spec.folded = "main;work 1230000000\nmain 770000000\n";
    w.setTree(CallTreeBuilder::build({test::profileFromFolded(spec)}, 0));
    QCOMPARE(w.describe(2), QStringLiteral("work\nTotal: 1.23 s (61.50% of view, 61.50% of profile)\n"
                                           "Self: 1.23 s (61.50% of view, 61.50% of profile)\n"
                                           "Samples: 1 (1 ending here)"));
}

void tst_FlameGraphWidget::detailsPanelText()
{
    // Main tree: main;a 6, main;b 2, main 2. The panel shows values in units and the samples behind them.
    FrameDetails details;
    const CallTree &t = *m_w->tree();
    details.showNode(&t, m_w->layout()->fullViewport(), 1);
    const QString text = details.text();
    QVERIFY2(text.contains(QStringLiteral("<b>main</b>")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("<i>Total</i></td><td>10 <small>(100% of view, 100% of profile; 10 count)")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("<i>Self</i></td><td>2 <small>(20.00% of view, 20.00% of profile; 2 count)")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("<i>Samples</i></td><td>3 <small>(1 ending here, of 3 in the profile)")),
             qPrintable(text));
    details.showNode(&t, m_w->layout()->fullViewport(), 2);
    QVERIFY2(details.text().contains(QStringLiteral("<i>Samples</i></td><td>1 <small>(1 ending here, of 3 in")),
             qPrintable(details.text()));
}

void tst_FlameGraphWidget::paintsRealProfile()
{
    FlameGraphWidget w;
    auto p = readPprofFile(QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz"));
    w.setTree(CallTreeBuilder::build({p}, 1));
    w.resize(1200, w.sizeHint().height());
    const QImage img = w.grab().toImage();
    // The root spans the bottom row; the widget is as tall as the deepest stack.
    QCOMPARE(w.sizeHint().height(), int(w.tree()->maxDepth() + 1) * w.rowHeight());
    QCOMPARE(w.nodeAt(QPoint(600, w.height() - 2)), int64_t(CallTree::kRoot));
    QVERIFY(img.pixelColor(600, w.height() - 2) != w.palette().color(QPalette::Base));
    // runtime.main is the widest frame above the root: find it at depth 1.
    const int64_t n = w.nodeAt(QPoint(600, w.height() - w.rowHeight() - 2));
    QVERIFY(n > 0);
    QCOMPARE(w.tree()->label(NodeId(n)), std::string("runtime.main"));
}

void tst_FlameGraphWidget::arrowsMoveBetweenFrames()
{
    // root -> main -> {a 6, b 2}: Up goes to the heaviest child, Down to the parent, Left/Right to siblings.
    QTest::keyClick(m_w, Qt::Key_Up);   // no selection yet: selects the zoom root
    QCOMPARE(m_w->selectedNode(), int64_t(0));
    QTest::keyClick(m_w, Qt::Key_Up);
    QCOMPARE(m_w->selectedNode(), int64_t(1));
    QTest::keyClick(m_w, Qt::Key_Up);
    QCOMPARE(m_w->selectedNode(), int64_t(2));   // a, the heavier child
    QTest::keyClick(m_w, Qt::Key_Right);
    QCOMPARE(m_w->selectedNode(), int64_t(3));   // b
    QTest::keyClick(m_w, Qt::Key_Right);
    QCOMPARE(m_w->selectedNode(), int64_t(3));   // no sibling further right
    QTest::keyClick(m_w, Qt::Key_Left);
    QCOMPARE(m_w->selectedNode(), int64_t(2));
    QTest::keyClick(m_w, Qt::Key_Return);
    QCOMPARE(m_w->zoomRoot(), NodeId(2));         // Enter zooms into the selection
    QTest::keyClick(m_w, Qt::Key_Down);
    QCOMPARE(m_w->selectedNode(), int64_t(1));
    // In the icicle, Down goes towards the leaves.
    m_w->setOrientation(FlameGraphWidget::Orientation::Icicle);
    QTest::keyClick(m_w, Qt::Key_Down);
    QCOMPARE(m_w->selectedNode(), int64_t(2));
}

void tst_FlameGraphWidget::icicleHitTests()
{
    m_w->setOrientation(FlameGraphWidget::Orientation::Icicle);
    const int rh = m_w->rowHeight();
    QCOMPARE(m_w->nodeAt(QPoint(5, rh / 2)), int64_t(0));        // root at the top
    QCOMPARE(m_w->nodeAt(QPoint(300, 2 * rh + rh / 2)), int64_t(2));
    QCOMPARE(m_w->nodeAt(QPoint(700, 2 * rh + rh / 2)), int64_t(3));
    QCOMPARE(m_w->nodeRect(3), QRectF(600, 2 * rh, 200, rh));
    const QImage img = m_w->grab().toImage();
    QCOMPARE(img.pixelColor(900, 2 * rh + rh / 2), m_w->palette().color(QPalette::Base));
}

void tst_FlameGraphWidget::viewportZoomKeys()
{
    QTest::keyClick(m_w, Qt::Key_Plus);   // 1.5x in, around the centre: [10/6 .. 10 - 10/6) of 10 units
    const Viewport v = m_w->viewport();
    QVERIFY(qFuzzyCompare(v.span(), 10.0 / 1.5));
    QVERIFY(qFuzzyCompare(v.begin + v.end, 10.0));
    // b now spans (6 - 5/3) .. (8 - 5/3) units of a 6.67-unit view: 650 .. 950 px.
    QCOMPARE(qRound(m_w->nodeRect(3).x()), 650);
    QCOMPARE(qRound(m_w->nodeRect(3).width()), 300);
    QTest::keyClick(m_w, Qt::Key_Minus);
    QVERIFY(qFuzzyCompare(m_w->viewport().span(), 10.0));
    QTest::keyClick(m_w, Qt::Key_Minus);   // never wider than the whole profile
    QVERIFY(qFuzzyCompare(m_w->viewport().span(), 10.0));
    m_w->back();
    m_w->back();
    QVERIFY(qFuzzyCompare(m_w->viewport().span(), 10.0 / 1.5));
}

void tst_FlameGraphWidget::exportsPngAndSvg()
{
    const QImage img = m_w->renderImage(500);
    QCOMPARE(img.width(), 500);
    QCOMPARE(img.height(), 3 * m_w->rowHeight());   // root, main, a/b: every level, whatever the window shows
    const QColor a = img.pixelColor(150, img.height() - 2 * m_w->rowHeight() - m_w->rowHeight() / 2);
    QCOMPARE(a.rgb(), m_w->frameColor(2).rgb());
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("f.svg"));
    QVERIFY(m_w->writeSvg(svg, 500));
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains(">main<"));
}

void tst_FlameGraphWidget::colourSchemes()
{
    m_w->setColorScheme(ColorScheme::SelfHeat);
    // a is all self (6 of 6): the hottest colour; main has 2 of 10 self.
    QCOMPARE(m_w->frameColor(2), heatColor(1.0, false));
    QCOMPARE(m_w->frameColor(1), heatColor(0.2, false));
    m_w->setColorBlindSafe(true);
    QCOMPARE(m_w->frameColor(2), heatColor(1.0, true));
    m_w->setColorScheme(ColorScheme::Package);
    QCOMPARE(m_w->frameColor(2).rgba(), colorForKey(u"a", true).rgba());   // as painted (cached per frame as RGB)
    // Stable: the same package gives the same colour in another tree.
    FlameGraphWidget other;
    other.setTree(CallTreeBuilder::build({test::profileFromFolded("x;a 1\n")}, 0));
    other.setColorBlindSafe(true);
    QCOMPARE(other.frameColor(2), m_w->frameColor(2));
    // Stable across runs too: the colour of a key is fixed by its text alone (hand-computed: FNV-1a of the UTF-16
    // units, finalized, gives 0x9c2e835334bcf12c for "main" and 0xdf82b6b308bd8e50 for "runtime"; hue = h % 50,
    // saturation 150 + (h >> 8) % 70, value 200 + (h >> 16) % 50; Okabe-Ito entry h % 7; cool hue 160 + h % 70).
    QCOMPARE(colorForKey(u"main", false), QColor::fromHsv(6, 177, 206));
    QCOMPARE(colorForKey(u"runtime", false), QColor::fromHsv(38, 158, 221));
    QCOMPARE(colorForKey(u"main", true), QColor(0xD55E00).lighter(135));
    QCOMPARE(colorForKey(u"runtime", true), QColor(0xE69F00).lighter(135));
    QCOMPARE(colorForKey(u"main", false, true), QColor::fromHsv(186, 107, 206));
}

void tst_FlameGraphWidget::searchDimsNonMatches()
{
    std::vector<uint8_t> matches(m_w->source()->frameCount(), 0);
    matches[m_w->tree()->frame(3)] = 1;   // b
    const QImage before = m_w->grab().toImage();
    m_w->setMatches(matches);
    const QImage after = m_w->grab().toImage();
    QCOMPARE(after.pixelColor(700, y(2)), before.pixelColor(700, y(2)));   // b keeps its colour
    const QColor a = after.pixelColor(300, y(2));
    QCOMPARE(a, dimmed(before.pixelColor(300, y(2)), m_w->palette().color(QPalette::Base)));
    QVERIFY(a != before.pixelColor(300, y(2)));
}

void tst_FlameGraphWidget::subPixelFramesStayVisible()
{
    // 5,000 leaves of one unit each under main in a 1000 px view: 5 per pixel. None gets its own rectangle,
    // but their columns are painted, as tall as the leaves' level, across the whole width.
    std::string folded;
    for (int i = 0; i < 5000; ++i)
        folded += "main;f" + std::to_string(10000 + i) + " 1\n";
    FlameGraphWidget w;
    w.setTree(CallTreeBuilder::build({test::profileFromFolded(folded)}, 0));
    w.resize(1000, w.sizeHint().height());
    const QImage img = w.grab().toImage();
    const int row = img.height() - 2 * w.rowHeight() - w.rowHeight() / 2;
    int painted = 0;
    for (int x = 0; x < 1000; ++x)
        painted += img.pixelColor(x, row) != w.palette().color(QPalette::Base);
    QCOMPARE(painted, 1000);
    QCOMPARE(img.pixelColor(500, row).rgb(), w.palette().color(QPalette::Mid).rgb());
}

void tst_FlameGraphWidget::fiveThousandLevelsScroll()
{
    // A chain f1..f4999 of 6 units, and under f3000 a branch g3001;g3002 of 4 units: 5,000 levels with the root.
    // From depth 3001 on, f takes [0, 60%) of the width and g [60%, 100%).
    std::string chain, branch;
    for (int d = 1; d < 5000; ++d) {
        chain += (d > 1 ? ";f" : "f") + std::to_string(d);
        if (d == 3000)
            branch = chain + ";g3001;g3002";
    }
    const auto tree = CallTreeBuilder::build({test::profileFromFolded(chain + " 6\n" + branch + " 4\n")}, 0);
    QCOMPARE(tree->maxDepth(), 4999u);
    auto nodeNamed = [&](const std::string &label) {
        for (NodeId n = 1; n < tree->size(); ++n)
            if (tree->label(n) == label)
                return n;
        return NodeId(0);
    };
    const NodeId leaf = nodeNamed("f4999"), g3002 = nodeNamed("g3002");
    QVERIFY(leaf && g3002);

    FlameView view;
    view.resize(1000, 700);
    view.setTree(tree);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    FlameGraphWidget *g = view.graph();
    auto *scroll = view.findChild<QScrollArea *>();
    QScrollBar *bar = scroll->verticalScrollBar();
    QWidget *port = scroll->viewport();
    const int rh = g->rowHeight();
    // Every row fits: no clamping of the widget's height, no overflow of 5,000 x rh pixels.
    QCOMPARE(g->height(), 5000 * rh);
    QCOMPARE(bar->maximum(), g->height() - port->height());
    QCOMPARE(bar->value(), bar->maximum());   // a flame graph opens on its root, at the bottom
    const int w = g->width();

    // Whether a point of the graph is on screen, and the colour painted there.
    auto inView = [&](QPoint p) { return port->rect().contains(g->mapTo(port, p)); };
    auto pixel = [&](QPoint p) { return view.grab().toImage().pixel(g->mapTo(&view, p)); };
    for (const auto o : {FlameGraphWidget::Orientation::Flame, FlameGraphWidget::Orientation::Icicle}) {
        const bool flame = o == FlameGraphWidget::Orientation::Flame;
        const QString where = flame ? QStringLiteral("flame") : QStringLiteral("icicle");
        g->setOrientation(o);
        g->setSelectedNode(-1);
        auto yOf = [&](int depth) { return flame ? g->height() - (depth + 1) * rh : depth * rh; };

        // The deepest level: the top of a flame graph, the bottom of an icicle.
        bar->setValue(flame ? bar->minimum() : bar->maximum());
        const QPoint deep(w * 6 / 10 - 10, yOf(4999) + rh / 2);
        QVERIFY2(inView(deep), qPrintable(where));
        QCOMPARE(g->nodeAt(deep), int64_t(leaf));
        QCOMPARE(g->nodeAt(QPoint(w * 8 / 10, deep.y())), int64_t(-1));   // nothing above g's end
        const QRectF r = g->nodeRect(leaf);
        QCOMPARE(r.top(), qreal(yOf(4999)));
        QCOMPARE(r.height(), qreal(rh));
        QCOMPARE(qRound(r.width()), qRound(w * 0.6));
        QCOMPARE(pixel(deep), g->frameColor(leaf).rgb());
        QCOMPARE(pixel(QPoint(w * 8 / 10, deep.y())), g->palette().color(QPalette::Base).rgb());
        if (flame)
            QVERIFY(view.grab().save(QStringLiteral("/tmp/qflame-deep.png")));
        else
            QVERIFY(view.grab().save(QStringLiteral("/tmp/qflame-deep-icicle.png")));

        // The branch, deep in the middle.
        const QPoint branchPoint(w * 8 / 10, yOf(3002) + rh / 2);
        scroll->ensureVisible(branchPoint.x(), branchPoint.y());
        QVERIFY(inView(branchPoint));
        QCOMPARE(g->nodeAt(branchPoint), int64_t(g3002));
        QCOMPARE(pixel(branchPoint), g->frameColor(g3002).rgb());

        // The root: the bottom of a flame graph, the top of an icicle.
        bar->setValue(flame ? bar->maximum() : bar->minimum());
        const QPoint root(w / 2, yOf(0) + rh / 2);
        QVERIFY(inView(root));
        QCOMPARE(g->nodeAt(root), int64_t(CallTree::kRoot));
        QCOMPARE(pixel(root), g->frameColor(CallTree::kRoot).rgb());

        // Arrows towards the leaves from the root to depth 4,000 (the heavier f side at the branch): the
        // selection is scrolled into view at every step, and back towards the root.
        const Qt::Key towardsLeaves = flame ? Qt::Key_Up : Qt::Key_Down;
        const Qt::Key towardsRoot = flame ? Qt::Key_Down : Qt::Key_Up;
        g->setFocus();
        QTest::keyClick(g, towardsLeaves);   // selects the root
        QCOMPARE(g->selectedNode(), int64_t(CallTree::kRoot));
        for (int d = 1; d <= 4000; ++d) {
            QTest::keyClick(g, towardsLeaves);
            if (d % 500 == 0 || d == 4000) {
                QCOMPARE(tree->label(NodeId(g->selectedNode())), "f" + std::to_string(d));
                QVERIFY2(inView(g->nodeRect(NodeId(g->selectedNode())).center().toPoint()),
                         qPrintable(where + QString::number(d)));
            }
        }
        const QRectF selected = g->nodeRect(NodeId(g->selectedNode()));
        QCOMPARE(selected.top(), qreal(yOf(4000)));
        // The selection outline is painted, in the text colour, on the frame's left edge.
        QCOMPARE(pixel(QPoint(int(selected.left()) + 1, int(selected.center().y()))),
                 g->palette().color(QPalette::Text).rgb());
        for (int i = 0; i < 10; ++i)
            QTest::keyClick(g, towardsRoot);
        QCOMPARE(tree->label(NodeId(g->selectedNode())), std::string("f3990"));
        QVERIFY(inView(g->nodeRect(NodeId(g->selectedNode())).center().toPoint()));
        // A resize that changes the scroll range keeps it in view: navigating has unpinned the root.
        view.resize(1000, 600);
        QCoreApplication::processEvents();
        QVERIFY2(inView(g->nodeRect(NodeId(g->selectedNode())).center().toPoint()), qPrintable(where));
        view.resize(1000, 700);
        QCoreApplication::processEvents();
    }
    // Turning the graph over keeps the same levels in view: f3990 is still on screen in the flame graph.
    g->setOrientation(FlameGraphWidget::Orientation::Flame);
    QVERIFY(inView(g->nodeRect(NodeId(g->selectedNode())).center().toPoint()));
}

QTEST_MAIN(tst_FlameGraphWidget)
#include "tst_flamegraphwidget.moc"
