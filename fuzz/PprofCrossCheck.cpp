#include "PprofCrossCheck.h"

#include "formats/ProfileInput.h"
#include "pprof/PprofDecoder.h"
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

}   // namespace qflame::fuzz
