#include "io/InputFile.h"

#include "io/Prefault.h"

#include <QFile>

namespace qflame {

namespace {

constexpr qint64 kHugeFrom = qint64(4) << 20;
constexpr qint64 kPopulateFrom = qint64(256) << 10;

UrlReader &urlReader()
{
    static UrlReader reader;
    return reader;
}

}   // namespace

void setUrlReader(UrlReader reader)
{
    urlReader() = std::move(reader);
}

QByteArray readInputBytes(const QString &path, const ReadOptions &options, std::string *sourceName)
{
    // A URL is never a file name here: "http:" would be a folder of the working directory, which nobody has.
    if (path.startsWith(QLatin1String("http://"), Qt::CaseInsensitive) ||
        path.startsWith(QLatin1String("https://"), Qt::CaseInsensitive)) {
        *sourceName = path.toStdString();
        if (!urlReader())
            throw ProfileError(*sourceName + ": this program cannot fetch URLs (qflame-gui can)");
        return urlReader()(path, options, sourceName);
    }
    QFile file;
    std::string name = path.toStdString();
    bool ok;
    if (path == QLatin1String("-")) {
        name = "<stdin>";
        ok = file.open(stdin, QIODevice::ReadOnly);
    } else {
        file.setFileName(path);
        ok = file.open(QIODevice::ReadOnly);
    }
    *sourceName = name;
    if (!ok)
        throw ProfileError(name + ": cannot open: " + file.errorString().toStdString());
    // Compressed input is at most ~1/1000 of its inflated size for real data; refusing files far over the cap
    // before reading them keeps a huge wrong file from being slurped into memory.
    if (file.size() > 0 && uint64_t(file.size()) > options.maxDecompressedBytes)
        throw ProfileError(name + ": the file is larger than the size limit of " +
                           std::to_string(options.maxDecompressedBytes) + " bytes");
    QByteArray bytes;
    if (file.isSequential()) {
        while (!file.atEnd()) {
            bytes += file.read(1 << 20);
            if (uint64_t(bytes.size()) > options.maxDecompressedBytes)
                throw ProfileError(name + ": the input is larger than the size limit of " +
                                   std::to_string(options.maxDecompressedBytes) + " bytes");
            if (file.error() != QFileDevice::NoError)
                break;
        }
    } else if (file.size() >= kPopulateFrom) {
        // Read straight into memory on huge pages (Prefault.h): 10 MB of fresh 4 KiB pages filled by read() cost
        // 10-20 ms of page faults on this project's VM, a fifth of what `qflame top` spends beside the work.
        // Smaller files get no huge page (they would not fill one), but their pages are faulted in with one
        // call before the read: read() into fresh memory took 138 of the 660 page faults of `qflame top
        // pprof__large.cpu` (1.2 MB).
        bytes = QByteArray(file.size(), Qt::Uninitialized);
        if (file.size() >= kHugeFrom)
            adviseHugePages(bytes.data(), size_t(bytes.size()));
        populateForWrite(bytes.data(), size_t(bytes.size()));
        qint64 got = 0;
        while (got < bytes.size()) {
            const qint64 n = file.read(bytes.data() + got, bytes.size() - got);
            if (n <= 0)
                break;
            got += n;
        }
        bytes.resize(got);
    } else {
        bytes = file.readAll();
    }
    if (file.error() != QFileDevice::NoError)
        throw ProfileError(name + ": cannot read: " + file.errorString().toStdString());
    return bytes;
}

}   // namespace qflame
