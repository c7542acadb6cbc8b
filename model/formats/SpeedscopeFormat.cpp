#include "formats/SpeedscopeFormat.h"

#include "formats/FlamebearerFormat.h"
#include "formats/JsonStream.h"
#include "formats/SpeedscopeEvents.h"
#include "formats/StackProfile.h"
#include "time/Timeline.h"

#include <cmath>
#include <optional>
#include <vector>

namespace qflame {

namespace {

// Values are stored as int64; a weight this large is no real profile's, and rounding it would lose digits.
constexpr double kMaxValue = 4.0e18;

// What the first pass keeps of every profile of the file: enough to pick one and to read it in the second.
struct ProfileInfo {
    uint32_t name = 0, type = 0, unit = 0;   // into Reader::m_texts; 0: not a string
    bool isObject = false, hasStart = false, hasEnd = false;
    double start = 0, end = 0;
};

enum Role {
    kTop = 1, kShared, kFrames, kFrame, kProfiles, kProfile,
    kSamples, kSample, kWeights, kEvents, kEvent, kCount
};

class Reader : public JsonVisitor {
public:
    Reader(const std::string &sourceName, const ReadOptions &options)
        : m_source(sourceName), m_options(options), m_texts{""}
    {
    }

    [[noreturn]] void fail(const std::string &what) const { throw ProfileError(m_source + ": speedscope: " + what); }

    std::shared_ptr<const Profile> read(std::string_view json)
    {
        m_budget = memoryBudget(m_options, json.size());
        m_refusal = stackMemoryRefusal(m_source + ": speedscope: ", m_options, m_budget);
        // Pass 1: the frames and what each profile is; pass 2: the chosen profile's samples or events.
        m_pass = 1;
        readJson(json, *this, m_source + ": ", m_options.maxJsonDepth);
        if (!m_isObject)
            fail("the document is not an object");
        if (!m_hasFrames)
            fail("no \"shared\" object with a \"frames\" array");
        pick();
        const ProfileInfo &p = m_profiles[m_chosen];
        const std::string kind(m_texts[p.type]);
        if (kind != "sampled" && kind != "evented")
            fail("profile type \"" + kind + "\" is neither \"sampled\" nor \"evented\"");
        m_evented = kind == "evented";
        const StackProfileBuilder::SampleType type = unitOf(m_texts[p.unit]);
        m_countToo = !m_evented && type.unit != "count";
        std::vector<StackProfileBuilder::SampleType> types;
        if (m_countToo)
            types.push_back({"samples", "count"});
        types.push_back(type);
        StackProfileBuilder b(types);
        m_builder = &b;
        b.setMemoryLimit(m_budget, m_refusal);
        b.addComment("qflame: imported from speedscope, " +
                     (m_all ? std::to_string(m_profiles.size()) + " " + kind + " profiles, one thread each"
                            : kind + " profile \"" + std::string(m_texts[p.name]) + "\""));
        m_ids.assign(m_frames.size(), 0);
        const bool timed = type.unit == "nanoseconds";
        // A sampled profile in time units: sample i starts where the weights before it end (time/Timeline.h);
        // several profiles' samples are collected, each on its own thread, and put in time order at the end.
        if (!m_evented && timed && !m_all)
            m_timeline = std::make_shared<Timeline>();
        m_timedSampled = !m_evented && timed && m_all;
        if (m_evented)
            m_tree.emplace(m_source + ": speedscope: ", timed);   // an evented profile's intervals, when timed
        m_pass = 2;
        readJson(json, *this, m_source + ": ", m_options.maxJsonDepth);
        if (m_tree)
            m_tree->finish(b);
        // The recording's length: from the first profile's start to the last one's end.
        int64_t from = INT64_MAX, to = INT64_MIN;
        for (size_t i = 0; timed && i < m_profiles.size(); ++i)
            if ((m_all || i == m_chosen) && m_profiles[i].hasStart && m_profiles[i].hasEnd) {
                from = std::min(from, scaled(m_profiles[i].start, [] { return "startValue"; }));
                to = std::max(to, scaled(m_profiles[i].end, [] { return "endValue"; }));
            }
        if (timed && to > from)
            b.setDurationNanos(to - from);
        if (m_timedSampled && m_sampledEvents.size())
            b.setTimeline(m_sampledEvents.build(m_countToo ? std::vector<uint8_t>{0, 1} : std::vector<uint8_t>{1}));
        if (m_timeline && !m_timeline->sample.empty()) {
            Timeline &t = *m_timeline;
            t.startNanos = p.hasStart ? scaled(p.start, [] { return "startValue"; }) : 0;
            t.endNanos = t.spanNanos + m_gap;
            t.gapWeights = true;
            t.weighted = m_countToo ? std::vector<uint8_t>{0, 1} : std::vector<uint8_t>{1};
            t.threadNames = {std::string(m_texts[p.name])};
            b.setTimeline(std::move(m_timeline));
        }
        m_builder = nullptr;
        return b.build(m_source);
    }

