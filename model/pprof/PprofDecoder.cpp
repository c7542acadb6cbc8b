#include "pprof/PprofDecoder.h"

#include "io/BesideThread.h"
#include "io/PhaseTrace.h"
#include "io/Prefault.h"
#include "io/ReadOptions.h"
#include "pprof/LabelSets.h"
#include "pprof/MetadataWire.h"
#include "pprof/PprofConvert.h"
#include "pprof/PprofRestFields.h"
#include "pprof/SampleWire.h"
#include "profile.pb.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <optional>
#include <type_traits>

namespace qflame {

namespace pb = perftools::profiles;
using google::protobuf::io::CodedInputStream;
using wire::readSize;
using wire::readTag;

namespace {

constexpr int kLengthDelimited = 2;   // protobuf wire type of messages, strings and packed arrays

// Location ids are kept less one (as indexes, if the locations turn out numbered 1..N: SampleWire.h) until the
// locations, usually written after the samples, are known. Id 0 and ids that do not fit 31 bits (rare: ids are
// 1..N in practice) are kept aside as read and referred to with the high bit set.
constexpr uint32_t kBigId = 0x80000000u;

// String indexes of labels are checked once the string table is complete; ones that cannot fit any table are
// kept as this value, which is out of range of every table.
constexpr uint32_t kBadIndex = UINT32_MAX;

class Decoder {
public:
    Decoder(Profile &out, const ReadOptions &limits) : m_out(out), m_limits(limits) {}

    // False when the bytes are not a valid Profile message.
    bool stream(google::protobuf::io::ZeroCopyInputStream &input, const std::function<uint64_t()> &sizeHint,
                const std::function<bool()> &keepGoing)
    {
        CodedInputStream in(&input);
        in.SetTotalBytesLimit(INT_MAX);
        m_sizeHintLater = &sizeHint;
        std::string scratch;
        for (uint64_t fields = 1;; ++fields) {
            uint32_t tag;
            if (!readTag(in, &tag))
                return false;
            if (tag == 0) {
                checkMemory(in);
                return in.ConsumedEntireMessage() && m_rest.flush();
            }
            const uint32_t field = tag >> 3;
            const bool delimited = (tag & 7) == kLengthDelimited;
            bool ok = true;
            if (!delimited) {
                ok = m_rest.copy(in, tag, scratch);
            } else if (field == pb::Profile::kSampleFieldNumber) {
                ok = readSample(in, scratch) && takeSampleRun(in, fields);
            } else if (field == pb::Profile::kStringTableFieldNumber) {
                ok = readString(in, scratch);
            } else if (field == pb::Profile::kLocationFieldNumber) {
                ok = readItem(in, scratch, m_location, "location", [this] { m_metadata.addLocation(m_location); },
                              [this](CodedInputStream &, const uint8_t *data, uint32_t size, uint32_t) {
                                  wire::LocationFields l;
                                  if (!wire::decodeLocation(data, data + size, l, m_lines))
                                      return false;
                                  m_metadata.addLocation(l, m_lines);
                                  return true;
                              });
            } else if (field == pb::Profile::kFunctionFieldNumber) {
                ok = readItem(in, scratch, m_function, "function", [this] { m_metadata.addFunction(m_function); },
                              [this](CodedInputStream &, const uint8_t *data, uint32_t size, uint32_t) {
                                  wire::FunctionFields f;
                                  if (!wire::decodeFunction(data, data + size, f))
                                      return false;
                                  m_metadata.addFunction(f);
                                  return true;
                              });
            } else if (field == pb::Profile::kMappingFieldNumber) {
                ok = readItem(in, scratch, m_mapping, "mapping", [this] { m_metadata.addMapping(m_mapping); });
            } else if (field == pb::Profile::kSampleTypeFieldNumber || field == pb::Profile::kPeriodTypeFieldNumber ||
                       field == pb::Profile::kCommentFieldNumber || field == 0) {
                ok = m_rest.copy(in, tag, scratch);
            } else {
                // An unknown length-delimited field: libprotobuf keeps its bytes without looking inside them,
                // so checking its length is all the judging it gets, and nothing of it is kept.
                uint32_t size;
                ok = readSize(in, &size) && in.Skip(int(size));
            }
            if (!ok)
                return false;
            if ((fields & 0xffff) == 0) {
                checkMemory(in);
                if (keepGoing && !keepGoing())
                    throw Cancelled();
            }
        }
    }

