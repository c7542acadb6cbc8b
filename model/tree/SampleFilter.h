// pprof's sample filters, applied while a call tree is built so that the tree, the flat table and the
// flamegraph all follow them. Semantics are those of go tool pprof 1.19: profile.FilterSamplesByName for
// focus / ignore / hide / show, driver.compileTagFilter and profile.FilterSamplesByTag for the tag filters.
//
// Regexes: see PprofRegex.h.
#pragma once

#include "pprof/Profile.h"
#include "tree/PprofRegex.h"
#include "tree/TagFilter.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qflame {

struct SampleFilters {
    // A location matches a regex when the name or the file name of one of its functions (the lines left after
    // drop_frames), or its mapping's file, matches.
    std::string focus;    // keep only samples with a matching location ...
    std::string ignore;   // ... and none matching this
    std::string hide;     // remove matching lines from locations (a matching mapping removes all of them);
                          // a location left without lines leaves its samples, a sample left empty is dropped
    std::string show;     // keep only matching lines (all of them when the mapping matches); a location left
                          // without lines, and so every location that has none, leaves its samples
    std::string tagFocus;    // -tagfocus: see TagFilter
    std::string tagIgnore;   // -tagignore
    // Not a pprof option: a frame that calls itself directly (the same frame at the chosen granularity, twice in
    // a row on a stack, through a real or an inlined call) is folded into one, its outermost occurrence. Flat
    // and cum of every function are unchanged; only the shape of the tree is.
    bool collapseRecursion = false;
    // pprof's -tagroot / -tagleaf (comma-separated label keys): each key's values become a frame at the root or
    // at the leaf of every sample, added before the filters run (tree/LabelFrames.h).
    std::string tagRoot, tagLeaf;
    // Not a pprof option: the tree bottom-up, every stack walked from its leaf, so the roots are the functions
    // samples end in (each root's value is that function's flat). Flat and cum are unchanged.
    bool inverted = false;

    bool addsLabelFrames() const { return !tagRoot.empty() || !tagLeaf.empty(); }
    // Whether the samples' labels matter (ReadOptions::sampleLabels): tag filters and label frames read them.
    bool readsLabels() const { return !tagFocus.empty() || !tagIgnore.empty() || addsLabelFrames(); }

    // Whether focus, ignore, hide or show is set: pprof then drops samples that end up with no location.
    bool filtersFrames() const { return !focus.empty() || !ignore.empty() || !hide.empty() || !show.empty(); }
    bool filtersSamples() const { return filtersFrames() || !tagFocus.empty() || !tagIgnore.empty(); }
    bool any() const { return filtersSamples() || collapseRecursion || addsLabelFrames() || inverted; }
};

// The file of a mapping as pprof's filters see it: empty for the URL placeholders of remote sources
// (driver.unsourceMappings: a file that parses as an absolute URL, in a mapping without build id).
std::string_view filterMappingFile(const Profile &p, uint32_t mapping);

// SampleFilters compiled once for a build over `profiles` (merged, as pprof merges them before filtering).
class CompiledFilters {
public:
    // Throws FilterError when an option cannot be compiled; with no profiles it just validates a spec (a filter
    // bar can check what the user typed before rebuilding anything).
    CompiledFilters(const SampleFilters &spec, const std::vector<std::shared_ptr<const Profile>> &profiles);

    const SampleFilters &spec() const { return m_spec; }
    bool filtersFrames() const { return m_spec.filtersFrames(); }
    bool filtersSamples() const { return m_spec.filtersSamples(); }

private:
    friend class ProfileFilter;
    SampleFilters m_spec;
    std::optional<Regex> m_focus, m_ignore, m_hide, m_show;
    std::optional<TagFilter> m_tagFocus, m_tagIgnore;
    NumLabelUnits m_units;
};

// What the filters decide for one profile: which lines of each location stay, which locations leave the
// samples, and which samples are kept. Computed once per profile (regexes run once per function and mapping).
class ProfileFilter {
public:
    // `skipLines`, when not empty, holds how many innermost lines drop_frames removed from each location: pprof
    // prunes before it filters, so the filters see what is left.
    ProfileFilter(const CompiledFilters &filters, const Profile &p, const std::vector<uint32_t> &skipLines);

    // Whether line `line` (an index into Profile::lines) survives hide and show.
    bool lineKept(uint32_t line) const { return m_lineKept.empty() || m_lineKept[line]; }
    // Whether a location lost all its lines to hide or show and so leaves every sample.
    bool locationHidden(uint32_t location) const { return !m_locHidden.empty() && m_locHidden[location]; }
    // Whether sample `s`, whose stack after drop_frames is Profile::sampleLocations[begin, end), is kept.
    bool keepSample(size_t s, size_t begin, size_t end);

private:
    enum : uint8_t { kNeutral = 0, kFocused = 1, kIgnored = 2 };
    const CompiledFilters &m_filters;
    const Profile &m_p;
    std::vector<uint8_t> m_locClass;    // per location, when focus/ignore/hide/show is set
    std::vector<uint8_t> m_lineKept;    // per line, when hide or show is set
    std::vector<uint8_t> m_locHidden;   // per location, when hide or show is set
    std::optional<TagMatcher> m_tagFocus, m_tagIgnore;
};

}   // namespace qflame