    int enter(const JsonAt &at, bool isArray) override
    {
        switch (at.role) {
        case kJsonTop:
            m_isObject = !isArray;
            return isArray ? kJsonSkip : kTop;
        case kTop:
            if (at.key == "shared")
                return isArray ? kJsonSkip : kShared;
            if (at.key == "profiles" && isArray) {
                // A key given twice: the last one counts.
                if (m_pass == 1)
                    return m_profiles.clear(), ++m_profilesKeys, kProfiles;
                return ++m_profilesSeen == m_profilesKeys ? kProfiles : kJsonSkip;
            }
            return kJsonSkip;
        case kShared:
            if (at.key == "frames" && isArray && m_pass == 1) {
                m_hasFrames = true;
                m_frames = StringTable();
                return kFrames;
            }
            return kJsonSkip;
        case kFrames:
            if (isArray)
                fail("frame " + std::to_string(at.index) + " is not an object");
            m_frameName = m_frameFile = std::string();
            m_frameLine = 0;
            return kFrame;
        case kProfiles:
            m_profile = at.index;
            if (m_pass == 1) {
                m_profiles.push_back(ProfileInfo{});
                m_profiles.back().isObject = !isArray;
                accountFirstPass();
            }
            if (isArray || (m_pass == 2 && !m_all && m_profile != m_chosen))
                return kJsonSkip;
            if (m_pass == 2)
                beginProfile();
            return kProfile;
        case kProfile:
            if (at.key == "samples" || at.key == "weights" || at.key == "events")
                return m_pass == 1 || !isArray ? kJsonSkip : arrayRole(at.key);
            return kJsonSkip;
        case kSamples:
            if (!isArray)
                fail("sample " + std::to_string(at.index) + " is not an array of frame indexes");
            m_stack.clear();
            return kSample;
        case kSample:
            m_stack.push_back(-1);   // not a frame index
            return kJsonSkip;
        case kWeights:
            fail("weight " + std::to_string(at.index) + " is not a number");
        case kEvents:
            m_event = Event{};
            return isArray ? (m_event.index = at.index, kCount) : (m_event.index = at.index, kEvent);
        default:
            return kJsonSkip;
        }
    }

    void leave(int role, uint64_t count) override
    {
        switch (role) {
        case kProfile:
            if (m_pass == 2)
                finishProfile();
            return;
        case kFrame:
            addFrame();
            return;
        case kSamples:
            m_sampleCount = count;
            return;
        case kSample:
            addSample();
            return;
        case kWeights:
            m_weightCount = count;
            return;
        case kCount:   // an event given as an array: as an empty object, it has no "at"
        case kEvent:
            addEvent();
            return;
        default:
            return;
        }
    }

