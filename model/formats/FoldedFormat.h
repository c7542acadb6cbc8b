// Folded ("collapsed") stacks, the text format of FlameGraph's stackcollapse scripts: one stack per line, frames
// from the root to the leaf separated by ';', then whitespace and a count:
//
//     main;run;parse 42
//     main;run;std::vector<int> grow() 7        <- frame names may contain spaces; the count is the last field
//
// Reading turns it into a pprof profile with one sample type (samples/count unless told otherwise); writing a
// call tree as folded stacks is export/FoldedWriter.h.
#pragma once

#include "io/ReadOptions.h"
#include "pprof/Profile.h"

#include <memory>
#include <string>
#include <string_view>

namespace qflame {

struct FoldedOptions {
    // Folded files do not say what they count; FlameGraph calls it "samples".
    std::string sampleType = "samples";
    std::string sampleUnit = "count";
};

// Whether `text` starts like folded stacks: its first non-blank line is "frames<whitespace>integer" with at least
// one frame character. Used to tell formats apart by content.
bool looksLikeFolded(std::string_view text);

// Parses folded stacks (a UTF-8 BOM, blank lines and CRLF line ends are accepted). Throws ProfileError naming
// the first malformed line, or when the stacks would take more memory than read.memoryPerInputByte allows
// (memoryBudget); read.progress is called now and then and may cancel.
std::shared_ptr<const Profile> readFolded(std::string_view text, const std::string &sourceName,
                                          const FoldedOptions &options = {});
std::shared_ptr<const Profile> readFolded(std::string_view text, const std::string &sourceName,
                                          const ReadOptions &read, const FoldedOptions &options = {});

}   // namespace qflame
