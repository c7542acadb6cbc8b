#include "export/StackExport.h"

#include "export/FoldedWriter.h"
#include "export/ProfileWriter.h"
#include "export/SpeedscopeWriter.h"
#include "io/ReadOptions.h"

#include <QFileInfo>
#include <QSaveFile>
#include <QString>

#include <cstdio>

namespace qflame {

std::optional<StackFormat> parseStackFormat(const std::string &name)
{
    if (name == "pprof")
        return StackFormat::Pprof;
    if (name == "folded")
        return StackFormat::Folded;
    if (name == "speedscope")
        return StackFormat::Speedscope;
    return std::nullopt;
}

std::string stackExportBytes(const CallTree &tree, StackFormat format, const std::string &speedscopeName)
{
    switch (format) {
    case StackFormat::Pprof: return gzipCompress(encodePprof(tree));
    case StackFormat::Folded: return writeFolded(tree);
    case StackFormat::Speedscope: return writeSpeedscope(tree, speedscopeName);
    }
    return {};
}

std::string speedscopeProfileName(const Profile &profile, size_t sampleType)
{
    return QFileInfo(QString::fromStdString(profile.sourceName)).fileName().toStdString() + " " +
           profile.typeName(sampleType) + "/" + profile.unitName(sampleType);
}

void writeExportFile(const std::string &path, const std::string &bytes)
{
    if (path == "-") {
        if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() || std::fflush(stdout) != 0)
            throw ProfileError("<stdout>: cannot write");
        return;
    }
    // QSaveFile replaces the target only once everything is written: a failed export leaves no half file.
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) ||
        !file.commit())
        throw ProfileError(path + ": cannot write: " + file.errorString().toStdString());
}

}   // namespace qflame
