// The start page (issue 19): what the window shows while no tab is open. It lists the recent files and comparisons
// and the saved connections with their exact texts, opens what is clicked, takes dropped files, hides when a tab
// opens and shows again (its lists brought up to date) when the last one closes, also when a file fails to open.
#include "MainWindow.h"
#include "compare/DiffView.h"
#include "document/DocumentPane.h"
#include "document/StartPage.h"
#include "explorer/ConnectionDialog.h"
#include "explorer/ConnectionStore.h"
#include "explorer/QrynExplorer.h"
#include "WaitLoad.h"

#include <QApplication>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace qflame;
using qflame::test::waitLoad;

namespace {

QString data(const char *name)
{
    return QFileInfo(QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name)).absoluteFilePath();
}

QStringList texts(const QListWidget *list)
{
    QStringList out;
    for (int i = 0; i < list->count(); ++i)
        out << list->item(i)->text();
    return out;
}

void click(QListWidget *list, int row)
{
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(row)).center());
}

}   // namespace

class tst_StartPage : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void showsTheListsWithoutATab();
    void emptyLists();
    void recentFileOpensAndLastCloseShowsItAgain();
    void recentComparisonOpens();
    void failedFileShowsItAgain();
    void dropCompares();
    void savedConnectionOpensTheExplorer();
    void connectButtonOpensTheExplorer();
};

void tst_StartPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("qflame-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_startpage"));
}

void tst_StartPage::init()
{
    QSettings().clear();
    QSettings().setValue(QStringLiteral("recentFiles"),
                         QStringList{data("gen__baseline.cpu.pb.gz") + QLatin1Char('\n') + data("gen__optimized.cpu.pb.gz"),
                                     data("pprof__sample.cpu"), QStringLiteral("http://127.0.0.1:9/debug/pprof/heap")});
    qryn::ConnectionSettings prod;
    prod.url = QUrl(QStringLiteral("http://127.0.0.1:9"));   // the discard port: nothing answers there
    qryn::ConnectionStore store;
    store.setKeychainEnabled(false);
    store.save(QStringLiteral("prod"), prod);
    store.save(QStringLiteral("ci"), prod);
}

void tst_StartPage::showsTheListsWithoutATab()
{
    MainWindow w;
    w.show();
    StartPage *start = w.startPage();
    QVERIFY(start->isVisible());
    QVERIFY(!w.tabs()->isVisible());
    QCOMPARE(texts(start->recentList()),
             (QStringList{QStringLiteral("gen__baseline.cpu.pb.gz → gen__optimized.cpu.pb.gz"),
                          QStringLiteral("pprof__sample.cpu"), QStringLiteral("127.0.0.1:9/debug/pprof/heap")}));
    QCOMPARE(start->recentList()->item(0)->toolTip(),
             data("gen__baseline.cpu.pb.gz") + QStringLiteral(" → ") + data("gen__optimized.cpu.pb.gz"));
    QCOMPARE(texts(start->connectionList()),
             (QStringList{QStringLiteral("ci — http://127.0.0.1:9"), QStringLiteral("prod — http://127.0.0.1:9")}));
    QCOMPARE(start->openButton()->text(), QStringLiteral("Open..."));
    QCOMPARE(start->compareButton()->text(), QStringLiteral("Compare..."));
    QCOMPARE(start->connectButton()->text(), QStringLiteral("Connect to qryn..."));
    QVERIFY(start->acceptDrops());
    if (const QString dir = qEnvironmentVariable("QFLAME_SCREENSHOTS_DIR"); !dir.isEmpty()) {
        w.resize(1200, 760);
        QApplication::processEvents();
        QVERIFY(w.grab().save(dir + QStringLiteral("/start-page-test.png")));
    }
}

void tst_StartPage::emptyLists()
{
    QSettings().clear();
    MainWindow w;
    w.show();
    QCOMPARE(w.startPage()->recentList()->count(), 0);
    QVERIFY(!w.startPage()->recentList()->isVisible());
    QCOMPARE(w.startPage()->connectionList()->count(), 0);
    const QList<QLabel *> labels = w.startPage()->findChildren<QLabel *>();
    QStringList visible;
    for (QLabel *l : labels)
        if (l->isVisible())
            visible << l->text();
    QVERIFY(visible.contains(QStringLiteral("No recent files yet.")));
    QVERIFY(visible.contains(QStringLiteral("No saved connections: Connect to qryn... saves one.")));
}

