#include "PprofCrossCheck.h"

#include "formats/ProfileInput.h"
#include "io/Inflater.h"
#include "pprof/LabelSets.h"
#include "pprof/PprofDecoder.h"
#include "pprof/MetadataWire.h"
#include "pprof/SampleWire.h"
#include "profile.pb.h"

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>

namespace qflame::fuzz {

namespace pb = perftools::profiles;

namespace {

std::string compareProfiles(const pb::Profile &whole, const Profile &ours)
{
    if (ours.strings.size() != size_t(whole.string_table_size()))
        return "string table sizes differ";
    for (int i = 0; i < whole.string_table_size(); ++i)
        if (ours.strings[size_t(i)] != whole.string_table(i))
            return "string " + std::to_string(i) + " differs";
    if (ours.locations.size() != size_t(whole.location_size()) ||
        ours.functions.size() != size_t(whole.function_size()) || ours.mappings.size() != size_t(whole.mapping_size()))
        return "location, function or mapping counts differ";
    for (int i = 0; i < whole.function_size(); ++i) {
        const pb::Function &w = whole.function(i);
        const Function &f = ours.functions[size_t(i)];
        if (f.id != w.id() || int64_t(f.name) != w.name() || int64_t(f.systemName) != w.system_name() ||
            int64_t(f.filename) != w.filename() || f.startLine != w.start_line())
            return "function " + std::to_string(i + 1) + " differs";
    }
    for (int i = 0; i < whole.location_size(); ++i) {
        const pb::Location &w = whole.location(i);
        const Location &l = ours.locations[size_t(i)];
        if (l.id != w.id() || l.address != w.address() || l.isFolded != w.is_folded() ||
            (l.mapping == kNone ? 0 : ours.mappings[l.mapping].id) != w.mapping_id() ||
            l.lineCount != uint32_t(w.line_size()))
            return "location " + std::to_string(i + 1) + " differs";
        for (int k = 0; k < w.line_size(); ++k) {
            const Line &ln = ours.lines[l.firstLine + uint32_t(k)];
            if (ln.line != w.line(k).line() || ours.functions[ln.function].id != w.line(k).function_id())
                return "location " + std::to_string(i + 1) + ": line " + std::to_string(k + 1) + " differs";
        }
    }
    if (ours.sampleCount() != size_t(whole.sample_size()))
        return "sample counts differ";
    if (std::string problem = labelSetsProblem(ours); !problem.empty())
        return problem;
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
        const std::span<const Label> labels = ours.sampleLabels(at);
        if (labels.size() != size_t(s.label_size()))
            return "sample " + std::to_string(i + 1) + ": label counts differ";
        for (int k = 0; k < s.label_size(); ++k) {
            const Label &l = labels[size_t(k)];
            const pb::Label &w = s.label(k);
            if (int64_t(l.key) != w.key() || int64_t(l.str) != w.str() || l.num != w.num() ||
                int64_t(l.numUnit) != w.num_unit())
                return "sample " + std::to_string(i + 1) + ": labels differ";
        }
    }
    return {};
}

// Whether `parsed` holds unknown fields: it is larger than `known`, the same message rebuilt from the fields the
// hand-written decoder read (which must equal parsed's own). profile.proto is compiled for the lite runtime, which
// keeps unknown fields' bytes in the message, counts them in its size, and has no public way to ask for them.
template <typename Message>
bool holdsUnknownFields(const Message &parsed, const Message &known)
{
    return parsed.ByteSizeLong() != known.ByteSizeLong();
}

}   // namespace

