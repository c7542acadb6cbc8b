#include "DiffPicture.h"

#include "compare/DiffSource.h"
#include "flame/FlamePainter.h"

#include <QFontMetrics>
#include <QGuiApplication>
#include <QPalette>

namespace qflame {

std::string writeDiffPicture(std::shared_ptr<const DiffTree> diff, const std::string &path, bool svg, int width)
{
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return "drawing needs the GUI libraries (internal error: no QGuiApplication)";
    DiffSource source(std::move(diff), DiffWidth::Max, DiffColoring{});
    FlamePainter painter(source);
    painter.view = source.layout().fullViewport();
    painter.options.palette = QGuiApplication::palette();
    painter.options.palette.setColor(QPalette::Base, Qt::white);   // pictures are for reports: always light
    painter.options.palette.setColor(QPalette::Mid, QColor(0xa0, 0xa0, 0xa0));
    painter.font = QGuiApplication::font();
    painter.rowHeight = QFontMetrics(painter.font).height() + 4;
    const QString file = QString::fromStdString(path);
    const bool ok = svg ? painter.svg(file, width, QStringLiteral("qflame diff"))
                        : painter.image(width).save(file, "PNG");
    if (!ok)
        return path + ": cannot write the " + (svg ? "SVG" : "PNG") + " file";
    return {};
}

}   // namespace qflame
