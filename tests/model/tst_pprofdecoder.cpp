// The streaming pprof decoder: what it reads must not depend on how the bytes arrive (block sizes, field order,
// packed or unpacked arrays), it must accept exactly what libprotobuf's whole-message parse accepts, and a
// damaged compressed stream must be reported as such wherever the parse happened to stop.
#include "formats/ProfileInput.h"
#include "io/InflatingStream.h"
#include "pprof/LabelSets.h"
#include "pprof/PprofDecoder.h"
#include "pprof/PprofReader.h"
#include "pprof/SampleWire.h"
#include "PprofCrossCheck.h"
#include "profile.pb.h"
#include "ProfileFactory.h"
#include "WireWriter.h"

#include <QFile>
#include <QTest>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <random>

using namespace qflame;
using qflame::test::Wire;
namespace pb = perftools::profiles;

namespace {

std::shared_ptr<const Profile> readInBlocks(const std::string &bytes, size_t blockSize, const ReadOptions &options = {})
{
    InflatingStream in(bytes, sniffCompression(bytes), options.maxDecompressedBytes, blockSize);
    return readPprofInflating(in, "blocks", options);
}

// `n` samples over 60 locations in 20 functions, stacks 1-40 deep, two sample types and a label each.
pb::Profile manySamples(int n)
{
    pb::Profile p;
    for (const char *s : {"", "samples", "count", "cpu", "nanoseconds", "thread"})
        p.add_string_table(s);
    for (int f = 1; f <= 20; ++f) {
        p.add_string_table("pkg.function" + std::to_string(f));
        auto *fn = p.add_function();
        fn->set_id(uint64_t(f));
        fn->set_name(5 + f);
    }
    for (int l = 1; l <= 60; ++l) {
        auto *loc = p.add_location();
        loc->set_id(uint64_t(l));
        loc->add_line()->set_function_id(uint64_t(1 + l % 20));
    }
    auto vt = [](pb::ValueType *v, int type, int unit) { v->set_type(type); v->set_unit(unit); };
    vt(p.add_sample_type(), 1, 2);
    vt(p.add_sample_type(), 3, 4);
    std::mt19937 rng(7);
    for (int i = 0; i < n; ++i) {
        auto *s = p.add_sample();
        const int depth = 1 + int(rng() % 40);
        for (int d = 0; d < depth; ++d)
            s->add_location_id(1 + rng() % 60);
        s->add_value(1);
        s->add_value(int64_t(rng() % 100000));
        auto *label = s->add_label();
        label->set_key(5);
        label->set_num(i % 8);
    }
    return p;
}

// manySamples(n) with sample 101's first location id beyond 31 bits (a location of its own): a sample the
// hand-written decoder leaves to libprotobuf, and an id kept aside while reading.
pb::Profile manySamplesWithBigId(int n)
{
    pb::Profile p = manySamples(n);
    auto *big = p.add_location();
    big->set_id(uint64_t(1) << 40);
    big->add_line()->set_function_id(3);
    p.mutable_sample(100)->set_location_id(0, uint64_t(1) << 40);
    return p;
}

}   // namespace

class tst_PprofDecoder : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void blockSizesDoNotMatter_data();
    void blockSizesDoNotMatter();
    void readsAnyFieldOrderAndEncoding();
    void edgeEncodingsAreJudgedAlike_data();
    void edgeEncodingsAreJudgedAlike();
    void acceptsWhatTheWholeMessageParseAccepts();
    void damagedCompressionIsReportedAsSuch();
    void cancelStopsInflating();
    void largeProfilesAreReadAlike();
    void firstProblemInFileOrder_data();
    void firstProblemInFileOrder();
    void droppedLabelsLeaveTheRestAlike();
    void handWrittenSamplesAgree_data();
    void handWrittenSamplesAgree();
    void handWrittenSamplesAgreeMutated();
    void sampleRunsStopWhereTheStreamWould_data();
    void sampleRunsStopWhereTheStreamWould();
};

void tst_PprofDecoder::blockSizesDoNotMatter_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("blockSize");
    QTest::addColumn<int>("samples");
    for (int blockSize : {1, 7, 300, 65536}) {
        for (auto [file, samples] : {std::pair{"gen__baseline.cpu.pb.gz", 976}, {"gen__baseline.cpu.pb.zst", 976},
                                     {"gen__heap.pb.gz", 35}, {"ddgo__pprof.lines.pb.gz", 6}}) {
            QTest::addRow("%s/%d", file, blockSize)
                << QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(file) << blockSize << samples;
        }
    }
}

