// Decoding with the protoc-generated classes, then validation and conversion to index-based arrays.
#include "ProfileReader.h"

#include "profile.pb.h"

#include <QFile>

#include <google/protobuf/arena.h>

#include <cstdio>
#include <unordered_map>

namespace qflame {

namespace pb = perftools::profiles;

namespace {

// Maps file ids to indexes; dense ids (the common case: 1..N) use a vector, sparse ones a hash map.
class IdIndex {
public:
    template <typename Items>
    IdIndex(const Items &items, const char *what)
    {
        uint64_t maxId = 0;
        for (const auto &item : items)
            maxId = std::max<uint64_t>(maxId, item.id());
        m_dense = maxId <= uint64_t(items.size()) * 4 + 1024;
        if (m_dense)
            m_vec.assign(maxId + 1, kNone);
        uint32_t index = 0;
        for (const auto &item : items) {
            const uint64_t id = item.id();
            if (id == 0)
                throw ProfileError(std::string("malformed profile: ") + what + " #" + std::to_string(index + 1) +
                                   " has the reserved id 0");
            if (find(id) != kNone)
                throw ProfileError(std::string("malformed profile: two ") + what + "s have id " +
                                   std::to_string(id));
            if (m_dense)
                m_vec[id] = index;
            else
                m_map.emplace(id, index);
            ++index;
        }
    }
    uint32_t find(uint64_t id) const
    {
        if (m_dense)
            return id < m_vec.size() ? m_vec[id] : kNone;
        auto it = m_map.find(id);
        return it == m_map.end() ? kNone : it->second;
    }

private:
    bool m_dense = true;
    std::vector<uint32_t> m_vec;
    std::unordered_map<uint64_t, uint32_t> m_map;
};

class Converter {
public:
    Converter(const pb::Profile &in, Profile &out) : m_in(in), m_out(out) {}

    void run(const ProgressFn &progress)
    {
        const auto &st = m_in.string_table();
        if (st.empty())
            throw ProfileError("not a pprof profile: it has no string table");
        if (!st.Get(0).empty())
            throw ProfileError("malformed profile: the string table must start with an empty string");
        m_out.strings.assign(st.begin(), st.end());

        for (const auto &vt : m_in.sample_type())
            m_out.sampleTypes.push_back(valueType(vt, "sample_type"));
        if (m_in.sample_size() > 0 && m_out.sampleTypes.empty())
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
        if (progress && !progress(0.5))
            throw Cancelled();
        convertSamples(progress);
    }

private:
    // The place named in an error is only put into words when the index is bad: building that text for every
    // function and label cost more than the check itself on profiles with a million of them.
    uint32_t str(int64_t index, const char *where) const
    {
        if (!inStringTable(index))
            badString(index, where);
        return uint32_t(index);
    }
    uint32_t str(int64_t index, const char *what, uint64_t id, const char *field) const
    {
        if (!inStringTable(index))
            badString(index, std::string(what) + " id " + std::to_string(id) + " " + field);
        return uint32_t(index);
    }
    uint32_t labelStr(int64_t index, size_t sample) const
    {
        if (!inStringTable(index))
            badString(index, "a label of sample " + std::to_string(sample + 1));
        return uint32_t(index);
    }
    bool inStringTable(int64_t index) const
    {
        return index >= 0 && uint64_t(index) < uint64_t(m_in.string_table_size());
    }
    [[noreturn]] void badString(int64_t index, const std::string &where) const
    {
        throw ProfileError("malformed profile: string index " + std::to_string(index) + " in " + where +
                           " is out of range (the string table has " + std::to_string(m_in.string_table_size()) +
                           " entries)");
    }
    ValueType valueType(const pb::ValueType &vt, const char *where)
    {
        return ValueType{str(vt.type(), where), str(vt.unit(), where)};
    }

    void convertMappings()
    {
        m_out.mappings.reserve(m_in.mapping_size());
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
        m_out.functions.reserve(m_in.function_size());
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
        const IdIndex mappings(m_in.mapping(), "mapping");
        const IdIndex functions(m_in.function(), "function");
        m_out.locations.reserve(m_in.location_size());
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
        m_locationIndex = std::make_unique<IdIndex>(m_in.location(), "location");
    }