    // The fields not streamed (sample types, header fields), as one message.
    const pb::Profile &rest() const { return m_rest.parsed(); }

    // Fills the header from the parsed rest, then checks and resolves the metadata (PprofConvert.h).
    void finishMetadata() { m_metadata.finish(m_rest.parsed(), m_out.fileSampleCount()); }

    // Closes the sample arrays (each has one more entry than there are samples).
    void endSamples()
    {
        m_prefaulter.stop();
        m_out.sampleLocBegin.push_back(locationPosition(m_out.sampleLocations.size()));
        // The arrays were reserved 5 % past the announced size and faulted in ahead of the parse, on huge pages:
        // what lies past their ends is resident for nothing (up to 8 MiB of input ahead, and the rest of each
        // last 2 MiB page). Given back before the tables are built on top of them, it is not in the peak.
        if (m_reserved)
            for (const Prefaulter::Range &r :
                 {m_out.sampleLocations.visitVector([](auto &v) { return Prefaulter::unwritten(v); }),
                  m_out.values.visitVector([](auto &v) { return Prefaulter::unwritten(v); }),
                  Prefaulter::unwritten(m_out.sampleLocBegin), Prefaulter::unwritten(m_out.sampleLabelSet)})
                releasePages(r.begin, r.bytes);
    }

    // Checks every sample against the metadata and turns location ids into indexes, so that the first problem
    // in the file is the one reported. Large profiles are done in two halves side by side (the second core has
    // nothing else to do by now); an error in the first half is the one thrown, as it comes first in the file.
    void resolveSamples()
    {
        // Before any check: with its labels kept, a bad one could be the first problem in the file.
        if (!m_limits.sampleLabels && m_droppedLabelIndex >= m_out.strings.size())
            throw SampleLabelsNeeded();
        std::optional<IdIndex> locations;   // none: the ids were ordinal and are indexes now
        if (!resolveOrdinalIds()) {
            std::vector<uint64_t> ids;
            ids.reserve(m_out.locations.size());
            for (const Location &l : m_out.locations)
                ids.push_back(l.id);
            locations.emplace(ids, "location");
        }
        const IdIndex *index = locations ? &*locations : nullptr;
        // The indexes given to the ids below may need 4 bytes where the ids had 2; made so before the two halves
        // write them side by side.
        if (index && m_out.locations.size() > size_t(LocationIndexes::kNarrowMax) + 1)
            m_out.sampleLocations.widen();
        if (m_out.fileSampleCount() > 0 && m_firstValueCount != m_out.sampleTypes.size())
            badValueCount(0, m_firstValueCount, m_out.sampleTypes.size());
        // Each label set is looked at once: for each, its first string index past the table, or 0.
        std::vector<uint32_t> badLabelIndex(m_out.labelSetCount(), 0);
        for (uint32_t set = 0; set < badLabelIndex.size(); ++set)
            for (const Label &l : m_out.labelSet(set))
                for (uint32_t i : {l.key, l.str, l.numUnit})
                    if (i >= m_out.strings.size() && badLabelIndex[set] == 0)
                        badLabelIndex[set] = i;
        const size_t n = m_out.sampleCount();
        if (!index && std::all_of(badLabelIndex.begin(), badLabelIndex.end(), [](uint32_t i) { return i == 0; })) {
            // Nothing left to find sample by sample but a value count that differs, noted where it was read:
            // the walk over every sample took 2 ms of r64's read.
            if (m_oddStored <= n)
                badValueCount(m_oddSample, m_oddValueCount, m_out.sampleTypes.size());
            return;
        }
        if (n < kResolveInTwoFrom) {
            checkSamples(index, badLabelIndex, 0, n);
            return;
        }
        runBeside([&] { checkSamples(index, badLabelIndex, n / 2, n); },
                  [&] { checkSamples(index, badLabelIndex, 0, n / 2); });
    }

private:
    static constexpr size_t kResolveInTwoFrom = 50000;