namespace {

// The decoder dropping labels (ReadOptions::sampleLabels false, `qflame top`) against keeping them: the same
// profile without labels, or, where keeping them failed, the same error or SampleLabelsNeeded (on which the front
// door reads again keeping them); SampleLabelsNeeded only where keeping them failed.
std::string crossCheckDroppedLabels(std::string_view raw, ReadOptions options, const Profile *kept,
                                    const std::string &keptError)
{
    options.sampleLabels = false;
    Profile dropped;
    try {
        google::protobuf::io::ArrayInputStream in(raw.data(), int(raw.size()));
        decodePprof(in, raw.size(), "data", dropped, {}, options);
    } catch (const SampleLabelsNeeded &) {
        return kept ? "labels were dropped as bad where keeping them read the profile" : std::string();
    } catch (const ProfileError &e) {
        return kept ? "dropping labels fails where keeping them reads the profile: " + std::string(e.what())
                    : e.what() == keptError ? std::string()
                                            : "dropping labels gives another error: " + std::string(e.what()) +
                                                  " (kept: " + keptError + ")";
    }
    if (!kept)
        return "dropping labels reads what keeping them refuses: " + keptError;
    Profile expected = *kept;
    expected.labels.clear();
    expected.labelSetBegin = {0, 0};
    expected.sampleLabelSet.clear();
    return dropped == expected ? std::string() : "dropping labels changes more than the labels";
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
    if (const std::string dropped = crossCheckDroppedLabels(raw, unlimited, oursValid ? &ours : nullptr, error);
        !dropped.empty())
        return dropped;
    return wholeParses && oursValid ? compareProfiles(whole, ours) : std::string();
}

std::string crossCheckSampleWire(std::string_view bytes)
{
    LocationIndexes locations{7};   // something before, which must stay as it was
    SampleValues values{-1};
    std::vector<Label> labels{Label{1, 2, 3, 4}};
    uint32_t largest = 0;
    wire::SampleShape shape;
    // With 16 bytes of something after the message, which the location ids taken eight bytes at a time may read
    // (ShortVarints.h) but must not take; and again one by one, which must read alike.
    std::string padded(bytes);
    padded.append(16, '\x01');
    const auto *p = reinterpret_cast<const uint8_t *>(padded.data());
    const bool mine =
        wire::decodeSample(p, p + bytes.size(), {locations, values, labels, largest}, shape, p + padded.size());
    {
        LocationIndexes oneLocations{7};
        SampleValues oneValues{-1};
        std::vector<Label> oneLabels{Label{1, 2, 3, 4}};
        uint32_t oneLargest = 0;
        wire::SampleShape oneShape;
        const bool oneMine = wire::decodeSample(p, p + bytes.size(), {oneLocations, oneValues, oneLabels, oneLargest},
                                                oneShape, p);
        if (oneMine != mine)
            return std::string("the location ids taken eight bytes at a time make the decoder ") +
                   (mine ? "take" : "refuse") + " a sample it " + (oneMine ? "takes" : "refuses") + " one by one";
        if (mine && (!(oneLocations == locations) || !(oneValues == values) || oneLargest != largest))
            return "the location ids taken eight bytes at a time read otherwise than one by one";
    }
    if (!mine)
        return locations.size() == 1 && values.size() == 1 && labels.size() == 1
                   ? std::string()
                   : "the hand-written decoder left samples behind after refusing one";
    pb::Sample s;
    if (bytes.size() > size_t(INT_MAX) || !s.ParseFromArray(bytes.data(), int(bytes.size())))
        return "the hand-written decoder takes a sample libprotobuf refuses";
    if (shape.locations != size_t(s.location_id_size()) || shape.values != size_t(s.value_size()) ||
        shape.labels != size_t(s.label_size()) || locations.size() != 1 + shape.locations ||
        values.size() != 1 + shape.values || labels.size() != 1 + shape.labels)
        return "the decoders read different numbers of ids, values or labels";
    bool zero = true;
    for (int i = 0; i < s.location_id_size(); ++i) {   // kept less one
        if (uint64_t(locations[size_t(i) + 1]) + 1 != s.location_id(i))
            return "location id " + std::to_string(i) + " differs";
        if (locations[size_t(i) + 1] > largest)
            return "location id " + std::to_string(i) + " is larger than the largest noted";
    }
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
        if (int64_t(l.key) != w.key() || int64_t(l.str) != w.str() || l.num != w.num() ||
            int64_t(l.numUnit) != w.num_unit())
            return "label " + std::to_string(i) + " differs";
    }
    pb::Sample known;
    for (size_t i = 1; i < locations.size(); ++i)
        known.add_location_id(uint64_t(locations[i]) + 1);
    for (size_t i = 1; i < values.size(); ++i)
        known.add_value(values[i]);
    for (size_t i = 1; i < labels.size(); ++i) {
        pb::Label *k = known.add_label();
        k->set_key(labels[i].key), k->set_str(labels[i].str), k->set_num(labels[i].num);
        k->set_num_unit(labels[i].numUnit);
    }
    if (holdsUnknownFields(s, known))
        return "the hand-written decoder takes a sample with unknown fields (in it or its labels)";
    return {};
}

