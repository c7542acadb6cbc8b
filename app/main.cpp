// qflame: a verb runs headless (no display needed); anything else opens the window.
#include "Cli.h"
#include "MainWindow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QGuiApplication>

#include <algorithm>

#include <cstring>
#include <iostream>

int main(int argc, char **argv)
{
    if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::cout << qflame::cliUsage();
        return 0;
    }
    if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
        std::cout << "qflame " << QFLAME_VERSION << "\n";
        return 0;
    }
    if (argc >= 2 && qflame::isCliVerb(argv[1])) {
        std::vector<std::string> args(argv + 2, argv + argc);
        // Verbs that draw (diff --png/--svg) need fonts and painting: a GUI application, offscreen unless a
        // display is there, so they work on servers and in CI alike. The others stay QtCore only.
        const bool draws = std::any_of(args.begin(), args.end(), [](const std::string &a) {
            return a.rfind("--png", 0) == 0 || a.rfind("--svg", 0) == 0;
        });
        // The verbs report their own errors in one line; Qt's own chatter (runtime dirs, fonts) stays out of it.
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &message) {
            if (type == QtFatalMsg)
                std::cerr << "qflame: " << message.toStdString() << "\n";
        });
        if (draws) {
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
                qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            QGuiApplication app(argc, argv);
            return qflame::runCli(argv[1], args);
        }
        QCoreApplication app(argc, argv);
        return qflame::runCli(argv[1], args);
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("qflame"));
    QApplication::setOrganizationName(QStringLiteral("qflame"));
    QApplication::setApplicationVersion(QStringLiteral(QFLAME_VERSION));
    qflame::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QStringList files = QApplication::arguments().mid(1);
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
