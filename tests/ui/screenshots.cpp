// Renders the window in documented states to PNG files, for the README and for looking at what we build:
//   qflame_screenshots OUTDIR
// Runs offscreen (QT_QPA_PLATFORM=offscreen); not a test, it asserts nothing.
#include "MainWindow.h"
#include "ShortcutsDialog.h"
#include "ProfileFactory.h"
#include "export/ProfileWriter.h"
#include "fetch/ProfileFetch.h"
#include "formats/ProfileInput.h"
#include "compare/DiffView.h"
#include "controls/OpenUrlDialog.h"
#include "controls/FilterBar.h"
#include "controls/SearchBar.h"
#include "controls/SecondaryPanes.h"
#include "document/DocumentPane.h"
#include "explorer/ConnectionStore.h"
#include "explorer/LabelGroupView.h"
#include "explorer/QrynExplorer.h"
#include "explorer/TimelineView.h"
#include "explorer/TimelineWidget.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "pgoview/PgoPanel.h"
#include "qryn/LabelGroups.h"
#include "sourceview/SourceView.h"
#include "tables/TopTableModel.h"
#include "graphview/GraphCanvas.h"
#include "graphview/GraphPane.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTableView>
#include <QTcpServer>
#include <QTest>
#include <QPushButton>
#include <QCheckBox>
#include <QDateTime>
#include <QMenuBar>
#include <QMouseEvent>

using namespace qflame;

void assemblyShots(const QString &out);   // ScreenshotsAssembly.cpp

static void waitLoaded(MainWindow &w)
{
    QSignalSpy spy(&w, &MainWindow::loadFinished);
    spy.wait(60000);
    QApplication::processEvents();
}

static void shoot(QWidget &w, const QString &path)
{
    // Top tables sorted or filtered by a worker show its rows once they come.
    for (QTableView *v : w.findChildren<QTableView *>())
        if (auto *m = qobject_cast<TopTableModel *>(v->model()); m && m->isOrdering())
            QSignalSpy(m, &TopTableModel::ordered).wait(10000);
    QApplication::processEvents();
    w.grab().save(path);
    qInfo("wrote %s", qPrintable(path));
}

// Shows a tab's Graph (ui/graphview) and waits until it is built and laid out.
static void showGraph(SecondaryPanes *panes, GraphPane *graph)
{
    QSignalSpy ready(graph, &GraphPane::graphReady);
    panes->showPane(graph);
    if (!graph->graphLayout() || graph->isBuilding())
        ready.wait(60000);
}

// Issue 33's comparison graph (the bundled pair, side by side above it): as opened, then per second (the pair's
// durations differ by 20 %), the graph's values scaled as the diff's and its normalisation stated.
static void graphDiffShots(MainWindow &c, const QString &out)
{
    auto *graph = c.currentDiff()->findChild<GraphPane *>();
    showGraph(c.currentDiff()->diffView()->secondaryPanes(), graph);
    shoot(c, out + QStringLiteral("/graph-diff.png"));
    QSignalSpy ready(graph, &GraphPane::graphReady);
    DiffOptions options = c.currentDiff()->diffView()->options();
    options.normalization = Normalization::PerSecond;
    c.currentDiff()->diffView()->setOptions(options);
    ready.wait(60000);
    shoot(c, out + QStringLiteral("/graph-diff-per-second.png"));
    options.normalization = Normalization::None;
    c.currentDiff()->diffView()->setOptions(options);
    ready.wait(60000);
}

static void waitSource(SourceView *view)
{
    if (view->isListing())
        QSignalSpy(view, &SourceView::listingReady).wait(60000);
    QApplication::processEvents();
}

static void waitPgo(PgoPanel *panel)
{
    if (panel->isComputing())
        QSignalSpy(panel, &PgoPanel::computed).wait(60000);
    QApplication::processEvents();
}