void tst_PprofDecoder::blockSizesDoNotMatter()
{
    QFETCH(QString, file);
    QFETCH(int, blockSize);
    QFETCH(int, samples);
    const std::string bytes = test::fileBytes(file);
    const auto usual = readPprof(bytes, "blocks");
    const auto blocks = readInBlocks(bytes, size_t(blockSize));
    QCOMPARE(int(usual->sampleCount()), samples);   // tests/data/MANIFEST.tsv
    QVERIFY(!usual->locations.empty());
    QVERIFY(*usual == *blocks);
    // And as raw bytes, decoded in place.
    QVERIFY(*readPprof(decompress(bytes, sniffCompression(bytes), 1 << 30), "blocks") == *usual);
}

void tst_PprofDecoder::readsAnyFieldOrderAndEncoding()
{
    // Strings, samples, locations and functions interleaved; one sample with packed arrays, one with unpacked
    // ones (field by field, as proto2 writers do); unknown fields, a group among them; a location id over 2^31.
    const uint64_t big = uint64_t(1) << 40;
    pb::Function main, leaf;
    main.set_id(7), main.set_name(3);
    leaf.set_id(9), leaf.set_name(4);
    pb::Location bigLocation, smallLocation;
    bigLocation.set_id(big), bigLocation.add_line()->set_function_id(7);
    smallLocation.set_id(5), smallLocation.add_line()->set_function_id(9);
    pb::Sample packed;
    packed.add_location_id(5), packed.add_location_id(big), packed.add_value(10);
    pb::ValueType type;
    type.set_type(1), type.set_unit(2);
    pb::Label label;
    label.set_key(1), label.set_str(2);

    Wire unpacked;
    unpacked.varintField(1, 5);         // location_id
    unpacked.varintField(2, 32);        // value
    unpacked.bytesField(3, label.SerializeAsString());
    unpacked.varintField(77, 1);        // unknown inside a sample

    Wire w;
    w.bytesField(6, "");
    w.bytesField(2, packed.SerializeAsString());
    w.bytesField(4, smallLocation.SerializeAsString());
    w.bytesField(6, "samples");
    w.varintField(1000, 12345);         // unknown
    w.bytesField(1, type.SerializeAsString());
    w.tag(1001, 3), w.varintField(1, 2), w.tag(1001, 4);   // an unknown group
    w.bytesField(5, leaf.SerializeAsString());
    w.bytesField(2, unpacked.bytes);
    w.bytesField(6, "count");
    w.bytesField(6, "main");
    w.bytesField(4, bigLocation.SerializeAsString());
    w.bytesField(5, main.SerializeAsString());
    w.varintField(9, 1000);             // time_nanos
    w.bytesField(6, "leaf");

    QCOMPARE(fuzz::crossCheckPprof(w.bytes), std::string());
    for (const std::string &bytes : {w.bytes, test::gzipBytes(w.bytes)}) {
        for (size_t blockSize : {size_t(3), size_t(1) << 20}) {
            const auto p = bytes == w.bytes ? readPprof(bytes, "order") : readInBlocks(bytes, blockSize);
            QCOMPARE(p->strings.toVector(), (std::vector<std::string>{"", "samples", "count", "main", "leaf"}));
            QCOMPARE(p->sampleCount(), size_t(2));
            QCOMPARE(p->locations.size(), size_t(2));
            QCOMPARE(p->locations[0].id, uint64_t(5));
            QCOMPARE(p->locations[1].id, big);
            QCOMPARE(p->sampleLocations.toVector(), (std::vector<uint32_t>{0, 1, 0}));
            QCOMPARE(p->sampleLocBegin, (std::vector<uint32_t>{0, 2, 3}));
            QCOMPARE(p->values.toVector(), (std::vector<int64_t>{10, 32}));
            QCOMPARE(p->sampleLabelSet, (std::vector<uint32_t>{0, 1}));
            QCOMPARE(p->labelSetBegin, (std::vector<uint64_t>{0, 0, 1}));
            QCOMPARE(p->labels.size(), size_t(1));
            QCOMPARE(p->str(p->labels[0].key), std::string("samples"));
            QCOMPARE(p->str(p->labels[0].str), std::string("count"));
            QCOMPARE(p->str(p->functions[p->lines[p->locations[1].firstLine].function].name), std::string("main"));
            QCOMPARE(p->str(p->functions[p->lines[p->locations[0].firstLine].function].name), std::string("leaf"));
            QCOMPARE(p->timeNanos, int64_t(1000));
            QCOMPARE(p->typeName(0), std::string("samples"));
        }
    }
}

