// The flamegraph's pixels: the band renderer against QPainter's own fills, and the widget painting straight into
// the window that holds it (at its offset, only inside the update, and what reaches the window's backing store).
#include "flame/FlameGraphWidget.h"
#include "flame/FlamePainter.h"
#include "ProfileFactory.h"
#include "tree/CallTreeBuilder.h"

#include <QImage>
#include <QPainter>
#include <QScreen>
#include <QTest>

#include <numeric>

using namespace qflame;

class tst_FlamePainter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bandFillsEqualQPainterFills_data();
    void bandFillsEqualQPainterFills();
    void paintsStraightIntoTheWindow_data();
    void paintsStraightIntoTheWindow();
    void windowShowsHoverAfterPartialRepaints();
};

// Frames of every width: sub-pixel runs merged into columns of several levels, 1-3 px frames, wide ones.
static std::shared_ptr<const CallTree> framesOfEveryWidth()
{
    std::string folded;
    for (int i = 0; i < 3000; ++i)
        folded += "main;m" + std::to_string(i % 7) + ";f" + std::to_string(i) + (i % 3 ? ";g 1\n" : " 1\n");
    folded += "main;wide;w1;w2 900\nmain;mid;x 40\nmain;mid;y 9\nmain 50\n";
    return CallTreeBuilder::build({test::profileFromFolded(folded)}, 0);
}

// Groups of about ten pixels whose sub-pixel children merge into columns at depth 2 alone (even groups) or at
// depths 4-5 (odd groups): where two groups meet, one pixel column holds two merged columns whose depths do
// not touch, which the band renderer cannot keep as one interval.
static std::shared_ptr<const CallTree> mergedColumnsAtDisjointDepths()
{
    std::string folded;
    for (int k = 0; k < 100; ++k)
        for (int j = 0; j < 30; ++j) {
            const std::string g = std::to_string(k), leaf = std::to_string(j);
            const std::string odd = "main;g" + g + ";h" + g + ";i" + g + ";y" + g + "_" + leaf + ";z" + g + "_" + leaf;
            folded += (k % 2 ? odd : "main;g" + g + ";x" + g + "_" + leaf) + " 1\n";
        }
    return CallTreeBuilder::build({test::profileFromFolded(folded)}, 0);
}

void tst_FlamePainter::bandFillsEqualQPainterFills_data()
{
    QTest::addColumn<bool>("icicle");
    QTest::addColumn<bool>("search");
    QTest::addColumn<int>("dy");   // the painter's translation, as of a scrolled view
    QTest::addColumn<bool>("stairs");
    QTest::addColumn<QSize>("size");   // empty: 997 pixels wide, as tall as the tree
    QTest::newRow("flame") << false << false << 0 << false << QSize();
    QTest::newRow("icicle") << true << false << 0 << false << QSize();
    QTest::newRow("flame, search, scrolled") << false << true << -37 << false << QSize();
    QTest::newRow("icicle, search, scrolled") << true << true << -37 << false << QSize();
    QTest::newRow("flame, stairs") << false << false << 0 << true << QSize();
    QTest::newRow("icicle, stairs") << true << false << 0 << true << QSize();
    // Over 8 MB of pixels: the rows are written with streaming stores, half of them by a second thread.
    QTest::newRow("flame, 2701x1000 (streamed)") << false << false << 0 << false << QSize(2701, 1000);
    QTest::newRow("icicle, 2701x1000, scrolled (streamed)") << true << true << -37 << true << QSize(2701, 1000);
}

void tst_FlamePainter::bandFillsEqualQPainterFills()
{
    // Frames of every width (sub-pixel runs merged into columns of several levels, 1-3 px frames, wide ones)
    // painted by the band renderer and, with a clip that turns it off, by QPainter::fillRect: the same pixels.
    QFETCH(bool, icicle);
    QFETCH(bool, search);
    QFETCH(int, dy);
    QFETCH(bool, stairs);
    QFETCH(QSize, size);
    const CallTreeSource source(stairs ? mergedColumnsAtDisjointDepths() : framesOfEveryWidth());
    FlamePainter fp(source);
    fp.view = source.layout().fullViewport();
    fp.icicle = icicle;
    fp.rowHeight = 17;
    fp.options.palette = FlameGraphWidget().palette();
    std::vector<uint8_t> matches(source.frameCount(), 0);
    if (search) {
        for (FrameId f = 0; f < matches.size(); f += 2)
            matches[f] = 1;
        fp.matches = &matches;
    }
    LabelCache labels;
    labels.clear(source.frameCount());
    fp.labelCache = &labels;
    const int w = size.isEmpty() ? 997 : size.width(), h = size.isEmpty() ? fp.height() : size.height();
    const QRect area(0, -dy, w, h + dy);
    auto paint = [&](bool clipped) {
        QImage image(w, h + dy, QImage::Format_RGB32);
        image.fill(Qt::magenta);
        QPainter p(&image);
        p.translate(0, dy);
        if (clipped)
            p.setClipRect(area);
        fp.paint(p, area, w, h);
        return image;
    };
    const QImage bands = paint(false), qpainter = paint(true);
    QCOMPARE(bands.size(), qpainter.size());
    int differ = 0;
    for (int y = 0; y < bands.height(); ++y)
        for (int x = 0; x < bands.width(); ++x)
            differ += bands.pixel(x, y) != qpainter.pixel(x, y);
    QCOMPARE(differ, 0);
    QVERIFY(!bands.isNull() && bands.pixel(0, 0) != qRgb(255, 0, 255));   // every pixel painted
}

