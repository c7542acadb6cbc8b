#include "WindowFiles.h"

#include "Cli.h"

#include <QFileInfo>
#include <QtGlobal>

#include <string>

namespace qflame {

std::optional<WindowFiles> windowFilesOf(int argc, char **argv)
{
    if (argc < 2 || isCliVerb(argv[1]))
        return std::nullopt;
    WindowFiles window;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--time-to-paint")
            continue;
        if (arg == "--inverted") {
            window.inverted = true;
            continue;
        }
        if (arg == "--max-size" || arg.rfind("--max-size=", 0) == 0) {
            if (arg == "--max-size" && i + 1 >= argc)
                return std::nullopt;
            window.maxReadBytes = maxSizeBytes(arg == "--max-size" ? argv[++i] : arg.substr(11));
            if (!window.maxReadBytes)
                return std::nullopt;
            continue;
        }
        const QString file = QString::fromLocal8Bit(argv[i]);
        if (file.startsWith(QLatin1Char('-')) || !QFileInfo(file).isFile())
            return std::nullopt;
        window.files << file;
    }
    if (window.files.isEmpty() || window.files.size() > 2)
        return std::nullopt;
    return window;
}

bool noDisplayNamed()
{
    const QByteArray platform = qgetenv("QT_QPA_PLATFORM");
    const bool wantsDisplay = platform.isEmpty() || platform.startsWith("xcb") || platform.startsWith("wayland");
    return wantsDisplay && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

}   // namespace qflame
