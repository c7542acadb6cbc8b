// The cost of every source line of the functions a regex picks, as `go tool pprof -list` counts it: the profile
// at line granularity, one node per (function name, file, line) with inline frames as nodes of their own; per
// sample the value goes to the cum of every distinct node on its stack once, and to the flat of its leaf (the
// innermost line of the first location). Functions are kept in name order, each with its files in name order.
#pragma once

#include "io/Regex.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct LineCost {
    int64_t flat = 0, cum = 0;
};

struct FileLineCosts {
    std::string file;                      // as pprof shows it: the profile's path, trimmed and cleaned
    std::map<int64_t, LineCost> lines;     // by line number; only lines with a node
    int64_t flat = 0, cum = 0;             // the sums over the lines (pprof's ROUTINE header)
};

struct FunctionLineCosts {
    std::string name;
    std::vector<FileLineCosts> files;      // by file name; empty: no source information
};

struct LineCosts {
    std::string sampleType, unit;
    int64_t total = 0;                     // the sum of |value| over the samples, pprof's Total
    std::vector<FunctionLineCosts> functions;
};

// `profiles` are merged; `sampleType` indexes the first, the others use the type of the same name and unit
// (ProfileError otherwise). `displayPath` maps a profile's file name to the path pprof groups and shows it by
// (its trimming; then cleaned as Go's filepath.Clean, tree/FrameTable's cleanPath); null keeps it.
LineCosts computeLineCosts(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t sampleType,
                           const Regex &functions,
                           const std::function<std::string(const std::string &)> &displayPath = {});

}   // namespace qflame