void tst_PprofDecoder::edgeEncodingsAreJudgedAlike_data()
{
    // Encodings CodedInputStream lets pass and libprotobuf's message parser does not, or the other way round;
    // each after a valid start (an empty string and a string "x"), and whether the whole message parses.
    QTest::addColumn<QByteArray>("tail");
    QTest::addColumn<bool>("parses");
    auto bytes = [](std::initializer_list<int> b) {
        QByteArray out;
        for (int c : b)
            out.append(char(c));
        return out;
    };
    // Field 9 (time_nanos), varint 1, its tag padded to n bytes.
    QTest::newRow("tag in 5 bytes") << bytes({0xc8, 0x80, 0x80, 0x80, 0x00, 0x01}) << true;
    QTest::newRow("tag in 6 bytes") << bytes({0xc8, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01}) << false;
    QTest::newRow("tag in 10 bytes") << bytes({0xc8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01})
                                     << false;
    // A string (field 6) "y" whose length is padded, and a length whose fifth byte is over 32 bits.
    QTest::newRow("length in 5 bytes") << bytes({0x32, 0x81, 0x80, 0x80, 0x80, 0x00, 'y'}) << true;
    QTest::newRow("length in 6 bytes") << bytes({0x32, 0x81, 0x80, 0x80, 0x80, 0x80, 0x00, 'y'}) << false;
    QTest::newRow("length over 2 GiB, 1 in 32 bits") << bytes({0x32, 0x81, 0x80, 0x80, 0x80, 0x10, 'y'}) << false;
    // The same for a sample (field 2) and for a collected field (a location, field 4).
    QTest::newRow("sample length in 6 bytes") << bytes({0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}) << false;
    QTest::newRow("location length in 6 bytes") << bytes({0x22, 0x82, 0x80, 0x80, 0x80, 0x80, 0x00, 0x08, 0x01})
                                                << false;
    QTest::newRow("location length in 5 bytes") << bytes({0x22, 0x82, 0x80, 0x80, 0x80, 0x00, 0x08, 0x01}) << true;
    // Groups: unknown field 20 holding field 1, ended by another field's end, or padded inner tags.
    QTest::newRow("group") << bytes({0xa3, 0x01, 0x08, 0x05, 0xa4, 0x01}) << true;
    QTest::newRow("group ended by another field") << bytes({0xa3, 0x01, 0x08, 0x05, 0xac, 0x01}) << false;
    QTest::newRow("group with a 6-byte inner tag") << bytes({0xa3, 0x01, 0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x05, 0xa4, 0x01})
                                                  << false;
    QTest::newRow("end of group alone") << bytes({0xa4, 0x01}) << false;
    // Inside a message parsed on its own: libprotobuf's parse of a stream stops at an end-group tag without
    // failing; the message has not ended there (a mutation found it, round 350 of acceptsWhat...).
    QTest::newRow("end of group in a location") << bytes({0x22, 0x04, 0x04, 0x2f, 0x08, 0x01}) << false;
    QTest::newRow("end of group in a mapping") << bytes({0x1a, 0x03, 0x08, 0x01, 0x0c}) << false;
    QTest::newRow("field number 0") << bytes({0x01, 0, 0, 0, 0, 0, 0, 0, 0}) << false;
    QTest::newRow("wire type 7") << bytes({0x4f}) << false;
    // Nesting: unknown groups about 100 deep at the top level, and inside each message the decoder parses on
    // its own (a sample, location, line of a location, function, mapping), where they are levels deeper.
    auto groups = [](int depth) {
        QByteArray g;
        for (int i = 0; i < depth; ++i)
            g.append(char(0xa3)).append(char(0x01));
        for (int i = 0; i < depth; ++i)
            g.append(char(0xa4)).append(char(0x01));
        return g;
    };
    auto inField = [](int field, const QByteArray &inner) {   // a length-delimited field holding `inner`
        Wire w;
        w.tag(field, 2), w.varint(uint64_t(inner.size()));
        return QByteArray(w.bytes.data(), qsizetype(w.bytes.size())) + inner;
    };
    for (int depth : {97, 98, 99, 100, 101}) {
        // What libprotobuf 3.21 allows, as measured: 100 levels below the profile, one fewer per message level.
        auto allowed = [depth](int level) { return depth <= 100 - level; };
        QTest::addRow("%d nested groups", depth) << groups(depth) << allowed(0);
        QTest::addRow("%d nested groups in a sample", depth) << inField(2, groups(depth)) << allowed(1);
        QTest::addRow("%d nested groups in a mapping", depth) << inField(3, groups(depth)) << allowed(1);
        QTest::addRow("%d nested groups in a location", depth) << inField(4, groups(depth)) << allowed(1);
        QTest::addRow("%d nested groups in a line", depth) << inField(4, inField(4, groups(depth))) << allowed(2);
        QTest::addRow("%d nested groups in a function", depth) << inField(5, groups(depth)) << allowed(1);
    }
}