    // What the profile's arrays hold, against what has been read: tiny items (a 2-byte location is 48 bytes
    // here, an empty mapping 56) must not make memory grow past the input's size times the limit.
    static constexpr uint64_t kMemorySlack = 64u << 20;
    uint64_t storedBytes() const
    {
        const Profile &p = m_out;
        return p.strings.bytes() + p.mappings.size() * sizeof(Mapping) + p.functions.size() * sizeof(Function) +
               p.lines.size() * (sizeof(Line) + 8) + p.locations.size() * (sizeof(Location) + 8) +
               p.sampleLocations.size() * p.sampleLocations.entryBytes() + p.sampleLocBegin.size() * 4 +
               p.values.size() * p.values.entryBytes() + p.labels.size() * sizeof(Label) + p.labelSetBegin.size() * 8 +
               p.sampleLabelSet.size() * 4 + m_labelSets.heldBytes() + m_bigIds.size() * 8 + m_skips.size() * 16;
    }
    void checkMemory(const CodedInputStream &in) const
    {
        const uint64_t read = uint64_t(in.CurrentPosition());
        const uint64_t stored = storedBytes();
        if (stored > uint64_t(m_limits.memoryPerInputByte) * read + kMemorySlack)
            throw ProfileError("malformed profile: its first " + std::to_string(read) + " bytes hold items of " +
                               std::to_string(stored) + " bytes in memory, more than the limit of " +
                               std::to_string(m_limits.memoryPerInputByte) +
                               " per byte of input (+64 MiB): so many tiny items are no real profile");
    }

    // A string-table entry, copied into the table's one buffer.
    bool readString(CodedInputStream &in, std::string &scratch)
    {
        uint32_t size;
        if (!readSize(in, &size))
            return false;
        const void *data;
        int available;
        if (size == 0) {
            m_out.strings.append(0);
        } else if (in.GetDirectBufferPointer(&data, &available) && available >= int(size)) {
            std::memcpy(m_out.strings.append(size), data, size);
            in.Skip(int(size));
        } else {
            if (!in.ReadString(&scratch, int(size)))
                return false;
            m_out.strings.push_back(scratch);
        }
        return true;
    }

    // The file's number of stored sample i, counting the empty samples before it (for messages).
    uint64_t ordinal(size_t stored) const
    {
        auto it = std::upper_bound(m_skips.begin(), m_skips.end(), stored,
                                   [](size_t s, const std::pair<uint64_t, uint64_t> &e) { return s < e.first; });
        return stored + (it == m_skips.begin() ? 0 : std::prev(it)->second);
    }

    // The entries are the ids less one (SampleWire.h): indexes already, when the locations are numbered 1..N in
    // file order, as Go and most writers number them, and no entry is N or more. Otherwise they go back to the
    // ids, for the lookups to resolve them and to find and report the first bad one; false then.
    bool resolveOrdinalIds()
    {
        const size_t count = m_out.locations.size();
        bool ordinal = m_bigIds.empty() && (m_out.sampleLocations.empty() || m_largestLocation < count);
        for (size_t i = 0; ordinal && i < count; ++i)
            ordinal = m_out.locations[i].id == i + 1;
        if (ordinal)
            return true;
        if (m_largestLocation >= LocationIndexes::kNarrowMax)
            m_out.sampleLocations.widen();   // an entry of 65,535 is id 65,536
        m_out.sampleLocations.visitVector([](auto &ids) {
            for (auto &id : ids)
                if (!(uint32_t(id) & kBigId))
                    ++id;
        });
        return false;
    }

