#include "PprofConvert.h"

#include "ProfileReader.h"
#include "profile.pb.h"

namespace qflame {

namespace pb = perftools::profiles;

IdIndex::IdIndex(const std::vector<uint64_t> &ids, const char *what)
{
    uint64_t maxId = 0;
    for (uint64_t id : ids)
        maxId = std::max(maxId, id);
    m_dense = maxId <= uint64_t(ids.size()) * 4 + 1024;
    if (m_dense)
        m_vec.assign(maxId + 1, kNone);
    uint32_t index = 0;
    for (uint64_t id : ids) {
        if (id == 0)
            throw ProfileError(std::string("malformed profile: ") + what + " #" + std::to_string(index + 1) +
                               " has the reserved id 0");
        if (find(id) != kNone)
            throw ProfileError(std::string("malformed profile: two ") + what + "s have id " + std::to_string(id));
        if (m_dense)
            m_vec[id] = index;
        else
            m_map.emplace(id, index);
        ++index;
    }
}

void badStringIndex(int64_t index, const std::string &where, size_t tableSize)
{
    throw ProfileError("malformed profile: string index " + std::to_string(index) + " in " + where +
                       " is out of range (the string table has " + std::to_string(tableSize) + " entries)");
}

namespace {

template <typename Items>
std::vector<uint64_t> idsOf(const Items &items)
{
    std::vector<uint64_t> ids;
    ids.reserve(size_t(items.size()));
    for (const auto &item : items)
        ids.push_back(item.id());
    return ids;
}

class Converter {
public:
    Converter(const pb::Profile &in, size_t sampleCount, Profile &out)
        : m_in(in), m_sampleCount(sampleCount), m_out(out)
    {
    }

    void run()
    {
        if (m_out.strings.empty())
            throw ProfileError("not a pprof profile: it has no string table");
        if (!m_out.strings[0].empty())
            throw ProfileError("malformed profile: the string table must start with an empty string");

        for (const auto &vt : m_in.sample_type())
            m_out.sampleTypes.push_back(valueType(vt, "sample_type"));
        if (m_sampleCount > 0 && m_out.sampleTypes.empty())
            throw ProfileError("malformed profile: it has samples but no sample types");
        m_out.periodType = valueType(m_in.period_type(), "period_type");
        m_out.period = m_in.period();
        m_out.timeNanos = m_in.time_nanos();
        m_out.durationNanos = m_in.duration_nanos();
        m_out.dropFrames = str(m_in.drop_frames(), "drop_frames");
        m_out.keepFrames = str(m_in.keep_frames(), "keep_frames");
        for (int64_t c : m_in.comment())
            m_out.comments.push_back(str(c, "comment"));
        m_out.defaultSampleType = -1;
        if (m_in.default_sample_type() != 0) {
            const uint32_t name = str(m_in.default_sample_type(), "default_sample_type");
            for (size_t i = 0; i < m_out.sampleTypes.size(); ++i)
                if (m_out.sampleTypes[i].type == name)
                    m_out.defaultSampleType = int(i);
        }
        convertMappings();
        convertFunctions();
        convertLocations();
    }

private:
    // The place named in an error is only put into words when the index is bad: building that text for every
    // function cost more than the check itself on profiles with a million of them.
    uint32_t str(int64_t index, const char *where) const
    {
        if (!inStringTable(index))
            badStringIndex(index, where, m_out.strings.size());
        return uint32_t(index);
    }
    uint32_t str(int64_t index, const char *what, uint64_t id, const char *field) const
    {
        if (!inStringTable(index))
            badStringIndex(index, std::string(what) + " id " + std::to_string(id) + " " + field,
                           m_out.strings.size());
        return uint32_t(index);
    }
    bool inStringTable(int64_t index) const { return index >= 0 && uint64_t(index) < m_out.strings.size(); }
    ValueType valueType(const pb::ValueType &vt, const char *where)
    {
        return ValueType{str(vt.type(), where), str(vt.unit(), where)};
    }

    void convertMappings()
    {
        m_out.mappings.reserve(size_t(m_in.mapping_size()));
        for (const auto &m : m_in.mapping()) {
            Mapping o;
            o.id = m.id();
            o.memoryStart = m.memory_start();
            o.memoryLimit = m.memory_limit();
            o.fileOffset = m.file_offset();
            o.file = str(m.filename(), "mapping", m.id(), "filename");
            o.buildId = str(m.build_id(), "mapping", m.id(), "build_id");
            o.hasFunctions = m.has_functions();
            o.hasFilenames = m.has_filenames();
            o.hasLineNumbers = m.has_line_numbers();
            o.hasInlineFrames = m.has_inline_frames();
            m_out.mappings.push_back(o);
        }
    }

    void convertFunctions()
    {
        m_out.functions.reserve(size_t(m_in.function_size()));
        for (const auto &f : m_in.function()) {
            Function o;
            o.id = f.id();
            o.name = str(f.name(), "function", f.id(), "name");
            o.systemName = str(f.system_name(), "function", f.id(), "system_name");
            o.filename = str(f.filename(), "function", f.id(), "filename");
            o.startLine = f.start_line();
            m_out.functions.push_back(o);
        }
    }

    void convertLocations()
    {
        const IdIndex mappings(idsOf(m_in.mapping()), "mapping");
        const IdIndex functions(idsOf(m_in.function()), "function");
        m_out.locations.reserve(size_t(m_in.location_size()));
        for (const auto &l : m_in.location()) {
            Location o;
            o.id = l.id();
            o.address = l.address();
            o.isFolded = l.is_folded();
            if (l.mapping_id() != 0) {
                o.mapping = mappings.find(l.mapping_id());
                if (o.mapping == kNone)
                    throw ProfileError("malformed profile: location id " + std::to_string(l.id()) +
                                       " refers to mapping id " + std::to_string(l.mapping_id()) +
                                       ", which does not exist");
            }
            o.firstLine = uint32_t(m_out.lines.size());
            o.lineCount = uint32_t(l.line_size());
            for (int i = 0; i < l.line_size(); ++i) {
                const auto &ln = l.line(i);
                const uint32_t fn = ln.function_id() == 0 ? kNone : functions.find(ln.function_id());
                if (fn == kNone)
                    throw ProfileError("malformed profile: location id " + std::to_string(l.id()) + " line " +
                                       std::to_string(i + 1) + " refers to function id " +
                                       std::to_string(ln.function_id()) +
                                       (ln.function_id() == 0 ? " (no function)" : ", which does not exist"));
                m_out.lines.push_back(Line{fn, ln.line(), 0});
            }
            m_out.locations.push_back(o);
        }
    }

    const pb::Profile &m_in;
    const size_t m_sampleCount;
    Profile &m_out;
};

}   // namespace

void convertMetadata(const pb::Profile &in, size_t sampleCount, Profile &out)
{
    Converter(in, sampleCount, out).run();
}

}   // namespace qflame
