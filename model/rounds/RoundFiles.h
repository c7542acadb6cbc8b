// The files of rounds, read through the front door on the pool's threads (a round may hold hundreds of files):
// what `qflame rounds` and the window's rounds tab both call.
#pragma once

#include "io/ReadOptions.h"
#include "rounds/Rounds.h"

#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct RoundFiles {
    std::string name;
    std::vector<QString> paths;
};

// The profiles of every round, in the order given. The first failure in that order is thrown as ProfileError
// "round NAME: FILE: ..."; options.progress (from any thread) sees the fraction of files read, and returning
// false throws Cancelled once the files under way are read.
std::vector<RoundInput> readRoundFiles(const std::vector<RoundFiles> &rounds, const ReadOptions &options);

// Rounds read and compared, for the window's rounds tab (LoadJob.h, qryn/ServerRounds.h). The inputs are kept, so
// that another sample type, noise setting or set of rounds (renamed, reordered, one removed) is compared again
// without reading again.
struct LoadedRounds {
    std::vector<RoundInput> inputs;
    RoundsOptions options;
    std::shared_ptr<const RoundsResult> result;
    QString error;   // empty on success; one line otherwise
};

}   // namespace qflame
