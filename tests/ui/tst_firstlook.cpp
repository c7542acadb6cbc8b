// The window's first look at a large profile (tree/StagedTree.h, ProfilePane): the flamegraph is painted from the
// first look, then the whole tree replaces it in the same state, with the same pixels at the initial zoom; what
// needs the whole tree (top table, search, exports, zooming) waits for it.
#include "document/DocumentPane.h"
#include "controls/SearchBar.h"
#include "flame/FlameGraphWidget.h"
#include "layout/FlameLayout.h"
#include "LoadJob.h"
#include "tree/StagedTree.h"
#include "SharedCorpus.h"

#include <QAbstractItemModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace qflame;

namespace {

QString largest()
{
    return qflame::test::sharedPath(QStringLiteral("corpus/gen__gotypes-stdlib.allocs-r64.pb.gz"));
}

std::vector<std::string> labelPath(const CallTree &tree, NodeId n)
{
    std::vector<std::string> labels;
    for (NodeId p : tree.pathTo(n))
        labels.push_back(tree.label(p));
    return labels;
}

// The widest child of n.
NodeId widestChild(const CallTree &tree, NodeId n)
{
    NodeId best = tree.firstChild(n);
    for (NodeId c = best; c < tree.firstChild(n) + tree.childCount(n); ++c)
        if (tree.total(c) > tree.total(best))
            best = c;
    return best;
}

// Opens the largest profile in a shown pane and waits for its first look, the whole tree not yet there.
void openToFirstLook(ProfilePane &pane, QSignalSpy &loaded)
{
    pane.resize(1400, 900);
    pane.show();
    pane.open({largest()});
    QTRY_VERIFY_WITH_TIMEOUT(pane.flameGraph()->isProvisional() || !loaded.isEmpty(), 120000);
    QVERIFY2(loaded.isEmpty(), "the whole tree came before its first look was shown");
}

// A small profile with a first look: main;rare (1 of 1,000,001) is under any cut and hides its child.
QString writeSkewedProfile(const QTemporaryDir &dir)
{
    const QString path = dir.filePath(QStringLiteral("skewed.folded"));
    std::ofstream(path.toStdString()) << "main;hot;work 1000000\nmain;rare;deeper 1\n";
    return path;
}

}   // namespace

