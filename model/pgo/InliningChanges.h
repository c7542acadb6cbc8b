// What changed in inlining between two profiles of one program, say two PGO rounds: a call from caller to callee
// can be a real call (the callee is the innermost line of one location, the caller the outermost line of the
// location above it) or inlined (both are lines of one location). PGO moves calls between the two; users saw an
// optimized build with more frames, not fewer, and could not tell why.
//
// Per (caller name, callee name) and side, the weight of the samples that pass through the call as a real call and
// as an inline frame, over whole stacks, each sample counted once per pair and kind. A pair present on both sides
// whose state (called, inlined, both) differs is a change. Besides, the PGO hot edges (pgo/PgoEdges.h) that are
// hot on one side only.
#pragma once

#include "pgo/PgoEdges.h"
#include "pprof/Profile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace qflame {

enum class InlineState { Called, Inlined, Both };

struct CallWeights {
    int64_t called = 0, inlined = 0;
    InlineState state() const;   // both 0 is not a state: such a pair is absent
};

struct InliningChange {
    enum class Kind { BecameInlined, NoLongerInlined, PartlyInlined, PartlyCalled };
    Kind kind;
    std::string caller, callee;
    CallWeights base, next;
};

struct HotEdgeChange {
    bool appeared = true;        // hot in `next` only; false: hot in `base` only
    std::string caller, callee;
    int64_t offset = 0;
    int64_t baseWeight = 0, nextWeight = 0;   // 0 where the edge is absent
};

struct InliningChanges {
    std::string sampleType;                  // "type/unit" the weights are in, on both sides
    std::vector<InliningChange> inlining;    // by max(base, next) total weight descending, then caller, callee
    std::vector<HotEdgeChange> hotEdges;     // appeared first, then vanished; each by weight descending, names
};

// `sampleIndex` picks the sample type of `base` by index; -1: the PGO type (samples/count, else cpu/nanoseconds),
// else the default sample type. The other side uses the type of the same name and unit, or throws ProfileError.
InliningChanges computeInliningChanges(const std::vector<std::shared_ptr<const Profile>> &base,
                                       const std::vector<std::shared_ptr<const Profile>> &next,
                                       int sampleIndex = -1, double threshold = kPgoDefaultHotThreshold);

// "became inlined", "no longer inlined", "partly inlined", "partly called": for tables and the CLI.
const char *inliningKindName(InliningChange::Kind kind);

}   // namespace qflame