    // Checks samples [from, to) in file order and, given the locations' ids, turns their ids into indexes.
    void checkSamples(const IdIndex *locations, const std::vector<uint32_t> &badLabelIndex, size_t from, size_t to)
    {
        const size_t nTypes = m_out.sampleTypes.size();
        const size_t strings = m_out.strings.size();
        for (size_t i = from; i < to; ++i) {
            if (i == m_oddStored)
                badValueCount(m_oddSample, m_oddValueCount, nTypes);
            for (uint64_t k = m_out.sampleLocBegin[i]; locations && k < m_out.sampleLocBegin[i + 1]; ++k) {
                const uint32_t raw = m_out.sampleLocations[k];
                const uint64_t id = raw & kBigId ? m_bigIds[raw & ~kBigId] : raw;
                const uint32_t index = locations->find(id);
                if (index == kNone)
                    throw ProfileError("malformed profile: sample " + std::to_string(ordinal(i) + 1) +
                                       " refers to location id " + std::to_string(id) + ", which does not exist");
                m_out.sampleLocations.set(k, index);   // fits: widened before when it might not
            }
            if (const uint32_t bad = badLabelIndex[m_out.labelSetOf(i)]; bad != 0)
                // The first index kept as kBadIndex is in the first sample with a bad label set: any before it
                // would have made an earlier sample's set bad.
                badStringIndex(bad == kBadIndex ? m_clampedValue : bad,
                               "a label of sample " + std::to_string(ordinal(i) + 1), strings);
        }
        if (to == m_out.sampleCount() && m_oddStored == to)   // an empty sample after the last stored one
            badValueCount(m_oddSample, m_oddValueCount, nTypes);
    }

    // Parses one length-delimited field into `message` (reused: its arrays and sub-messages keep their
    // memory), then calls `use`; unless `decode`, given the field's bytes and how many bytes from their start may
    // be read (those of the stream's block: at least the field's), has taken it itself.
    template <typename Message, typename Use, typename Decode>
    bool readItem(CodedInputStream &in, std::string &scratch, Message &message, const char *what, Use use,
                  Decode decode)
    {
        uint32_t size;
        if (!readSize(in, &size))
            return false;
        if (size > m_limits.maxItemBytes)
            throw ProfileError(std::string("malformed profile: a ") + what + " of " + std::to_string(size) +
                               " bytes, more than the limit of " + std::to_string(m_limits.maxItemBytes));
        const void *data;
        int available;
        if (size == 0) {
            if (decode(in, static_cast<const uint8_t *>(nullptr), 0u, 0u))
                return true;
            message.Clear();
        } else if (in.GetDirectBufferPointer(&data, &available) && available >= int(size)) {
            if (decode(in, static_cast<const uint8_t *>(data), size, uint32_t(available)))
                return in.Skip(int(size));
            if (!parseAlone(message, data, size))
                return false;
            in.Skip(int(size));
        } else {   // the field straddles two blocks of the stream
            if (!in.ReadString(&scratch, int(size)))
                return false;
            if (decode(in, reinterpret_cast<const uint8_t *>(scratch.data()), size, size))
                return true;
            if (!parseAlone(message, scratch.data(), size))
                return false;
        }
        use();
        return true;
    }
    template <typename Message, typename Use>
    bool readItem(CodedInputStream &in, std::string &scratch, Message &message, const char *what, Use use)
    {
        return readItem(in, scratch, message, what, use, [](CodedInputStream &, const uint8_t *, uint32_t, uint32_t) {
            return false;
        });
    }

    bool readSample(CodedInputStream &in, std::string &scratch)
    {
        return readItem(
            in, scratch, m_sample, "sample",
            [&] {
                noteValueCount(size_t(m_sample.value_size()));
                if (m_sample.location_id_size() == 0 && m_sample.label_size() == 0 &&
                    std::all_of(m_sample.value().begin(), m_sample.value().end(), [](int64_t v) { return v == 0; })) {
                    ++m_out.emptySamples;   // counted, not stored (Profile.h)
                    return;
                }
                beforeSample(in);
                append(m_sample);
            },
            [&](CodedInputStream &in, const uint8_t *data, uint32_t size, uint32_t readable) {
                return decodeSample(in, data, size, readable);
            });
    }