    void scalar(const JsonAt &at, const JsonScalar &v) override
    {
        switch (at.role) {
        case kJsonTop:
            m_isObject = false;
            return;
        case kTop:
            if (at.key == "activeProfileIndex")
                m_active = v.isNumber() && v.integral ? v.integer : 0;
            return;
        case kFrame:
            if (at.key == "name")
                m_frameName = v.isString() ? std::string(v.text) : std::string();
            else if (at.key == "file")
                m_frameFile = v.isString() ? std::string(v.text) : std::string();
            else if (at.key == "line")
                m_frameLine = v.isNumber() && v.integral ? v.integer : 0;
            return;
        case kFrames:
            fail("frame " + std::to_string(at.index) + " is not an object");
        case kProfiles:
            if (m_pass == 1) {
                m_profiles.push_back(ProfileInfo{});
                accountFirstPass();
            }
            return;
        case kProfile:
            if (m_pass == 1)
                profileField(m_profiles.back(), at.key, v);
            return;
        case kSamples:
            fail("sample " + std::to_string(at.index) + " is not an array of frame indexes");
        case kSample:
            if (m_stack.size() == m_stack.capacity())
                account();   // one sample can list a billion frames
            m_stack.push_back(v.isNumber() && v.integral && v.integer >= 0 ? v.integer : -1);
            return;
        case kWeights:
            addWeight(at.index, v);
            return;
        case kEvents:   // not an object: as an empty one
            m_event = Event{};
            m_event.index = at.index;
            addEvent();
            return;
        case kEvent:
            if (at.key == "type")
                m_event.type = v.isString() ? (v.text == "O" ? 'O' : v.text == "C" ? 'C' : '?') : '?',
                m_event.typeText = v.isString() ? std::string(v.text.substr(0, 64)) : std::string();
            else if (at.key == "frame")
                m_event.frame = v;
            else if (at.key == "at")
                m_event.at = v;
            return;
        default:
            return;
        }
    }

private:
    struct Event {
        uint64_t index = 0;
        char type = '?';
        std::string typeText;
        JsonScalar frame, at;   // numbers only are kept (a string's text is not)
    };

    int arrayRole(std::string_view key)
    {
        if ((key == "samples" && m_sawSamples) || (key == "weights" && m_sawWeights) || (key == "events" && m_sawEvents))
            fail("the profile has \"" + std::string(key) + "\" twice");
        if (key == "samples") {
            m_sawSamples = true;
            m_sampleCount = 0;
            return m_evented ? kJsonSkip : kSamples;
        }
        if (key == "weights") {
            m_sawWeights = true;
            m_weightCount = 0;
            return m_evented ? kJsonSkip : kWeights;
        }
        return m_evented ? (m_sawEvents = true, kEvents) : kJsonSkip;
    }

    uint32_t text(const JsonScalar &v)
    {
        if (!v.isString())
            return 0;
        m_texts.push_back(v.text);
        return uint32_t(m_texts.size() - 1);
    }

    void profileField(ProfileInfo &p, std::string_view key, const JsonScalar &v)
    {
        if (key == "name")
            p.name = text(v);
        else if (key == "type")
            p.type = text(v);
        else if (key == "unit")
            p.unit = text(v);
        else if (key == "startValue")
            p.hasStart = v.isNumber(), p.start = v.number;
        else if (key == "endValue")
            p.hasEnd = v.isNumber(), p.end = v.number;
    }

    // The first pass's memory: the frames' names and the profiles' fields.
    void accountFirstPass() const
    {
        if (heldBytes(m_frames) + heldBytes(m_texts) + heldBytes(m_profiles) > m_budget)
            throw ProfileError(m_refusal);
    }

    void addFrame()
    {
        // An empty name is kept empty (and named when its location is made): 4 bytes, not 11.
        if (m_frameName.empty() && !m_frameFile.empty())
            m_frameName = "(anonymous " + m_frameFile + ":" + std::to_string(m_frameLine) + ")";
        m_frames.push_back(m_frameName);
        accountFirstPass();   // every time: a full vector counts as grown, so the growth past the budget never happens
    }