void tst_StartPage::recentFileOpensAndLastCloseShowsItAgain()
{
    MainWindow w;
    w.show();
    click(w.startPage()->recentList(), 1);
    QVERIFY(waitLoad(w, true));
    QCOMPARE(w.tabs()->count(), 1);
    QVERIFY(w.currentProfile());
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("pprof__sample.cpu"));
    QVERIFY(!w.startPage()->isVisible());
    QVERIFY(w.tabs()->isVisible());
    Q_EMIT w.tabs()->tabCloseRequested(0);
    QCOMPARE(w.tabs()->count(), 0);
    QVERIFY(w.startPage()->isVisible());
    // The file opened last is now first.
    QCOMPARE(texts(w.startPage()->recentList()),
             (QStringList{QStringLiteral("pprof__sample.cpu"),
                          QStringLiteral("gen__baseline.cpu.pb.gz → gen__optimized.cpu.pb.gz"),
                          QStringLiteral("127.0.0.1:9/debug/pprof/heap")}));
}

void tst_StartPage::recentComparisonOpens()
{
    MainWindow w;
    w.show();
    click(w.startPage()->recentList(), 0);
    QVERIFY(waitLoad(w, true));
    QVERIFY(w.currentDiff());
    QCOMPARE(w.currentDiff()->diffView()->diff()->beforeTotalRaw(DiffTree::kRoot), int64_t(9760000000));
    QVERIFY(!w.startPage()->isVisible());
}

// A file that fails closes its tab; with no other tab the start page is back.
void tst_StartPage::failedFileShowsItAgain()
{
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.pb"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("this is not a profile");
    f.close();
    MainWindow w;
    w.show();
    w.openFiles({bad});
    QVERIFY(waitLoad(w, false));
    QCOMPARE(w.tabs()->count(), 0);
    QVERIFY(w.startPage()->isVisible());
    QCOMPARE(w.startPage()->recentList()->item(0)->text(), QStringLiteral("bad.pb"));
}

// Two files dropped on the start page compare, the first the baseline, as a drop on the window does.
void tst_StartPage::dropCompares()
{
    MainWindow w;
    w.show();
    auto *mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(data("gen__baseline.cpu.pb.gz")), QUrl::fromLocalFile(data("gen__optimized.cpu.pb.gz"))});
    StartPage *start = w.startPage();
    const QPoint at = start->dropTarget()->geometry().center();
    QDragEnterEvent enter(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(start, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(at, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(start, &drop);
    QVERIFY(drop.isAccepted());
    QVERIFY(waitLoad(w, true));
    QVERIFY(w.currentDiff());
    QCOMPARE(w.currentDiff()->diffView()->diff()->afterTotalRaw(DiffTree::kRoot), int64_t(9660000000));
    delete mime;
}

// A saved connection opens an explorer tab on it (nothing answers there: the tab says so and stays).
void tst_StartPage::savedConnectionOpensTheExplorer()
{
    MainWindow w;
    w.show();
    click(w.startPage()->connectionList(), 1);
    QCOMPARE(w.tabs()->count(), 1);
    auto *explorer = qobject_cast<qryn::QrynExplorer *>(w.tabs()->widget(0));
    QVERIFY(explorer);
    QSignalSpy finished(explorer, &qryn::QrynExplorer::requestFinished);
    for (int i = 0; i < 100 && explorer->connectionName().isEmpty(); ++i)
        QTest::qWait(50);   // the keychain answers first
    QCOMPARE(explorer->connectionName(), QStringLiteral("prod"));
    QCOMPARE(explorer->client()->settings().url, QUrl(QStringLiteral("http://127.0.0.1:9")));
    QVERIFY(!w.startPage()->isVisible());
}

void tst_StartPage::connectButtonOpensTheExplorer()
{
    MainWindow w;
    w.show();
    bool dialogSeen = false;
    QTimer::singleShot(100, this, [&] {
        if (auto *d = qobject_cast<qryn::ConnectionDialog *>(QApplication::activeModalWidget())) {
            dialogSeen = true;
            d->reject();
        }
    });
    w.startPage()->connectButton()->click();
    QVERIFY(dialogSeen);
    QCOMPARE(w.tabs()->count(), 1);
    QVERIFY(qobject_cast<qryn::QrynExplorer *>(w.tabs()->widget(0)));
}

QTEST_MAIN(tst_StartPage)
#include "tst_startpage.moc"
