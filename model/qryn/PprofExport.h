// Saving a merged profile the way `profilecli query merge --output pprof=FILE` does, ready for `go build -pgo`.
#pragma once

#include <QByteArray>
#include <QString>

namespace qflame::qryn {

// Writes pprof gzip-compressed to path. Without `overwrite` an existing file is left alone and reported (the
// file is created exclusively, as profilecli opens it with O_EXCL); with it the file is replaced atomically.
// Returns an empty string on success, otherwise one line saying what went wrong.
QString writeGzipPprof(const QString &path, const QByteArray &pprof, bool overwrite);

}   // namespace qflame::qryn
