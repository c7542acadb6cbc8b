// The reader: compressions told apart by content, every field a viewer needs, and one clear line per error.
#include "formats/ProfileInput.h"
#include "ProfileFactory.h"

#include "profile.pb.h"

#include <QFile>
#include <QTest>

using namespace qflame;
namespace pb = perftools::profiles;

namespace {

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

// A small valid profile that uses every field the reader converts.
pb::Profile richProfile()
{
    pb::Profile p;
    for (const char *s : {"", "samples", "count", "cpu", "nanoseconds", "main", "main.go", "inl", "/bin/app",
                          "abc123", "key", "val", "bytes", "drop.*", "keep", "a comment", "sys_main"})
        p.add_string_table(s);
    auto vt = [](pb::ValueType *v, int type, int unit) { v->set_type(type); v->set_unit(unit); };
    vt(p.add_sample_type(), 1, 2);
    vt(p.add_sample_type(), 3, 4);
    p.set_default_sample_type(1);
    auto *m = p.add_mapping();
    m->set_id(1); m->set_memory_start(0x1000); m->set_memory_limit(0x9000); m->set_filename(8); m->set_build_id(9);
    m->set_has_functions(true);
    auto *f1 = p.add_function();
    f1->set_id(1); f1->set_name(5); f1->set_system_name(16); f1->set_filename(6); f1->set_start_line(10);
    auto *f2 = p.add_function();
    f2->set_id(2); f2->set_name(7); f2->set_filename(6); f2->set_start_line(20);
    auto *l1 = p.add_location();   // inl inlined into main: innermost first
    l1->set_id(1); l1->set_mapping_id(1); l1->set_address(0x1234);
    auto *ln = l1->add_line(); ln->set_function_id(2); ln->set_line(22);
    ln = l1->add_line(); ln->set_function_id(1); ln->set_line(12);
    auto *l2 = p.add_location();   // address only
    l2->set_id(2); l2->set_mapping_id(1); l2->set_address(0x2000);
    auto *s = p.add_sample();
    s->add_location_id(1); s->add_location_id(2); s->add_value(3); s->add_value(30000000);
    auto *lb = s->add_label(); lb->set_key(10); lb->set_str(11);
    lb = s->add_label(); lb->set_key(12); lb->set_num(4096); lb->set_num_unit(12);
    p.set_drop_frames(13); p.set_keep_frames(14); p.add_comment(15);
    p.set_time_nanos(1700000000000000000); p.set_duration_nanos(10000000000);
    vt(p.mutable_period_type(), 3, 4); p.set_period(10000000);
    return p;
}

std::string bytesOf(const pb::Profile &p)
{
    return p.SerializeAsString();
}

}   // namespace

class tst_ProfileReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sniffsCompressionByContent_data();
    void sniffsCompressionByContent();
    void zstdAndGzipGiveTheSameProfile();
    void readsEveryField();
    void readsFromMemory();
    void resolvesIdsInAnyOrder();
    void rejectsBadInput_data();
    void rejectsBadInput();
    void capsDecompressedSize();
    void readsConcatenatedGzipMembers();
    void frontDoorCapsEveryFormat_data();
    void frontDoorCapsEveryFormat();
    void frontDoorAsksTheReadersInOrder();
};

void tst_ProfileReader::sniffsCompressionByContent_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("compression");
    QTest::addColumn<int>("samples");
    QTest::newRow("gzip") << data("gen__baseline.cpu.pb.gz") << int(Compression::Gzip) << 976;
    QTest::newRow("zstd") << data("gen__baseline.cpu.pb.zst") << int(Compression::Zstd) << 976;
    QTest::newRow("gzip-named-pprof") << data("parca__normal-cpu.stripped.pprof") << int(Compression::Gzip) << 56;
    QTest::newRow("gzip-no-extension") << data("pprof__sample.cpu") << int(Compression::Gzip) << 76;
}

void tst_ProfileReader::sniffsCompressionByContent()
{
    QFETCH(QString, file);
    QFETCH(int, compression);
    QFETCH(int, samples);
    const std::string bytes = test::fileBytes(file);
    QCOMPARE(int(sniffCompression(bytes)), compression);
    QCOMPARE(int(readPprofFile(file)->sampleCount()), samples);
    // The same bytes decompressed and handed over raw read the same.
    const std::string raw = decompress(bytes, sniffCompression(bytes), 1 << 30);
    QCOMPARE(int(sniffCompression(raw)), int(Compression::None));
    QCOMPARE(int(readPprof(raw, "raw")->sampleCount()), samples);
}

