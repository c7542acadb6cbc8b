// The bytes of a file or of standard input, read under the size cap before any reader sees them.
#pragma once

#include "io/ReadOptions.h"

#include <QByteArray>
#include <QString>

#include <functional>
#include <string>

namespace qflame {

// The bytes of an http(s) URL given where a FILE is expected (fetch/ProfileFetch.h installs it, with QtNetwork,
// which this layer does not link). Sets *sourceName like readInputBytes; throws ProfileError.
using UrlReader = std::function<QByteArray(const QString &url, const ReadOptions &options, std::string *sourceName)>;
void setUrlReader(UrlReader reader);

// The raw bytes of a file ("-": standard input; an http:// or https:// URL through the UrlReader), refusing more than options.maxDecompressedBytes; sets
// *sourceName to the name for messages. Throws ProfileError.
QByteArray readInputBytes(const QString &path, const ReadOptions &options, std::string *sourceName);

}   // namespace qflame
