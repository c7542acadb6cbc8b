#include "formats/ChromeCpuProfileFormat.h"

#include "formats/FlamebearerFormat.h"
#include "formats/JsonStream.h"
#include "formats/StackProfile.h"
#include "time/Timeline.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace qflame {

namespace {

constexpr uint32_t kNoParent = UINT32_MAX;

struct Node {
    int64_t id = 0;
    int64_t count = 0, nanos = 0;
    uint32_t parent = kNoParent;   // index into the nodes
    uint32_t location = 0;         // made on first use
    bool skip = false;             // the "(root)" node: not a frame
};

enum Role { kTop = 1, kNodes, kNode, kCallFrame, kChildren, kSamples, kDeltas, kHead, kHeadChildren };

// The old form's nodes nest ("children" holds the nodes themselves, and V8 wrote "id" after them): the nodes
// still open, each with its fields read so far and where its children begin in m_openChildren.
struct OpenNode {
    JsonScalar id;   // a number (its text is never kept)
    int64_t hitCount = 0, line = 0;
    std::string function, url;
    size_t childrenBegin = 0;
};

// Two passes over the JSON (JsonStream.h): the nodes' ids, names and hit counts first, then their parents (a
// child is named by an id that may come later) and the samples.
class Reader : public JsonVisitor {
public:
    Reader(const std::string &sourceName, const ReadOptions &options) : m_source(sourceName), m_options(options) {}

    [[noreturn]] void fail(const std::string &what) const { throw ProfileError(m_source + ": cpuprofile: " + what); }

    std::shared_ptr<const Profile> read(std::string_view json)
    {
        // What the reader and the stacks take, bounded like every reader's: each sampled node's stack is as deep
        // as its chain of parents, which a small file can make long for all.
        m_budget = memoryBudget(m_options, json.size());
        m_refusal = stackMemoryRefusal(m_source + ": cpuprofile: ", m_options, m_budget);
        m_pass = 1;
        // The old form nests two levels per frame: its depth limit is the option's times 16 (4096 levels,
        // a stack of 2047 frames), its open nodes counted in the budget.
        const uint32_t depth = m_options.maxJsonDepth * (looksLikeOldForm(json) ? 16 : 1);
        readJson(json, *this, m_source + ": ", depth);
        if (!m_hasNodes)
            fail("no \"nodes\" array");
        m_startTime = time(m_start, "startTime");
        m_endTime = time(m_end, "endTime");
        m_pass = 2;
        readJson(json, *this, m_source + ": ", depth);
        for (Node &n : m_nodes)
            n.skip = n.skip && n.parent == kNoParent;
        if (m_timed)
            countSamples();
        std::vector<StackProfileBuilder::SampleType> types = {{"samples", "count"}};
        if (m_timed)
            types.push_back({"cpu", "nanoseconds"});
        StackProfileBuilder b(types);
        b.setMemoryLimit(m_budget, m_refusal);
        b.addComment("qflame: imported from a Chrome .cpuprofile");
        if (m_timed && m_hasEnd && m_hasStart)
            b.setDurationNanos(nanos(std::max<int64_t>(plus(m_endTime, -m_startTime), 0)));
        std::vector<uint64_t> leafFirst;
        std::vector<uint32_t> sampleOfNode(m_timed ? m_nodes.size() : 0, UINT32_MAX);
        for (size_t i = 0; i < m_nodes.size(); ++i) {
            if (m_nodes[i].count == 0 && m_nodes[i].nanos == 0)
                continue;
            leafFirst.clear();
            for (uint32_t at = uint32_t(i); at != kNoParent; at = m_nodes[at].parent) {
                if (leafFirst.size() > m_nodes.size())
                    fail("the parents of node " + std::to_string(m_nodes[i].id) + " form a cycle");
                Node &n = m_nodes[at];
                if (n.skip)
                    continue;
                if (!n.location) {
                    const std::string_view name = m_names[at];
                    n.location = uint32_t(b.location(name.empty() ? std::string_view("(anonymous)") : name));
                }
                leafFirst.push_back(n.location);
            }
            b.setOtherBytes(held());
            const Node &n = m_nodes[i];
            b.appendStackIds(leafFirst, m_timed ? std::vector<int64_t>{n.count, n.nanos} : std::vector<int64_t>{n.count});
            if (m_timed)
                sampleOfNode[i] = uint32_t(b.stackCount() - 1);
        }
        // Each sample's time (time/Timeline.h): the nodes become the profile's samples.
        if (m_timed && !m_timeline->delta.empty()) {
            for (uint32_t &s : m_sampleNode)
                s = sampleOfNode[s];
            m_timeline->sample = std::move(m_sampleNode);
            b.setTimeline(std::move(m_timeline));
        }
        return b.build(m_source);
    }

