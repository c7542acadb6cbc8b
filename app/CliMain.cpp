// The start of qflame-gui's main and of libqflame-cli.so's: what runs without a window, on QtCore.
#include "Cli.h"
#include "VerbTable.h"

#include <QCoreApplication>

#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>

namespace qflame {

void quietQtMessages()
{
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &message) {
        if (type == QtFatalMsg)
            std::cerr << "qflame: " << message.toStdString() << "\n";
    });
}

std::optional<int> runHeadless(int &argc, char **argv)
{
    registerFileVerbs();
    if (argc >= 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::cout << mainHelp();
        return 0;
    }
    // Hidden: what the build writes the man page with (app/CMakeLists.txt), and what packaging/check-man.sh
    // checks an installed page against.
    if (argc == 3 && std::strcmp(argv[1], "--man") == 0) {
        std::ifstream in(argv[2], std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::cerr << "qflame: cannot read " << argv[2] << "\n";
            return 2;
        }
        std::cout << manPage(text);
        return 0;
    }
    if (argc == 2 && std::strcmp(argv[1], "--list-options") == 0) {
        std::cout << optionList();
        return 0;
    }
    if (argc >= 2 && std::strcmp(argv[1], "--version") == 0) {
        std::cout << "qflame " << QFLAME_VERSION << "\n";
        return 0;
    }
    if (argc < 2 || !isCliVerb(argv[1]))
        return std::nullopt;
    std::vector<std::string> args(argv + 2, argv + argc);
    if (!verbRunsHere(argv[1], args))
        return std::nullopt;
    quietQtMessages();
    keepVerbHeap();
    QCoreApplication app(argc, argv);
    endVerbProcess(runCli(argv[1], args));
}

}   // namespace qflame