void tst_ProfileReader::zstdAndGzipGiveTheSameProfile()
{
    auto gz = readPprofFile(data("gen__baseline.cpu.pb.gz"));
    auto zs = readPprofFile(data("gen__baseline.cpu.pb.zst"));
    QCOMPARE(gz->values, zs->values);
    QCOMPARE(gz->sampleLocations, zs->sampleLocations);
    QCOMPARE(gz->strings, zs->strings);
    QCOMPARE(gz->total(1), int64_t(9760000000));
}

void tst_ProfileReader::readsEveryField()
{
    auto p = readPprof(test::gzipBytes(bytesOf(richProfile())), "rich");
    QCOMPARE(p->sampleTypes.size(), size_t(2));
    QCOMPARE(p->typeName(0), std::string("samples"));
    QCOMPARE(p->unitName(1), std::string("nanoseconds"));
    QCOMPARE(p->defaultSampleType, 0);   // default_sample_type is string 1, "samples": the first type
    QCOMPARE(p->sampleCount(), size_t(1));
    QCOMPARE(p->value(0, 0), int64_t(3));
    QCOMPARE(p->value(0, 1), int64_t(30000000));
    QCOMPARE(p->locations.size(), size_t(2));
    const Location &l1 = p->locations[0];
    QCOMPARE(l1.lineCount, 2u);
    QCOMPARE(p->str(p->functions[p->lines[l1.firstLine].function].name), std::string("inl"));   // innermost first
    QCOMPARE(p->lines[l1.firstLine + 1].line, int64_t(12));
    QCOMPARE(p->locations[1].lineCount, 0u);
    QCOMPARE(p->locations[1].address, uint64_t(0x2000));
    QCOMPARE(p->str(p->mappings[p->locations[1].mapping].file), std::string("/bin/app"));
    QCOMPARE(p->str(p->mappings[0].buildId), std::string("abc123"));
    QCOMPARE(p->str(p->functions[0].systemName), std::string("sys_main"));
    QCOMPARE(p->str(p->functions[0].filename), std::string("main.go"));
    QCOMPARE(p->functions[1].startLine, int64_t(20));
    QCOMPARE(p->labels.size(), size_t(2));
    QCOMPARE(p->str(p->labels[0].key), std::string("key"));
    QCOMPARE(p->str(p->labels[0].str), std::string("val"));
    QCOMPARE(p->labels[1].num, int64_t(4096));
    QCOMPARE(p->str(p->labels[1].numUnit), std::string("bytes"));
    QCOMPARE(p->str(p->dropFrames), std::string("drop.*"));
    QCOMPARE(p->str(p->keepFrames), std::string("keep"));
    QCOMPARE(p->comments.size(), size_t(1));
    QCOMPARE(p->str(p->comments[0]), std::string("a comment"));
    QCOMPARE(p->timeNanos, int64_t(1700000000000000000));
    QCOMPARE(p->durationNanos, int64_t(10000000000));
    QCOMPARE(p->period, int64_t(10000000));
    QCOMPARE(p->str(p->periodType.type), std::string("cpu"));
    QCOMPARE(p->effectiveDefaultType(), 0);
    QCOMPARE(p->findSampleType("cpu"), 1);
    QCOMPARE(p->findSampleType("samples/count"), 0);
    QCOMPARE(p->findSampleType("0"), 0);
    QCOMPARE(p->findSampleType("2"), -1);
    QCOMPARE(p->findSampleType("wall"), -1);

    pb::Profile noDefault = richProfile();
    noDefault.set_default_sample_type(0);
    QCOMPARE(readPprof(bytesOf(noDefault), "d")->effectiveDefaultType(), 1);   // pprof shows the last type
}

void tst_ProfileReader::readsFromMemory()
{
    const std::string bytes = test::fileBytes(data("gen__heap.pb.gz"));
    auto p = readPprof(bytes, "in-memory");
    QCOMPARE(p->sourceName, std::string("in-memory"));
    QCOMPARE(p->sampleTypes.size(), size_t(4));
    QCOMPARE(p->defaultSampleType, -1);   // Go heap profiles name no default: pprof shows the last type
    QCOMPARE(p->typeName(size_t(p->effectiveDefaultType())), std::string("inuse_space"));
    QCOMPARE(p->total(1), int64_t(62869263));
}

