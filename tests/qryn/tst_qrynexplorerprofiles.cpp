// The explorer tab beyond one query (issue 19), offscreen, against the real qryn 3.2.39 of the ctest fixture `qryn`
// (svc-base = gen__baseline.cpu at B, svc-opt = gen__optimized.cpu at O, OBSERVED.md's values): the list of a
// range's individual profiles, one opened, two compared with a noise band; ranges pinned to compare two, or more
// as a rounds tab of the window; the query remembered per connection; and the window's command line
// (`qflame --url ... --type ...`, `--connection NAME`) opening the tab with its query loaded.
// With QFLAME_SCREENSHOTS_DIR set, the explorer with its list of profiles is saved there.
#include "qryn/ExplorerAnswers.h"
#include "CliExplorer.h"
#include "MainWindow.h"
#include "compare/DiffView.h"
#include "diff/DiffTree.h"
#include "document/StartPage.h"
#include "explorer/ConnectionStore.h"
#include "explorer/ProfileListView.h"
#include "explorer/QrynExplorer.h"
#include "explorer/RangeList.h"
#include "qryn/QrynFixtureEnv.h"
#include "roundsview/RoundsPane.h"

#include <QComboBox>
#include <QDateTime>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QAbstractItemModelTester>
#include <QTest>

using namespace qflame;
using namespace qflame::qryn;

namespace {

const QString kCpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
const std::string kNoiseBand = "within noise: |delta| < 2 standard errors (counts: samples/count)";

using Answers = qflame::test::ExplorerAnswers;
using qflame::test::Finished;

QString timeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

}   // namespace

class tst_QrynExplorerProfiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void listsTheProfiles();
    void opensOne();
    void comparesTwo();
    void pinnedRangesCompare();
    void morePinnedOpenARoundsTab();
    void remembersTheQuery();
    void commandLineUrl();
    void commandLineConnection();

private:
    ConnectionSettings fixture() const
    {
        ConnectionSettings s;
        s.url = m_env.url();
        return s;
    }
    void connectTo(QrynExplorer *e, Answers &answers, const QString &name = QStringLiteral("fixture"));

    test::QrynFixtureEnv m_env;
    QTemporaryDir m_tmp;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<ConnectionStore> m_store;
    std::unique_ptr<QrynExplorer> m_explorer;
    std::unique_ptr<Answers> m_answers;
    qint64 m_b = 0, m_o = 0;
};

void tst_QrynExplorerProfiles::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);   // MainWindow's settings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("qflame-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_qrynexplorerprofiles"));
    QSettings().clear();
    m_env = test::readQrynFixture(QStringLiteral(QFLAME_QRYN_FIXTURE));
    if (!m_env.skipReason.isEmpty())
        QSKIP(qPrintable(m_env.skipReason));
    QVERIFY2(m_env.error.isEmpty(), qPrintable(m_env.error));
    m_b = m_env.number(QStringLiteral("SEED_BASE_FROM_S"));
    m_o = m_env.number(QStringLiteral("SEED_OPT_FROM_S"));
    m_settings = std::make_unique<QSettings>(m_tmp.filePath(QStringLiteral("qflame.ini")), QSettings::IniFormat);
    m_store = std::make_unique<ConnectionStore>(m_settings.get());
    m_store->setKeychainEnabled(false);
    m_explorer = std::make_unique<QrynExplorer>(m_store.get());
    m_answers = std::make_unique<Answers>(m_explorer.get());
    m_explorer->resize(1400, 860);
    m_explorer->show();
    connectTo(m_explorer.get(), *m_answers);
}

void tst_QrynExplorerProfiles::connectTo(QrynExplorer *e, Answers &answers, const QString &name)
{
    answers.clear();
    e->setConnection(fixture(), name);
    const Finished f = answers.take(QStringLiteral("types"));
    QVERIFY2(f.ok, qPrintable(f.message));
}

