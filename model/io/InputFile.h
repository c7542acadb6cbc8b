// The bytes of a file or of standard input, read under the size cap before any reader sees them.
#pragma once

#include "io/ReadOptions.h"

#include <QByteArray>
#include <QString>

#include <string>

namespace qflame {

// The raw bytes of a file ("-": standard input), refusing more than options.maxDecompressedBytes; sets
// *sourceName to the name for messages. Throws ProfileError.
QByteArray readInputBytes(const QString &path, const ReadOptions &options, std::string *sourceName);

}   // namespace qflame
