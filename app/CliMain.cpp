// The start of both programs' main(): what runs without a window.
#include "Cli.h"
#include "VerbTable.h"

#include <QCoreApplication>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
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
#ifdef __GLIBC__
    // Blocks from 128 KB up were mapped and unmapped one by one (glibc's default), so every growing array and
    // every temporary buffer touched fresh pages: 1,700 of the 15,300 page faults of `qflame top` on r2048,
    // 6% of its time. A verb's process is short; its heap keeps what it frees for the next block instead.
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);   // glibc's maximum on 64-bit systems
#endif
    QCoreApplication app(argc, argv);
    endVerbProcess(runCli(argv[1], args));
}

void endVerbProcess(int status)
{
    // The output is complete; what is left is tearing down (the application object, the libraries' static
    // objects, everything leaveToProcessEnd kept), which the process's end does at once: 6-11 ms of `qflame
    // top` on the two profiles benchmarked closest to zcat (docs/benchmarks.md). Files the verb wrote are
    // closed by then: they belong to the verb's scope. Output lost to a full disk must not pass for success
    // (a verb that failed has said why already).
    std::cout.flush();
    const bool written = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
    if (!written && status == 0)
        std::cerr << "qflame: cannot write the output: " << std::strerror(errno) << "\n";
    std::fflush(nullptr);
    std::_Exit(!written && status == 0 ? 2 : status);
}

}   // namespace qflame