    void pick()
    {
        if (m_profiles.empty())
            fail("no \"profiles\" array with a profile in it");
        if (!m_options.profileName.empty()) {
            std::string names;
            for (size_t i = 0; i < m_profiles.size(); ++i) {
                const std::string_view name = m_texts[m_profiles[i].name];
                if (name == m_options.profileName && m_profiles[i].isObject) {
                    m_chosen = i;
                    return;
                }
                if (names.size() < 1000)
                    names += (names.empty() ? "" : ", ") + ("\"" + std::string(name) + "\"");
                else if (names.size() < 1010)
                    names += ", ...";
            }
            fail("no profile named \"" + m_options.profileName + "\" (the file has " + names + ")");
        }
        m_chosen = m_active >= 0 && uint64_t(m_active) < m_profiles.size() ? size_t(m_active) : 0;
        if (!m_profiles[m_chosen].isObject)
            fail("the profile is not an object");
        // Several profiles are speedscope's threads: all are read, each a thread of the timeline, when they are
        // of one kind and unit (so that their values add up); else the chosen one alone.
        m_all = m_profiles.size() > 1;
        for (const ProfileInfo &q : m_profiles)
            m_all = m_all && q.isObject && m_texts[q.type] == m_texts[m_profiles[0].type] &&
                    m_texts[q.unit] == m_texts[m_profiles[0].unit];
        if (m_all)
            m_chosen = 0;
    }

    StackProfileBuilder::SampleType unitOf(std::string_view unit)
    {
        m_factor = 1;
        if (unit == "nanoseconds")
            return {"time", "nanoseconds"};
        if (unit == "microseconds")
            return m_factor = 1e3, StackProfileBuilder::SampleType{"time", "nanoseconds"};
        if (unit == "milliseconds")
            return m_factor = 1e6, StackProfileBuilder::SampleType{"time", "nanoseconds"};
        if (unit == "seconds")
            return m_factor = 1e9, StackProfileBuilder::SampleType{"time", "nanoseconds"};
        if (unit == "bytes")
            return {"space", "bytes"};
        if (unit == "none" || unit.empty())
            return {"samples", "count"};
        fail("unknown unit \"" + std::string(unit) + "\" (none, nanoseconds, microseconds, milliseconds, seconds "
             "or bytes)");
    }

    // `where` names the value only when it is wrong (a string made per sample cost a third of the read).
    template <class Where>
    int64_t scaled(double value, Where &&where) const
    {
        const double x = value * m_factor;
        if (!std::isfinite(x) || x < 0 || x > kMaxValue)
            fail(std::string(where()) + " is negative or too large");
        return std::llround(x);
    }
    template <class Where>
    int64_t scaled(const JsonScalar &v, Where &&where) const
    {
        if (!v.isNumber())
            fail(std::string(where()) + " is not a number");
        return scaled(v.number, where);
    }

    // The location of a shared frame, made on first use: a file names thousands of frames, a profile uses some.
    template <class Where>
    uint64_t frameId(int64_t index, Where &&where)
    {
        if (index < 0 || uint64_t(index) >= m_frames.size())
            fail(std::string(where()) + " is not the index of one of the " + std::to_string(m_frames.size()) + " frames");
        uint32_t &id = m_ids[size_t(index)];
        if (!id) {
            const std::string_view name = m_frames[size_t(index)];
            const std::string_view label = name.empty() ? std::string_view("(anonymous)") : name;
            // Each thread after the first gets locations of its own, so that its stacks are samples of its own.
            id = uint32_t(m_freshLocations ? m_builder->addLocation(label) : m_builder->location(label));
        }
        return id;
    }

