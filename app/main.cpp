// qflame-gui: the whole program. The window, the verbs that draw (diff --png/--svg) and the ones that ask a
// server; the other verbs run here too, as in `qflame`, which starts this program for everything it does not do
// itself.
#include "Cli.h"
#include "CliQryn.h"
#include "CliRender.h"
#include "DiffPicture.h"
#include "MainWindow.h"

#include <QApplication>
#include <QGuiApplication>

#include <iostream>

int main(int argc, char **argv)
{
    qflame::setServerVerbs(qflame::qrynVerbs());
    if (const std::optional<int> status = qflame::runHeadless(argc, argv))
        return *status;
    if (argc >= 2 && qflame::isCliVerb(argv[1])) {
        // A verb that draws needs fonts and painting: a GUI application, offscreen unless a display is there,
        // so that it works on servers and in CI alike.
        qflame::setDiffPictureWriter(qflame::writeDiffPicture);
        qflame::quietQtMessages();
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        QGuiApplication app(argc, argv);
        qflame::endVerbProcess(qflame::runCli(argv[1], std::vector<std::string>(argv + 2, argv + argc)));
    }

    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("qflame"));
    QApplication::setOrganizationName(QStringLiteral("qflame"));
    QApplication::setApplicationVersion(QStringLiteral(QFLAME_VERSION));
    qflame::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QStringList files = QApplication::arguments().mid(1);   // without Qt's own options (-platform, --style ...)
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