void tst_FlamePainter::paintsStraightIntoTheWindow_data()
{
    QTest::addColumn<QRegion>("update");   // in the widget's coordinates; empty: all of it
    QTest::newRow("whole widget") << QRegion();
    QTest::newRow("one frame's area") << QRegion(100, 30, 57, 21);
    QTest::newRow("two areas far apart (a hover moving)") << (QRegion(3, 2, 40, 18) + QRegion(700, 55, 90, 30));
}

void tst_FlamePainter::paintsStraightIntoTheWindow()
{
    // The widget writes its frames into the pixels of the window it sits in (no cache image of its own): at its
    // offset in the window, only inside the part being updated, and the same pixels as QPainter's path.
    QFETCH(QRegion, update);
    QWidget window;
    auto *w = new FlameGraphWidget(&window);
    w->setTree(framesOfEveryWidth());
    const QPoint offset(13, 27);
    w->setGeometry(QRect(offset, QSize(997, w->sizeHint().height())));
    window.resize(1040, w->height() + 60);
    const QRegion widgetArea = update.isEmpty() ? QRegion(w->rect()) : update.intersected(w->rect());

    QImage window32(window.size(), QImage::Format_RGB32);
    window32.fill(Qt::magenta);
    w->render(&window32, offset, widgetArea, QWidget::RenderFlags());

    FlamePainter fp(*w->source());
    fp.view = w->viewport();
    fp.rowHeight = w->rowHeight();
    fp.font = w->font();
    fp.options = PaintOptions{w->colorScheme(), w->colorBlindSafe(), w->palette()};
    QImage reference(w->size(), QImage::Format_RGB32);
    {
        QPainter p(&reference);
        p.setClipRect(w->rect());   // a clip turns the direct writes off: QPainter's own fills and text
        fp.paint(p, w->rect(), w->width(), w->height());
    }
    int outside = 0, differ = 0, inside = 0;
    for (int y = 0; y < window32.height(); ++y) {
        for (int x = 0; x < window32.width(); ++x) {
            // render() puts the top-left of the region at the offset
            const QPoint local = QPoint(x, y) - offset + widgetArea.boundingRect().topLeft();
            if (!widgetArea.contains(local)) {
                outside += window32.pixel(x, y) != qRgb(255, 0, 255);
                continue;
            }
            ++inside;
            differ += window32.pixel(x, y) != reference.pixel(local);
        }
    }
    QCOMPARE(outside, 0);   // nothing written past the update
    QCOMPARE(differ, 0);
    QCOMPARE(inside, int(std::accumulate(widgetArea.begin(), widgetArea.end(), 0LL,
                                         [](long long n, const QRect &r) { return n + r.width() * r.height(); })));
}

void tst_FlamePainter::windowShowsHoverAfterPartialRepaints()
{
    // What reaches the screen, not a render() of the widget: the window's backing store as the platform holds
    // it, after the paint events Qt sends for an outline that moves from one frame to another (each repaints
    // the two frames whose outline changes, straight into the backing store).
    QWidget window;
    auto *w = new FlameGraphWidget(&window);
    w->setTree(framesOfEveryWidth());
    w->setGeometry(QRect(QPoint(13, 27), QSize(997, w->sizeHint().height())));
    window.resize(1040, w->height() + 60);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto screen = [&] {
        return window.screen()->grabWindow(window.winId()).toImage().convertToFormat(QImage::Format_RGB32);
    };
    auto widgetPixels = [&] { return screen().copy(QRect(w->mapTo(&window, QPoint(0, 0)), w->size())); };
    QTRY_VERIFY(widgetPixels() == w->grab().toImage().convertToFormat(QImage::Format_RGB32));
    const QImage before = widgetPixels();
    // Two frames far apart: the widest leaf ("w2") and a frame of the "mid" subtree.
    NodeId wide = 0, mid = 0;
    for (NodeId n = 1; n < w->tree()->size(); ++n) {
        if (w->tree()->label(n) == "w2")
            wide = n;
        if (w->tree()->label(n) == "x")
            mid = n;
    }
    QVERIFY(wide && mid);
    const QRect wideRect = w->nodeRect(wide).toAlignedRect(), midRect = w->nodeRect(mid).toAlignedRect();
    // The keyboard selection's outline, which moves like the hover's (a test's mouse events do not reach a
    // second top-level window reliably on the offscreen platform).
    w->setSelectedNode(wide);
    QTRY_VERIFY(widgetPixels() != before);
    w->setSelectedNode(mid);
    QTRY_VERIFY(widgetPixels().pixel(wideRect.center().x(), wideRect.top() + 1) ==
                before.pixel(wideRect.center().x(), wideRect.top() + 1));
    const QImage hovered = widgetPixels();
    // What a full paint gives: a label crossing two rectangles of one update was once drawn twice (bold).
    QVERIFY(hovered == w->grab().toImage().convertToFormat(QImage::Format_RGB32));
    int changed = 0;
    for (int y = 0; y < hovered.height(); ++y)
        for (int x = 0; x < hovered.width(); ++x)
            if (hovered.pixel(x, y) != before.pixel(x, y)) {
                ++changed;
                QVERIFY2(midRect.adjusted(-2, -2, 2, 2).contains(QPoint(x, y)),
                         qPrintable(QStringLiteral("pixel %1,%2 changed outside the hovered frame").arg(x).arg(y)));
            }
    QVERIFY(changed > 0);   // the outline
}

QTEST_MAIN(tst_FlamePainter)
#include "tst_flamepainter.moc"
