// Per-frame flat and cum values, exactly as `go tool pprof -top` computes them.
#pragma once

#include "pprof/Profile.h"
#include "tree/CallTree.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

struct BuildOptions;

struct FlatRow {
    FrameId frame = 0;
    int64_t flat = 0;   // value of the samples whose leaf is this frame
    int64_t cum = 0;    // value of the samples with this frame anywhere on the stack, counted once per sample
    // pprof's marker: every call into this frame was inlined ("(inline)"), or only some ("(partial-inline)").
    enum class Inline : uint8_t { No, Always, Partly } inlined = Inline::No;
};

class FlatTable {
public:
    // Rows for every frame with a non-zero flat or cum, sorted like `qflame top --tsv`: flat descending,
    // then cum descending, then label.
    static std::shared_ptr<const FlatTable> compute(std::shared_ptr<const CallTree> tree);
    // The same rows straight from the samples, without building the tree (`qflame top`: a third of the time
    // on deep profiles). tree() of such a table is the root alone: totals, frames and sample type.
    static std::shared_ptr<const FlatTable> compute(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                                    size_t typeIndex, const BuildOptions &options);

    const std::vector<FlatRow> &rows() const { return m_rows; }
    // The label of rows()[row], held beside the rows: reached through the frame table (frame, string id,
    // string, bytes: three dependent cache misses for rows in value order) it was most of printing a
    // 23,000-row `qflame top`. Valid as long as the table.
    std::string_view label(size_t row) const { return m_labels[row]; }
    const CallTree &tree() const { return *m_tree; }
    std::shared_ptr<const CallTree> treePtr() const { return m_tree; }
    int64_t total() const { return m_tree->total(CallTree::kRoot); }
    // The frame label with pprof's inline suffix, as pprof -top prints it.
    std::string displayName(const FlatRow &row) const;
    static const char *inlineSuffix(FlatRow::Inline inlined);   // " (inline)", " (partial-inline)" or ""
    // Row index of a frame, or -1.
    int rowOf(FrameId frame) const;

private:
    static std::shared_ptr<const FlatTable> finish(std::shared_ptr<const CallTree> tree,
                                                   const std::vector<int64_t> &flat, const std::vector<int64_t> &cum,
                                                   const std::vector<uint8_t> &inlineIn,
                                                   const std::vector<uint8_t> &calledIn);
    std::shared_ptr<const CallTree> m_tree;
    std::vector<FlatRow> m_rows;
    std::vector<std::string_view> m_labels;   // by row; views into tree().frames()' strings
    std::vector<int> m_rowOfFrame;
};

}   // namespace qflame