    void addSample()
    {
        const uint64_t i = m_sampleCount++;
        m_leafFirst.clear();
        for (size_t k = m_stack.size(); k-- > 0;)   // the file lists the root first
            m_leafFirst.push_back(frameId(m_stack[k], [&] { return "sample " + std::to_string(i) + " frame " + std::to_string(k); }));
        // The weight comes with it when "weights" came first, else it is added when it comes.
        int64_t values[2] = {1, 0};
        if (!m_weights.empty() || m_weightCount > 0) {
            if (i >= m_weights.size())
                fail("a sampled profile needs \"samples\" and \"weights\" arrays of the same length");
            values[1] = m_weights[i];
        }
        const uint32_t sample = m_builder->addStackIds(m_leafFirst.data(), m_leafFirst.size(), m_countToo ? values : values + 1);
        if (!m_weights.empty() || m_weightCount > 0)
            timed(sample, values[1]);
        if (m_weightCount == 0) {
            if (m_sampleOf.size() == m_sampleOf.capacity())
                account();   // before it grows: a full vector counts as grown, so a growth past the budget never happens
            m_sampleOf.push_back(sample);
        }
    }

    void addWeight(uint64_t i, const JsonScalar &v)
    {
        const int64_t weight = scaled(v, [&] { return "weight " + std::to_string(i); });
        if (m_sawSamples && m_sampleCount > 0) {   // the samples came first
            if (i >= m_sampleOf.size())
                fail("a sampled profile needs \"samples\" and \"weights\" arrays of the same length");
            const int64_t values[2] = {0, weight};
            m_builder->addValues(m_sampleOf[i], m_countToo ? values : values + 1);
            timed(m_sampleOf[i], weight);
        } else {
            if (m_weights.size() == m_weights.capacity())
                account();
            m_weights.push_back(weight);
        }
    }

    // The sample's place in time: its start is the end of the one before (the gap is that one's weight).
    void timed(uint32_t sample, int64_t weight)
    {
        if (m_timedSampled) {
            if (m_sampledEvents.grownBytes() != m_sampledEvents.bytes())
                account();
            m_sampledEvents.add(sample, m_profileStart + m_clock, weight);
            m_sampledEvents.setSampleThread(sample, m_thread);
            if (__builtin_add_overflow(m_clock, weight, &m_clock))
                fail("the weights overflow 64 bits");
            return;
        }
        if (!m_timeline)
            return;
        Timeline &t = *m_timeline;
        if (t.sample.size() == t.sample.capacity())
            account();
        const int64_t gap = t.sample.empty() ? 0 : m_gap;
        t.delta.push_back(gap >= int64_t(Timeline::kLongDelta) ? Timeline::kLongDelta : uint32_t(gap));
        if (gap >= int64_t(Timeline::kLongDelta))
            t.longDeltas.push_back(gap);
        t.sample.push_back(sample);
        if (__builtin_add_overflow(t.spanNanos, gap, &t.spanNanos))
            fail("the weights overflow 64 bits");
        m_gap = weight;
    }

    void account()
    {
        m_builder->setOtherBytes(heldBytes(m_frames) + heldBytes(m_texts) + heldBytes(m_profiles) + fixedBytes(m_ids) +
                                 heldBytes(m_sampleOf) + heldBytes(m_weights) + (m_tree ? m_tree->bytes() : 0) +
                                 2 * heldBytes(m_stack) +   // and m_leafFirst, as long
                                 (m_timeline ? heldBytes(m_timeline->sample) + heldBytes(m_timeline->delta) : 0) +
                                 m_sampledEvents.grownBytes());
    }

    // An event of an evented profile, on its way along the tree of open stacks (formats/SpeedscopeEvents.h).
    void addEvent()
    {
        const auto where = [&] { return "event " + std::to_string(m_event.index); };
        const int64_t time = scaled(m_event.at, [&] { return where() + " \"at\""; });
        const JsonScalar &f = m_event.frame;
        const int64_t frame = f.isNumber() && f.integral ? f.integer : -1;
        const uint64_t id = frameId(frame, [&] { return where() + " \"frame\""; });
        if (m_tree->full())
            account();   // before it grows: a full vector counts as grown, so the growth past the budget never happens
        m_tree->event(m_event.type, m_event.typeText, frame, id, time, where);
    }

