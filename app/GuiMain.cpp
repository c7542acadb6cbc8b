// qflame-gui's main, the whole program: the window, the verbs that draw (diff --png/--svg) and the ones that ask
// a server; the other verbs run here too, as in `qflame`, which runs this (loaded as libqflame-window.so, or
// started as qflame-gui: WindowLauncher.cpp) for everything it does not do itself.
#include "Cli.h"
#include "CliExplorer.h"
#include "CliQryn.h"
#include "CliFetch.h"
#include "CliGraph.h"
#include "CliRender.h"
#include "CliRounds.h"
#include "DiffPicture.h"
#include "FirstPaint.h"
#include "WindowFiles.h"
#include "WindowHandoff.h"
#include "MainWindow.h"
#include "document/DocumentPane.h"
#include "explorer/ConnectionStore.h"
#include "fetch/ProfileFetch.h"
#include "graphview/GraphPainter.h"
#include "io/PhaseTrace.h"
#include "tree/StagedTree.h"

#include <QApplication>
#include <QGuiApplication>
#include <QScreen>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <vector>

namespace {

// Without a display, Qt's platform plugin calls qFatal ("could not connect to display") and the process dies
// of SIGABRT. The user is told in one line what is wrong and what works without a display, and the status is 1.
[[noreturn]] void exitForWantOfDisplay(const std::string &why)
{
    std::cerr << "qflame: the window needs a display (" << why << "); without one, these verbs work: "
              << qflame::cliVerbList() << " (qflame --help)\n";
    std::_Exit(1);
}

QtMessageHandler g_qtHandler = nullptr;

// While the application starts: the platform plugin's fatal message (a DISPLAY that names no reachable server, a
// plugin that cannot load) ends the same way instead of aborting, its reason taken from the plugin's first
// complaint ("could not connect to display :93"). The platform's messages are held back until then, and passed
// on to Qt's handler once the application has started; anything else goes there at once.
struct HeldMessage {
    QtMsgType type;
    QByteArray category;
    QString text;
};
std::vector<HeldMessage> g_held;

void onQtMessageBeforeWindow(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QByteArray category(context.category ? context.category : "");
    if (type == QtFatalMsg) {
        const QString why = g_held.empty() ? message : g_held.front().text;
        exitForWantOfDisplay(why.section(QLatin1Char('\n'), 0, 0).trimmed().toStdString());
    }
    if (category.startsWith("qt.qpa")) {
        g_held.push_back({type, category, message});
        return;
    }
    if (g_qtHandler)
        g_qtHandler(type, context, message);
}

void passOnHeldMessages()
{
    for (const HeldMessage &m : g_held) {
        const QMessageLogContext context(nullptr, 0, nullptr, m.category.constData());
        if (g_qtHandler)
            g_qtHandler(m.type, context, m.text);
    }
    g_held.clear();
}

// `qflame --max-size MIB FILE...`: the window's cap on what it reads (files, downloads), as the verbs' --max-size;
// without it, ReadOptions' 1 GiB. An hour of perf script at 1 kHz on 8 threads is 11 GB (issue #35). A wrong
// value is the verbs' one-line usage error. Taken out of the arguments (both forms: `--max-size N`,
// `--max-size=N`), so that what is left are the files.
std::optional<uint64_t> takeWindowMaxSize(int &argc, char **argv)
{
    std::optional<std::string> value;
    int out = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--max-size") {
            if (i + 1 >= argc) {
                std::cerr << "qflame: --max-size needs a value (MiB)\nRun 'qflame --help' for usage.\n";
                throw qflame::CliExit{1};
            }
            value = argv[++i];
        } else if (arg.rfind("--max-size=", 0) == 0) {
            value = arg.substr(11);
        } else {
            argv[out++] = argv[i];
        }
    }
    argc = out;
    argv[argc] = nullptr;
    if (!value)
        return std::nullopt;
    return qflame::readOptionsFor(value).maxDecompressedBytes;
}

// `qflame FILE` and `qflame BASE NEW` (with or without --time-to-paint) of local files: their reading starts
// before the application object, so that Qt's start, fonts and the window's widgets overlap it (the pane that
// opens them takes the job over). `qflame` has started it already when it hands one over (WindowHandoff.h).
// Anything else on the command line (Qt's own options, URLs) waits as before.
void startReadingEarly(int argc, char **argv, qflame::WindowHandoff *handoff)
{
    if (handoff) {
        qflame::DocumentPane::adoptEarly(std::move(handoff->job));
        return;
    }
    if (const std::optional<qflame::WindowFiles> window = qflame::windowFilesOf(argc, argv)) {
        qflame::DocumentPane::setOpenInverted(window->inverted);
        qflame::DocumentPane::startEarly(window->files);
    }
}

}   // namespace