void tst_PprofDecoder::edgeEncodingsAreJudgedAlike()
{
    QFETCH(QByteArray, tail);
    QFETCH(bool, parses);
    const std::string message = std::string("\x32\x00\x32\x01x", 5) + tail.toStdString();
    pb::Profile whole;
    QCOMPARE(whole.ParseFromString(message), parses);
    QCOMPARE(fuzz::crossCheckPprof(message), std::string());
}

void tst_PprofDecoder::acceptsWhatTheWholeMessageParseAccepts()
{
    // Deterministic mutations of a small profile: bytes overwritten, inserted, deleted, ranges repeated, the
    // end cut off. Every one must be accepted or rejected by both, and read alike when accepted.
    const std::string base = manySamples(30).SerializeAsString();
    std::mt19937 rng(2026);
    int accepted = 0, rejected = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string m = base;
        const int edits = 1 + int(rng() % 3);
        for (int e = 0; e < edits && !m.empty(); ++e) {
            const size_t at = rng() % m.size();
            switch (rng() % 5) {
            case 0: m[at] = char(rng()); break;
            case 1: m.insert(at, 1, char(rng())); break;
            case 2: m.erase(at, 1 + rng() % 8); break;
            case 3: m.insert(at, m.substr(rng() % m.size(), 1 + rng() % 40)); break;
            case 4: m.resize(at); break;
            }
        }
        const std::string mismatch = fuzz::crossCheckPprof(m);
        QVERIFY2(mismatch.empty(), qPrintable(QStringLiteral("round %1: ").arg(round) + QString::fromStdString(mismatch)));
        pb::Profile whole;
        (whole.ParseFromString(m) ? accepted : rejected)++;
    }
    // Both outcomes must have been exercised many times for the agreement to mean something (the seed is
    // fixed: 264 of the 4,000 are accepted).
    QVERIFY2(accepted > 200 && rejected > 2000, qPrintable(QStringLiteral("%1 accepted, %2 rejected").arg(accepted).arg(rejected)));
}

void tst_PprofDecoder::damagedCompressionIsReportedAsSuch()
{
    // 20,000 samples in blocks of 512 bytes: the decoder has parsed many blocks when the damage is met, and may
    // see the data end at a field boundary; the inflater's error must still be the one reported.
    const std::string gz = test::gzipBytes(manySamples(20000).SerializeAsString());
    QVERIFY(gz.size() > 100000);
    std::vector<size_t> cuts;
    for (size_t i = 1; i < 40; ++i)
        cuts.push_back(gz.size() * i / 40);
    cuts.push_back(gz.size() - 8);   // all the data, no trailer: the message itself is complete
    cuts.push_back(gz.size() - 3);
    for (size_t cut : cuts) {
        for (size_t blockSize : {size_t(512), InflatingStream::kDefaultBlockSize}) {
            try {
                readInBlocks(gz.substr(0, cut), blockSize);
                QFAIL("no error");
            } catch (const ProfileError &e) {
                QVERIFY2(QByteArray(e.what()).startsWith("blocks: gzip: truncated data"), e.what());
            }
        }
    }
    // In blocks of one byte every byte before the damage reaches the decoder, which then sees a complete message.
    const std::string small = test::gzipBytes(manySamples(50).SerializeAsString());
    for (size_t missing : {8, 3}) {
        try {
            readInBlocks(small.substr(0, small.size() - missing), 1);
            QFAIL("no error");
        } catch (const ProfileError &e) {
            QVERIFY2(QByteArray(e.what()).startsWith("blocks: gzip: truncated data"), e.what());
        }
    }
    std::string damaged = gz;
    for (size_t i = gz.size() - 2000; i < gz.size() - 1000; i += 3)
        damaged[i] = char(~damaged[i]);
    try {
        readInBlocks(damaged, 512);
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QVERIFY2(QByteArray(e.what()).startsWith("blocks: gzip: "), e.what());
    }
    QCOMPARE(readInBlocks(gz, 512)->sampleCount(), size_t(20000));
}

void tst_PprofDecoder::cancelStopsInflating()
{
    const std::string gz = test::gzipBytes(manySamples(300000).SerializeAsString());
    std::vector<double> seen;
    ReadOptions watch;
    watch.progress = [&](double f) { seen.push_back(f); return true; };
    QCOMPARE(readPprof(gz, "all", watch)->sampleCount(), size_t(300000));
    QVERIFY2(seen.size() >= 3, qPrintable(QString::number(seen.size())));
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QVERIFY(seen.front() >= 0.0 && seen.back() <= 1.0);

    int calls = 0;
    ReadOptions cancel;
    cancel.progress = [&](double) { return ++calls < 2; };
    QVERIFY_THROWS_EXCEPTION(Cancelled, readPprof(gz, "cancelled", cancel));
    QCOMPARE(calls, 2);   // asked once more after saying no would mean the decode went on
    // Raw input cancels the same way.
    calls = 0;
    QVERIFY_THROWS_EXCEPTION(Cancelled, readPprof(manySamples(300000).SerializeAsString(), "raw", cancel));
    QCOMPARE(calls, 2);
}

