// The hand-written Function and Location decoders (pprof/MetadataWire.h): the fields they read, exactly; the
// shapes they leave to libprotobuf; agreement with libprotobuf on every message they take, hand-made and mutated;
// and whole profiles read through them equal to libprotobuf's parse.
#include "formats/ProfileInput.h"
#include "pprof/MetadataWire.h"
#include "PprofCrossCheck.h"
#include "profile.pb.h"
#include "WireWriter.h"

#include <QTest>

#include <random>

using namespace qflame;
using qflame::test::Wire;
namespace pb = perftools::profiles;

Q_DECLARE_METATYPE(std::string)

namespace {

Wire cat(std::initializer_list<Wire> parts)
{
    Wire w;
    for (const Wire &p : parts)
        w.bytes += p.bytes;
    return w;
}

Wire varints(std::initializer_list<std::pair<int, uint64_t>> fields)
{
    Wire w;
    for (auto [f, v] : fields)
        w.varintField(f, v);
    return w;
}

Wire line(std::initializer_list<std::pair<int, uint64_t>> fields)
{
    Wire w;
    w.bytesField(4, varints(fields).bytes);
    return w;
}

Wire raw(const char *bytes, size_t n)
{
    Wire w;
    w.bytes.assign(bytes, n);
    return w;
}

}   // namespace

class tst_MetadataWire : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void functionFieldsAreReadExactly();
    void locationFieldsAreReadExactly();
    void shapesAgreeWithLibprotobuf_data();
    void shapesAgreeWithLibprotobuf();
    void mutatedMessagesAgree();
    void profilesReadAlikeEitherWay();
};

void tst_MetadataWire::functionFieldsAreReadExactly()
{
    // Fields out of order, one repeated (the last one wins, as in libprotobuf), a negative start line.
    const Wire w = varints({{5, uint64_t(-3)}, {2, 9}, {1, 42}, {3, 10}, {4, 11}, {2, 12}});
    const auto *p = reinterpret_cast<const uint8_t *>(w.bytes.data());
    wire::FunctionFields f;
    QVERIFY(wire::decodeFunction(p, p + w.bytes.size(), f));
    QCOMPARE(f.id, uint64_t(42));
    QCOMPARE(f.name, int64_t(12));
    QCOMPARE(f.systemName, int64_t(10));
    QCOMPARE(f.filename, int64_t(11));
    QCOMPARE(f.startLine, int64_t(-3));
}

void tst_MetadataWire::locationFieldsAreReadExactly()
{
    const Wire w = cat({varints({{1, 7}, {2, 3}, {3, 0x401000}}), line({{1, 5}, {2, 120}, {3, 8}}), line({}),
                        varints({{5, 2}}), line({{2, uint64_t(-1)}, {1, 6}})});
    const auto *p = reinterpret_cast<const uint8_t *>(w.bytes.data());
    wire::LocationFields l;
    std::vector<wire::LineFields> lines{{99, 99, 99}};   // replaced, not appended to
    QVERIFY(wire::decodeLocation(p, p + w.bytes.size(), l, lines));
    QCOMPARE(l.id, uint64_t(7));
    QCOMPARE(l.mappingId, uint64_t(3));
    QCOMPARE(l.address, uint64_t(0x401000));
    QVERIFY(l.isFolded);   // any non-zero varint is true
    QCOMPARE(lines.size(), size_t(3));
    QCOMPARE(lines[0].functionId, uint64_t(5));
    QCOMPARE(lines[0].line, int64_t(120));
    QCOMPARE(lines[0].column, int64_t(8));
    QCOMPARE(lines[1].functionId, uint64_t(0));
    QCOMPARE(lines[1].line, int64_t(0));
    QCOMPARE(lines[2].functionId, uint64_t(6));
    QCOMPARE(lines[2].line, int64_t(-1));
}

