#include "export/ProfileWriter.h"

#include "io/ReadOptions.h"
#include "profile.pb.h"

#include <zlib.h>

#include <map>
#include <memory>
#include <tuple>

namespace qflame {

namespace pb = perftools::profiles;

namespace {

std::string serialize(const pb::Profile &p)
{
    std::string bytes;
    if (!p.SerializeToString(&bytes))
        throw ProfileError("could not encode the profile as protobuf");
    return bytes;
}

// Strings of a profile being written from a call tree, interned into its string table.
class StringTable {
public:
    explicit StringTable(pb::Profile &out) : m_out(out) { index(""); }
    int64_t index(const std::string &s)
    {
        auto [it, inserted] = m_ids.try_emplace(s, m_out.string_table_size());
        if (inserted)
            m_out.add_string_table(s);
        return it->second;
    }

private:
    pb::Profile &m_out;
    std::map<std::string, int64_t> m_ids;
};

// One location per frame of the tree, made on first use.
class FrameLocations {
public:
    FrameLocations(const FrameTable &frames, pb::Profile &out) : m_frames(frames), m_out(out), m_strings(out)
    {
        m_locationOf.assign(frames.size(), 0);
    }
    StringTable &strings() { return m_strings; }

    uint64_t location(FrameId id)
    {
        if (m_locationOf[id] != 0)
            return m_locationOf[id];
        const Frame &f = m_frames.frame(id);
        const FrameKey &k = f.key;
        const StringPool &s = m_frames.strings();
        pb::Location *loc = m_out.add_location();
        loc->set_id(uint64_t(m_out.location_size()));
        loc->set_address(k.address);
        // The object file names nameless frames; the mapping file of named ones is kept for colouring by mapping.
        const StrId file = k.objfile ? k.objfile : f.mappingFile;
        if (file != 0)
            loc->set_mapping_id(mapping(s.str(file), s.str(f.buildId)));
        // A location without lines is how pprof writes an unsymbolized frame: "[libc.so]" or "<unknown>".
        if (k.name != 0 || k.file != 0 || k.line != 0 || k.startLine != 0) {
            pb::Line *line = loc->add_line();
            line->set_function_id(function(s.str(k.name), s.str(k.file ? k.file : f.sourceFile), k.startLine,
                                           s.str(f.systemName)));
            line->set_line(k.line);
        }
        m_locationOf[id] = loc->id();
        return loc->id();
    }

private:
    uint64_t mapping(const std::string &file, const std::string &buildId)
    {
        auto [it, inserted] = m_mappings.try_emplace({file, buildId}, uint64_t(m_out.mapping_size()) + 1);
        if (inserted) {
            pb::Mapping *m = m_out.add_mapping();
            m->set_id(it->second);
            m->set_filename(m_strings.index(file));
            m->set_build_id(m_strings.index(buildId));
            m->set_has_functions(true);
        }
        return it->second;
    }

    uint64_t function(const std::string &name, const std::string &file, int64_t startLine, const std::string &systemName)
    {
        auto [it, inserted] =
            m_functions.try_emplace(std::make_tuple(name, file, startLine), uint64_t(m_out.function_size()) + 1);
        if (inserted) {
            pb::Function *fn = m_out.add_function();
            fn->set_id(it->second);
            fn->set_name(m_strings.index(name));
            fn->set_system_name(m_strings.index(systemName.empty() ? name : systemName));
            fn->set_filename(m_strings.index(file));
            fn->set_start_line(startLine);
        }
        return it->second;
    }