int qflame::guiMain(int argc, char **argv, WindowHandoff *handoff)
{
    qflame::setServerVerbs(qflame::qrynVerbs());
    if (const std::optional<int> status = qflame::runHeadless(argc, argv))
        return *status;
    // `qflame rounds` without an output option is the window's rounds tab.
    std::optional<qflame::RoundsRequest> rounds;
    std::optional<qflame::ServerRoundsRequest> serverRounds;   // `qflame rounds --url ...`
    if (argc >= 2 && std::string(argv[1]) == "rounds") {
        const std::vector<std::string> args(argv + 2, argv + argc);
        if (qflame::roundsWantsWindow(args)) {
            try {
                if (qflame::verbForm("rounds", args)->needs == qflame::VerbNeeds::Server)
                    serverRounds = qflame::parseServerRoundsRequest(args);
                else
                    rounds = qflame::parseRoundsRequest(args);
            } catch (const qflame::CliExit &e) {
                return e.code;
            }
        }
    }
    if (argc >= 2 && qflame::isCliVerb(argv[1]) && !rounds && !serverRounds) {
        // A verb that draws needs fonts and painting: a GUI application, offscreen unless a display is there,
        // so that it works on servers and in CI alike.
        qflame::setDiffPictureWriter(qflame::writeDiffPicture);
        qflame::setGraphPictureWriter([](std::shared_ptr<const qflame::CallGraph> graph, const std::string &path,
                                         bool svg) {   // graph --png/--svg: Graphviz's layout, our painter
            return qflame::writeGraphPicture(*qflame::GraphLayout::compute(std::move(graph)),
                                             QString::fromStdString(path), svg)
                .toStdString();
        });
        qflame::quietQtMessages();
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QGuiApplication app(argc, argv);
        qflame::endVerbProcess(qflame::runCli(argv[1], std::vector<std::string>(argv + 2, argv + argc)));
    }

    QApplication::setApplicationName(QStringLiteral("qflame"));
    QApplication::setOrganizationName(QStringLiteral("qflame"));
    // `qflame --url ... --type ...` / `--connection NAME`: the explorer. Its arguments are checked before any
    // display is needed, so that a wrong one is one line and no window (the saved connections are in QSettings).
    std::optional<qflame::qryn::QrynExplorer::Start> explorer;
    if (const std::vector<std::string> args(argv + 1, argv + argc); qflame::wantsExplorer(args)) {
        try {
            explorer = qflame::parseExplorerArgs(args, qflame::qryn::ConnectionStore());
        } catch (const qflame::CliExit &e) {
            return e.code;
        }
    }

    if (rounds)
        qflame::DocumentPane::setMaxReadBytes(rounds->maxReadBytes);
    if (!explorer && !rounds && !serverRounds) {
        try {
            if (const std::optional<uint64_t> cap = takeWindowMaxSize(argc, argv))
                qflame::DocumentPane::setMaxReadBytes(*cap);
        } catch (const qflame::CliExit &e) {
            return e.code;
        }
    }
    if (qflame::noDisplayNamed())
        exitForWantOfDisplay("neither DISPLAY nor WAYLAND_DISPLAY is set");
    startReadingEarly(argc, argv, handoff);
    g_qtHandler = qInstallMessageHandler(onQtMessageBeforeWindow);
    QApplication app(argc, argv);
    qflame::tracePhase("application");
    qInstallMessageHandler(g_qtHandler);
    passOnHeldMessages();
    // The first look the early job is about to build (once it has read) needs no frame narrower than a pixel
    // of the widest view these screens can show (tree/StagedTree.h).
    int desktopWidth = 0;
    for (const QScreen *screen : QGuiApplication::screens())
        desktopWidth = std::max(desktopWidth, screen->virtualGeometry().width());
    const int64_t cullDivisor = qflame::StagedTreeBuild::cullDivisorForWidth(desktopWidth);
    qflame::StagedTreeBuild::setViewCullDivisor(cullDivisor);
    if (handoff && handoff->setViewCullDivisor)
        handoff->setViewCullDivisor(cullDivisor);   // the copy of the model that reads the files handed over
    QApplication::setApplicationVersion(QStringLiteral(QFLAME_VERSION));
    QStringList files = QApplication::arguments().mid(1);   // without Qt's own options (-platform, --style ...)
    // URLs open like files (`qflame URL`, File > Open URL...), their bytes kept for Save Fetched Profile; the
    // verbs' fetch options (--user, --password-env, --token-env, --ca-file, --timeout) say how to fetch the URLs
    // of the command line.
    qflame::qryn::ConnectionSettings fetchSettings;
    fetchSettings.timeoutMs = 0;   // each URL's seconds plus a margin
    if (!rounds && !serverRounds &&
        std::any_of(files.begin(), files.end(), [](const QString &f) { return qflame::fetch::isProfileUrl(f); })) {
        std::vector<std::string> args;
        for (const QString &f : std::as_const(files))
            args.push_back(f.toStdString());
        try {
            files.clear();
            for (const std::string &a : qflame::takeFetchOptions(args))
                files << QString::fromStdString(a);
        } catch (const qflame::CliExit &e) {
            return e.code;
        }
        fetchSettings = qflame::fetch::urlReaderSettings();
    }
    qflame::fetch::installUrlReader(fetchSettings, true);
    qflame::MainWindow window;
    window.showFirstTime();   // as last closed, or a share of the screen
    qflame::tracePhase("window shown");
    if (rounds) {
        window.openRounds(std::move(rounds->rounds), rounds->options);
        return app.exec();
    }
    if (serverRounds) {
        window.openServerRounds(serverRounds->settings, serverRounds->query, serverRounds->options);
        return app.exec();
    }
    if (explorer) {
        window.openExplorer()->start(*explorer);
        return app.exec();
    }
    if (files.removeAll(QStringLiteral("--inverted")) > 0)
        qflame::DocumentPane::setOpenInverted(true);
    if (files.removeAll(QStringLiteral("--time-to-paint")) > 0) {
        if (files.isEmpty() || files.size() > 2) {
            std::cerr << "qflame: --time-to-paint takes FILE or BASE NEW\nRun 'qflame --help' for usage.\n";
            return 1;
        }
        new qflame::FirstPaintProbe(window);
    }
    for (const QString &f : files) {
        if (f.startsWith(QLatin1String("--")) && f != QLatin1String("--")) {
            std::cerr << "qflame: unknown option " << f.toStdString() << "\nRun 'qflame --help' for usage.\n";
            return 1;
        }
    }
    if (!files.isEmpty())
        window.openArguments(files);
    return app.exec();
}
