#include "formats/FlamebearerFormat.h"

#include "formats/JsonStream.h"
#include "formats/StackProfile.h"

#include <optional>
#include <vector>

namespace qflame {

namespace {

// A bar of the row being read or of the row above it. Bars with total 0 are never kept.
struct Bar {
    int64_t x = 0, total = 0, self = 0;
    int64_t children = 0;   // the totals of the bars of the next row placed in it
    uint32_t position = 0;  // in its row, counting the empty bars (for messages)
    uint32_t node = 0;      // its path of names
};

// A distinct path of names: the root (node 0, level 0's bars) or a parent's path and one more location.
struct PathNode {
    uint32_t parent = 0;
    uint32_t location = 0;   // the builder's location id
    int64_t self = 0;        // the selves of its bars, summed
    bool sampled = false;    // some bar of it has a self
};

// Where a document's flamebearer fields can be: the top object, or the "flamebearer" object inside it.
enum Place { kTopPlace, kFbPlace, kPlaces };

struct PlaceFields {
    bool hasNames = false, hasLevels = false, namesIsArray = false, levelsIsArray = false;
    std::optional<std::string> namesError;
    StringTable names;
};

struct MetaFields {   // metadata, read from the top object, the flamebearer object or "metadata"
    std::string units, name;
    std::optional<std::string> format;
    int64_t sampleRate = 0;
};
enum MetaPlace { kTopMeta, kFbMeta, kMetadataMeta, kMetaPlaces };

enum Role { kTopObject = 1, kFlamebearer, kMetadata, kTopNames, kFbNames, kLevels, kLevel };

class Reader : public JsonVisitor {
public:
    Reader(const std::string &sourceName, const ReadOptions &options) : m_source(sourceName), m_options(options) {}

    [[noreturn]] void fail(const std::string &what) const { throw ProfileError(m_source + ": " + what); }

    std::shared_ptr<const Profile> read(std::string_view json)
    {
        const std::string where = m_source + ": ";
        m_pass = 1;
        readJson(json, *this, where, m_options.maxJsonDepth);
        if (!m_isObject)
            fail("not flamebearer JSON: the document is not an object");
        // The /render answer and the UI's export wrap the graph in "flamebearer"; older Pyroscope versions kept
        // the metadata fields inside it.
        m_place = m_fbIsObject ? kFbPlace : kTopPlace;
        const PlaceFields &fb = m_places[m_place];
        if (!fb.hasLevels || !fb.hasNames)
            fail("not flamebearer JSON: no \"flamebearer\" object with \"names\" and \"levels\"");
        const MetaFields &meta = m_meta[m_metadataIsObject ? kMetadataMeta : m_place == kFbPlace ? kFbMeta : kTopMeta];
        const std::string format = meta.format.value_or("single");
        if (format != "single")
            fail("flamebearer format \"" + format +
                 "\" is not a single profile (a diff holds two): open the two profiles and compare them instead");
        if (!fb.namesIsArray)
            fail("flamebearer: \"names\" is missing or not an array");
        if (fb.namesError)
            fail(*fb.namesError);
        if (!fb.levelsIsArray)
            fail("flamebearer: \"levels\" is missing or not an array");

        int64_t period = 0;
        StackProfileBuilder builder({sampleType(meta, &m_scale, &period)});
        const uint64_t budget = memoryBudget(m_options, json.size());
        builder.setMemoryLimit(budget, stackMemoryRefusal(m_source + ": flamebearer: ", m_options, budget));
        if (period)
            builder.setPeriod({"cpu", "nanoseconds"}, period);
        builder.addComment("qflame: imported from flamebearer JSON");
        m_builder = &builder;
        m_locationOf.assign(fb.names.size(), 0);
        m_nodes.assign(1, PathNode{});
        m_pass = 2;
        readJson(json, *this, where, m_options.maxJsonDepth);
        checkChildren(m_above, m_level - 1);   // the last row has no children
        // One sample per path with a self, in the order the paths first appear.
        std::vector<uint64_t> leafFirst;
        for (const PathNode &n : m_nodes) {
            if (!n.sampled)
                continue;
            leafFirst.clear();
            for (const PathNode *at = &n; at != &m_nodes[0]; at = &m_nodes[at->parent])
                leafFirst.push_back(at->location);
            builder.appendStackIds(leafFirst, {n.self});   // distinct paths: distinct stacks
        }
        m_builder = nullptr;
        return builder.build(m_source);
    }