    int enter(const JsonAt &at, bool isArray) override
    {
        switch (at.role) {
        case kJsonTop:
            return isArray ? kJsonSkip : kTop;
        case kTop:
            if (at.key == "head" && !isArray && m_pass == 1) {
                if (m_hasNodes)
                    fail("the file has both \"nodes\" and \"head\"");
                m_hasNodes = m_old = true;
                openNode();
                return kHead;
            }
            if (!isArray)
                return kJsonSkip;
            if (at.key == "nodes") {
                if (m_pass == 1 && m_hasNodes)
                    fail("the file has \"nodes\" twice");
                m_hasNodes = true;
                return kNodes;
            }
            if (at.key == "samples" || at.key == "timeDeltas" || at.key == "timestamps") {
                bool &seen = at.key == "samples" ? m_samplesKey : m_deltasKey;
                if (m_pass == 1) {
                    if (seen)
                        fail("the file has \"" + std::string(at.key) + "\" twice");
                    seen = true;
                    m_timed = m_timed || at.key == "samples";
                    return kJsonSkip;
                }
                return at.key == "samples" ? kSamples : kDeltas;
            }
            return kJsonSkip;
        case kHead:
            return at.key == "children" && isArray ? kHeadChildren : kJsonSkip;
        case kHeadChildren:
            if (isArray)
                fail("a child of node " + std::to_string(m_nodes.size()) + " is not an object");
            openNode();
            return kHead;
        case kNodes:
            m_node = at.index;
            if (m_pass == 1)
                startNode();
            if (!isArray)
                return kNode;
            if (m_pass == 1)
                endNode();   // not an object: as an empty one, it has no id
            return kJsonSkip;
        case kNode:
            if (at.key == "callFrame" && !isArray && m_pass == 1)
                return kCallFrame;
            if (at.key == "children" && isArray && m_pass == 2)
                return kChildren;
            return kJsonSkip;
        case kChildren:
            fail("a child of node " + std::to_string(m_node) + " is not a whole number");
        case kSamples:
            fail("sample " + std::to_string(at.index) + " is not a whole number");
        case kDeltas:
            fail("timeDelta " + std::to_string(at.index) + " is not a whole number");
        default:
            return kJsonSkip;
        }
    }

    void leave(int role, uint64_t count) override
    {
        if (role == kNode && m_pass == 1)
            endNode();
        else if (role == kSamples)
            m_sampleCount = count;
        else if (role == kDeltas)
            m_deltaCount = count;
        else if (role == kHead)
            closeNode();
    }

