// A server's flamegraph as our model: the flamegraph's stacks become a pprof profile (StackProfileBuilder fills
// our Profile directly, valid by construction), then a CallTree and flat
// table. Every view, table and diff that works on profiles then works on a server's answer unchanged.
#pragma once

#include "pprof/Profile.h"
#include "qryn/FlamegraphLevels.h"
#include "qryn/QrynTypes.h"
#include "tree/CallTree.h"

#include <memory>
#include <string>
#include <vector>

namespace qflame::qryn {

struct StackProfileSpec {
    std::vector<SampleTypeInfo> sampleTypes;   // one per value of a stack
    SampleTypeInfo periodType;                 // empty type: not set
    int64_t period = 0;
    int64_t durationNanos = 0;                 // e.g. the query's window, for per-second views
};

// The stacks as a profile: one function and one location per distinct frame name, one sample per stack (a
// flamegraph's stacks are distinct; equal ones would be two samples, summed by every tree).
// Throws ProfileError.
std::shared_ptr<const Profile> stacksToProfile(const StackSet &stacks, const StackProfileSpec &spec,
                                               const std::string &sourceName);

// The sample and period type of a profile type ID: "process_cpu:cpu:nanoseconds:cpu:nanoseconds" gives sample
// type cpu/nanoseconds and period type cpu/nanoseconds.
StackProfileSpec specFor(const ProfileType &type);

// A flamegraph (single layout) as a profile of `type` lasting durationNanos. Returns null and sets *why when the
// levels are inconsistent (see decodeLevels), or when answerBytes is not 0 and the stacks would hold more frames
// than an answer of that size may (memoryBudget of ReadOptions' defaults, 8 bytes a frame: the stacks and the
// profile's copy of them).
std::shared_ptr<const Profile> flamegraphToProfile(const Flamegraph &graph, const ProfileType &type,
                                                   int64_t durationNanos, const std::string &sourceName,
                                                   QString *why, uint64_t answerBytes = 0);

// Flamegraphs of the same samples in different sample types (process_cpu's cpu and samples, say) as one profile
// with one sample type per flamegraph, in that order: stacks are matched by their path of names, a stack missing
// from a flamegraph has 0 there. The period type is the first type's. With samples/count among them, a diff can
// tell noise from change (DiffSide's count tree). Returns null and sets *why like flamegraphToProfile.
std::shared_ptr<const Profile> flamegraphsToProfile(const std::vector<Flamegraph> &graphs,
                                                    const std::vector<ProfileType> &types, int64_t durationNanos,
                                                    const std::string &sourceName, QString *why);

// Fills out->tree (function granularity) and out->flat from out->profile.
void buildTree(MergedFlamegraph *out);

// out->graph as out->profile, out->tree and out->flat. Returns false and sets *why like flamegraphToProfile.
bool buildMergedFlamegraph(MergedFlamegraph *out, const ProfileType &type, int64_t durationNanos,
                           const std::string &sourceName, QString *why, uint64_t answerBytes = 0);

}   // namespace qflame::qryn