    int enter(const JsonAt &at, bool isArray) override
    {
        switch (at.role) {
        case kJsonTop:
            m_isObject = !isArray;
            return isArray ? kJsonSkip : kTopObject;
        case kTopObject:
        case kFlamebearer: {
            const Place place = at.role == kTopObject ? kTopPlace : kFbPlace;
            if (at.role == kTopObject && at.key == "flamebearer") {
                m_fbIsObject = !isArray;
                return isArray ? kJsonSkip : kFlamebearer;
            }
            if (at.role == kTopObject && at.key == "metadata") {
                m_metadataIsObject = !isArray;
                return isArray || m_pass == 2 ? kJsonSkip : kMetadata;
            }
            if (at.key == "names") {
                if (m_pass == 2)
                    return kJsonSkip;
                PlaceFields &f = m_places[place];
                f.hasNames = true;
                f.namesIsArray = isArray;
                f.names = StringTable();
                f.namesError.reset();
                return isArray ? (place == kTopPlace ? kTopNames : kFbNames) : kJsonSkip;
            }
            if (at.key == "levels")
                return levelsKey(place, isArray) ? kLevels : kJsonSkip;
            return kJsonSkip;
        }
        case kTopNames:
        case kFbNames:
            nameError(at.role, at.index);
            return kJsonSkip;
        case kLevels:
            if (!isArray)
                fail("flamebearer: level " + std::to_string(at.index) + " is not an array of groups of 4 numbers");
            startLevel();
            return kLevel;
        case kLevel:
            fail("flamebearer: level " + std::to_string(m_level) + " bar " + std::to_string(at.index / 4) + " " +
                 kFieldNames[at.index % 4] + " is not a whole number");
        default:
            return kJsonSkip;
        }
    }

    void leave(int role, uint64_t count) override
    {
        if (role == kLevel) {
            if (count % 4 != 0)
                fail("flamebearer: level " + std::to_string(m_level) + " is not an array of groups of 4 numbers");
            endLevel();
        }
    }

    void scalar(const JsonAt &at, const JsonScalar &v) override
    {
        switch (at.role) {
        case kJsonTop:
            m_isObject = false;
            return;
        case kTopObject:
            if (at.key == "flamebearer")
                m_fbIsObject = false;
            else if (at.key == "metadata")
                m_metadataIsObject = false;
            else
                scalarNamesOrLevels(kTopPlace, at.key);
            return metaField(kTopMeta, at.key, v);
        case kFlamebearer:
            scalarNamesOrLevels(kFbPlace, at.key);
            return metaField(kFbMeta, at.key, v);
        case kMetadata:
            return metaField(kMetadataMeta, at.key, v);
        case kTopNames:
        case kFbNames:
            if (!v.isString())
                return nameError(at.role, at.index);
            m_places[at.role == kTopNames ? kTopPlace : kFbPlace].names.push_back(v.text);
            return;
        case kLevels:
            fail("flamebearer: level " + std::to_string(at.index) + " is not an array of groups of 4 numbers");
        case kLevel:
            return barField(at.index, v);
        default:
            return;
        }
    }

private:
    static constexpr const char *kFieldNames[4] = {"offset", "total", "self", "name"};

    // A "levels" key at `place`: pass 1 notes it, pass 2 reads the chosen place's. A key given twice: the last
    // one counts (pass 1 counts them).
    bool levelsKey(Place place, bool isArray)
    {
        PlaceFields &f = m_places[place];
        if (m_pass == 1) {
            f.hasLevels = true;
            f.levelsIsArray = isArray;
            ++m_levelKeys[place];
            return false;
        }
        return place == m_place && ++m_levelsSeen == m_levelKeys[place] && isArray;
    }