    void scalar(const JsonAt &at, const JsonScalar &v) override
    {
        switch (at.role) {
        case kTop:
            if (m_pass != 1)
                return;
            if (at.key == "startTime")
                m_hasStart = v.isNumber(), m_start = v, m_start.text = {};
            else if (at.key == "endTime")
                m_hasEnd = v.isNumber(), m_end = v, m_end.text = {};
            return;
        case kHead: {
            OpenNode &n = m_open.back();
            if (at.key == "id")
                n.id = v, n.id.text = {};
            else if (at.key == "hitCount")
                n.hitCount = v.isNumber() && v.integral ? v.integer : 0;
            else if (at.key == "functionName")
                n.function = v.isString() ? std::string(v.text) : std::string();
            else if (at.key == "url")
                n.url = v.isString() ? std::string(v.text) : std::string();
            else if (at.key == "lineNumber")
                n.line = v.isNumber() && v.integral ? v.integer : 0;
            return;
        }
        case kHeadChildren:
            fail("a child of node " + std::to_string(m_nodes.size()) + " is not an object");
        case kNodes:   // not an object: as an empty one, it has no id
            if (m_pass == 1) {
                m_node = at.index;
                startNode();
                endNode();
            }
            return;
        case kNode:
            if (m_pass == 1) {
                if (at.key == "id")
                    m_id = v;
                else if (at.key == "hitCount")
                    m_hitCount = v.isNumber() && v.integral ? v.integer : 0;
            } else if (at.key == "parent") {
                setParent(uint32_t(m_node), indexOf(integer(v, [&] { return "parent of node " + std::to_string(m_node); })));
            }
            return;
        case kCallFrame:
            if (at.key == "functionName")
                m_function = v.isString() ? std::string(v.text) : std::string();
            else if (at.key == "url")
                m_url = v.isString() ? std::string(v.text) : std::string();
            else if (at.key == "lineNumber")
                m_line = v.isNumber() && v.integral ? v.integer : 0;
            return;
        case kChildren:
            setParent(indexOf(integer(v, [&] { return "a child of node " + std::to_string(m_node); })), uint32_t(m_node));
            return;
        case kSamples:
            if (m_sampleNode.size() == m_sampleNode.capacity())
                account();   // before it grows: a full vector counts as grown, so a growth past the budget never happens
            m_sampleNode.push_back(indexOf(integer(v, [&] { return "sample " + std::to_string(at.index); })));
            return;
        case kDeltas:
            if (m_deltas.size() == m_deltas.capacity())
                account();
            m_deltas.push_back(integer(v, [&] { return "timeDelta " + std::to_string(at.index); }));
            return;
        default:
            return;
        }
    }

private:
    // `where` names the value only when it is wrong (a string made per sample cost a third of the read).
    template <class Where>
    int64_t integer(const JsonScalar &v, Where &&where) const
    {
        if (!v.isNumber() || !v.integral || v.integer < -(int64_t(1) << 53) || v.integer > (int64_t(1) << 53))
            fail(std::string(where()) + " is not a whole number");
        return v.integer;
    }

    // Times are whole microseconds; hostile sums and products must fail, not overflow.
    int64_t plus(int64_t a, int64_t b) const
    {
        int64_t sum = 0;
        if (__builtin_add_overflow(a, b, &sum))
            fail("the times overflow 64 bits");
        return sum;
    }
    int64_t nanos(int64_t micros) const
    {
        int64_t out = 0;
        if (__builtin_mul_overflow(micros, int64_t(1000), &out))
            fail("the times overflow 64 bits");
        return out;
    }

    static bool looksLikeOldForm(std::string_view json)
    {
        const std::string_view head = json.substr(0, 4096);
        return head.find("\"head\"") != std::string_view::npos && head.find("\"nodes\"") == std::string_view::npos;
    }

    // startTime and endTime: whole microseconds, or in the old form seconds (DevTools multiplies them by 1000 to
    // milliseconds as it divides the new form's by 1000), rounded to the microsecond.
    int64_t time(const JsonScalar &v, const char *what) const
    {
        if (!v.isNumber())
            return 0;
        if (!m_old)
            return integer(v, [&] { return what; });
        const double micros = v.number * 1e6;
        if (!(micros > -9e15 && micros < 9e15))
            fail(std::string(what) + " is out of range");
        return int64_t(std::llround(micros));
    }

    // Old form: a node opens (the head, or a child) and closes once its fields and children are read; it is
    // then stored as a node of the new form, the parent of the children its children list collected.
    void openNode()
    {
        if (m_open.size() == m_open.capacity())
            account();
        m_open.push_back(OpenNode{});
        m_open.back().childrenBegin = m_openChildren.size();
    }
    void closeNode()
    {
        OpenNode &o = m_open.back();
        m_node = m_nodes.size();
        // No "id" (files older than the samples): an id no sample names.
        m_id = o.id;
        if (!m_id.isNumber())
            m_id.kind = JsonScalar::Number, m_id.integral = true, m_id.integer = -1 - int64_t(m_nodes.size());
        m_hitCount = o.hitCount;
        m_function = std::move(o.function);
        m_url = std::move(o.url);
        m_line = o.line;
        endNode();
        const uint32_t self = uint32_t(m_nodes.size() - 1);
        for (size_t i = o.childrenBegin; i < m_openChildren.size(); ++i)
            setParent(m_openChildren[i], self);
        m_openChildren.resize(o.childrenBegin);
        m_open.pop_back();
        if (m_openChildren.size() == m_openChildren.capacity())
            account();
        m_openChildren.push_back(self);
    }