// Ids 1, 2, 3... in file order are resolved as the locations are read, others through an index at the end: the
// same lines and mappings either way, whichever of the two kinds of ids is out of order.
void tst_ProfileReader::resolvesIdsInAnyOrder()
{
    const auto inOrder = readPprof(bytesOf(richProfile()), "in order", ReadOptions{});
    QCOMPARE(inOrder->lines.size(), size_t(2));
    QCOMPARE(inOrder->str(inOrder->functions[inOrder->lines[0].function].name), std::string_view("inl"));
    QCOMPARE(inOrder->str(inOrder->functions[inOrder->lines[1].function].name), std::string_view("main"));
    QCOMPARE(inOrder->locations[0].mapping, uint32_t(0));
    for (int variant = 0; variant < 3; ++variant) {
        pb::Profile p = richProfile();
        const bool functions = variant != 1, mappings = variant != 0;
        if (functions) {   // main and inl swap their ids: 2 and 1, or 20 and 10
            p.mutable_function(0)->set_id(variant == 0 ? 2 : 20);
            p.mutable_function(1)->set_id(variant == 0 ? 1 : 10);
            for (pb::Location &l : *p.mutable_location())
                for (pb::Line &ln : *l.mutable_line())
                    ln.set_function_id(ln.function_id() == 1 ? p.function(0).id() : p.function(1).id());
        }
        if (mappings) {
            p.mutable_mapping(0)->set_id(7);
            for (pb::Location &l : *p.mutable_location())
                l.set_mapping_id(7);
        }
        const auto other = readPprof(bytesOf(p), "renumbered", ReadOptions{});
        QVERIFY(other->lines == inOrder->lines);
        QCOMPARE(other->locations.size(), inOrder->locations.size());
        for (size_t i = 0; i < other->locations.size(); ++i)
            QCOMPARE(other->locations[i].mapping, inOrder->locations[i].mapping);
    }
}

void tst_ProfileReader::rejectsBadInput_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");

    const std::string baseline = test::fileBytes(data("gen__baseline.cpu.pb.gz"));
    const std::string zst = test::fileBytes(data("gen__baseline.cpu.pb.zst"));
    auto row = [](const char *name, const std::string &b, const char *msg) {
        QTest::newRow(name) << QByteArray(b.data(), qsizetype(b.size())) << QString::fromLatin1(msg);
    };
    row("empty file", "", "empty input");
    row("text file", "hello, this is not a profile\n", "not a pprof profile");
    row("truncated gzip", baseline.substr(0, baseline.size() / 2), "gzip: truncated data");
    std::string corruptGzip = baseline;
    for (size_t i = 100; i < 400; ++i)
        corruptGzip[i] = char(0x55);
    row("corrupt gzip", corruptGzip, "gzip: corrupt data");
    std::string corruptZstd = zst;
    for (size_t i = 200; i < 600; ++i)
        corruptZstd[i] = char(i * 7);
    row("corrupt zstd", corruptZstd, "zstd: corrupt data");
    row("truncated zstd", zst.substr(0, zst.size() - 100), "zstd: truncated data");
    row("gzip of garbage", test::gzipBytes(std::string(1000, '\xff')), "not a pprof profile");

    pb::Profile p = richProfile();
    p.mutable_sample(0)->set_location_id(0, 77);
    row("dangling location id", bytesOf(p), "sample 1 refers to location id 77, which does not exist");
    p = richProfile();
    p.mutable_location(0)->mutable_line(1)->set_function_id(9);
    row("dangling function id", bytesOf(p), "location id 1 line 2 refers to function id 9, which does not exist");
    p = richProfile();
    p.mutable_location(1)->set_mapping_id(5);
    row("dangling mapping id", bytesOf(p), "location id 2 refers to mapping id 5, which does not exist");
    p = richProfile();
    p.mutable_function(1)->set_name(999);
    row("bad string index", bytesOf(p), "string index 999 in function id 2 name is out of range");
    // Indexes that do not fit 32 bits are kept aside while the items stream in; the message has their value.
    p = richProfile();
    p.mutable_function(0)->set_system_name(-7);
    row("negative function string index", bytesOf(p), "string index -7 in function id 1 system_name is out of range");
    p = richProfile();
    p.mutable_mapping(0)->set_build_id(int64_t(1) << 40);
    row("wide mapping string index", bytesOf(p), "string index 1099511627776 in mapping id 1 build_id is out of range");
    p = richProfile();
    p.mutable_function(1)->set_filename(int64_t(UINT32_MAX));
    row("string index 2^32-1", bytesOf(p), "string index 4294967295 in function id 2 filename is out of range");
    // Several problems: the first in the order of the fields (mappings, functions, locations) is reported,
    // wherever the items are in the file (here the locations are written first).
    p = richProfile();
    p.mutable_location(0)->set_mapping_id(5);
    p.mutable_function(1)->set_name(999);
    p.mutable_mapping(0)->set_filename(-1);
    {
        pb::Profile locationsOnly;   // serialised messages concatenate as one: their repeated fields append
        *locationsOnly.mutable_location() = p.location();
        const std::string reordered = bytesOf(locationsOnly);
        pb::Profile others = p;
        others.clear_location();
        row("first problem in field order", reordered + bytesOf(others),
            "string index -1 in mapping id 1 filename is out of range");
        p.mutable_mapping(0)->set_filename(0);
        others.mutable_mapping(0)->set_filename(0);
        row("then functions", reordered + bytesOf(others), "string index 999 in function id 2 name is out of range");
        others.mutable_function(1)->set_name(0);
        row("then locations", reordered + bytesOf(others), "location id 1 refers to mapping id 5, which does not exist");
    }
    p = richProfile();
    p.mutable_sample(0)->mutable_label(0)->set_str(-3);
    row("negative string index", bytesOf(p), "string index -3 in a label of sample 1 is out of range");
    p = richProfile();
    p.mutable_sample(0)->add_value(1);
    row("value count", bytesOf(p), "sample 1 has 3 values but the profile has 2 sample types");
    p = richProfile();
    p.mutable_function(0)->set_id(0);
    row("function id 0", bytesOf(p), "function #1 has the reserved id 0");
    p = richProfile();
    p.mutable_location(1)->set_id(0);
    row("location id 0", bytesOf(p), "location #2 has the reserved id 0");
    p = richProfile();
    p.mutable_mapping(0)->set_id(0);
    row("mapping id 0", bytesOf(p), "mapping #1 has the reserved id 0");
    p = richProfile();
    p.mutable_location(1)->set_id(1);
    row("duplicate id", bytesOf(p), "two locations have id 1");
    p = richProfile();
    p.mutable_location(0)->mutable_line(0)->set_function_id(0);
    row("line without function", bytesOf(p), "location id 1 line 1 refers to function id 0 (no function)");
    p = richProfile();
    p.clear_sample_type();
    row("samples without types", bytesOf(p), "it has samples but no sample types");
    p = richProfile();
    p.set_string_table(0, "x");
    row("string table start", bytesOf(p), "the string table must start with an empty string");
}