// The last hour holds the two CPU profiles: two rows, each with its second, its series' labels and its total, and
// a caption that says what a row is.
void tst_QrynExplorerProfiles::listsTheProfiles()
{
    m_explorer->setProfileType(kCpu);
    m_explorer->setSelector(QString());
    m_explorer->setPreset(QrynExplorer::Hour1);
    m_answers->clear();
    // The list's model under Qt's model checks while the answer fills it.
    QAbstractItemModelTester tester(m_explorer->profileList()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_explorer->profilesButton()->click();
    const Finished f = m_answers->take(QStringLiteral("profiles"));
    QVERIFY2(f.ok, qPrintable(f.message));
    QVERIFY(m_explorer->profileList()->isVisible());
    const ProfileListModel *model = m_explorer->profileList()->model();
    QCOMPARE(model->rowCount(), 2);
    auto cell = [model](int row, int column, int role = Qt::DisplayRole) {
        return model->data(model->index(row, column), role).toString();
    };
    QCOMPARE(cell(0, ProfileListModel::Time), timeText(m_b * 1000));
    QCOMPARE(cell(0, ProfileListModel::Labels), QStringLiteral("env=\"ci\", service_name=\"svc-base\", version=\"base\""));
    QCOMPARE(cell(0, ProfileListModel::Total), QStringLiteral("9.76 s"));
    QCOMPARE(cell(0, ProfileListModel::Total, Qt::ToolTipRole), QStringLiteral("9760000000 nanoseconds"));
    QCOMPARE(cell(1, ProfileListModel::Time), timeText(m_o * 1000));
    QCOMPARE(cell(1, ProfileListModel::Labels), QStringLiteral("env=\"ci\", service_name=\"svc-opt\", version=\"pgo\""));
    QCOMPARE(cell(1, ProfileListModel::Total), QStringLiteral("9.66 s"));
    const QString caption = m_explorer->profileList()->caption();
    QVERIFY2(caption.startsWith(QStringLiteral("2 row(s) between ")), qPrintable(caption));
    QVERIFY2(caption.endsWith(QStringLiteral(". A row is what the server holds for one series in one second "
                                             "(SelectSeries at its finest step, 1 s; qryn lists no raw profiles): one "
                                             "profile when the series sends one every few seconds, their sum if two "
                                             "share a second.")),
             qPrintable(caption));
    QVERIFY(!m_explorer->profileList()->openButton()->isEnabled());
}

void tst_QrynExplorerProfiles::opensOne()
{
    ProfileListView *list = m_explorer->profileList();
    list->selectRows({0});
    QVERIFY(list->openButton()->isEnabled());
    QVERIFY(!list->compareButton()->isEnabled());
    m_answers->clear();
    list->openButton()->click();
    const Finished f = m_answers->take(QStringLiteral("profile"));
    QVERIFY2(f.ok, qPrintable(f.message));
    QCOMPARE(f.message, QString());   // the second's merge is exactly the row
    QVERIFY(!m_explorer->showingDiff());
    QCOMPARE(m_explorer->profilePane()->view().tree->total(CallTree::kRoot), int64_t(9760000000));
    QCOMPARE(m_explorer->merged().graph.names.size(), size_t(176));
    if (const QString dir = qEnvironmentVariable("QFLAME_SCREENSHOTS_DIR"); !dir.isEmpty())
        QVERIFY(m_explorer->grab().save(dir + QStringLiteral("/qryn-profiles.png")));
}

// Two rows compared: the earlier the baseline, absolute values (both are one profile), and a noise band.
void tst_QrynExplorerProfiles::comparesTwo()
{
    ProfileListView *list = m_explorer->profileList();
    list->selectRows({1, 0});
    QVERIFY(list->compareButton()->isEnabled());
    m_answers->clear();
    list->compareButton()->click();
    const Finished f = m_answers->take(QStringLiteral("compare"));
    QVERIFY2(f.ok, qPrintable(f.message));
    QVERIFY(m_explorer->showingDiff());
    const DiffTree *d = m_explorer->diffView()->diff();
    QCOMPARE(d->beforeTotalRaw(DiffTree::kRoot), int64_t(9760000000));
    QCOMPARE(d->afterTotalRaw(DiffTree::kRoot), int64_t(9660000000));
    QCOMPARE(d->options().normalization, Normalization::None);
    QCOMPARE(d->noiseDescription(), kNoiseBand);
    m_explorer->profilesButton()->click();   // hidden again
    QVERIFY(!m_explorer->profileList()->isVisible());
}

// Two pinned ranges are what Compare compares (per second: their windows differ); a selector pins with its text.
void tst_QrynExplorerProfiles::pinnedRangesCompare()
{
    RangeList *ranges = m_explorer->rangeList();
    ranges->clear();
    m_explorer->setSelector(QStringLiteral("{}"));
    const TimeRange base{(m_b - 60) * 1000, (m_b + 60) * 1000}, opt{(m_o - 60) * 1000, (m_o + 60) * 1000};
    m_explorer->setCustomRange(base);
    m_explorer->addRange();
    m_explorer->setCustomRange(opt);
    m_explorer->addRange();
    QCOMPARE(ranges->count(), 2);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QCOMPARE(QString::fromStdString(ranges->specs()[0].name), rangeName(base, now));
    QCOMPARE(ranges->specs()[1].selector, QStringLiteral("{}"));
    QCOMPARE(ranges->specs()[1].range.startMs, opt.startMs);
    QCOMPARE(ranges->list()->item(0)->text(), QStringLiteral("1. ") + rangeName(base, now));
    m_answers->clear();
    m_explorer->compare();
    const Finished f = m_answers->take(QStringLiteral("compare"));
    QVERIFY2(f.ok, qPrintable(f.message));
    const DiffTree *d = m_explorer->diffView()->diff();
    QCOMPARE(d->beforeTotalRaw(DiffTree::kRoot), int64_t(9760000000));
    QCOMPARE(d->afterTotalRaw(DiffTree::kRoot), int64_t(9660000000));
    QCOMPARE(d->options().normalization, Normalization::PerSecond);
    QCOMPARE(d->beforeTotal(DiffTree::kRoot), 9760000000.0 / 120);
    QCOMPARE(d->noiseDescription(), kNoiseBand);
    // A selector pins itself over the window; a name taken twice is numbered.
    m_explorer->setComparisonSelector(QStringLiteral("{version=\"pgo\"}"));
    m_explorer->addSelector();
    m_explorer->addSelector();
    QCOMPARE(ranges->specs()[2].name, std::string("{version=\"pgo\"}"));
    QCOMPARE(ranges->specs()[3].name, std::string("{version=\"pgo\"} #2"));
    QCOMPARE(ranges->specs()[2].range.endMs, opt.endMs);
    ranges->removeAt(3);
    ranges->removeAt(2);
    m_explorer->setComparisonSelector(QString());
}

// Three pinned: Compare asks for rounds, and in the window it is a rounds tab of the three windows.
void tst_QrynExplorerProfiles::morePinnedOpenARoundsTab()
{
    MainWindow w;
    w.resize(1400, 860);
    w.show();
    QrynExplorer *e = w.openExplorer();
    Answers answers(e);
    connectTo(e, answers);
    e->setProfileType(kCpu);
    e->setSelector(QStringLiteral("{}"));
    const TimeRange windows[] = {{(m_b - 60) * 1000, (m_b + 60) * 1000},
                                 {(m_o - 60) * 1000, (m_o + 60) * 1000},
                                 {(m_b - 60) * 1000, (m_o + 60) * 1000}};
    for (const TimeRange &r : windows) {
        e->setCustomRange(r);
        e->addRange();
    }
    QCOMPARE(e->rangeList()->count(), 3);
    if (const QString dir = qEnvironmentVariable("QFLAME_SCREENSHOTS_DIR"); !dir.isEmpty()) {
        QTest::qWait(50);   // the pinned row's layout
        QVERIFY(w.grab().save(dir + QStringLiteral("/qryn-pinned.png")));
    }
    std::optional<ServerRoundsQuery> asked;
    connect(e, &QrynExplorer::roundsRequested, this,
            [&](const ConnectionSettings &, const ServerRoundsQuery &q) { asked = q; });
    answers.clear();
    e->compare();
    QVERIFY(answers.take(QStringLiteral("rounds")).ok);
    QVERIFY(asked);
    QCOMPARE(asked->rounds.size(), size_t(3));
    QCOMPARE(asked->rounds[2].range.endMs, windows[2].endMs);
    QCOMPARE(w.tabs()->count(), 2);
    auto *rounds = qobject_cast<RoundsPane *>(w.tabs()->widget(1));
    QVERIFY(rounds);
    QCOMPARE(w.tabs()->currentIndex(), 1);
    QSignalSpy done(rounds, &DocumentPane::loadFinished);
    QVERIFY(done.wait(60000));
    QVERIFY2(done.front()[0].toBool(), qPrintable(done.front()[1].toString()));
    const RoundsResult &r = *rounds->loaded().result;
    QCOMPARE(r.rounds.size(), size_t(3));
    QCOMPARE(r.rounds[0].estimate.total, int64_t(9760000000));
    QCOMPARE(r.rounds[1].estimate.total, int64_t(9660000000));
    QCOMPARE(r.rounds[2].estimate.total, int64_t(19420000000));
    QVERIFY(rounds->fromServer());
}

// A successful load is remembered for its connection; connecting again restores and loads it.
void tst_QrynExplorerProfiles::remembersTheQuery()
{
    m_explorer->rangeList()->clear();
    m_explorer->setSelector(QStringLiteral("{service_name=\"svc-opt\"}"));
    m_explorer->setComparisonSelector(QStringLiteral("{version=\"base\"}"));
    m_explorer->setGroupBy(QStringLiteral("env"));
    m_explorer->setPreset(QrynExplorer::Hours6);
    m_answers->clear();
    m_explorer->load();
    const Finished f = m_answers->take(QStringLiteral("flamegraph"));
    QVERIFY2(f.ok, qPrintable(f.message));
    const SavedQuery want{kCpu, QStringLiteral("{service_name=\"svc-opt\"}"), QStringLiteral("{version=\"base\"}"),
                          QStringLiteral("env"), QrynExplorer::Hours6, 0, 0};
    QCOMPARE(m_store->lastQuery(QStringLiteral("fixture")), std::optional<SavedQuery>(want));
    QCOMPARE(m_store->lastQuery(QStringLiteral("other")), std::nullopt);

    QrynExplorer again(m_store.get());
    Answers answers(&again);
    answers.clear();
    again.setConnection(fixture(), QStringLiteral("fixture"));
    QVERIFY(again.restoreQuery());
    again.loadWhenConnected();
    const Finished loaded = answers.take(QStringLiteral("flamegraph"));
    QVERIFY2(loaded.ok, qPrintable(loaded.message));
    QCOMPARE(again.profileType(), kCpu);
    QCOMPARE(again.selector(), want.selector);
    QCOMPARE(again.groupByBox()->currentData().toString(), QStringLiteral("env"));
    QCOMPARE(again.range().lengthMs(), qint64(6 * 3'600'000));
    QCOMPARE(again.profilePane()->view().tree->total(CallTree::kRoot), int64_t(9660000000));
}

// `qflame --url URL --type ID --query SEL --from now-1h --to now`: the window's explorer tab with the query loaded.
void tst_QrynExplorerProfiles::commandLineUrl()
{
    const ConnectionStore none(m_settings.get());
    const std::string url = m_env.url().toString().toStdString();
    const QrynExplorer::Start start = parseExplorerArgs(
        {"--url", url, "--type", kCpu.toStdString(), "--query", "{service_name=\"svc-base\"}", "--from", "now-1h",
         "--to", "now"},
        none);
    QCOMPARE(start.name, fixture().displayUrl());
    QVERIFY(!start.secretsFromStore);
    QCOMPARE(start.profileType, kCpu);
    QCOMPARE(start.range->lengthMs(), qint64(3'600'000));
    QCOMPARE(start.settings.timeoutMs, 60'000);   // the server options' default, as for the verbs

    MainWindow w;
    w.show();
    QVERIFY(w.startPage()->isVisible());
    QrynExplorer *e = w.openExplorer();
    Answers answers(e);
    e->start(start);
    const Finished f = answers.take(QStringLiteral("flamegraph"));
    QVERIFY2(f.ok, qPrintable(f.message));
    QCOMPARE(e->profilePane()->view().tree->total(CallTree::kRoot), int64_t(9760000000));
    QCOMPARE(e->selector(), QStringLiteral("{service_name=\"svc-base\"}"));
    QCOMPARE(w.tabs()->tabText(0), QStringLiteral("qryn: ") + fixture().displayUrl());
    QVERIFY(!w.startPage()->isVisible());
}

// `qflame --connection NAME`: the saved connection, its last query loaded; `--url` of a saved connection's server
// takes that connection (and its secrets).
void tst_QrynExplorerProfiles::commandLineConnection()
{
    m_store->save(QStringLiteral("saved fixture"), fixture());
    m_store->rememberQuery(QStringLiteral("saved fixture"),
                           {kCpu, QStringLiteral("{service_name=\"svc-base\"}"), {}, {}, QrynExplorer::Hour1, 0, 0});
    QrynExplorer::Start start = parseExplorerArgs({"--connection", "saved fixture"}, *m_store);
    QCOMPARE(start.name, QStringLiteral("saved fixture"));
    QVERIFY(start.secretsFromStore);
    QCOMPARE(start.profileType, QString());
    QrynExplorer e(m_store.get());
    Answers answers(&e);
    e.start(start);
    const Finished f = answers.take(QStringLiteral("flamegraph"));
    QVERIFY2(f.ok, qPrintable(f.message));
    QCOMPARE(e.title(), QStringLiteral("qryn: saved fixture"));
    QCOMPARE(e.profilePane()->view().tree->total(CallTree::kRoot), int64_t(9760000000));

    start = parseExplorerArgs({"--url", m_env.url().toString().toStdString() + "/", "--type", kCpu.toStdString()},
                              *m_store);
    QCOMPARE(start.name, QStringLiteral("saved fixture"));
    QVERIFY(start.secretsFromStore);
    QVERIFY(!start.range);   // the last hour
    m_store->remove(QStringLiteral("saved fixture"));
}

QTEST_MAIN(tst_QrynExplorerProfiles)
#include "tst_qrynexplorerprofiles.moc"