    // The samples that follow a sample in the stream's block, taken here while they are of the usual shape (a
    // one-byte tag, a length as readSize takes one, the whole sample in the block, within the size limit)
    // without the stream's calls for each one's tag, length, bytes and skip. Whatever else comes goes back to
    // the stream, which judges it as before; so does the field whose number is a multiple of 65,536 (the memory
    // check and the cancel keep their pace). qflame-bench-decode r64.pb.zst, 8 rounds of 4 taking turns: 56.3
    // against 58.8 ms (medians), faster in 7 rounds.
    bool takeSampleRun(CodedInputStream &in, uint64_t &fields)
    {
        constexpr uint8_t kSampleTag = pb::Profile::kSampleFieldNumber << 3 | kLengthDelimited;
        const void *data;
        int available;
        if ((fields & 0xffff) == 0 || !in.GetDirectBufferPointer(&data, &available))
            return true;
        const uint8_t *const start = static_cast<const uint8_t *>(data), *const end = start + available;
        const uint8_t *p = start;
        while (end - p > 1 && *p == kSampleTag) {
            uint64_t size;
            const uint8_t *const q = wire::varint(p + 1, end, size);
            if (!q || q - p > 6 || size == 0 || size > m_limits.maxItemBytes ||
                size > uint64_t(INT_MAX - wire::kSlopBytes) || size > uint64_t(end - q))
                break;   // an empty sample too: readItem has its own way for those
            m_runOffset = uint64_t(q - start);   // where the sample is, for the pace of beforeSample
            if (!decodeSample(in, q, uint32_t(size), uint32_t(end - q)))
                break;
            p = q + size;
            if ((++fields & 0xffff) == 0)
                break;
        }
        m_runOffset = 0;
        return p == start || in.Skip(int(p - start));
    }

    // The usual samples, decoded by hand straight into the arrays (pprof/SampleWire.h); false for the others,
    // which libprotobuf decodes and judges as before.
    bool decodeSample(CodedInputStream &in, const uint8_t *data, uint32_t size, uint32_t readable)
    {
        const uint64_t locations = m_out.sampleLocations.size(), labels = m_out.labels.size();
        wire::SampleShape shape;
        if (!wire::decodeSample(data, data + size,
                                {m_out.sampleLocations, m_out.values, m_out.labels, m_largestLocation}, shape,
                                data + readable))
            return false;
        const uint32_t labelSet = closeLabels(labels);
        noteValueCount(shape.values);
        if (shape.locations == 0 && shape.labels == 0 && shape.allValuesZero) {
            m_out.values.resize(m_out.values.size() - shape.values);
            ++m_out.emptySamples;   // counted, not stored (Profile.h)
            return true;
        }
        beforeSample(in);
        m_labelSets.setSampleSet(m_out.sampleLocBegin.size(), labelSet);
        m_out.sampleLocBegin.push_back(locationPosition(locations));
        return true;
    }

    // Before each stored sample: the count of empty ones before it, the arrays' reservation after the first few
    // thousand, the prefaulter's pace.
    void beforeSample(const CodedInputStream &in)
    {
        const size_t n = m_out.sampleLocBegin.size();
        if (m_out.emptySamples != (m_skips.empty() ? 0 : m_skips.back().second))
            m_skips.emplace_back(n, m_out.emptySamples);
        if (n == kReserveAfter)
            reserveForRest(in);
        if ((n & 1023) == 0)
            m_read.store(uint64_t(in.CurrentPosition()) + m_runOffset, std::memory_order_relaxed);
    }