    void convertSamples(const ProgressFn &progress)
    {
        const size_t nTypes = m_out.sampleTypes.size();
        const int n = m_in.sample_size();
        size_t nLocs = 0, nLabels = 0;
        for (const auto &s : m_in.sample()) {
            nLocs += size_t(s.location_id_size());
            nLabels += size_t(s.label_size());
        }
        m_out.sampleLocations.reserve(nLocs);
        m_out.sampleLocBegin.reserve(size_t(n) + 1);
        m_out.values.reserve(size_t(n) * nTypes);
        m_out.labels.reserve(nLabels);
        m_out.sampleLabelBegin.reserve(size_t(n) + 1);
        for (int i = 0; i < n; ++i) {
            const auto &s = m_in.sample(i);
            if (size_t(s.value_size()) != nTypes)
                throw ProfileError("malformed profile: sample " + std::to_string(i + 1) + " has " +
                                   std::to_string(s.value_size()) + " values but the profile has " +
                                   std::to_string(nTypes) + " sample types");
            m_out.sampleLocBegin.push_back(m_out.sampleLocations.size());
            for (uint64_t id : s.location_id()) {
                const uint32_t loc = m_locationIndex->find(id);
                if (loc == kNone)
                    throw ProfileError("malformed profile: sample " + std::to_string(i + 1) +
                                       " refers to location id " + std::to_string(id) + ", which does not exist");
                m_out.sampleLocations.push_back(loc);
            }
            m_out.values.insert(m_out.values.end(), s.value().begin(), s.value().end());
            m_out.sampleLabelBegin.push_back(m_out.labels.size());
            for (const auto &lb : s.label()) {
                m_out.labels.push_back(
                    Label{labelStr(lb.key(), i), labelStr(lb.str(), i), lb.num(), labelStr(lb.num_unit(), i)});
            }
            if (progress && (i & 0xffff) == 0xffff && !progress(0.5 + 0.5 * double(i) / n))
                throw Cancelled();
        }
        m_out.sampleLocBegin.push_back(m_out.sampleLocations.size());
        m_out.sampleLabelBegin.push_back(m_out.labels.size());
    }

    const pb::Profile &m_in;
    Profile &m_out;
    std::unique_ptr<IdIndex> m_locationIndex;
};

}   // namespace

std::shared_ptr<const Profile> readProfile(std::string_view bytes, const std::string &sourceName,
                                           const ReadOptions &options)
{
    auto fail = [&](const std::string &what) -> ProfileError { return ProfileError(sourceName + ": " + what); };
    if (bytes.empty())
        throw fail("empty input: not a profile");
    try {
        const Compression c = sniffCompression(bytes);
        ProgressFn inflateProgress;
        if (options.progress)
            inflateProgress = [&](double f) { return options.progress(0.4 * f); };
        std::string inflated;
        std::string_view raw = bytes;
        if (c != Compression::None) {
            inflated = decompress(bytes, c, options.maxDecompressedBytes, inflateProgress);
            raw = inflated;
        } else if (bytes.size() > options.maxDecompressedBytes) {
            throw ProfileError("the input is larger than the size limit of " +
                               std::to_string(options.maxDecompressedBytes) + " bytes");
        }
        if (raw.empty())
            throw ProfileError(std::string("empty input after ") + compressionName(c) + " decompression");
        if (raw.size() > uint64_t(INT32_MAX))
            throw ProfileError("the decompressed profile is over 2 GiB, more than protobuf can decode");

        google::protobuf::ArenaOptions arenaOptions;
        arenaOptions.start_block_size = 64 * 1024;
        arenaOptions.max_block_size = 8 * 1024 * 1024;
        google::protobuf::Arena arena(arenaOptions);
        auto *message = google::protobuf::Arena::CreateMessage<pb::Profile>(&arena);
        if (!message->ParseFromArray(raw.data(), int(raw.size())))
            throw ProfileError(std::string("not a pprof profile: the ") +
                               (c == Compression::None ? "data" : "decompressed data") +
                               " is not a valid profile.proto message");
        if (options.progress && !options.progress(0.6))
            throw Cancelled();
        inflated.clear();
        inflated.shrink_to_fit();

        auto profile = std::make_shared<Profile>();
        profile->sourceName = sourceName;
        Converter(*message, *profile).run([&](double f) { return !options.progress || options.progress(0.6 + 0.4 * f); });
        return profile;
    } catch (const ProfileError &e) {
        throw fail(e.what());
    } catch (const std::bad_alloc &) {
        throw fail("out of memory while decoding the profile");
    }
}

QByteArray readInputBytes(const QString &path, const ReadOptions &options, std::string *sourceName)
{
    QFile file;
    std::string name = path.toStdString();
    bool ok;
    if (path == QLatin1String("-")) {
        name = "<stdin>";
        ok = file.open(stdin, QIODevice::ReadOnly);
    } else {
        file.setFileName(path);
        ok = file.open(QIODevice::ReadOnly);
    }
    *sourceName = name;
    if (!ok)
        throw ProfileError(name + ": cannot open: " + file.errorString().toStdString());
    // Compressed input is at most ~1/1000 of its inflated size for real data; refusing files far over the cap
    // before reading them keeps a huge wrong file from being slurped into memory.
    if (file.size() > 0 && uint64_t(file.size()) > options.maxDecompressedBytes)
        throw ProfileError(name + ": the file is larger than the size limit of " +
                           std::to_string(options.maxDecompressedBytes) + " bytes");
    QByteArray bytes;
    if (file.isSequential()) {
        while (!file.atEnd()) {
            bytes += file.read(1 << 20);
            if (uint64_t(bytes.size()) > options.maxDecompressedBytes)
                throw ProfileError(name + ": the input is larger than the size limit of " +
                                   std::to_string(options.maxDecompressedBytes) + " bytes");
            if (file.error() != QFileDevice::NoError)
                break;
        }
    } else {
        bytes = file.readAll();
    }
    if (file.error() != QFileDevice::NoError)
        throw ProfileError(name + ": cannot read: " + file.errorString().toStdString());
    return bytes;
}

std::shared_ptr<const Profile> readProfileFile(const QString &path, const ReadOptions &options)
{
    std::string name;
    const QByteArray bytes = readInputBytes(path, options, &name);
    return readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), name, options);
}

}   // namespace qflame