    // "names" or "levels" given as a number, string, true, false or null.
    void scalarNamesOrLevels(Place place, std::string_view key)
    {
        if (key == "levels") {
            levelsKey(place, false);
        } else if (key == "names" && m_pass == 1) {
            PlaceFields &f = m_places[place];
            f.hasNames = true;
            f.namesIsArray = false;
        }
    }

    void nameError(int role, uint64_t index)
    {
        PlaceFields &f = m_places[role == kTopNames ? kTopPlace : kFbPlace];
        if (!f.namesError)
            f.namesError = "flamebearer: names[" + std::to_string(index) + "] is not a string";
    }

    void metaField(MetaPlace place, std::string_view key, const JsonScalar &v)
    {
        if (m_pass != 1)
            return;
        MetaFields &m = m_meta[place];
        if (key == "units")
            m.units = v.isString() ? std::string(v.text) : std::string();
        else if (key == "name")
            m.name = v.isString() ? std::string(v.text) : std::string();
        else if (key == "format")
            m.format = v.isString() ? std::optional<std::string>(std::string(v.text)) : std::nullopt;
        else if (key == "sampleRate")
            m.sampleRate = v.isNumber() && v.integral ? v.integer : 0;
    }

    void startLevel()
    {
        m_row.clear();
        m_end = 0;
        m_parent = 0;
    }

    void barField(uint64_t index, const JsonScalar &v)
    {
        if (!v.isNumber() || !v.integral)
            fail("flamebearer: level " + std::to_string(m_level) + " bar " + std::to_string(index / 4) + " " +
                 kFieldNames[index % 4] + " is not a whole number");
        m_fields[index % 4] = v.integer;
        if (index % 4 == 3)
            addBar(uint32_t(index / 4));
    }

    std::string barName(uint32_t position) const
    {
        return "level " + std::to_string(m_level) + " bar " + std::to_string(position);
    }

    void addBar(uint32_t position)
    {
        const int64_t delta = m_fields[0], total = m_fields[1], self = m_fields[2], name = m_fields[3];
        if (delta < 0 || total < 0 || self < 0 || self > total)
            fail("flamebearer: " + barName(position) + " has a negative offset or value, or self above total");
        const size_t nameCount = m_places[m_place].names.size();
        if (name < 0 || uint64_t(name) >= nameCount)
            fail("flamebearer: " + barName(position) + " names index " + std::to_string(name) + " of " +
                 std::to_string(nameCount) + " names");
        Bar b;
        b.x = m_end + delta;
        b.total = total;
        b.self = self;
        b.position = position;
        m_end = b.x + b.total;
        if (b.total == 0)
            return;   // an empty bar holds no value and cannot be placed: it adds nothing
        b.node = 0;
        if (m_level > 0) {
            // Bars and their parents both run left to right, so the parent only moves forward.
            while (m_parent < m_above.size() && m_above[m_parent].x + m_above[m_parent].total <= b.x)
                ++m_parent;
            if (m_parent == m_above.size() || b.x < m_above[m_parent].x ||
                b.x + b.total > m_above[m_parent].x + m_above[m_parent].total)
                fail("flamebearer: " + barName(position) + " does not lie within a bar of the level above");
            Bar &p = m_above[m_parent];
            p.children += b.total;
            b.node = pathNode(p.node, uint32_t(name));
        }
        if (self > 0) {
            int64_t value = 0;
            if (__builtin_mul_overflow(self, m_scale, &value))
                fail("flamebearer: a value overflows when scaled to nanoseconds");
            PathNode &n = m_nodes[b.node];
            n.self = wrappingAdd(n.self, value);
            n.sampled = true;
        }
        if (m_row.size() == m_row.capacity() || m_nodes.size() == m_nodes.capacity())
            account();   // before one grows: a full vector counts as grown, so a growth past the budget never happens
        m_row.push_back(b);
    }

