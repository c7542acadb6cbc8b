#include "qryn/PprofExport.h"

#include "export/ProfileWriter.h"

#include <QFile>
#include <QSaveFile>

namespace qflame::qryn {

QString writeGzipPprof(const QString &path, const QByteArray &pprof, bool overwrite)
{
    const std::string compressed = gzipCompress(std::string_view(pprof.constData(), size_t(pprof.size())));
    const QByteArray gz = QByteArray::fromStdString(compressed);
    if (overwrite) {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(gz) != gz.size() || !f.commit())
            return QStringLiteral("cannot write %1: %2").arg(path, f.errorString());
        return {};
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        if (QFile::exists(path))
            return QStringLiteral("%1 already exists").arg(path);
        return QStringLiteral("cannot create %1: %2").arg(path, f.errorString());
    }
    if (f.write(gz) != gz.size() || !f.flush()) {
        const QString error = f.errorString();
        f.close();
        f.remove();
        return QStringLiteral("cannot write %1: %2").arg(path, error);
    }
    return {};
}

}   // namespace qflame::qryn