void tst_ProfileReader::rejectsBadInput()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    // Word for word the same when the samples' labels are dropped (ReadOptions::sampleLabels, `qflame top`).
    QString kept;
    for (const bool labels : {true, false}) {
        ReadOptions options;
        options.sampleLabels = labels;
        try {
            readPprof(std::string_view(bytes.constData(), size_t(bytes.size())), "bad.pb", options);
            QFAIL("no error");
        } catch (const ProfileError &e) {
            const QString what = QString::fromStdString(e.what());
            QVERIFY2(what.startsWith(QLatin1String("bad.pb: ")), qPrintable(what));
            QVERIFY2(what.contains(message), qPrintable(what));
            QVERIFY2(!what.contains(QLatin1Char('\n')), qPrintable(what));
            if (labels)
                kept = what;
            else
                QCOMPARE(what, kept);
        }
    }
}

void tst_ProfileReader::capsDecompressedSize()
{
    // A 64 MiB run of zeros compresses to ~64 KiB: a small bomb. With a 1 MiB cap it must be refused without
    // inflating it all.
    const std::string bomb = test::gzipBytes(std::string(64 << 20, '\0'));
    QVERIFY(bomb.size() < 200000);
    ReadOptions small;
    small.maxDecompressedBytes = 1 << 20;
    try {
        readPprof(bomb, "bomb.gz", small);
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QVERIFY2(QString::fromLatin1(e.what()).contains(QLatin1String("size limit of 1.0 MiB")), e.what());
    }
    // The same cap applies to zstd and to raw input; a real profile under the cap reads.
    const std::string zst = test::fileBytes(data("gen__baseline.cpu.pb.zst"));
    ReadOptions tiny;
    tiny.maxDecompressedBytes = 10000;
    QVERIFY_THROWS_EXCEPTION(ProfileError, readPprof(zst, "z", tiny));
    QVERIFY_THROWS_EXCEPTION(ProfileError, readPprof(decompress(zst, Compression::Zstd, 1 << 30), "r", tiny));
    ReadOptions enough;
    enough.maxDecompressedBytes = 47540;   // the exact inflated size of this profile
    QCOMPARE(readPprof(zst, "z", enough)->sampleCount(), size_t(976));
    enough.maxDecompressedBytes = 47539;
    QVERIFY_THROWS_EXCEPTION(ProfileError, readPprof(zst, "z", enough));
}