void tst_PprofDecoder::largeProfilesAreReadAlike()
{
    // From 50,000 samples the ids are resolved in two halves on two threads, and from 4,096 samples on the
    // sample arrays are reserved and prefaulted: the result must still be the whole-message parse's, sample by
    // sample, with a location id beyond 31 bits (kept aside while reading) on both sides of the halfway mark.
    pb::Profile p = manySamplesWithBigId(120000);
    p.mutable_sample(100000)->add_location_id(uint64_t(1) << 40);
    const std::string raw = p.SerializeAsString();
    const std::string mismatch = fuzz::crossCheckPprof(raw);
    QVERIFY2(mismatch.empty(), mismatch.c_str());
    const auto read = readPprof(raw, "raw");
    QCOMPARE(read->sampleCount(), size_t(120000));
    QCOMPARE(read->locations[read->sampleLocations[read->sampleLocBegin[100]]].id, uint64_t(1) << 40);
    QCOMPARE(read->locations[read->sampleLocations[read->sampleLocBegin[100001] - 1]].id, uint64_t(1) << 40);
}

void tst_PprofDecoder::firstProblemInFileOrder_data()
{
    // 100,000 samples: the second half (resolved on the second thread) starts at sample 50,001.
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<QString>("error");
    const pb::Profile base = manySamples(100000);
    auto dangling = [](pb::Profile &p, int sample, uint64_t id) {
        p.mutable_sample(sample - 1)->set_location_id(0, id);
    };
    auto badKey = [](pb::Profile &p, int sample) { p.mutable_sample(sample - 1)->mutable_label(0)->set_key(999); };
    auto row = [](const char *name, const pb::Profile &p, const char *error) {
        QTest::newRow(name) << QByteArray::fromStdString(p.SerializeAsString()) << QString(error);
    };
    pb::Profile p = base;
    dangling(p, 1000, 77), dangling(p, 90000, 88);
    row("both halves", p, "sample 1000 refers to location id 77");
    p = base;
    dangling(p, 90000, 88);
    row("second half only", p, "sample 90000 refers to location id 88");
    p = base;
    dangling(p, 50000, 77), dangling(p, 50001, 88);
    row("either side of the middle", p, "sample 50000 refers to location id 77");
    p = base;
    dangling(p, 50001, uint64_t(1) << 40);
    row("big id, second half", p, "sample 50001 refers to location id 1099511627776");
    p = base;
    badKey(p, 20), dangling(p, 60000, 88);
    row("label first, location second", p, "string index 999 in a label of sample 20");
    p = base;
    dangling(p, 40000, 77), badKey(p, 60000);
    row("location first, label second", p, "sample 40000 refers to location id 77");
    p = base;
    p.mutable_sample(69999)->add_value(5);
    dangling(p, 80000, 88);
    row("value count, second half", p, "sample 70000 has 3 values but the profile has 2 sample types");
    // Location ids 1..60 in order are resolved without lookups, unless an entry is out of range: then the
    // lookups find the first bad one.
    p = base;
    dangling(p, 30000, 0), dangling(p, 20000, 61);
    row("one past the last ordinal id", p, "sample 20000 refers to location id 61");
    p = base;
    dangling(p, 30000, 0);
    row("id 0 among ordinal ids", p, "sample 30000 refers to location id 0");
    p = base;
    badKey(p, 70000);
    row("ordinal ids, a bad label", p, "string index 999 in a label of sample 70000");
    p = base;
    badKey(p, 60000), p.mutable_sample(50999)->add_value(5);
    row("ordinal ids, value count before a label", p, "sample 51000 has 3 values but the profile has 2 sample types");
}

void tst_PprofDecoder::firstProblemInFileOrder()
{
    QFETCH(QByteArray, raw);
    QFETCH(QString, error);
    // The same error whether the samples' labels are kept or dropped (ReadOptions::sampleLabels): dropped, a bad
    // one makes the front door read the input again with them.
    for (const std::string &bytes : {raw.toStdString(), test::gzipBytes(raw.toStdString())}) {
        for (const bool labels : {true, false}) {
            ReadOptions options;
            options.sampleLabels = labels;
            try {
                readPprof(bytes, "data", options);
                QFAIL("accepted");
            } catch (const ProfileError &e) {
                QVERIFY2(QString(e.what()).contains(error), e.what());
            }
        }
    }
}