    // A message on its own may nest one level deeper than inside the profile; only unknown fields (groups) can
    // nest at all. So it is parsed with the depth it has in the profile. (The items the hand-written decoders
    // take never come here; the lite runtime has no public way to ask whether a message has unknown fields.)
    template <typename Message>
    static bool parseAlone(Message &message, const void *data, uint32_t size)
    {
        CodedInputStream in(static_cast<const uint8_t *>(data), int(size));
        in.SetRecursionLimit(CodedInputStream::GetDefaultRecursionLimit() - 1);
        // A message ends at the end of its bytes, not at an end-group tag (which ParseFromCodedStream stops at
        // and leaves to its caller, as ParseFromArray does not).
        return message.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
    }

    // Samples must all have as many values as there are types; the first and the first that differs from it
    // are kept, by their number in the file and the number of samples stored before them, for checkSamples.
    void noteValueCount(size_t values)
    {
        const size_t stored = m_out.sampleLocBegin.size();   // not closed yet: one entry per sample
        const uint64_t i = stored + m_out.emptySamples;
        if (i == 0)
            m_firstValueCount = values;
        else if (values != m_firstValueCount && m_oddSample == UINT64_MAX)
            m_oddSample = i, m_oddStored = stored, m_oddValueCount = values;
    }

    void append(const pb::Sample &s)
    {
        const size_t labels = m_out.labels.size();
        for (const auto &l : s.label())
            m_out.labels.push_back(Label{index(l.key()), index(l.str()), l.num(), index(l.num_unit())});
        m_labelSets.setSampleSet(m_out.sampleLocBegin.size(), closeLabels(labels));
        m_out.sampleLocBegin.push_back(locationPosition(m_out.sampleLocations.size()));
        for (uint64_t id : s.location_id()) {   // less one, as the hand-written decoder keeps them
            if (id - 1 < kBigId - 1) {
                m_out.sampleLocations.push_back(uint32_t(id - 1));
                m_largestLocation = std::max(m_largestLocation, uint32_t(id - 1));
            } else {
                m_out.sampleLocations.push_back(kBigId | uint32_t(m_bigIds.size()));
                m_bigIds.push_back(id);
            }
        }
        m_out.values.append(s.value().begin(), s.value().end());
    }

    // The sample's labels, appended from `from` on: their set's number (LabelSets.h), or, when the labels are
    // not kept, 0 with the labels dropped.
    uint32_t closeLabels(size_t from)
    {
        if (m_limits.sampleLabels)
            return m_labelSets.closeAppended(from);
        dropLabels(from);
        return 0;
    }

    // Drops the labels from `from` on (ReadOptions::sampleLabels false), keeping their largest string index for
    // resolveSamples: an index past the string table makes the input be read again with its labels.
    void dropLabels(size_t from)
    {
        for (size_t k = from; k < m_out.labels.size(); ++k) {
            const Label &l = m_out.labels[k];
            m_droppedLabelIndex = std::max({m_droppedLabelIndex, l.key, l.str, l.numUnit});
        }
        m_out.labels.resize(from);
    }

    uint32_t index(int64_t value)
    {
        if (value >= 0 && value < int64_t(kBadIndex))
            return uint32_t(value);
        if (!m_clamped)
            m_clamped = true, m_clampedValue = value;
        return kBadIndex;
    }

