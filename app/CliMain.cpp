// The start of both programs' main(): what runs without a window.
#include "Cli.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstring>
#include <iostream>

namespace qflame {

bool verbDraws(const std::vector<std::string> &args)
{
    return std::any_of(args.begin(), args.end(), [](const std::string &a) {
        return a.rfind("--png", 0) == 0 || a.rfind("--svg", 0) == 0;
    });
}

void quietQtMessages()
{
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &message) {
        if (type == QtFatalMsg)
            std::cerr << "qflame: " << message.toStdString() << "\n";
    });
}

std::optional<int> runHeadless(int &argc, char **argv)
{
    if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::cout << cliUsage();
        return 0;
    }
    if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
        std::cout << "qflame " << QFLAME_VERSION << "\n";
        return 0;
    }
    if (argc < 2 || !isCliVerb(argv[1]))
        return std::nullopt;
    std::vector<std::string> args(argv + 2, argv + argc);
    if (verbDraws(args))
        return std::nullopt;
    quietQtMessages();
    QCoreApplication app(argc, argv);
    return runCli(argv[1], args);
}

}   // namespace qflame
