#include "tree/SampleFilter.h"

namespace qflame {

namespace {

// url.Parse(file).IsAbs(): the text starts with a scheme, [A-Za-z][A-Za-z0-9+.-]*: (a loop, not a regex: every
// `qflame top` asks it of every mapping, and compiling the regex was a tenth of a small profile's run).
bool isUrl(std::string_view s)
{
    auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
    if (s.empty() || !letter(s[0]))
        return false;
    for (size_t i = 1; i < s.size(); ++i) {
        const char c = s[i];
        if (c == ':')
            return true;
        if (!letter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '.' && c != '-')
            return false;
    }
    return false;
}

// Whether a regex matches a function's name or file name, or a mapping's file, computed once per object.
class NameMatcher {
public:
    NameMatcher(const Regex &re, const Profile &p)
        : m_re(re), m_p(p), m_function(p.functions.size(), -1), m_mapping(p.mappings.size(), -1)
    {
    }
    bool function(uint32_t fn)
    {
        int8_t &m = m_function[fn];
        if (m < 0) {
            const Function &f = m_p.functions[fn];
            m = pprofMatch(m_re, m_p.str(f.name)) || pprofMatch(m_re, m_p.str(f.filename));
        }
        return m;
    }
    bool mapping(uint32_t mapping)
    {
        if (mapping == kNone)
            return false;
        int8_t &m = m_mapping[mapping];
        if (m < 0)
            m = pprofMatch(m_re, filterMappingFile(m_p, mapping));
        return m;
    }
    // Location.matchesName over the lines [first, end) left after drop_frames.
    bool location(const Location &loc, uint32_t skip)
    {
        for (uint32_t i = skip; i < loc.lineCount; ++i)
            if (function(m_p.lines[loc.firstLine + i].function))
                return true;
        return mapping(loc.mapping);
    }

private:
    const Regex &m_re;
    const Profile &m_p;
    std::vector<int8_t> m_function, m_mapping;
};

}   // namespace

std::string_view filterMappingFile(const Profile &p, uint32_t mapping)
{
    static const std::string_view none;
    const Mapping &m = p.mappings[mapping];
    if (p.str(m.buildId).empty() && isUrl(p.str(m.file)))
        return none;
    return p.str(m.file);
}

CompiledFilters::CompiledFilters(const SampleFilters &spec,
                                 const std::vector<std::shared_ptr<const Profile>> &profiles)
    : m_spec(spec)
{
    m_focus = compilePprofRegex(spec.focus, "focus");
    m_ignore = compilePprofRegex(spec.ignore, "ignore");
    m_hide = compilePprofRegex(spec.hide, "hide");
    m_show = compilePprofRegex(spec.show, "show");
    if (!spec.tagFocus.empty())
        m_tagFocus = TagFilter::parse(spec.tagFocus, "tagfocus");
    if (!spec.tagIgnore.empty())
        m_tagIgnore = TagFilter::parse(spec.tagIgnore, "tagignore");
    if ((m_tagFocus && m_tagFocus->isRange()) || (m_tagIgnore && m_tagIgnore->isRange()))
        m_units = identifyNumLabelUnits(profiles);
}

ProfileFilter::ProfileFilter(const CompiledFilters &filters, const Profile &p, const std::vector<uint32_t> &skipLines)
    : m_filters(filters), m_p(p)
{
    if (filters.m_tagFocus)
        m_tagFocus.emplace(*filters.m_tagFocus, p, filters.m_units);
    if (filters.m_tagIgnore)
        m_tagIgnore.emplace(*filters.m_tagIgnore, p, filters.m_units);
    if (!filters.filtersFrames())
        return;

    std::optional<NameMatcher> focus, ignore, hide, show;
    if (filters.m_focus)
        focus.emplace(*filters.m_focus, p);
    if (filters.m_ignore)
        ignore.emplace(*filters.m_ignore, p);
    if (filters.m_hide)
        hide.emplace(*filters.m_hide, p);
    if (filters.m_show)
        show.emplace(*filters.m_show, p);

    m_locClass.assign(p.locations.size(), kNeutral);
    if (hide || show) {
        m_lineKept.assign(p.lines.size(), 1);
        m_locHidden.assign(p.locations.size(), 0);
    }
    for (uint32_t l = 0; l < p.locations.size(); ++l) {
        const Location &loc = p.locations[l];
        const uint32_t skip = skipLines.empty() ? 0 : skipLines[l];
        // FilterSamplesByName: focus and ignore look at the location before hide and show change its lines.
        if (ignore && ignore->location(loc, skip))
            m_locClass[l] = kIgnored;
        else if (!focus || focus->location(loc, skip))
            m_locClass[l] = kFocused;
        if (!hide && !show)
            continue;
        uint32_t left = loc.lineCount - skip;
        if (hide && hide->location(loc, skip)) {
            // unmatchedLines: a matching mapping takes every line; otherwise the lines of matching functions go.
            const bool wholeMapping = hide->mapping(loc.mapping);
            for (uint32_t i = skip; i < loc.lineCount; ++i) {
                if (wholeMapping || hide->function(p.lines[loc.firstLine + i].function)) {
                    m_lineKept[loc.firstLine + i] = 0;
                    --left;
                }
            }
            if (left == 0)
                m_locHidden[l] = 1;
        }
        if (show) {
            // matchedLines: a matching mapping keeps the lines left; otherwise only those of matching functions.
            if (!show->mapping(loc.mapping)) {
                for (uint32_t i = skip; i < loc.lineCount; ++i) {
                    uint8_t &kept = m_lineKept[loc.firstLine + i];
                    if (kept && !show->function(p.lines[loc.firstLine + i].function)) {
                        kept = 0;
                        --left;
                    }
                }
            }
            if (left == 0)
                m_locHidden[l] = 1;
        }
    }
}

bool ProfileFilter::keepSample(size_t s, size_t begin, size_t end)
{
    if (m_filters.filtersFrames()) {
        // focusedAndNotIgnored, then the removal of hidden locations and of samples left with none.
        bool focused = false, visible = false;
        for (size_t k = begin; k < end; ++k) {
            const uint32_t loc = m_p.sampleLocations[k];
            if (m_locClass[loc] == kIgnored)
                return false;
            focused |= m_locClass[loc] == kFocused;
            visible |= !locationHidden(loc);
        }
        if (!focused || !visible)
            return false;
    }
    if (m_tagFocus && !m_tagFocus->matches(s))
        return false;
    if (m_tagIgnore && m_tagIgnore->matches(s))
        return false;
    return true;
}

}   // namespace qflame