    void startNode()
    {
        m_id = JsonScalar{};
        m_hitCount = 0;
        m_function.clear();
        m_url.clear();
        m_line = 0;
    }

    void endNode()
    {
        const auto at = [&] { return "node " + std::to_string(m_node); };
        Node n;
        n.id = integer(m_id, [&] { return at() + " \"id\""; });
        const uint32_t h = idHash(n.id);
        if (m_index.find(h, [&](uint32_t i) { return m_nodes[i].id == n.id; }) != StackProfileBuilder::HashSlots::kMissing)
            fail(at() + " repeats the id " + std::to_string(n.id));
        if (m_hitCount < 0)
            fail(at() + " has a negative hitCount");
        n.count = m_hitCount;
        // An empty name is kept empty (and named when its location is made): 4 bytes, not 11.
        if (m_function.empty() && !m_url.empty())
            m_function = "(anonymous " + m_url + ":" + std::to_string(m_line + 1) + ")";
        n.skip = m_function == "(root)";
        if (m_nodes.size() == m_nodes.capacity() || m_nodes.size() % 1024 == 0)
            account();   // before it grows (a full vector counts as grown), and now and then for the names
        m_index.insert(h, uint32_t(m_nodes.size()));
        m_nodes.push_back(n);
        m_names.push_back(m_function);
    }

    static uint32_t idHash(int64_t id) { return uint32_t((uint64_t(id) * 0x9e3779b97f4a7c15ull) >> 32); }

    uint32_t indexOf(int64_t id) const
    {
        const uint32_t i = m_index.find(idHash(id), [&](uint32_t n) { return m_nodes[n].id == id; });
        if (i == StackProfileBuilder::HashSlots::kMissing)
            fail("no node has the id " + std::to_string(id));
        return i;
    }

    void setParent(uint32_t child, uint32_t parent)
    {
        Node &c = m_nodes[child];
        if (c.parent != kNoParent && c.parent != parent)
            fail("node " + std::to_string(c.id) + " has two parents");
        c.parent = parent;
    }

    uint64_t held() const
    {
        return heldBytes(m_nodes) + heldBytes(m_names) + m_index.bytes() + heldBytes(m_sampleNode) +
               heldBytes(m_deltas) + heldBytes(m_open) + heldBytes(m_openChildren) + m_timeline->bytes();
    }
    void account() const
    {
        if (held() > m_budget)
            throw ProfileError(m_refusal);
    }

