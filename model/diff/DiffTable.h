// Per-function flat and cum of both sides of a DiffTree and their deltas, as `go tool pprof -top -diff_base`
// computes them: flat is the value of the samples whose leaf is the function, cum the value of the samples with
// the function anywhere on the stack, counted once per sample.
#pragma once

#include "diff/DiffTree.h"
#include "tree/FlatTable.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace qflame {

struct DiffRow {
    FrameId frame = 0;   // in DiffTree::frames()
    int64_t beforeFlatRaw = 0, beforeCumRaw = 0, afterFlatRaw = 0, afterCumRaw = 0;
    double beforeFlat = 0, beforeCum = 0, afterFlat = 0, afterCum = 0;   // normalised
    double deltaFlat = 0, deltaCum = 0;                                  // after - before, normalised
    // Samples behind the cum values (0 when unknown), and the standard errors of the deltas (0 when unknown).
    double beforeCumSamples = 0, afterCumSamples = 0;
    double standardErrorFlat = 0, standardErrorCum = 0;
    bool inBefore = false, inAfter = false;   // some node of the function exists on that side
    DiffClass diffClass = DiffClass::Unchanged;       // by deltaCum
    DiffClass flatDiffClass = DiffClass::Unchanged;   // by deltaFlat
    // pprof's marker over both profiles: "(inline)" when every call into the function was inlined.
    FlatRow::Inline inlined = FlatRow::Inline::No;
    // standardErrorCum (and so diffClass) is a measured one (MeasuredNoise), not Poisson's.
    bool measuredNoise = false;
};

// Noise measured from the data rather than assumed: the spread of two rounds' observations (model/rounds), per
// function, as standard errors of the cum delta in the diff's normalised unit. Where it names a function, the
// function's class uses it instead of Poisson's; the frames of the diff flamegraph keep Poisson's.
struct MeasuredNoise {
    Normalization normalization = Normalization::PerSecond;   // the unit the errors are in: applied only there
    std::map<std::string, double> cumStandardError;           // by displayName ("main.run", "f (inline)")
    // Per call edge, caller -> callee (frame labels, as the call graph names its nodes): the standard error of
    // its weight's delta, from the rounds' per-file edge weights (graph/GraphMarks.h uses it).
    std::map<std::pair<std::string, std::string>, double> edgeStandardError;
    double totalStandardError = 0;                            // of the whole profile's change
    std::string source;                                       // "the rounds base (6 observations) and pgo-1 (6)"
};

class DiffTable {
public:
    // A row for every function on either side, sorted by |deltaCum| descending, then by displayName.
    // With `measured` (and the tree under its normalisation), its errors classify the functions it names.
    static std::shared_ptr<const DiffTable> compute(std::shared_ptr<const DiffTree> tree,
                                                    std::shared_ptr<const MeasuredNoise> measured = nullptr);

    const std::vector<DiffRow> &rows() const { return m_rows; }
    const DiffTree &tree() const { return *m_tree; }
    std::shared_ptr<const DiffTree> treePtr() const { return m_tree; }
    // The label with pprof's inline suffix, as `pprof -top` prints it.
    std::string displayName(const DiffRow &row) const;
    const std::string &label(const DiffRow &row) const { return m_tree->frames().label(row.frame); }
    // Row index of a frame, or -1.
    int rowOf(FrameId frame) const;

private:
    std::shared_ptr<const DiffTree> m_tree;
    std::vector<DiffRow> m_rows;
    std::vector<int> m_rowOfFrame;
};

}   // namespace qflame