bool sampleWireTakes(std::string_view bytes)
{
    LocationIndexes locations;
    SampleValues values;
    std::vector<Label> labels;
    uint32_t largest = 0;
    wire::SampleShape shape;
    const auto *p = reinterpret_cast<const uint8_t *>(bytes.data());
    return wire::decodeSample(p, p + bytes.size(), {locations, values, labels, largest}, shape);
}

std::string crossCheckMetadataWire(std::string_view bytes)
{
    if (bytes.size() > size_t(INT_MAX))
        return {};
    const auto *p = reinterpret_cast<const uint8_t *>(bytes.data());
    wire::FunctionFields f{7, 7, 7, 7, 7};   // something before, which must stay as it was on a refusal
    if (!wire::decodeFunction(p, p + bytes.size(), f)) {
        if (f.id != 7 || f.name != 7 || f.systemName != 7 || f.filename != 7 || f.startLine != 7)
            return "the hand-written decoder changed a function it refused";
    } else {
        pb::Function w;
        if (!w.ParseFromArray(bytes.data(), int(bytes.size())))
            return "the hand-written decoder takes a function libprotobuf refuses";
        if (f.id != w.id() || f.name != w.name() || f.systemName != w.system_name() || f.filename != w.filename() ||
            f.startLine != w.start_line())
            return "the decoders read a function differently";
        pb::Function known;
        known.set_id(f.id), known.set_name(f.name), known.set_system_name(f.systemName);
        known.set_filename(f.filename), known.set_start_line(f.startLine);
        if (holdsUnknownFields(w, known))
            return "the hand-written decoder takes a function with unknown fields";
    }
    wire::LocationFields l{7, 7, 7, true};
    std::vector<wire::LineFields> lines;
    if (!wire::decodeLocation(p, p + bytes.size(), l, lines)) {
        if (l.id != 7 || l.mappingId != 7 || l.address != 7 || !l.isFolded)
            return "the hand-written decoder changed a location it refused";
        return {};
    }
    pb::Location w;
    if (!w.ParseFromArray(bytes.data(), int(bytes.size())))
        return "the hand-written decoder takes a location libprotobuf refuses";
    if (l.id != w.id() || l.mappingId != w.mapping_id() || l.address != w.address() || l.isFolded != w.is_folded() ||
        lines.size() != size_t(w.line_size()))
        return "the decoders read a location differently";
    for (int k = 0; k < w.line_size(); ++k) {
        const pb::Line &wl = w.line(k);
        const wire::LineFields &ln = lines[size_t(k)];
        if (ln.functionId != wl.function_id() || ln.line != wl.line() || ln.column != wl.column())
            return "line " + std::to_string(k + 1) + " differs";
    }
    pb::Location known;
    known.set_id(l.id), known.set_mapping_id(l.mappingId), known.set_address(l.address);
    known.set_is_folded(l.isFolded);
    for (const wire::LineFields &ln : lines) {
        pb::Line *k = known.add_line();
        k->set_function_id(ln.functionId), k->set_line(ln.line), k->set_column(ln.column);
    }
    if (holdsUnknownFields(w, known))
        return "the hand-written decoder takes a location with unknown fields (in it or its lines)";
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