class TestFirstLook : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { FirstLookShown::setLongestWait(std::chrono::milliseconds(100)); }

    // The job builds the whole tree once the pane has painted its first look (LoadJob.h, FirstLookShown): with
    // no limit on that wait, the whole tree comes, and after a paint of the first look.
    void theWholeTreeComesAfterTheFirstLooksPaint()
    {
        FirstLookShown::setLongestWait(std::chrono::hours(1));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ProfilePane pane;
        pane.resize(800, 500);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QSignalSpy loaded(&pane, &DocumentPane::loadFinished);
        int paintedAtLoad = -1;
        QSignalSpy painted(pane.flameGraph(), &FlameGraphWidget::painted);
        connect(&pane, &DocumentPane::loadFinished, this, [&] { paintedAtLoad = int(painted.count()); });
        pane.open({writeSkewedProfile(dir)});
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        QVERIFY(loaded.at(0).at(0).toBool());
        QVERIFY(paintedAtLoad >= 1);
        QVERIFY(pane.flameGraph()->tree()->isComplete());
        QCOMPARE(pane.flameGraph()->tree()->size(), size_t(6));
    }

    // A pane not on the screen paints nothing: it lets the job go on at once.
    void aHiddenPaneDoesNotHoldTheJobUp()
    {
        FirstLookShown::setLongestWait(std::chrono::hours(1));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        ProfilePane pane;
        QSignalSpy loaded(&pane, &DocumentPane::loadFinished);
        pane.open({writeSkewedProfile(dir)});
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        QVERIFY(loaded.at(0).at(0).toBool());
        QVERIFY(pane.flameGraph()->tree()->isComplete());
    }

    void samePixelsAndNothingElseMeanwhile()
    {
        QFLAME_SKIP_WITHOUT_SHARED(largest());
        ProfilePane pane;
        QSignalSpy loaded(&pane, &DocumentPane::loadFinished);
        openToFirstLook(pane, loaded);
        if (QTest::currentTestFailed())
            return;
        FlameGraphWidget *g = pane.flameGraph();
        const CallTree *look = g->tree();
        QVERIFY(look && !look->isComplete());
        const size_t lookSize = look->size();   // the first look is freed once replaced
        QVERIFY(pane.isLoading());
        // Nothing computed from the first look outside the flamegraph.
        QVERIFY(!pane.view().tree);
        QVERIFY(!pane.view().flat);
        QCOMPARE(pane.topTable()->model()->rowCount(), 0);
        pane.searchBar()->setPattern(QStringLiteral("bufio"));
        QCOMPARE(pane.searchBar()->resultText(), QStringLiteral("searching once the whole tree is built…"));
        QVERIFY(g->matches().empty());
        const QImage first = g->grab().toImage();

        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 120000);
        QVERIFY(loaded.at(0).at(0).toBool());
        QVERIFY(!g->isProvisional());
        QVERIFY(g->tree()->isComplete());
        QCOMPARE(g->tree(), pane.view().tree.get());
        QVERIFY(g->tree()->size() > lookSize);
        QVERIFY(pane.searchBar()->resultText().contains(QLatin1String(" function(s), matched ")));
        g->setMatches({});   // the search's dimming off again: the first look was painted without it
        const QImage whole = g->grab().toImage();
        QCOMPARE(whole.size(), first.size());
        QVERIFY(whole == first);
    }

    // At the window's cut for a desktop up to 2048 pixels wide (app/main.cpp): still the whole tree's pixels.
    void samePixelsAtTheWindowsCut()
    {
        StagedTreeBuild::setViewCullDivisor(StagedTreeBuild::cullDivisorForWidth(1400));
        samePixelsAndNothingElseMeanwhile();
        StagedTreeBuild::setViewCullDivisor(StagedTreeBuild::kCullDivisor);
    }

    // Zooming asked for during the first look is done on the whole tree when it comes; the selection follows.
    void zoomWaitsForTheWholeTree()
    {
        QFLAME_SKIP_WITHOUT_SHARED(largest());
        ProfilePane pane;
        QSignalSpy loaded(&pane, &DocumentPane::loadFinished);
        openToFirstLook(pane, loaded);
        if (QTest::currentTestFailed())
            return;
        FlameGraphWidget *g = pane.flameGraph();
        const CallTree &look = *g->tree();
        const NodeId zoom = widestChild(look, widestChild(look, CallTree::kRoot));
        const NodeId selected = widestChild(look, zoom);
        const auto zoomPath = labelPath(look, zoom), selectedPath = labelPath(look, selected);
        g->setSelectedNode(selected);
        g->zoomTo(zoom);
        QCOMPARE(g->zoomRoot(), CallTree::kRoot);   // waits
        QCOMPARE(g->viewport().begin, 0.0);
        QVERIFY(!g->canGoBack());

        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 120000);
        const CallTree &whole = *g->tree();
        QVERIFY(whole.isComplete());
        QCOMPARE(labelPath(whole, g->zoomRoot()), zoomPath);
        QCOMPARE(labelPath(whole, NodeId(g->selectedNode())), selectedPath);
        const Viewport v = g->layout()->viewportOf(g->zoomRoot());
        QCOMPARE(g->viewport().begin, v.begin);
        QCOMPARE(g->viewport().end, v.end);
        QVERIFY(g->canGoBack());
        g->back();
        QCOMPARE(g->zoomRoot(), CallTree::kRoot);
    }
};

QTEST_MAIN(TestFirstLook)
#include "tst_firstlook.moc"