    // samples and timeDeltas: per node, the samples and the time until the next one (DevTools' accounting).
    void countSamples()
    {
        if (m_deltaCount != m_sampleCount)
            fail("\"samples\" has " + std::to_string(m_sampleCount) + " entries but \"" +
                 (m_old ? "timestamps" : "timeDeltas") + "\" " + std::to_string(m_deltaCount));
        for (Node &n : m_nodes)
            n.count = 0;   // hitCount repeats what the samples say
        // The deltas become times in place (the old form's timestamps are times already).
        int64_t t = m_hasStart ? m_startTime : 0;
        for (int64_t &d : m_deltas)
            if (!m_old)
                d = t = plus(t, d);
        const std::vector<int64_t> &time = m_deltas;
        // V8 writes a sample late now and then (a negative delta); DevTools orders them by time first.
        std::vector<uint32_t> order;
        if (!std::is_sorted(time.begin(), time.end())) {
            order.resize(time.size());
            std::iota(order.begin(), order.end(), uint32_t(0));
            account();
            std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return time[a] < time[b]; });
        }
        const auto sampleAt = [&](size_t k) { return order.empty() ? k : size_t(order[k]); };
        for (size_t k = 0; k < time.size(); ++k) {
            const size_t i = sampleAt(k);
            const int64_t next = k + 1 < time.size() ? time[sampleAt(k + 1)] : (m_hasEnd ? m_endTime : time[i]);
            Node &n = m_nodes[m_sampleNode[i]];
            const int64_t duration = nanos(std::max<int64_t>(plus(next, -time[i]), 0));
            n.count += 1;
            n.nanos = plus(n.nanos, duration);
        }
        makeTimeline(order);
        std::vector<int64_t>().swap(m_deltas);
    }

    // The timeline reuses the samples' nodes, put in time order (and made the profile's samples later), and
    // adds 32-bit gaps in nanoseconds; each sample's duration is its gap (Timeline::gapWeights), the last's
    // until endTime, as counted above: 4 bytes a sample more than the file's arrays took.
    void makeTimeline(const std::vector<uint32_t> &order)
    {
        const std::vector<int64_t> &time = m_deltas;
        if (time.empty())
            return;
        m_timeline->delta.reserve(time.size());
        account();
        const auto sampleAt = [&](size_t k) { return order.empty() ? k : size_t(order[k]); };
        const int64_t origin = nanos(time[sampleAt(0)]);
        int64_t previous = origin;
        for (size_t k = 0; k < time.size(); ++k) {
            const int64_t at = nanos(time[sampleAt(k)]), gap = at - previous;
            previous = at;
            m_timeline->delta.push_back(gap >= int64_t(Timeline::kLongDelta) ? Timeline::kLongDelta : uint32_t(gap));
            if (gap >= int64_t(Timeline::kLongDelta))
                m_timeline->longDeltas.push_back(gap);
        }
        if (!order.empty()) {
            std::vector<uint32_t> sorted(order.size());
            for (size_t k = 0; k < order.size(); ++k)
                sorted[k] = m_sampleNode[order[k]];
            m_sampleNode.swap(sorted);
        }
        Timeline &t = *m_timeline;
        t.startNanos = origin;
        t.spanNanos = previous - origin;
        t.endNanos = std::max(m_hasEnd ? nanos(m_endTime) - origin : t.spanNanos, int64_t(0));
        t.gapWeights = true;
        t.weighted = {0, 1};
        t.threadNames = {std::string()};
    }

    const std::string &m_source;
    const ReadOptions &m_options;
    uint64_t m_budget = 0;
    std::string m_refusal;
    int m_pass = 1;
    bool m_hasNodes = false, m_timed = false, m_hasStart = false, m_hasEnd = false;
    bool m_samplesKey = false, m_deltasKey = false;
    bool m_old = false;   // the old tree form: "head", "timestamps", startTime and endTime in seconds
    JsonScalar m_start, m_end;
    int64_t m_startTime = 0, m_endTime = 0;
    std::vector<OpenNode> m_open;          // old form: the nodes open, outermost first
    std::vector<uint32_t> m_openChildren;  // old form: the closed children of the open nodes, in their order
    std::vector<Node> m_nodes;
    StringTable m_names;                    // per node: its frame's name ("" for an anonymous one without url)
    StackProfileBuilder::HashSlots m_index;  // node id -> index
    // The node being read.
    uint64_t m_node = 0;
    JsonScalar m_id;
    int64_t m_hitCount = 0, m_line = 0;
    std::string m_function, m_url;
    // The samples (as node indexes) and their deltas (then times), in the file's order.
    std::vector<uint32_t> m_sampleNode;
    std::vector<int64_t> m_deltas;
    std::shared_ptr<Timeline> m_timeline = std::make_shared<Timeline>();   // the samples' times
    uint64_t m_sampleCount = 0, m_deltaCount = 0;
};

}   // namespace

bool looksLikeChromeCpuProfile(std::string_view head)
{
    return looksLikeJsonObject(head) &&
           ((head.find("\"nodes\"") != std::string_view::npos && head.find("\"callFrame\"") != std::string_view::npos) ||
            (head.find("\"head\"") != std::string_view::npos && head.find("\"functionName\"") != std::string_view::npos));
}

std::shared_ptr<const Profile> readChromeCpuProfile(std::string_view json, const std::string &sourceName,
                                                    const ReadOptions &options)
{
    return Reader(sourceName, options).read(json);
}

}   // namespace qflame
