// Devirtualisation candidates: call sites (caller, offset) where the profile saw more than one callee. Go's PGO
// turns a hot indirect call (an interface or closure call) into a check for its heaviest callee plus a direct,
// inlinable call. Only the compiler knows which sites are indirect (several callees at one line may also be
// several direct calls on that line), so these are candidates, not promises.
#pragma once

#include "pgo/PgoEdges.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

struct PgoCallSite {
    std::string caller;
    int64_t offset = 0;
    size_t callees = 0;          // distinct callees seen at the site (> 1)
    std::string heaviest;        // the heaviest callee; of equal weights, the first by name
    int64_t heaviestWeight = 0;
    int64_t siteWeight = 0;      // all callees of the site
    double siteShare = 0;        // heaviestWeight of siteWeight, percent
    double totalShare = 0;       // heaviestWeight of the profile's total weight, percent
    friend bool operator==(const PgoCallSite &, const PgoCallSite &) = default;
};

// The sites with more than one callee, heaviest callee weight descending, then caller, offset ascending.
std::vector<PgoCallSite> devirtualisationCandidates(const PgoEdges &edges);

}   // namespace qflame