void tst_PprofDecoder::droppedLabelsLeaveTheRestAlike()
{
    // 60,000 samples with a label each, decoded by hand, and one left to libprotobuf (a location id beyond 31
    // bits) with three labels; one sample has only labels (stored, not counted as empty).
    pb::Profile p = manySamplesWithBigId(60000);
    auto *text = p.mutable_sample(100)->add_label();
    text->set_key(5), text->set_str(6);
    p.mutable_sample(100)->add_label()->set_key(6);
    auto *onlyLabels = p.add_sample();
    onlyLabels->add_value(0), onlyLabels->add_value(0);
    onlyLabels->add_label()->set_key(5);
    const std::string raw = p.SerializeAsString();
    for (const std::string &bytes : {raw, test::gzipBytes(raw)}) {
        ReadOptions dropping;
        dropping.sampleLabels = false;
        const auto kept = readPprof(bytes, "data"), dropped = readPprof(bytes, "data", dropping);
        // Each distinct set once: the numbers 0-7 of samples 1-8 (sets 1-8), sample 101's three labels (set 9);
        // the last sample's one label is the first sample's set.
        QCOMPARE(kept->labels.size(), size_t(11));
        QCOMPARE(kept->labelSetCount(), size_t(10));
        QCOMPARE(kept->sampleCount(), size_t(60001));
        QCOMPARE(kept->sampleLabelSet.size(), size_t(60001));
        QCOMPARE(kept->sampleLabelSet[7], uint32_t(8));
        QCOMPARE(kept->sampleLabelSet[8], uint32_t(1));
        QCOMPARE(kept->sampleLabelSet[100], uint32_t(9));
        QCOMPARE(kept->sampleLabels(100).size(), size_t(3));
        QCOMPARE(kept->sampleLabels(100)[2].key, uint32_t(6));
        QCOMPARE(kept->sampleLabelSet[60000], uint32_t(1));
        QCOMPARE(labelSetsProblem(*kept), std::string());
        QCOMPARE(dropped->labels.size(), size_t(0));
        QVERIFY(dropped->sampleLabelSet.empty());
        Profile expected = *kept;
        expected.labels.clear();
        expected.labelSetBegin = {0, 0};
        expected.sampleLabelSet.clear();
        QVERIFY(*dropped == expected);
    }
    // Straight from the decoder (no front door to read again), a bad label is reported as such, also one whose
    // index does not fit 32 bits (kept aside by libprotobuf's path).
    for (int64_t index : {int64_t(999), int64_t(1) << 40}) {
        pb::Profile bad = p;
        bad.mutable_sample(100)->mutable_label(1)->set_key(index);
        const std::string badRaw = bad.SerializeAsString();
        google::protobuf::io::ArrayInputStream in(badRaw.data(), int(badRaw.size()));
        ReadOptions dropping;
        dropping.sampleLabels = false;
        Profile out;
        bool needed = false;
        try {
            decodePprof(in, badRaw.size(), "data", out, [] { return true; }, dropping);
        } catch (const SampleLabelsNeeded &) {
            needed = true;
        }
        QVERIFY(needed);
    }
}

