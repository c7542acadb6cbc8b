// The flamegraph widget offscreen: hit testing and colours at known pixels, zoom, history, keys, tooltip text.
#include "CallTreeBuilder.h"
#include "FlameGraphWidget.h"
#include "ProfileFactory.h"

#include <QApplication>
#include <QImage>
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
    void paintsRealProfile();

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
                                              "Self: 6 (60.00% of view, 60.00% of profile)"));
    m_w->zoomTo(1);
    QCOMPARE(m_w->describe(1), QStringLiteral("main\nTotal: 10 (100% of view, 100% of profile)\n"
                                              "Self: 2 (20.00% of view, 20.00% of profile)"));
    // Values in their unit.
    FlameGraphWidget w;
    test::FoldedProfile spec;
    spec.sampleTypes = {{"cpu", "nanoseconds"}};
    spec.folded = "main;work 1230000000\nmain 770000000\n";
    w.setTree(CallTreeBuilder::build({test::profileFromFolded(spec)}, 0));
    QCOMPARE(w.describe(2), QStringLiteral("work\nTotal: 1.23 s (61.50% of view, 61.50% of profile)\n"
                                           "Self: 1.23 s (61.50% of view, 61.50% of profile)"));
}

void tst_FlameGraphWidget::paintsRealProfile()
{
    FlameGraphWidget w;
    auto p = readProfileFile(QStringLiteral(QFLAME_TEST_DATA "/gen__baseline.cpu.pb.gz"));
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

QTEST_MAIN(tst_FlameGraphWidget)
#include "tst_flamegraphwidget.moc"
