#include "pprof/PprofConvert.h"

#include "io/ReadOptions.h"
#include "profile.pb.h"

#include <algorithm>

namespace qflame {

namespace pb = perftools::profiles;

namespace {
constexpr uint32_t kBadIndex = UINT32_MAX;   // out of range of every string table (they hold < 2^31 strings)
}

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

uint32_t MetadataReader::keep(int64_t index, Field field, size_t item)
{
    if (index >= 0 && index < int64_t(kBadIndex))
        return uint32_t(index);
    m_wideIndexes.emplace(uint64_t(item) << 3 | field, index);   // the first value of that field of that item
    return kBadIndex;
}

void MetadataReader::addMapping(const pb::Mapping &m)
{
    const size_t i = m_out.mappings.size();
    Mapping &o = m_out.mappings.emplace_back();
    o.id = m.id();
    m_mappingIdsInOrder = m_mappingIdsInOrder && o.id == i + 1;
    o.memoryStart = m.memory_start();
    o.memoryLimit = m.memory_limit();
    o.fileOffset = m.file_offset();
    o.file = keep(m.filename(), MappingFile, i);
    o.buildId = keep(m.build_id(), MappingBuildId, i);
    o.hasFunctions = m.has_functions();
    o.hasFilenames = m.has_filenames();
    o.hasLineNumbers = m.has_line_numbers();
    o.hasInlineFrames = m.has_inline_frames();
}

void MetadataReader::addFunction(const pb::Function &f)
{
    addFunction(wire::FunctionFields{f.id(), f.name(), f.system_name(), f.filename(), f.start_line()});
}

void MetadataReader::addFunction(const wire::FunctionFields &f)
{
    const size_t i = m_out.functions.size();
    Function &o = m_out.functions.emplace_back();
    o.id = f.id;
    m_functionIdsInOrder = m_functionIdsInOrder && o.id == i + 1;
    o.name = keep(f.name, FunctionName, i);
    o.systemName = keep(f.systemName, FunctionSystemName, i);
    o.filename = keep(f.filename, FunctionFilename, i);
    o.startLine = f.startLine;
    m_largestFunctionString = std::max({m_largestFunctionString, o.name, o.systemName, o.filename});
}

void MetadataReader::addLocation(const pb::Location &l)
{
    m_lines.clear();
    for (const pb::Line &ln : l.line())
        m_lines.push_back(wire::LineFields{ln.function_id(), ln.line(), ln.column()});
    addLocation(wire::LocationFields{l.id(), l.mapping_id(), l.address(), l.is_folded()}, m_lines);
}

void MetadataReader::addLocation(const wire::LocationFields &l, const std::vector<wire::LineFields> &lines)
{
    Location &o = m_out.locations.emplace_back();
    o.id = l.id;
    o.address = l.address;
    o.isFolded = l.isFolded;
    o.firstLine = uint32_t(m_out.lines.size());
    o.lineCount = uint32_t(lines.size());
    // The references as indexes if the ids are in order (checked in finish, which resolves them again if not).
    o.mapping = l.mappingId == 0 ? kNone : uint32_t(l.mappingId - 1);
    m_largestMappingRef = std::max(m_largestMappingRef, l.mappingId);
    m_locationMappingIds.push_back(l.mappingId);
    for (const wire::LineFields &ln : lines) {
        // no column: go tool pprof 1.19 reads none
        m_out.lines.push_back(Line{ln.functionId == 0 ? kNone : uint32_t(ln.functionId - 1), ln.line, 0});
        m_largestFunctionRef = std::max(m_largestFunctionRef, ln.functionId);
        m_lineWithoutFunction = m_lineWithoutFunction || ln.functionId == 0;
        m_lineFunctionIds.push_back(ln.functionId);
    }
}

// The place named in an error is only put into words when the index is bad: building that text for every
// function cost more than the check itself on profiles with a million of them.
uint32_t MetadataReader::check(uint32_t kept, Field field, size_t item, const char *what, uint64_t id,
                               const char *name) const
{
    if (kept < m_out.strings.size())
        return kept;
    int64_t value = kept;
    if (kept == kBadIndex) {
        const auto wide = m_wideIndexes.find(uint64_t(item) << 3 | field);
        if (wide != m_wideIndexes.end())
            value = wide->second;
    }
    badStringIndex(value, std::string(what) + " id " + std::to_string(id) + " " + name, m_out.strings.size());
}

uint32_t MetadataReader::str(int64_t index, const char *where) const
{
    if (index < 0 || uint64_t(index) >= m_out.strings.size())
        badStringIndex(index, where, m_out.strings.size());
    return uint32_t(index);
}

void MetadataReader::finish(const pb::Profile &rest, size_t sampleCount)
{
    if (m_out.strings.empty())
        throw ProfileError("not a pprof profile: it has no string table");
    if (!m_out.strings[0].empty())
        throw ProfileError("malformed profile: the string table must start with an empty string");

    auto valueType = [this](const pb::ValueType &vt, const char *where) {
        return ValueType{str(vt.type(), where), str(vt.unit(), where)};
    };
    for (const auto &vt : rest.sample_type())
        m_out.sampleTypes.push_back(valueType(vt, "sample_type"));
    if (sampleCount > 0 && m_out.sampleTypes.empty())
        throw ProfileError("malformed profile: it has samples but no sample types");
    m_out.periodType = valueType(rest.period_type(), "period_type");
    m_out.period = rest.period();
    m_out.timeNanos = rest.time_nanos();
    m_out.durationNanos = rest.duration_nanos();
    m_out.dropFrames = str(rest.drop_frames(), "drop_frames");
    m_out.keepFrames = str(rest.keep_frames(), "keep_frames");
    for (int64_t c : rest.comment())
        m_out.comments.push_back(str(c, "comment"));
    m_out.defaultSampleType = -1;
    if (rest.default_sample_type() != 0) {
        const uint32_t name = str(rest.default_sample_type(), "default_sample_type");
        for (size_t i = 0; i < m_out.sampleTypes.size(); ++i)
            if (m_out.sampleTypes[i].type == name)
                m_out.defaultSampleType = int(i);
    }

    for (size_t i = 0; i < m_out.mappings.size(); ++i) {
        Mapping &m = m_out.mappings[i];
        m.file = check(m.file, MappingFile, i, "mapping", m.id, "filename");
        m.buildId = check(m.buildId, MappingBuildId, i, "mapping", m.id, "build_id");
    }
    // Every function's strings at once where the largest index is in the table: a pass over the functions read
    // 0.4 ms of memory on pprof__large.cpu's 23,038 (perf), to find nothing. Otherwise one by one, for the first
    // bad one.
    for (size_t i = 0; m_largestFunctionString >= m_out.strings.size() && i < m_out.functions.size(); ++i) {
        Function &f = m_out.functions[i];
        f.name = check(f.name, FunctionName, i, "function", f.id, "name");
        f.systemName = check(f.systemName, FunctionSystemName, i, "function", f.id, "system_name");
        f.filename = check(f.filename, FunctionFilename, i, "function", f.id, "filename");
    }

    // Ids in order are unique and not 0, and references no larger than the count are each to its item.
    if (m_mappingIdsInOrder && m_functionIdsInOrder && !m_lineWithoutFunction &&
        m_largestMappingRef <= m_out.mappings.size() && m_largestFunctionRef <= m_out.functions.size())
        return;
    std::vector<uint64_t> ids;
    ids.reserve(std::max(m_out.mappings.size(), m_out.functions.size()));
    for (const Mapping &m : m_out.mappings)
        ids.push_back(m.id);
    const IdIndex mappings(ids, "mapping");
    ids.clear();
    for (const Function &f : m_out.functions)
        ids.push_back(f.id);
    const IdIndex functions(ids, "function");
    for (size_t i = 0; i < m_out.locations.size(); ++i) {
        Location &l = m_out.locations[i];
        l.mapping = kNone;
        if (const uint64_t mappingId = m_locationMappingIds[i]) {
            l.mapping = mappings.find(mappingId);
            if (l.mapping == kNone)
                throw ProfileError("malformed profile: location id " + std::to_string(l.id) + " refers to mapping id " +
                                   std::to_string(mappingId) + ", which does not exist");
        }
        for (uint32_t k = 0; k < l.lineCount; ++k) {
            const uint64_t functionId = m_lineFunctionIds[l.firstLine + k];
            const uint32_t fn = functionId == 0 ? kNone : functions.find(functionId);
            if (fn == kNone)
                throw ProfileError("malformed profile: location id " + std::to_string(l.id) + " line " +
                                   std::to_string(k + 1) + " refers to function id " + std::to_string(functionId) +
                                   (functionId == 0 ? " (no function)" : ", which does not exist"));
            m_out.lines[l.firstLine + k].function = fn;
        }
    }
}

}   // namespace qflame