void tst_PprofDecoder::handWrittenSamplesAgree_data()
{
    // One Sample message each, and whether the hand-written decoder (pprof/SampleWire.h) takes it itself; the
    // ones it leaves go to libprotobuf. Either way crossCheckSampleWire compares it with libprotobuf's parse.
    QTest::addColumn<QByteArray>("sample");
    QTest::addColumn<bool>("handWritten");
    auto row = [](const char *name, const Wire &w, bool taken) {
        QTest::newRow(name) << QByteArray(w.bytes.data(), qsizetype(w.bytes.size())) << taken;
    };
    auto packed = [](int field, std::initializer_list<uint64_t> values) {
        Wire inner, w;
        for (uint64_t v : values)
            inner.varint(v);
        w.bytesField(field, inner.bytes);
        return w;
    };
    auto cat = [](std::initializer_list<Wire> parts) {
        Wire w;
        for (const Wire &p : parts)
            w.bytes += p.bytes;
        return w;
    };
    auto label = [](std::initializer_list<std::pair<int, uint64_t>> fields) {
        Wire inner, w;
        for (auto [f, v] : fields)
            inner.varintField(f, v);
        w.bytesField(3, inner.bytes);
        return w;
    };
    Wire unpacked;
    unpacked.varintField(1, 3), unpacked.varintField(2, 10), unpacked.varintField(1, 4), unpacked.varintField(2, 0);
    row("empty", Wire(), true);
    row("packed", cat({packed(1, {1, 2, 300, 1u << 30}), packed(2, {5, uint64_t(-7), 0})}), true);
    row("unpacked, interleaved", unpacked, true);
    row("packed and unpacked mixed", cat({packed(1, {1, 2}), unpacked, packed(1, {9}), packed(2, {1})}), true);
    row("empty packed fields", cat({packed(1, {}), packed(2, {})}), true);
    row("labels, fields in any order, repeated", cat({packed(1, {1}), label({{4, 3}, {1, 2}, {3, 9}, {1, 5}}),
                                                   label({{2, 7}}), label({})}), true);
    row("label with a negative number", cat({label({{1, 1}, {3, uint64_t(-5)}})}), true);
    Wire tenBytes;   // a 10-byte varint whose last byte holds more than bit 63: libprotobuf drops the rest
    tenBytes.bytes = std::string("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11);
    row("10-byte value, bits past 64", tenBytes, true);
    Wire elevenBytes;
    elevenBytes.bytes = std::string("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12);
    row("11-byte value", elevenBytes, false);
    row("location id of 2^31 - 1", packed(1, {1, (1u << 31) - 1}), true);
    row("location id of 2^31", packed(1, {1, 1u << 31}), false);
    row("location id 0", packed(1, {1, 0}), false);
    row("unpacked location id 0", [] { Wire w; w.varintField(1, 0); return w; }(), false);
    row("location id of 65,536 after 2-byte ones", packed(1, {5, 65535, 65536, 65537}), true);
    row("unpacked location id of 2^40", [] { Wire w; w.varintField(1, uint64_t(1) << 40); return w; }(), false);
    row("label with a negative key", label({{1, uint64_t(-1)}}), false);
    row("label with a string index of 2^32", label({{2, uint64_t(1) << 32}}), false);
    row("label with an unknown field", label({{5, 1}}), false);
    row("unknown field", cat({packed(1, {1}), [] { Wire w; w.varintField(4, 1); return w; }()}), false);
    row("unknown length-delimited field", [] { Wire w; w.bytesField(9, "abc"); return w; }(), false);
    row("fixed64 location id", [] { Wire w; w.tag(1, 1); w.bytes += std::string(8, '\x01'); return w; }(), false);
    row("label as a varint", [] { Wire w; w.varintField(3, 1); return w; }(), false);
    Wire cut = packed(1, {1, 2, 300});
    cut.bytes.pop_back();   // the packed field's length now runs past the end
    row("packed field cut short", cut, false);
    Wire straddle;
    straddle.bytes = std::string("\x0a\x02\x01\x81\x01", 5);   // the varint 0x81 0x01 ends after the field
    row("varint across the packed field's end", straddle, false);
    Wire longLength;
    longLength.bytes = std::string("\x0a\x81\x80\x80\x80\x80\x00\x01", 8);
    row("length in 6 bytes", longLength, false);
    row("two-byte tag of field 1", [] { Wire w; w.bytes = std::string("\x88\x00\x01", 3); return w; }(), false);
}

void tst_PprofDecoder::handWrittenSamplesAgree()
{
    QFETCH(QByteArray, sample);
    QFETCH(bool, handWritten);
    LocationIndexes locations{7};
    SampleValues values{1};
    std::vector<Label> labels;
    uint32_t largest = 0;
    wire::SampleShape shape;
    const auto *p = reinterpret_cast<const uint8_t *>(sample.constData());
    QCOMPARE(wire::decodeSample(p, p + sample.size(), {locations, values, labels, largest}, shape), handWritten);
    if (!handWritten)   // left as they were
        QVERIFY(locations.size() == 1 && values.size() == 1 && labels.empty());
    pb::Sample expected;
    if (handWritten && expected.ParseFromArray(sample.constData(), int(sample.size()))) {
        // The ids less one, and the largest of them noted (not only bounded: the read relies on it).
        uint32_t high = 0;
        QCOMPARE(locations.size(), size_t(1 + expected.location_id_size()));
        for (int i = 0; i < expected.location_id_size(); ++i) {
            QCOMPARE(uint64_t(locations[size_t(i) + 1]), expected.location_id(i) - 1);
            high = std::max(high, uint32_t(expected.location_id(i) - 1));
        }
        QCOMPARE(largest, high);
    }
    QCOMPARE(fuzz::crossCheckSampleWire(sample.toStdString()), std::string());
    // And inside a profile with one sample type per value, read by the whole decoder.
    pb::Sample parsed;
    QVERIFY(parsed.ParseFromArray(sample.constData(), int(sample.size())) || !handWritten);
}

void tst_PprofDecoder::handWrittenSamplesAgreeMutated()
{
    // Mutations of real samples (manySamples' encoding): both decoders agree on every one, and the hand-written
    // one takes a good share of them and leaves a good share, so both ways are exercised.
    const pb::Profile p = manySamples(200);
    std::mt19937 rng(31);
    int taken = 0, left = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string m = p.sample(round % p.sample_size()).SerializeAsString();
        qflame::test::mutateMessage(m, rng);
        const std::string mismatch = fuzz::crossCheckSampleWire(m);
        QVERIFY2(mismatch.empty(), qPrintable(QStringLiteral("round %1: ").arg(round) + QString::fromStdString(mismatch)));
        (fuzz::sampleWireTakes(m) ? taken : left)++;
    }
    QVERIFY2(taken > 5000 && left > 2000, qPrintable(QStringLiteral("%1 taken, %2 left").arg(taken).arg(left)));
}

void tst_PprofDecoder::sampleRunsStopWhereTheStreamWould_data()
{
    // The decoder takes the samples that follow one in the same block of the stream itself (a run), and leaves
    // to the stream whatever it would judge otherwise. In blocks of one byte no run is ever taken: every read
    // must give that read's profile, or its error. manySamples(3000) with an odd field after sample 1500 (or
    // after the last), read with a size limit of 200 bytes an item.
    QTest::addColumn<QByteArray>("odd");
    QTest::addColumn<bool>("atEnd");
    QTest::addColumn<int>("samples");   // stored; 0: refused
    QTest::addColumn<QString>("error");
    auto sample = [](const std::string &message) {
        Wire w;
        w.bytesField(2, message);
        return QByteArray::fromStdString(w.bytes);
    };
    pb::Sample usual, deep;
    usual.add_location_id(5), usual.add_value(1), usual.add_value(2);
    for (int i = 0; i < 250; ++i)
        deep.add_location_id(1 + i % 60);
    deep.add_value(1), deep.add_value(2);
    Wire unknown;   // a usual sample and an unknown varint field: libprotobuf's to decode
    unknown.bytes = usual.SerializeAsString();
    unknown.varintField(9, 1);
    const QByteArray body = QByteArray::fromStdString(usual.SerializeAsString());
    QTest::newRow("a usual sample") << sample(usual.SerializeAsString()) << false << 3001 << QString();
    pb::Sample zeros;   // no location, every value 0: counted, not stored
    zeros.add_value(0), zeros.add_value(0);
    QTest::newRow("an empty sample") << sample(zeros.SerializeAsString()) << false << 3000 << QString();
    QTest::newRow("a sample of no bytes") << sample("") << false << 0
                                          << QStringLiteral("sample 1501 has 0 values but the profile has 2");
    QTest::newRow("an unknown field") << sample(unknown.bytes) << false << 3001 << QString();
    QTest::newRow("a two-byte tag") << QByteArray("\x92\x00", 2) + char(body.size()) + body << false << 3001
                                    << QString();
    QTest::newRow("over the size limit")
        << sample(deep.SerializeAsString()) << false << 0
        << QStringLiteral("a sample of %1 bytes, more than the limit of 200").arg(deep.ByteSizeLong());
    QTest::newRow("a length in six bytes") << QByteArray(1, '\x12') + char(0x80 | body.size()) +
                                                  QByteArray("\x80\x80\x80\x80\x00", 5) + body
                                           << false << 0 << QStringLiteral("not a valid profile.proto message");
    QTest::newRow("a sample cut short") << sample(usual.SerializeAsString()).chopped(1) << true << 0
                                        << QStringLiteral("not a valid profile.proto message");
}

void tst_PprofDecoder::sampleRunsStopWhereTheStreamWould()
{
    QFETCH(QByteArray, odd);
    QFETCH(bool, atEnd);
    QFETCH(int, samples);
    QFETCH(QString, error);
    pb::Profile p = manySamples(3000);
    std::string before, after;
    for (int i = 0; i < p.sample_size(); ++i) {
        Wire w;
        w.bytesField(2, p.sample(i).SerializeAsString());
        (i < 1500 ? before : after) += w.bytes;
    }
    p.clear_sample();
    const std::string raw = p.SerializeAsString() + before +
                            (atEnd ? after + odd.toStdString() : odd.toStdString() + after);
    ReadOptions options;
    options.maxItemBytes = 200;
    std::shared_ptr<const Profile> first;
    for (size_t blockSize : {size_t(1), size_t(65536)}) {
        for (const std::string &bytes : {raw, test::gzipBytes(raw)}) {
            try {
                const auto read = readInBlocks(bytes, blockSize, options);
                QCOMPARE(int(read->sampleCount()), samples);
                if (!first)
                    first = read;   // in blocks of one byte
                QVERIFY(*read == *first);
            } catch (const ProfileError &e) {
                QVERIFY2(samples == 0 && QString(e.what()).contains(error), e.what());
            }
        }
    }
    QCOMPARE(bool(first), samples != 0);
}

QTEST_GUILESS_MAIN(tst_PprofDecoder)
#include "tst_pprofdecoder.moc"
