// Reading, building and flat tables off the GUI thread, with progress and cancel.
#pragma once

#include "diff/DiffTable.h"
#include "io/ReadOptions.h"
#include "layout/FlameLayout.h"
#include "rounds/RoundFiles.h"
#include "rounds/Rounds.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QFuture>
#include <QString>
#include <QStringList>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace qflame {

// Says that a first look has been shown. The job that sent it waits for this, at most longestWait(), before it
// builds the rest of the tree on both cores: the window's paint of the first look then has a core to itself. On
// this project's 2-core VM the paint of r64's first look took 15-20 ms beside the build and 4 ms alone, and the
// first paint came 14-23 ms sooner (docs/benchmarks.md, "The first paint's core").
class FirstLookShown {
public:
    void notify();
    bool isShown() const;
    // True once notified; false when `timeout` passed first.
    bool waitFor(std::chrono::milliseconds timeout);

    // How long a job waits for a first look nobody paints (a window hidden, a receiver that ignores it).
    static void setLongestWait(std::chrono::milliseconds wait);
    static std::chrono::milliseconds longestWait();

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_shown = false;
};

// One view's worth of model: the profiles it came from, and the tree and table of one sample type.
struct LoadedView {
    std::vector<std::shared_ptr<const Profile>> profiles;
    int sampleType = -1;
    Granularity granularity = Granularity::Functions;
    SampleFilters filters;
    std::shared_ptr<const CallTree> tree;
    std::shared_ptr<const FlameLayout> layout;   // of tree, laid out here rather than on the GUI thread
    std::shared_ptr<const FlatTable> flat;
    QString error;   // empty on success; one line otherwise
    // A large tree comes in two results (tree/StagedTree.h): first a first look (isFirstLook: `tree` and `layout`
    // are the first look's, `flat` is empty), then the whole view, whose `firstLook` names the tree it follows.
    bool isFirstLook = false;
    std::shared_ptr<const CallTree> firstLook;
    // Of a first look: notify() once it is on the screen (or will not be); the rest of the tree waits for it.
    std::shared_ptr<FirstLookShown> shown;
};

// Reads `paths` (merged when several) and builds the default sample type (or `sampleType` when >= 0).
// Progress goes 0..1000; cancelling the future stops the work at the next check. The future's last result is
// the view; a large tree's first look comes before it, as result 0.
QFuture<LoadedView> loadFilesAsync(const QStringList &paths, int sampleType, Granularity granularity,
                                   ReadOptions options = {}, SampleFilters filters = {});

// Rebuilds the tree of already-read profiles for another sample type, granularity or set of filters.
QFuture<LoadedView> rebuildAsync(std::vector<std::shared_ptr<const Profile>> profiles, int sampleType,
                                 Granularity granularity, SampleFilters filters = {});

// A comparison: both sides read and the diff built for one sample type of the baseline.
struct LoadedDiff {
    std::vector<std::shared_ptr<const Profile>> before, after;
    int sampleType = -1;
    Granularity granularity = Granularity::Functions;
    SampleFilters frames;   // label frames (tagRoot, tagLeaf) and bottom-up (inverted) of both sides
    std::shared_ptr<const DiffTree> diff;
    std::shared_ptr<const DiffTable> table;
    QString error;
};

QFuture<LoadedDiff> loadDiffAsync(const QStringList &before, const QStringList &after, int sampleType,
                                  Granularity granularity, DiffOptions options, ReadOptions readOptions = {});
// Rebuilds a comparison of already-read profiles for another sample type or granularity.
QFuture<LoadedDiff> rebuildDiffAsync(std::vector<std::shared_ptr<const Profile>> before,
                                     std::vector<std::shared_ptr<const Profile>> after, int sampleType,
                                     Granularity granularity, DiffOptions options, SampleFilters frames = {});

// A tab's files as a window opens them by default (functions, the default sample type, a diff's default options):
// one profile (after empty) or a comparison. What `qflame FILE` and `qflame BASE NEW` start before there is a
// window, whose tab takes the job over (ui/document/PaneReading.cpp; app/WindowHandoff.h). startOpening takes
// one file, or two compared (the base first); other counts start nothing.
struct OpeningJob {
    QStringList before, after;
    QFuture<LoadedView> view;   // valid for a profile
    QFuture<LoadedDiff> diff;   // valid for a comparison
};
OpeningJob startOpening(const QStringList &files, bool inverted, ReadOptions options);

// Rounds (rounds/): every file read, then the rounds compared (LoadedRounds: rounds/RoundFiles.h; a server's:
// qryn/ServerRounds.h's fetchServerRoundsAsync).
QFuture<LoadedRounds> loadRoundsAsync(std::vector<RoundFiles> rounds, RoundsOptions options,
                                      ReadOptions readOptions = {});
QFuture<LoadedRounds> compareRoundsAsync(std::vector<RoundInput> inputs, RoundsOptions options);

}   // namespace qflame