void tst_ProfileReader::readsConcatenatedGzipMembers()
{
    // Splitting the raw bytes in two gzip members must read as one profile (gzip -c a b > ab semantics).
    const std::string raw = bytesOf(richProfile());
    const std::string twoMembers = test::gzipBytes(raw.substr(0, 10)) + test::gzipBytes(raw.substr(10));
    auto p = readPprof(twoMembers, "two");
    QCOMPARE(p->value(0, 1), int64_t(30000000));
    QVERIFY_THROWS_EXCEPTION(ProfileError, readPprof(test::gzipBytes(raw) + "junk", "junk"));
}

QTEST_GUILESS_MAIN(tst_ProfileReader)
void tst_ProfileReader::frontDoorCapsEveryFormat_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("error");   // with a cap of 100 bytes
    const std::string folded = "main;a 2\nmain;b 3\n" + std::string(200, '\n');   // 218 bytes
    const std::string json = R"({"flamebearer":{"names":["total"],"levels":[[0,1,1,0]],"numTicks":1,"maxSelf":1},)"
                             R"("metadata":{"units":"samples"},"pad":")" + std::string(200, ' ') + "\"}";
    const std::string pprof = bytesOf(richProfile());
    QVERIFY(pprof.size() > 100);
    const QString raw = QStringLiteral("in: the input is larger than the size limit of 100 bytes");
    const QString inflated = QStringLiteral("in: gzip data inflates to more than the size limit of 0.0 MiB "
                                            "(a decompression bomb, or raise the limit)");
    QTest::newRow("raw folded") << QByteArray::fromStdString(folded) << raw;
    QTest::newRow("raw flamebearer") << QByteArray::fromStdString(json) << raw;
    QTest::newRow("raw pprof") << QByteArray::fromStdString(pprof) << raw;
    QTest::newRow("gzip folded") << QByteArray::fromStdString(test::gzipBytes(folded)) << inflated;
    QTest::newRow("gzip flamebearer") << QByteArray::fromStdString(test::gzipBytes(json)) << inflated;
    QTest::newRow("gzip pprof") << QByteArray::fromStdString(test::gzipBytes(pprof)) << inflated;
}

void tst_ProfileReader::frontDoorCapsEveryFormat()
{
    // One door, one cap: whatever the format and the compression, input over the cap is refused with the door's
    // message, naming the source.
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);
    ReadOptions capped;
    capped.maxDecompressedBytes = 100;
    try {
        readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), "in", capped);
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromLatin1(e.what()), error);
    }
    // Under a cap that fits, the same bytes read.
    QVERIFY(readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), "in")->sampleCount() > 0);
}

void tst_ProfileReader::frontDoorAsksTheReadersInOrder()
{
    // The table's order is the sniffing order: flamebearer, perf script and folded claim their own text, pprof
    // (last, with no test of its own) takes the rest and says why it is not a profile.
    const auto &readers = formatReaders();
    QCOMPARE(int(readers.size()), 7);
    QCOMPARE(int(readers.back().format), int(ProfileFormat::Pprof));
    QVERIFY(readers.back().recognizes == nullptr && readers.back().readInflating != nullptr);
    QCOMPARE(int(sniffProfileFormat("{\"flamebearer\":{}}")), int(ProfileFormat::Flamebearer));
    QCOMPARE(int(sniffProfileFormat("main;a 2\n")), int(ProfileFormat::Folded));
    QCOMPARE(int(sniffProfileFormat("prog 12 1.5: 7 cpu-clock:\n\t1 main (/a)\n")), int(ProfileFormat::PerfScript));
    // pprof's legacy heap profile before perf script, which took its header for a sample's.
    QCOMPARE(int(sniffProfileFormat("heap profile: 1: 2 [1: 2] @ heap_v2/524288\n1: 2 [1: 2] @ 0x1\n")),
             int(ProfileFormat::LegacyPprof));
    QCOMPARE(int(sniffProfileFormat("{\"shared\":{\"frames\":[]},\"profiles\":[]}")), int(ProfileFormat::Speedscope));
    QCOMPARE(int(sniffProfileFormat("{\"nodes\":[{\"id\":1,\"callFrame\":{}}]}")),
             int(ProfileFormat::ChromeCpuProfile));
    QCOMPARE(int(sniffProfileFormat(bytesOf(richProfile()))), int(ProfileFormat::Pprof));
    // readPprof is the same door with the format fixed: folded text is handed to the pprof reader.
    QCOMPARE(readProfile("main;a 2\n", "f")->sampleCount(), size_t(1));
    try {
        readPprof("main;a 2\n", "f");
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QVERIFY2(QString::fromLatin1(e.what()).startsWith(QLatin1String("f: not a pprof profile")), e.what());
    }
}

#include "tst_profilereader.moc"