    // A profile of the file starts (pass 2): its own arrays, clock and thread.
    void beginProfile()
    {
        const ProfileInfo &p = m_profiles[m_profile];
        m_sawSamples = m_sawWeights = m_sawEvents = false;
        m_sampleCount = m_weightCount = 0;
        m_sampleOf.clear(), m_weights.clear();
        m_gap = m_clock = 0;
        m_freshLocations = m_all && !m_evented && m_profile > 0;
        if (m_freshLocations)
            m_ids.assign(m_frames.size(), 0);
        m_profileStart = m_timedSampled && p.hasStart ? scaled(p.start, [] { return "startValue"; }) : 0;
        std::string name(m_texts[p.name]);
        if (name.empty() && m_all)   // threads apart by their place in the file
            name = "profile " + std::to_string(m_profile);
        m_thread = m_sampledEvents.thread(name);
        if (m_tree)
            m_tree->beginProfile(name);
    }

    void finishProfile()
    {
        const ProfileInfo &p = m_profiles[m_profile];
        if (m_evented) {
            if (!m_sawEvents)
                fail("an evented profile needs an \"events\" array");
            if (p.hasEnd)   // frames still open at the end last until the profile's end
                m_tree->closeAt(scaled(p.end, [] { return "endValue"; }));
        } else if (!m_sawSamples || !m_sawWeights || m_sampleCount != m_weightCount) {
            fail("a sampled profile needs \"samples\" and \"weights\" arrays of the same length");
        }
    }

    const std::string &m_source;
    const ReadOptions &m_options;
    uint64_t m_budget = 0;
    std::string m_refusal;
    int m_pass = 1;
    // Pass 1.
    bool m_isObject = false, m_hasFrames = false;
    StringTable m_frames;   // the name of each shared frame ("" for an anonymous one without file)
    std::string m_frameName, m_frameFile;
    int64_t m_frameLine = 0;
    StringTable m_texts;    // the profiles' names, types and units
    std::vector<ProfileInfo> m_profiles;
    int64_t m_active = 0;
    uint32_t m_profilesKeys = 0, m_profilesSeen = 0;
    // Pass 2.
    size_t m_chosen = 0;
    uint64_t m_profile = 0;   // the index of the profile being read
    bool m_evented = false, m_countToo = false;
    bool m_all = false;              // every profile read, each a thread (else m_chosen alone)
    bool m_freshLocations = false;   // the profile's frames get locations of their own (a second thread's)
    double m_factor = 1;
    StackProfileBuilder *m_builder = nullptr;
    std::vector<uint32_t> m_ids;   // per frame: its location id, 0 until first used
    bool m_sawSamples = false, m_sawWeights = false, m_sawEvents = false;
    uint64_t m_sampleCount = 0, m_weightCount = 0;
    std::vector<int64_t> m_stack;          // the sample being read: frame indexes, root first (-1: not one)
    std::vector<uint64_t> m_leafFirst;
    std::vector<uint32_t> m_sampleOf;      // per sample, when the weights come after: where it went
    std::vector<int64_t> m_weights;        // the weights, when they come before the samples
    std::shared_ptr<Timeline> m_timeline;  // a sampled profile's times, in time units
    int64_t m_gap = 0;                     // the last sample's weight: the gap to the next
    Event m_event;
    std::optional<SpeedscopeEventTree> m_tree;   // an evented profile's (all of them, with m_all)
    // Several sampled profiles in time units: each sample at its profile's start plus the weights before it.
    bool m_timedSampled = false;
    TimelineBuilder m_sampledEvents;       // and the threads (one per profile), for either kind
    uint32_t m_thread = 0;
    int64_t m_profileStart = 0, m_clock = 0;
};

}   // namespace

bool looksLikeSpeedscope(std::string_view head)
{
    if (!looksLikeJsonObject(head))
        return false;
    return head.find("speedscope.app/file-format-schema") != std::string_view::npos ||
           (head.find("\"shared\"") != std::string_view::npos && head.find("\"frames\"") != std::string_view::npos);
}

std::shared_ptr<const Profile> readSpeedscope(std::string_view json, const std::string &sourceName,
                                              const ReadOptions &options)
{
    return Reader(sourceName, options).read(json);
}

}   // namespace qflame
