// Reading any profile format qflame knows, told apart by content (never by file name): pprof protobuf, folded
// stacks and flamebearer JSON, each raw or compressed with gzip or zstd. Every reader path (CLI verbs, the window)
// calls this, so they all accept the same inputs.
#pragma once

#include "ProfileReader.h"

#include <QString>

#include <memory>
#include <string>
#include <string_view>

namespace qflame {

enum class ProfileFormat { Pprof, Folded, Flamebearer };
const char *profileFormatName(ProfileFormat f);

// What uncompressed `bytes` hold: JSON starting with '{' is flamebearer, text whose first line is "stack count" is
// folded, anything else is handed to the pprof reader (which says why, if it is not pprof either).
ProfileFormat sniffProfileFormat(std::string_view bytes);

// Decompresses (honouring options.maxDecompressedBytes), sniffs and reads. Errors name `sourceName`.
std::shared_ptr<const Profile> readAnyProfile(std::string_view bytes, const std::string &sourceName,
                                              const ReadOptions &options = {});

// Reads a file of any format; "-" reads standard input. Same messages and size limits as readProfileFile.
std::shared_ptr<const Profile> readAnyProfileFile(const QString &path, const ReadOptions &options = {});

}   // namespace qflame