void tst_MetadataWire::shapesAgreeWithLibprotobuf_data()
{
    // One message each, read as a Function and as a Location; whether each hand-written decoder takes it. Either
    // way crossCheckMetadataWire compares it with libprotobuf's parse.
    QTest::addColumn<std::string>("message");
    QTest::addColumn<bool>("asFunction");
    QTest::addColumn<bool>("asLocation");
    auto row = [](const char *name, const Wire &w, bool function, bool location) {
        QTest::newRow(name) << w.bytes << function << location;
    };
    row("empty", Wire(), true, true);
    row("ids and indexes", varints({{1, 1}, {2, 2}, {3, 3}}), true, true);
    row("start line (field 5)", varints({{5, 100}}), true, true);   // a Location's is_folded
    row("a line", line({{1, 1}, {2, 10}}), false, true);   // field 4 as a message: a Function's is a varint
    row("a line with an unknown field", line({{1, 1}, {4, 2}}), false, false);
    row("a line as a varint", varints({{4, 1}}), true, false);   // a Function's filename
    row("unknown varint field", varints({{6, 1}}), false, false);
    row("unknown length-delimited field", [] { Wire w; w.bytesField(9, "abc"); return w; }(), false, false);
    row("id as fixed64", [] { Wire w; w.tag(1, 1); w.bytes += std::string(8, '\x01'); return w; }(), false, false);
    row("id as a length-delimited field", [] { Wire w; w.bytesField(1, "\x01"); return w; }(), false, false);
    row("10-byte id, bits past 64", raw("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11), true, true);
    row("11-byte id", raw("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12), false, false);
    row("varint cut short", raw("\x08\x81", 2), false, false);
    row("line cut short", [] { Wire w = line({{1, 1}, {2, 300}}); w.bytes.pop_back(); return w; }(), false, false);
    row("varint across the line's end", raw("\x22\x02\x08\x81\x01", 5), false, false);
    row("line length in 6 bytes", raw("\x22\x81\x80\x80\x80\x80\x00", 7), false, false);
    row("two-byte tag of field 1", raw("\x88\x00\x01", 3), false, false);
    row("a group", raw("\x0b\x0c", 2), false, false);
}

void tst_MetadataWire::shapesAgreeWithLibprotobuf()
{
    QFETCH(std::string, message);
    QFETCH(bool, asFunction);
    QFETCH(bool, asLocation);
    const auto *p = reinterpret_cast<const uint8_t *>(message.data());
    wire::FunctionFields f;
    QCOMPARE(wire::decodeFunction(p, p + message.size(), f), asFunction);
    wire::LocationFields l;
    std::vector<wire::LineFields> lines;
    QCOMPARE(wire::decodeLocation(p, p + message.size(), l, lines), asLocation);
    QCOMPARE(fuzz::crossCheckMetadataWire(message), std::string());
}

void tst_MetadataWire::mutatedMessagesAgree()
{
    // Mutations of real functions and locations: both decoders agree on every one, and the hand-written ones take
    // a good share and leave a good share, so both ways are exercised.
    std::vector<std::string> seeds;
    for (int i = 1; i <= 40; ++i) {
        pb::Function f;
        f.set_id(uint64_t(i)), f.set_name(i * 3), f.set_system_name(i * 3 + 1), f.set_filename(i % 5);
        f.set_start_line(i * 17);
        seeds.push_back(f.SerializeAsString());
        pb::Location l;
        l.set_id(uint64_t(i)), l.set_mapping_id(1), l.set_address(0x400000 + uint64_t(i) * 64);
        for (int k = 0; k <= i % 4; ++k) {
            pb::Line *ln = l.add_line();
            ln->set_function_id(uint64_t(1 + (i + k) % 40)), ln->set_line(i * 10 + k), ln->set_column(k);
        }
        seeds.push_back(l.SerializeAsString());
    }
    std::mt19937 rng(36);
    int taken = 0, left = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string m = seeds[size_t(round) % seeds.size()];
        qflame::test::mutateMessage(m, rng);
        const std::string mismatch = fuzz::crossCheckMetadataWire(m);
        QVERIFY2(mismatch.empty(), qPrintable(QStringLiteral("round %1: ").arg(round) + QString::fromStdString(mismatch)));
        const auto *b = reinterpret_cast<const uint8_t *>(m.data());
        wire::FunctionFields f;
        wire::LocationFields l;
        std::vector<wire::LineFields> lines;
        (wire::decodeFunction(b, b + m.size(), f) ? taken : left)++;
        (wire::decodeLocation(b, b + m.size(), l, lines) ? taken : left)++;
    }
    QVERIFY2(taken > 8000 && left > 8000, qPrintable(QStringLiteral("%1 taken, %2 left").arg(taken).arg(left)));
}

void tst_MetadataWire::profilesReadAlikeEitherWay()
{
    // A profile whose functions and locations come in both kinds: most as generated code writes them (taken by
    // hand), some with an unknown field (left to libprotobuf). The decoder's profile equals libprotobuf's parse
    // (crossCheckPprof), and the exact fields of one of each kind are as written.
    pb::Profile p;
    for (const char *s : {"", "samples", "count", "main", "work", "main.go"})
        p.add_string_table(s);
    auto *vt = p.add_sample_type();
    vt->set_type(1), vt->set_unit(2);
    auto *m = p.add_mapping();
    m->set_id(9), m->set_memory_start(0x400000), m->set_memory_limit(0x500000);
    std::string bytes = p.SerializeAsString();
    auto field = [&](int number, const Wire &w) {
        Wire f;
        f.bytesField(number, w.bytes);
        bytes += f.bytes;
    };
    const Wire unknown = varints({{15, 1}});
    field(5, varints({{1, 1}, {2, 3}, {4, 5}, {5, 10}}));                         // function 1: by hand
    field(5, cat({varints({{1, 2}, {2, 4}, {4, 5}, {5, 20}}), unknown}));          // function 2: libprotobuf
    field(4, cat({varints({{1, 1}, {2, 9}, {3, 0x401000}}), line({{1, 1}, {2, 11}})}));   // location 1: by hand
    field(4, cat({varints({{1, 2}, {2, 9}}), line({{1, 2}, {2, 21}}), line({{1, 1}, {2, 12}}), unknown}));
    Wire sample;
    sample.bytesField(1, [] { Wire ids; ids.varint(1), ids.varint(2); return ids.bytes; }());
    sample.bytesField(2, [] { Wire v; v.varint(5); return v.bytes; }());
    field(2, sample);

    QCOMPARE(fuzz::crossCheckPprof(bytes), std::string());
    const std::shared_ptr<const Profile> read = readPprof(bytes, "alike");
    QCOMPARE(read->functions.size(), size_t(2));
    QCOMPARE(read->functions[0].id, uint64_t(1));
    QCOMPARE(read->strings[read->functions[0].name], std::string("main"));
    QCOMPARE(read->strings[read->functions[0].filename], std::string("main.go"));
    QCOMPARE(read->functions[0].startLine, int64_t(10));
    QCOMPARE(read->strings[read->functions[1].name], std::string("work"));
    QCOMPARE(read->functions[1].startLine, int64_t(20));
    QCOMPARE(read->locations.size(), size_t(2));
    const Location &first = read->locations[0], &second = read->locations[1];
    QCOMPARE(first.address, uint64_t(0x401000));
    QCOMPARE(read->mappings[first.mapping].id, uint64_t(9));
    QCOMPARE(first.lineCount, uint32_t(1));
    QCOMPARE(read->lines[first.firstLine].line, int64_t(11));
    QCOMPARE(read->lines[first.firstLine].function, uint32_t(0));
    QCOMPARE(second.lineCount, uint32_t(2));
    QCOMPARE(read->lines[second.firstLine].function, uint32_t(1));
    QCOMPARE(read->lines[second.firstLine].line, int64_t(21));
    QCOMPARE(read->lines[second.firstLine + 1].function, uint32_t(0));
    QCOMPARE(read->lines[second.firstLine + 1].line, int64_t(12));
    QCOMPARE(read->sampleCount(), size_t(1));
    QCOMPARE(read->value(0, 0), int64_t(5));
}

QTEST_GUILESS_MAIN(tst_MetadataWire)
#include "tst_metadatawire.moc"
