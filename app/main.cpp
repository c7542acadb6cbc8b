// qflame: a verb runs headless (no display needed); anything else opens the window.
#include "Cli.h"
#include "MainWindow.h"

#include <QApplication>
#include <QCoreApplication>

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
        QCoreApplication app(argc, argv);
        std::vector<std::string> args(argv + 2, argv + argc);
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
