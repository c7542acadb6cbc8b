// The cost of every address of a profile as `go tool pprof -disasm` counts it (pprof's report.PrintAssembly over
// the graph that driver.applyCommandOverrides asks for "disasm": granularity addresses, noinlines): a node per
// (mapping file, address, the location's outermost function, file and line); per sample, with a non-zero value,
// the value goes to the cum of every distinct node on its stack once and to the flat of the first location's node.
// Nodes with neither flat nor cum are dropped, as pprof's graph drops them.
#pragma once

#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

struct AddressNode {
    std::string objfile;     // the mapping's file; empty without a mapping
    std::string buildId;     // the mapping's build id
    uint64_t memoryStart = 0, fileOffset = 0;   // the mapping's, for object addresses of relocated binaries
    uint64_t address = 0;
    std::string function, file;   // the location's outermost line (noinlines); empty without lines
    int64_t line = 0;
    int64_t flat = 0, cum = 0;
    std::string printableName() const;   // pprof's NodeInfo.PrintableName at addresses granularity
};

struct AddressCosts {
    std::string sampleType, unit;
    int64_t total = 0;                 // the sum of |value| over the samples, pprof's Total
    std::vector<AddressNode> nodes;    // by address
};

// `profiles` merged; the type of that name and unit in each (ProfileError when one lacks it).
AddressCosts computeAddressCosts(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                 const std::string &sampleType, const std::string &unit);

}   // namespace qflame