    // Growing the sample arrays by doubling would copy them and touch twice their pages. Once a few thousand
    // samples show how many bytes a sample takes, the arrays are sized for the rest of the announced input, and
    // their pages are faulted in ahead of the parse (Prefault.h).
    static constexpr size_t kReserveAfter = 4096;
    static constexpr uint64_t kPrefaultLead = 8u << 20;   // bytes of input the prefaulting may run ahead
    void reserveForRest(const CodedInputStream &in)
    {
        const uint64_t read = uint64_t(in.CurrentPosition()) + m_runOffset;
        m_sizeHint = (*m_sizeHintLater)();
        if (m_sizeHint <= read || read == 0)
            return;
        const double scale = 1.05 * double(m_sizeHint) / double(read);
        auto reserve = [scale](auto &v) {
            v.reserve(size_t(double(v.size()) * scale) + 1024);
            const Prefaulter::Range rest = Prefaulter::unwritten(v);
            adviseHugePages(rest.begin, rest.bytes);   // before the prefaulter touches it
            return rest;
        };
        m_reserved = true;
        // Paced by the input read: the reservation rests on the size the input announces.
        const Prefaulter::Pace pace{&m_read, m_sizeHint, kPrefaultLead};
        // The label sets are few; a sample's number of its set is reserved where the first samples had labels.
        std::vector<Prefaulter::Range> ranges{m_out.sampleLocations.visitVector(reserve),
                                              m_out.values.visitVector(reserve), reserve(m_out.sampleLocBegin)};
        if (!m_out.sampleLabelSet.empty())
            ranges.push_back(reserve(m_out.sampleLabelSet));
        m_prefaulter.start(ranges, &pace);
    }

    [[noreturn]] static void badValueCount(size_t sample, size_t values, size_t types)
    {
        throw ProfileError("malformed profile: sample " + std::to_string(sample + 1) + " has " +
                           std::to_string(values) + " values but the profile has " + std::to_string(types) +
                           " sample types");
    }

    Profile &m_out;
    const ReadOptions &m_limits;
    uint32_t m_droppedLabelIndex = 0;          // the largest string index of the labels dropped
    uint32_t m_largestLocation = 0;            // at least every location entry but those of kBigId
    const std::function<uint64_t()> *m_sizeHintLater = nullptr;   // asked once, by reserveForRest
    uint64_t m_sizeHint = 0;
    pb::Sample m_sample;                       // reused: its arrays keep their capacity
    pb::Location m_location;
    pb::Function m_function;
    pb::Mapping m_mapping;
    std::vector<wire::LineFields> m_lines;     // the hand-decoded location's, reused
    MetadataReader m_metadata{m_out};
    LabelSetTable m_labelSets{m_out};
    RestFields m_rest{m_limits};               // the fields not streamed (sample types, header)
    std::vector<uint64_t> m_bigIds;
    // {stored sample index, empty samples before it}, each time the count of empty ones has changed
    std::vector<std::pair<uint64_t, uint64_t>> m_skips;
    size_t m_firstValueCount = 0;
    uint64_t m_oddSample = UINT64_MAX;         // in the file
    size_t m_oddStored = SIZE_MAX, m_oddValueCount = 0;
    bool m_clamped = false;                    // a label's index was kept as kBadIndex; the first was:
    int64_t m_clampedValue = 0;
    std::atomic<uint64_t> m_read{0};           // bytes of input read, now and then: the prefaulter's pace
    uint64_t m_runOffset = 0;                  // in takeSampleRun: the sample's bytes past the stream's position
    bool m_reserved = false;                   // reserveForRest reserved the sample arrays
    Prefaulter m_prefaulter;                   // last: stopped before the rest goes
};

}   // namespace

void decodePprof(google::protobuf::io::ZeroCopyInputStream &in, uint64_t sizeHint, const char *what,
                 Profile &out, const std::function<bool()> &keepGoing, const ReadOptions &limits)
{
    decodePprof(in, std::function<uint64_t()>([sizeHint] { return sizeHint; }), what, out, keepGoing, limits);
}

void decodePprof(google::protobuf::io::ZeroCopyInputStream &in, const std::function<uint64_t()> &sizeHint,
                 const char *what, Profile &out, const std::function<bool()> &keepGoing, const ReadOptions &limits)
{
    Decoder decoder(out, limits);
    if (!decoder.stream(in, sizeHint, keepGoing))
        throw ProfileError(std::string("not a pprof profile: the ") + what + " is not a valid profile.proto message");
    tracePhase("samples decoded");
    decoder.endSamples();
    decoder.finishMetadata();
    decoder.resolveSamples();
    tracePhase("profile checked");
}

}   // namespace qflame