    // The node of `parent`'s path and one more frame named `name`: equal paths (a name twice among siblings)
    // share one, so the stacks are made per path, once, and never per bar.
    uint32_t pathNode(uint32_t parent, uint32_t name)
    {
        uint32_t &location = m_locationOf[name];
        if (!location)
            location = uint32_t(m_builder->location(m_places[m_place].names[name]));
        const uint64_t key = uint64_t(parent) << 32 | uint32_t(location);
        const uint32_t h = uint32_t((key * 0x9e3779b97f4a7c15ull) >> 32);
        const uint32_t found = m_paths.find(h, [&](uint32_t i) {
            return m_nodes[i].parent == parent && m_nodes[i].location == uint32_t(location);
        });
        if (found != StackProfileBuilder::HashSlots::kMissing)
            return found;
        const auto index = uint32_t(m_nodes.size());
        m_nodes.push_back(PathNode{parent, uint32_t(location), 0, false});
        m_paths.insert(h, index);
        return index;
    }

    void checkChildren(const std::vector<Bar> &row, size_t level) const
    {
        for (const Bar &b : row)
            if (b.self + b.children != b.total)
                fail("flamebearer: level " + std::to_string(level) + " bar " + std::to_string(b.position) +
                     " has total " + std::to_string(b.total) + " but self " + std::to_string(b.self) +
                     " and children " + std::to_string(b.children));
    }

    void endLevel()
    {
        if (m_level > 0)
            checkChildren(m_above, m_level - 1);
        m_above.swap(m_row);
        m_row.clear();
        ++m_level;
        account();
    }

    // What is held besides the builder: the two rows, the paths, the names.
    void account()
    {
        m_builder->setOtherBytes(heldBytes(m_row) + heldBytes(m_above) + heldBytes(m_nodes) + m_paths.bytes() +
                                 fixedBytes(m_locationOf) + heldBytes(m_places[kTopPlace].names) +
                                 heldBytes(m_places[kFbPlace].names));
    }

    StackProfileBuilder::SampleType sampleType(const MetaFields &meta, int64_t *scale, int64_t *period) const
    {
        const std::string &units = meta.units;
        const std::string &name = meta.name;
        *scale = 1;
        *period = 0;
        if (units == "samples" || units == "trace_samples") {
            // Pyroscope shows these as time: ticks / sampleRate seconds.
            const int64_t rate = meta.sampleRate;
            if (rate > 0 && 1000000000 % rate == 0) {
                *scale = 1000000000 / rate;
                *period = *scale > 1 ? *scale : 0;   // a tick of 1 ns says nothing about the sampling period
                return {name.empty() ? "cpu" : name, "nanoseconds"};
            }
            return {name.empty() ? "samples" : name, "count"};
        }
        if (units == "bytes")
            return {name.empty() ? "space" : name, "bytes"};
        if (units == "lock_nanoseconds")
            return {name.empty() ? "delay" : name, "nanoseconds"};
        return {name.empty() ? "samples" : name, "count"};
    }

    const std::string &m_source;
    const ReadOptions &m_options;
    int m_pass = 1;
    bool m_isObject = false, m_fbIsObject = false, m_metadataIsObject = false;
    PlaceFields m_places[kPlaces];
    MetaFields m_meta[kMetaPlaces];
    uint32_t m_levelKeys[kPlaces] = {0, 0};
    uint32_t m_levelsSeen = 0;
    Place m_place = kTopPlace;
    int64_t m_scale = 1;
    StackProfileBuilder *m_builder = nullptr;
    std::vector<uint32_t> m_locationOf;   // per name index: its location, 0 until first used
    std::vector<PathNode> m_nodes;
    StackProfileBuilder::HashSlots m_paths;
    // The rows: the one being read and the one above it.
    std::vector<Bar> m_row, m_above;
    size_t m_level = 0;
    int64_t m_end = 0;       // the right edge of the row's last bar
    size_t m_parent = 0;     // where the search for the next bar's parent starts in m_above
    int64_t m_fields[4] = {0, 0, 0, 0};   // the bar being read: offset, total, self, name
};

}   // namespace

bool looksLikeJsonObject(std::string_view text)
{
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    const size_t first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{';
}

std::shared_ptr<const Profile> readFlamebearer(std::string_view json, const std::string &sourceName,
                                               const ReadOptions &options)
{
    return Reader(sourceName, options).read(json);
}

}   // namespace qflame
