// A call tree's stacks written out, as `qflame convert --to` and the window's File > Export write them: one
// function for both, so the two give the same bytes. The file is written whole or not at all.
#pragma once

#include "pprof/Profile.h"
#include "tree/CallTree.h"

#include <optional>
#include <string>

namespace qflame {

enum class StackFormat { Pprof, Folded, Speedscope };

// "pprof", "folded" or "speedscope" (convert's --to); nothing for another name.
std::optional<StackFormat> parseStackFormat(const std::string &name);

// The tree's stacks (root first, as the tree holds them): gzip pprof of its nodes and values (one sample type),
// folded stacks, or speedscope JSON whose one profile is called `speedscopeName`.
std::string stackExportBytes(const CallTree &tree, StackFormat format, const std::string &speedscopeName = {});

// Speedscope's name for a profile's tree: the file's name and the sample type ("cpu.pprof samples/count").
std::string speedscopeProfileName(const Profile &profile, size_t sampleType);

// Writes `bytes` to `path` whole, through a temporary file, so that a failed write leaves no half file behind;
// "-" is standard output. Throws ProfileError "PATH: cannot write: WHY".
void writeExportFile(const std::string &path, const std::string &bytes);

}   // namespace qflame