// The qryn explorer on a 20-minute series fed to its timeline (no server): one service in three rounds
// (round=r0|r1|r2), a profile every 10 s, about 4.9, 5.2 and 4.66 cores with a little noise; the first and the
// last round brushed; the flamegraph a real CPU profile. Auto steps: 20 s.
static void showExplorer(qryn::QrynExplorer &e, const QString &data)
{
    using namespace qryn;
    const qint64 start = (QDateTime::currentMSecsSinceEpoch() - 3'600'000) / 600'000 * 600'000;
    const TimeRange window{start, start + 20 * 60'000};
    const QString cpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
    e.setProfileType(cpu);
    e.setSelector(QStringLiteral("{service_name=\"otel-collector\"}"));
    e.setCustomRange(window);
    const double cores[] = {4.94, 5.2, 4.66};
    QList<Series> answer;
    uint32_t seed = 7;
    for (int r = 0; r < 3; ++r) {
        Series s{{{QStringLiteral("env"), QStringLiteral("bench")}, {QStringLiteral("round"), QStringLiteral("r%1").arg(r)},
                  {QStringLiteral("service_name"), QStringLiteral("otel-collector")}},
                 {}};
        for (int i = 0; i < 40; ++i) {
            seed = seed * 1664525u + 1013904223u;
            const double noise = (double(seed >> 8) / double(1u << 24) - 0.5) * 0.3;
            s.points.push_back({window.startMs + (r * 40 + i) * 10'000, (cores[r] + noise) * 10e9});
        }
        answer.push_back(s);
    }
    ProfileType type;
    ProfileType::parse(cpu, &type);
    const TimelinePlan plan = planTimeline({cpu, e.selector(), window}, type, 0, QStringLiteral("round"));
    TimelineWidget *t = e.timeline();
    t->setWindow(window);
    t->setTimeline(stepTimeline(answer, plan));
    t->setBrush(TimelineWidget::Baseline, TimeRange{window.startMs + 40'000, window.startMs + 380'000});
    t->setBrush(TimelineWidget::Comparison, TimeRange{window.startMs + 840'000, window.startMs + 1'180'000});
    QSignalSpy loaded(e.profilePane(), &DocumentPane::loadFinished);
    e.profilePane()->open({data + QStringLiteral("gen__baseline.cpu.pb.gz")});
    loaded.wait(60000);
    QApplication::processEvents();
}

// Issue 36: labels as frames, bottom-up, the explorer grouped by a label.
static void labelShots(const QString &out, const QString &data)
{
    // The CPU profile's four pprof.Do paths as frames at the root: the profile split by the label.
    MainWindow grouped;
    grouped.resize(1400, 860);
    grouped.show();
    grouped.openFiles({data + QStringLiteral("gen__baseline.cpu.pb.gz")});
    waitLoaded(grouped);
    grouped.currentProfile()->filterBar()->setFilter(FilterBar::TagRoot, QStringLiteral("path"));
    waitLoaded(grouped);
    shoot(grouped, out + QStringLiteral("/labels-tagroot.png"));
    // The comparison bottom-up: the functions samples end in at the bottom, their callers above.
    MainWindow up;
    up.resize(1400, 900);
    up.show();
    up.openArguments({data + QStringLiteral("gen__baseline.cpu.pb.gz"), data + QStringLiteral("gen__optimized.cpu.pb.gz")});
    waitLoaded(up);
    up.findChild<QAction *>(QStringLiteral("bottomUp"))->trigger();
    waitLoaded(up);
    shoot(up, out + QStringLiteral("/diff-bottom-up.png"));
    // The explorer grouped by version: three builds of one service, a profile every 10 s each (no server: the
    // series fed to the timeline as SelectSeries answers them), the table of versions with v1 and v3 picked.
    using namespace qryn;
    QrynExplorer e;
    e.resize(1400, 900);
    e.show();
    const qint64 start = (QDateTime::currentMSecsSinceEpoch() - 3'600'000) / 600'000 * 600'000;
    const TimeRange window{start, start + 10 * 60'000};
    const QString cpu = QStringLiteral("process_cpu:cpu:nanoseconds:cpu:nanoseconds");
    e.setProfileType(cpu);
    e.setSelector(QStringLiteral("{service_name=\"checkout\"}"));
    e.setCustomRange(window);
    e.setGroupBy(QStringLiteral("version"));
    const double cores[] = {2.1, 2.35, 1.72};
    QList<Series> answer;
    uint32_t seed = 11;
    for (int v = 0; v < 3; ++v) {
        Series s{{{QStringLiteral("version"), QStringLiteral("v1.%1").arg(4 + v)}}, {}};
        for (int i = 0; i < 60; ++i) {
            seed = seed * 1664525u + 1013904223u;
            const double noise = (double(seed >> 8) / double(1u << 24) - 0.5) * 0.4;
            s.points.push_back({window.startMs + i * 10'000, (cores[v] + noise) * 10e9});
        }
        answer.push_back(s);
    }
    ProfileType type;
    ProfileType::parse(cpu, &type);
    const TimelinePlan plan = planTimeline({cpu, e.selector(), window}, type, 10, QStringLiteral("version"));
    e.timeline()->setWindow(window);
    e.showTimeline(stepTimeline(answer, plan), QStringLiteral("version"));
    e.labelGroupView()->selectValues({QStringLiteral("v1.4"), QStringLiteral("v1.6")});
    QSignalSpy loaded(e.profilePane(), &DocumentPane::loadFinished);
    e.profilePane()->open({data + QStringLiteral("gen__baseline.cpu.pb.gz")});
    loaded.wait(60000);
    QApplication::processEvents();
    shoot(e, out + QStringLiteral("/explorer-grouped.png"));
}

static QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, Qt::white);
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::AlternateBase, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::Text, Qt::white);
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    p.setColor(QPalette::HighlightedText, Qt::black);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb6, 0xff));
    // Placeholders and disabled text readable on the dark bases (Qt's defaults are dark grey, lost on them).
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Light, QColor(0x50, 0x50, 0x50));
    p.setColor(QPalette::Dark, QColor(0x18, 0x18, 0x18));
    return p;
}

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    QDir().mkpath(out);
    const QString data = QStringLiteral(QFLAME_TEST_DATA "/");
    if (argc > 2 && QString::fromLocal8Bit(argv[2]) == QLatin1String("labels")) {   // only issue 36's
        labelShots(out, data);
        return 0;
    }
    if (argc > 2 && QString::fromLocal8Bit(argv[2]) == QLatin1String("graph")) {   // only issue 33's comparison
        const QString examples = QStringLiteral(QFLAME_TEST_DATA "/../../resources/examples/");
        MainWindow c;
        c.resize(1400, 900);
        c.show();
        c.openArguments({examples + QStringLiteral("baseline.cpu.pb.gz"),
                         examples + QStringLiteral("optimized.cpu.pb.gz")});
        waitLoaded(c);
        c.currentDiff()->diffView()->tabs()->setCurrentIndex(1);
        graphDiffShots(c, out);
        return 0;
    }
    if (argc > 2 && QString::fromLocal8Bit(argv[2]) == QLatin1String("assembly")) {   // only issue 34's
        assemblyShots(out);
        return 0;
    }

    MainWindow w;
    w.resize(1400, 860);
    w.show();
    w.openFiles({data + QStringLiteral("gen__baseline.cpu.pb.gz")});
    waitLoaded(w);
    shoot(w, out + QStringLiteral("/main-window.png"));

    // Zoomed into main.sortRecords with a frame selected: breadcrumbs, details panel.
    FlameGraphWidget *g = w.flameGraph();
    const CallTree &t = *g->tree();
    for (NodeId n = 1; n < t.size(); ++n)
        if (t.label(n) == "main.sortRecords") {
            g->zoomTo(n);
            g->setSelectedNode(t.firstChild(n));
            break;
        }
    shoot(w, out + QStringLiteral("/zoomed.png"));

    // Search: matches keep their colour, the rest is dimmed; the table follows.
    g->resetZoom();
    ProfilePane *pane = w.currentProfile();
    pane->searchBar()->setPattern(QStringLiteral("sort\\."));
    shoot(w, out + QStringLiteral("/search.png"));
    pane->searchBar()->setPattern(QString());
    // The sandwich of sort.partition_func.
    for (FrameId f = 1; f < t.frames().size(); ++f)
        if (t.frames().label(f) == "sort.partition_func")
            pane->showSandwich(f);
    shoot(w, out + QStringLiteral("/sandwich.png"));
    // The call graph, pprof's default view, with the heaviest function selected.
    showGraph(pane->secondaryPanes(), pane->findChild<GraphPane *>());
    pane->findChild<GraphPane *>()->canvas()->selectNode(0);
    shoot(w, out + QStringLiteral("/graph.png"));
    pane->secondaryPanes()->showPane(pane->topTable());

    // Help > Keyboard Shortcuts, as generated from the window's menus and the views' keys.
    {
        ShortcutsDialog keys(w.menuBar());
        keys.show();
        shoot(keys, out + QStringLiteral("/shortcuts.png"));
    }

    g->setOrientation(FlameGraphWidget::Orientation::Icicle);
    g->resetZoom();
    g->setColorScheme(ColorScheme::SelfHeat);
    shoot(w, out + QStringLiteral("/icicle-selfheat.png"));
    g->setOrientation(FlameGraphWidget::Orientation::Flame);
    g->setColorScheme(ColorScheme::Package);

    // Issue #37, the first minute: the bundled pair and one of its profiles as they open on a 1366x768 laptop
    // (maximized: 1366x740 less a title bar) and as the first window takes a 1920x1080 screen (1632x924).
    const QString examples = QStringLiteral(QFLAME_TEST_DATA "/../../resources/examples/");
    for (const QSize size : {QSize(1366, 710), QSize(1632, 924)}) {
        for (bool comparison : {true, false}) {
            MainWindow first;
            first.resize(size);
            first.show();
            if (comparison)
                first.openArguments({examples + QStringLiteral("baseline.cpu.pb.gz"),
                                     examples + QStringLiteral("optimized.cpu.pb.gz")});
            else
                first.openArguments({examples + QStringLiteral("baseline.cpu.pb.gz")});
            waitLoaded(first);
            if (comparison)
                waitPgo(first.currentDiff()->pgoPanel());   // its tab's mark
            shoot(first, out + QStringLiteral("/first-%1-%2.png")
                                   .arg(comparison ? QStringLiteral("comparison") : QStringLiteral("profile"))
                                   .arg(size.width()));
        }
    }

    // A comparison: the diff flamegraph of the bundled pair, then side by side.
    MainWindow c;
    c.resize(1400, 900);
    c.show();
    c.openArguments({examples + QStringLiteral("baseline.cpu.pb.gz"), examples + QStringLiteral("optimized.cpu.pb.gz")});
    waitLoaded(c);
    shoot(c, out + QStringLiteral("/diff.png"));
    c.currentDiff()->diffView()->tabs()->setCurrentIndex(1);
    shoot(c, out + QStringLiteral("/side-by-side.png"));
    graphDiffShots(c, out);
    c.currentDiff()->diffView()->tabs()->setCurrentIndex(0);
    // The comparison's PGO panel: one Go program built with -gcflags=-l (no inlining) and as is
    // (tests/data/pgo-inlining): the calls that became inlined, and their frames marked in the diff flamegraph.
    MainWindow inl;
    inl.resize(1400, 900);
    inl.show();
    inl.openArguments({data + QStringLiteral("pgo-inlining/called.cpu.pb.gz"),
                       data + QStringLiteral("pgo-inlining/inlined.cpu.pb.gz")});
    waitLoaded(inl);
    waitPgo(inl.currentDiff()->pgoPanel());
    inl.currentDiff()->diffView()->secondaryPanes()->showPane(inl.currentDiff()->pgoPanel());
    inl.currentDiff()->pgoPanel()->tabs()->setCurrentIndex(2);
    shoot(inl, out + QStringLiteral("/pgo-inlining.png"));

    // The PGO panel of a Go CPU profile under its flamegraph, the second edge selected: its caller and callee
    // keep their colour.
    MainWindow pg;
    pg.resize(1400, 900);
    pg.show();
    pg.openFiles({data + QStringLiteral("gen__optimized.cpu.pb.gz")});
    waitLoaded(pg);
    pg.currentProfile()->showPgo();
    PgoPanel *panel = pg.currentProfile()->pgoPanel();
    waitPgo(panel);
    panel->edgeTable()->setCurrentIndex(panel->edgeTable()->model()->index(1, 1));
    shoot(pg, out + QStringLiteral("/pgo-panel.png"));
    // Not a CPU profile: the panel says why go build -pgo would refuse it (not in docs/, for looking at).
    MainWindow heap;
    heap.resize(1400, 900);
    heap.show();
    heap.openFiles({data + QStringLiteral("gen__heap.pb.gz")});
    waitLoaded(heap);
    heap.currentProfile()->showPgo();
    waitPgo(heap.currentProfile()->pgoPanel());
    shoot(heap, out + QStringLiteral("/pgo-not-cpu.png"));

    // Rounds: each of the two real profiles dealt out into 6 observations of ~1.7 s (ProfileFactory's
    // splitProfile: the sampling spread of real consecutive profiles); the baseline twice over (a rebuild that
    // changed nothing), then the optimized program.
    QTemporaryDir roundsDir;
    auto observations = [&](const char *file, const char *prefix, uint32_t seed) {
        RoundFiles round{prefix, {}};
        const auto whole = readProfileFile(data + QLatin1String(file));
        int i = 0;
        for (const Profile &part : test::splitProfile(*whole, 6, seed)) {
            const QString path = roundsDir.filePath(QStringLiteral("%1-%2.pb.gz").arg(QLatin1String(prefix)).arg(++i));
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly))
                qFatal("cannot write %s", qPrintable(path));
            f.write(QByteArray::fromStdString(gzipCompress(encodePprof(part))));
            round.paths.push_back(path);
        }
        return round;
    };
    MainWindow r;
    r.resize(1400, 900);
    r.show();
    RoundsOptions roundsOptions;
    roundsOptions.sample = "cpu";
    r.openRounds({observations("gen__baseline.cpu.pb.gz", "base", 1), observations("gen__baseline.cpu.pb.gz", "rebuilt", 3),
                  observations("gen__optimized.cpu.pb.gz", "optimized", 2)},
                 roundsOptions);
    waitLoaded(r);
    shoot(r, out + QStringLiteral("/rounds.png"));

    // The source pane: main.mix of the Go program of tests/data/pgo-inlining (built in /tmp/pgoinl, so that
    // prefix is trimmed and the folder searched), in its profile and in the comparison of the two builds.
    QStandardPaths::setTestModeEnabled(true);   // the source path goes to a settings file of its own
    QSettings().setValue(QStringLiteral("source/searchPath"), QStringList{data + QStringLiteral("pgo-inlining")});
    QSettings().setValue(QStringLiteral("source/trimPaths"), QStringList{QStringLiteral("/tmp/pgoinl")});
    MainWindow src;
    src.resize(1400, 900);
    src.show();
    src.openFiles({data + QStringLiteral("pgo-inlining/inlined.cpu.pb.gz")});
    waitLoaded(src);
    const CallTree &st = *src.currentProfile()->view().tree;
    for (NodeId n = 1; n < st.size(); ++n)
        if (st.label(n) == "main.spin") {
            src.currentProfile()->showSource(n);
            break;
        }
    waitSource(src.currentProfile()->sourceView());
    shoot(src, out + QStringLiteral("/source-pane.png"));
    inl.currentDiff()->pgoPanel()->tabs()->setCurrentIndex(0);
    const DiffTree *sd = inl.currentDiff()->diffView()->diff();
    for (NodeId n = 1; n < sd->size(); ++n)
        if (sd->frames().label(sd->frame(n)) == "main.spin") {
            inl.currentDiff()->showSource(n);
            break;
        }
    waitSource(inl.currentDiff()->sourceView());
    shoot(inl, out + QStringLiteral("/source-diff.png"));

    // Issue #20: File > Open URL...'s connection fields; a URL's tab counting a CPU profile down (a server that
    // accepts and never answers), then cancelled; perf's inline stacks; template arguments collapsed.
    qryn::ConnectionSettings fetchSettings;
    fetchSettings.timeoutMs = 0;
    fetch::installUrlReader(fetchSettings, true);
    OpenUrlDialog openUrl;
    openUrl.setUrl(QStringLiteral("https://build-17.internal:6060/debug/pprof/profile"));
    qryn::ConnectionSettings typed;
    typed.user = QStringLiteral("alice");
    typed.password = QStringLiteral("s3cret");
    typed.caFile = QStringLiteral("/etc/ssl/internal-ca.pem");
    typed.timeoutMs = 0;   // the profile's seconds plus a margin
    openUrl.setSettings(typed);
    openUrl.show();
    shoot(openUrl, out + QStringLiteral("/open-url.png"));
    QTcpServer silent;
    silent.listen(QHostAddress::LocalHost);
    MainWindow url;
    url.resize(1100, 500);
    url.show();
    url.openArguments({QStringLiteral("http://127.0.0.1:%1/debug/pprof/profile?seconds=30").arg(silent.serverPort())});
    QTest::qWait(1200);
    shoot(url, out + QStringLiteral("/url-countdown.png"));
    for (QPushButton *b : url.currentProfile()->findChildren<QPushButton *>())
        if (b->text() == QLatin1String("Cancel") && b->isVisible())
            b->click();
    QTest::qWait(300);
    shoot(url, out + QStringLiteral("/url-cancelled.png"));
    MainWindow perf;
    perf.resize(1300, 800);
    perf.show();
    perf.openFiles({QStringLiteral(QFLAME_TEST_DATA "/../../fuzz/seeds/perf/inl.inline-srcline.perf")});
    waitLoaded(perf);
    shoot(perf, out + QStringLiteral("/perf-inline.png"));
    QTemporaryDir templatesDir;
    const QString templates = templatesDir.filePath(QStringLiteral("templates.folded"));
    {
        QFile f(templates);
        f.open(QIODevice::WriteOnly);
        f.write("main;run<int>;std::vector<int, std::allocator<int> >::push_back(int const&) 30\n"
                "main;run<double>;std::vector<double, std::allocator<double> >::push_back(double const&) 20\n"
                "main;run<int>;std::vector<int, std::allocator<int> >::size() const 12\n"
                "main;run<double>;std::vector<double, std::allocator<double> >::size() const 9\n"
                "main;std::operator<< <std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char const*) 7\n");
    }
    MainWindow collapsed;
    collapsed.resize(1300, 800);
    collapsed.show();
    collapsed.openFiles({templates});
    waitLoaded(collapsed);
    collapsed.findChild<QAction *>(QStringLiteral("collapseTemplates"))->trigger();
    waitLoaded(collapsed);
    shoot(collapsed, out + QStringLiteral("/collapse-templates.png"));
    collapsed.findChild<QAction *>(QStringLiteral("collapseTemplates"))->trigger();
    waitLoaded(collapsed);

    // The start page (no tab open): recent entries and saved connections as someone would have them.
    QSettings().setValue(QStringLiteral("recentFiles"),
                         QStringList{data + QStringLiteral("gen__baseline.cpu.pb.gz\n") + data +
                                         QStringLiteral("gen__optimized.cpu.pb.gz"),
                                     data + QStringLiteral("gen__heap.pb.gz"),
                                     data + QStringLiteral("pgo-inlining/inlined.cpu.pb.gz"),
                                     QStringLiteral("http://localhost:6060/debug/pprof/profile?seconds=30")});
    qryn::ConnectionStore connections;
    connections.setKeychainEnabled(false);
    qryn::ConnectionSettings server;
    server.url = QUrl(QStringLiteral("https://qryn.example.com"));
    connections.save(QStringLiteral("production"), server);
    server.url = QUrl(QStringLiteral("http://127.0.0.1:3100"));
    connections.save(QStringLiteral("local qryn"), server);
    {
        MainWindow start;
        start.resize(1200, 760);
        start.show();
        shoot(start, out + QStringLiteral("/start-page.png"));
    }
    connections.remove(QStringLiteral("production"));
    connections.remove(QStringLiteral("local qryn"));
    qryn::QrynExplorer explorer;
    explorer.resize(1400, 900);
    explorer.show();
    showExplorer(explorer, data);
    shoot(explorer, out + QStringLiteral("/explorer-light.png"));

    labelShots(out, data);
    assemblyShots(out);

    QApplication::setPalette(darkPalette());
    shoot(w, out + QStringLiteral("/dark.png"));
    // Dark: the rounds stacked, the readout of a step in the second round under the mouse.
    explorer.timelineView()->stackedBox()->setChecked(true);
    qryn::TimelineWidget *chart = explorer.timeline();
    // Sent to the chart itself: the offscreen platform's cursor lands on whichever window is on top.
    const QPointF at(chart->xAt(chart->window().startMs + 610'000), chart->plotRect().center().y());
    QMouseEvent hover(QEvent::MouseMove, at, chart->mapToGlobal(at), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(chart, &hover);
    shoot(explorer, out + QStringLiteral("/explorer-dark.png"));
    shoot(r, out + QStringLiteral("/rounds-dark.png"));
    shoot(pg, out + QStringLiteral("/pgo-panel-dark.png"));
    return 0;
}