    const FrameTable &m_frames;
    pb::Profile &m_out;
    StringTable m_strings;
    std::vector<uint64_t> m_locationOf;
    std::map<std::pair<std::string, std::string>, uint64_t> m_mappings;
    std::map<std::tuple<std::string, std::string, int64_t>, uint64_t> m_functions;
};

}   // namespace

std::string encodePprof(const Profile &p)
{
    pb::Profile out;
    out.mutable_string_table()->Reserve(int(p.strings.size()));
    for (size_t i = 0; i < p.strings.size(); ++i)
        out.add_string_table(std::string(p.strings[i]));
    for (const ValueType &vt : p.sampleTypes) {
        pb::ValueType *t = out.add_sample_type();
        t->set_type(vt.type);
        t->set_unit(vt.unit);
    }
    for (const Mapping &m : p.mappings) {
        pb::Mapping *o = out.add_mapping();
        o->set_id(m.id);
        o->set_memory_start(m.memoryStart);
        o->set_memory_limit(m.memoryLimit);
        o->set_file_offset(m.fileOffset);
        o->set_filename(m.file);
        o->set_build_id(m.buildId);
        o->set_has_functions(m.hasFunctions);
        o->set_has_filenames(m.hasFilenames);
        o->set_has_line_numbers(m.hasLineNumbers);
        o->set_has_inline_frames(m.hasInlineFrames);
    }
    for (const Function &f : p.functions) {
        pb::Function *o = out.add_function();
        o->set_id(f.id);
        o->set_name(f.name);
        o->set_system_name(f.systemName);
        o->set_filename(f.filename);
        o->set_start_line(f.startLine);
    }
    for (const Location &l : p.locations) {
        pb::Location *o = out.add_location();
        o->set_id(l.id);
        if (l.mapping != kNone)
            o->set_mapping_id(p.mappings[l.mapping].id);
        o->set_address(l.address);
        o->set_is_folded(l.isFolded);
        for (uint32_t i = 0; i < l.lineCount; ++i) {
            const Line &ln = p.lines[l.firstLine + i];
            pb::Line *line = o->add_line();
            if (ln.function != kNone)   // a line without a function keeps function_id 0
                line->set_function_id(p.functions[ln.function].id);
            line->set_line(ln.line);
            line->set_column(ln.column);
        }
    }
    const size_t nTypes = p.sampleTypes.size();
    for (size_t s = 0; s < p.sampleCount(); ++s) {
        pb::Sample *o = out.add_sample();
        for (uint64_t k = p.sampleLocBegin[s]; k < p.sampleLocBegin[s + 1]; ++k)
            o->add_location_id(p.locations[p.sampleLocations[k]].id);
        for (size_t t = 0; t < nTypes; ++t)
            o->add_value(p.value(s, t));
        for (const Label &lb : p.sampleLabels(s)) {
            pb::Label *o2 = o->add_label();
            o2->set_key(lb.key);
            o2->set_str(lb.str);
            o2->set_num(lb.num);
            o2->set_num_unit(lb.numUnit);
        }
    }
    out.set_drop_frames(p.dropFrames);
    out.set_keep_frames(p.keepFrames);
    out.set_time_nanos(p.timeNanos);
    out.set_duration_nanos(p.durationNanos);
    out.mutable_period_type()->set_type(p.periodType.type);
    out.mutable_period_type()->set_unit(p.periodType.unit);
    out.set_period(p.period);
    for (uint32_t c : p.comments)
        out.add_comment(c);
    if (p.defaultSampleType >= 0)
        out.set_default_sample_type(p.sampleTypes[size_t(p.defaultSampleType)].type);
    return serialize(out);
}

std::string encodePprof(const CallTree &tree)
{
    pb::Profile out;
    FrameLocations locations(tree.frames(), out);
    pb::ValueType *t = out.add_sample_type();
    t->set_type(locations.strings().index(tree.sampleType().type));
    t->set_unit(locations.strings().index(tree.sampleType().unit));
    out.set_duration_nanos(tree.durationNanos());
    out.add_comment(locations.strings().index("qflame: exported from a " +
                                              std::string(granularityName(tree.granularity())) + " call tree"));
    for (NodeId n = 0; n < tree.size(); ++n) {
        if (tree.self(n) == 0)
            continue;
        pb::Sample *s = out.add_sample();
        for (NodeId at = n; at != CallTree::kRoot; at = tree.parent(at))   // leaf first, as pprof lists them
            s->add_location_id(locations.location(tree.frame(at)));
        s->add_value(tree.self(n));
    }
    return serialize(out);
}

std::string gzipCompress(std::string_view bytes)
{
    z_stream zs{};
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw ProfileError("gzip: cannot initialise zlib");
    std::unique_ptr<z_stream, int (*)(z_stream *)> guard(&zs, deflateEnd);
    std::string out(deflateBound(&zs, uLong(bytes.size())), '\0');
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.data()));
    zs.avail_in = uInt(bytes.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
        throw ProfileError("gzip: compression failed");
    out.resize(zs.total_out);
    return out;
}

}   // namespace qflame
