// The weighted call edges that Go's PGO (`go build -pgo=FILE`) builds from a CPU pprof, computed as the compiler
// does (cmd/compile's pgo package over internal/profile's graph), so that a user sees before a build which calls
// the compiler will treat as hot.
//
// The rules, in the compiler's order:
// - The sample type is samples/count if the profile has it, else cpu/nanoseconds; without either the build fails.
//   Samples whose value is 0 are skipped.
// - Only a sample's last two physical frames count: Location[1] (when there are two or more) then Location[0],
//   the leaf. Each location gives one node per line, outermost inline frame first (Line[last] .. Line[0]); a
//   location without lines, or a line without a function, is one node of its address alone. A node is the value
//   (address, function name, function start line, line): two locations with equal values are one node.
// - Each pair of consecutive distinct nodes in that walk is an edge (caller -> callee), counted once per sample
//   with the sample's value. Named edges key node edges by (caller name, callee name, caller's line - caller's
//   start line) and sum their weights; the total weight is the sum over all edges.
// - Several profiles are merged first (as `go tool pprof -proto a b` does): the same as summing their edges, each
//   profile read with its own index of the chosen sample type.
#pragma once

#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

// The compiler's default -d=pgoinlinecdfthreshold: the hot edges are the heaviest ones that make up 99% of the
// weight (and the one that crosses it).
inline constexpr double kPgoDefaultHotThreshold = 99.0;

struct PgoEdge {
    std::string caller, callee;
    int64_t offset = 0;   // the call's line minus the caller's start line
    int64_t weight = 0;
    bool hot = false;
    friend bool operator==(const PgoEdge &, const PgoEdge &) = default;
};

struct PgoEdges {
    std::string sampleType;        // "samples/count" or "cpu/nanoseconds"
    std::vector<PgoEdge> edges;    // weight descending, then caller, callee, offset ascending
    int64_t totalWeight = 0;
    size_t hotCount = 0;           // edges[0 .. hotCount) are hot
    // Whether some node that carries weight has a Function.start_line: the compiler's own test, and without one
    // it refuses the profile (offsets here are then relative to 0, i.e. absolute lines).
    bool hasStartLines = false;
    // Named edges whose caller or callee has no function name (an address-only frame), and their weight.
    size_t unnamedEdges = 0;
    int64_t unnamedWeight = 0;
};

// The index of the sample type the compiler uses (samples/count, else cpu/nanoseconds), or -1.
int pgoSampleTypeIndex(const Profile &profile);

// The edges of the merged profiles, ordered and marked hot at `threshold` (markHotEdges). Throws ProfileError
// when the first profile has neither sample type, or another lacks the one the first uses (naming the file).
PgoEdges computePgoEdges(const std::vector<std::shared_ptr<const Profile>> &profiles,
                         double threshold = kPgoDefaultHotThreshold);

// Marks the hot edges as the compiler's inliner picks them (hotNodesFromCDF): walking the ordered edges and adding
// up their weights, every edge is hot up to and including the first whose cumulative share,
// (double(cum) / double(total)) * 100, exceeds `threshold` (a percentage). So at 0 only the first edge is hot (its
// share is above 0); at 100 no share exceeds it and every edge is hot; when no edge crosses, all are hot.
// Returns the number of hot edges (a prefix of the list).
size_t markHotEdges(std::vector<PgoEdge> &edges, int64_t totalWeight, double threshold);
// The number markHotEdges marks, without marking: the window's threshold moves without copying the list.
size_t hotEdgeCount(const std::vector<PgoEdge> &edges, int64_t totalWeight, double threshold);

// The weight of edges[0 .. i] for every i, added as markHotEdges adds (wrapping where a hostile profile's weights
// overflow): the cum% column of `qflame pgo` and of the window's edge table, and the weight of the hot prefix.
std::vector<int64_t> cumulativeWeights(const std::vector<PgoEdge> &edges);

// A share as `qflame pgo` and the window print it: two decimals and a percent sign ("12.34%").
std::string pgoShareText(double percent);

// The edge share as the compiler computes it (WeightInPercentage): (double(value) / double(total)) * 100.
double pgoPercent(int64_t value, int64_t total);

}   // namespace qflame
