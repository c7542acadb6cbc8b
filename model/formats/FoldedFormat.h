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

// Whether `text` starts like folded stacks: its first line that is neither blank nor a '#' comment is
// "frames<whitespace>integer" with at least one frame character (UTF-16 text decoded first). Used to tell formats apart by content.
bool looksLikeFolded(std::string_view text);

// Parses folded stacks (a UTF-8 BOM, blank lines and CRLF line ends are accepted; UTF-16 with its BOM, either
// byte order, is read as its UTF-8). Lines whose first non-blank character is '#', and lines that are not
// "frames COUNT", are skipped as flamegraph.pl skips them: counted in a comment of the profile and told to
// read.warning in one line. Throws ProfileError naming the first malformed line when no line is a stack, or when the stacks would take more memory than read.memoryPerInputByte allows
// (memoryBudget); read.progress is called now and then and may cancel.
std::shared_ptr<const Profile> readFolded(std::string_view text, const std::string &sourceName,
                                          const FoldedOptions &options = {});
std::shared_ptr<const Profile> readFolded(std::string_view text, const std::string &sourceName,
                                          const ReadOptions &read, const FoldedOptions &options = {});

}   // namespace qflame
