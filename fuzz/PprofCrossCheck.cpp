#include "PprofCrossCheck.h"

#include "formats/ProfileInput.h"
#include "io/Inflater.h"
#include "pprof/PprofDecoder.h"
#include "pprof/SampleWire.h"
#include "profile.pb.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>

namespace qflame::fuzz {

namespace pb = perftools::profiles;

namespace {

std::string compareSamples(const pb::Profile &whole, const Profile &ours)
{
    if (ours.strings.size() != size_t(whole.string_table_size()))
        return "string table sizes differ";
    for (int i = 0; i < whole.string_table_size(); ++i)
        if (ours.strings[size_t(i)] != whole.string_table(i))
            return "string " + std::to_string(i) + " differs";
    if (ours.locations.size() != size_t(whole.location_size()) ||
        ours.functions.size() != size_t(whole.function_size()) || ours.mappings.size() != size_t(whole.mapping_size()))
        return "location, function or mapping counts differ";
    if (ours.sampleCount() != size_t(whole.sample_size()))
        return "sample counts differ";
    const size_t nTypes = ours.sampleTypes.size();
    for (int i = 0; i < whole.sample_size(); ++i) {
        const pb::Sample &s = whole.sample(i);
        const size_t at = size_t(i);
        const uint64_t first = ours.sampleLocBegin[at];
        if (ours.sampleLocBegin[at + 1] - first != uint64_t(s.location_id_size()))
            return "sample " + std::to_string(i + 1) + ": location counts differ";
        for (int k = 0; k < s.location_id_size(); ++k)
            if (ours.locations[ours.sampleLocations[first + uint64_t(k)]].id != s.location_id(k))
                return "sample " + std::to_string(i + 1) + ": locations differ";
        for (size_t t = 0; t < nTypes; ++t)
            if (ours.value(at, t) != s.value(int(t)))
                return "sample " + std::to_string(i + 1) + ": values differ";
        const uint64_t firstLabel = ours.sampleLabelBegin[at];
        if (ours.sampleLabelBegin[at + 1] - firstLabel != uint64_t(s.label_size()))
            return "sample " + std::to_string(i + 1) + ": label counts differ";
        for (int k = 0; k < s.label_size(); ++k) {
            const Label &l = ours.labels[firstLabel + uint64_t(k)];
            const pb::Label &w = s.label(k);
            if (int64_t(l.key) != w.key() || int64_t(l.str) != w.str() || l.num != w.num() ||
                int64_t(l.numUnit) != w.num_unit())
                return "sample " + std::to_string(i + 1) + ": labels differ";
        }
    }
    return {};
}

}   // namespace

std::string crossCheckPprof(std::string_view raw)
{
    if (raw.size() > size_t(INT_MAX))
        return {};
    pb::Profile whole;
    const bool wholeParses = whole.ParseFromArray(raw.data(), int(raw.size()));
    Profile ours;
    bool oursParses = true, oursValid = true;
    std::string error;
    // The decoder's limits (ReadOptions) refuse an item by its declared size before its bytes are read, where
    // the whole-message parse finds the same input truncated: with the limits out of the way, the two judge the
    // same bytes. The one fixed limit, a header field over 1 MiB, decides nothing about the bytes either.
    ReadOptions unlimited;
    unlimited.maxSampleTypes = unlimited.maxComments = unlimited.maxItemBytes = UINT32_MAX;
    unlimited.memoryPerInputByte = UINT32_MAX;
    try {
        google::protobuf::io::ArrayInputStream in(raw.data(), int(raw.size()));
        decodePprof(in, raw.size(), "data", ours, {}, unlimited);
    } catch (const ProfileError &e) {
        error = e.what();
        if (error.find("for a sample type, period type or header field") != std::string::npos)
            return {};
        oursValid = false;
        oursParses = error.find("is not a valid profile.proto message") == std::string::npos;
    }
    if (wholeParses != oursParses)
        return std::string("the whole-message parse ") + (wholeParses ? "accepts" : "rejects") +
               " what the decoder " + (oursParses ? "accepts" : "rejects") + (error.empty() ? "" : ": " + error);
    return wholeParses && oursValid ? compareSamples(whole, ours) : std::string();
}

std::string crossCheckSampleWire(std::string_view bytes)
{
    std::vector<uint32_t> locations{7};   // something before, which must stay as it was
    std::vector<int64_t> values{-1};
    std::vector<Label> labels{Label{1, 2, 3, 4}};
    wire::SampleShape shape;
    const auto *p = reinterpret_cast<const uint8_t *>(bytes.data());
    const bool mine = wire::decodeSample(p, p + bytes.size(), {locations, values, labels}, shape);
    if (!mine)
        return locations.size() == 1 && values.size() == 1 && labels.size() == 1
                   ? std::string()
                   : "the hand-written decoder left samples behind after refusing one";
    pb::Sample s;
    if (bytes.size() > size_t(INT_MAX) || !s.ParseFromArray(bytes.data(), int(bytes.size())))
        return "the hand-written decoder takes a sample libprotobuf refuses";
    if (!s.GetReflection()->GetUnknownFields(s).empty())
        return "the hand-written decoder takes a sample with unknown fields";
    if (shape.locations != size_t(s.location_id_size()) || shape.values != size_t(s.value_size()) ||
        shape.labels != size_t(s.label_size()) || locations.size() != 1 + shape.locations ||
        values.size() != 1 + shape.values || labels.size() != 1 + shape.labels)
        return "the decoders read different numbers of ids, values or labels";
    bool zero = true;
    for (int i = 0; i < s.location_id_size(); ++i)
        if (locations[size_t(i) + 1] != s.location_id(i))
            return "location id " + std::to_string(i) + " differs";
    for (int i = 0; i < s.value_size(); ++i) {
        zero &= s.value(i) == 0;
        if (values[size_t(i) + 1] != s.value(i))
            return "value " + std::to_string(i) + " differs";
    }
    if (zero != shape.allValuesZero)
        return "the decoders disagree on whether every value is zero";
    for (int i = 0; i < s.label_size(); ++i) {
        const Label &l = labels[size_t(i) + 1];
        const pb::Label &w = s.label(i);
        if (!w.GetReflection()->GetUnknownFields(w).empty())
            return "the hand-written decoder takes a label with unknown fields";
        if (int64_t(l.key) != w.key() || int64_t(l.str) != w.str() || l.num != w.num() ||
            int64_t(l.numUnit) != w.num_unit())
            return "label " + std::to_string(i) + " differs";
    }
    return {};
}

std::string crossCheckGzip(std::string_view bytes, uint64_t cap)
{
    if (!gzipLibraryAvailable(GzipLibrary::Isal) || sniffCompression(bytes) != Compression::Gzip)
        return {};
    // The error's kind: the text before the parenthesis ("gzip: corrupt data ", "gzip: truncated data ", ...);
    // the byte where each library noticed the damage may differ.
    auto inflate = [&](GzipLibrary library, std::string &out) {
        try {
            Inflater inflater(bytes, Compression::Gzip, cap, library);
            char block[4096];
            while (size_t got = inflater.read(block, sizeof block))
                out.append(block, got);
            return std::string("ok");
        } catch (const ProfileError &e) {
            const std::string text = e.what();
            return text.substr(0, text.find('('));
        }
    };
    std::string zlibOut, isalOut;
    const std::string zlib = inflate(GzipLibrary::Zlib, zlibOut), isal = inflate(GzipLibrary::Isal, isalOut);
    // A stream both damaged and cut short: which a library notices first depends on how far it reads ahead
    // (ISA-L decodes through a 64-bit look-ahead, zlib bit by bit), so there "corrupt" and "truncated" are one
    // outcome, an error. Every other pair must agree (tst_inflaters checks the kinds on streams damaged one way).
    const std::string corrupt = "gzip: corrupt data ", truncated = "gzip: truncated data ";
    if ((zlib == corrupt && isal == truncated) || (zlib == truncated && isal == corrupt))
        return {};
    if (zlib != isal)
        return "zlib: " + zlib + " | ISA-L: " + isal;
    if (zlib == "ok" && zlibOut != isalOut)
        return "zlib and ISA-L inflate to different bytes";
    return {};
}

}   // namespace qflame::fuzz
