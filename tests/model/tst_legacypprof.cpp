// pprof's legacy formats (formats/LegacyPprofFormat.h): our own fixtures of every kind (tests/data/legacy, and
// binary CPU profiles built here in each word size and byte order), read with values worked out below by hand, and
// flat and cum per function and per address equal to `go tool pprof -top -symbolize=none` on the same files.
#include "GoToolchain.h"
#include "OracleFile.h"
#include "formats/LegacyPprofFormat.h"
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace qflame;
using qflame::pgotest::goBinary;

namespace {

using FlatCum = std::map<QString, std::pair<int64_t, int64_t>>;

QByteArray fixture(const QString &name)
{
    QFile f(QStringLiteral(QFLAME_TEST_DATA "/legacy/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

std::shared_ptr<const Profile> read(const QByteArray &bytes, const std::string &name = "test")
{
    return readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), name);
}

FlatCum ours(const std::shared_ptr<const Profile> &p, size_t type, Granularity g = Granularity::Functions)
{
    FlatCum out;
    BuildOptions o;
    o.granularity = g;
    const auto table = FlatTable::compute({p}, type, o);
    for (size_t i = 0; i < table->rows().size(); ++i)
        out[QString::fromStdString(std::string(table->label(i)))] = {table->rows()[i].flat, table->rows()[i].cum};
    return out;
}

// A stack of the test's: frames, leaf first.
struct CpuSample {
    uint64_t count;
    std::vector<uint64_t> pcs;
};

// gperftools' CPU profile, as libprofiler writes it: header words 0, 3, 0 (1 for Java), period in µs, 0; then
// count, depth, pcs per sample; the end marker 0, 1, 0; then `trailer` (the memory map, or Java's frame table).
QByteArray cpuProfile(unsigned wordSize, bool bigEndian, bool java, uint64_t periodMicros,
                      const std::vector<CpuSample> &samples, const QByteArray &trailer)
{
    QByteArray out;
    auto word = [&](uint64_t v) {
        for (unsigned i = 0; i < wordSize; ++i) {
            const unsigned shift = 8 * (bigEndian ? wordSize - 1 - i : i);
            out.append(char((v >> shift) & 0xff));
        }
    };
    for (uint64_t w : {uint64_t(0), uint64_t(3), uint64_t(java ? 1 : 0), periodMicros, uint64_t(0)})
        word(w);
    for (const CpuSample &s : samples) {
        word(s.count);
        word(s.pcs.size());
        for (uint64_t pc : s.pcs)
            word(pc);
    }
    word(0), word(1), word(0);
    return out + trailer;
}

const QByteArray kCpuMap = "\n--- Memory map: ---\n00400000-00402000 r-xp 00000000 08:01 11 /opt/app/cpuhog\n"
                           "7f000000-7f100000 r-xp 00000000 08:01 12 /lib/libm.so.6\n"
                           "7f100000-7f101000 rw-p 00000000 08:01 12 /lib/libm.so.6\n";

// Samples with a duplicated leaf (0x401246 twice: unwinding adds it again, as a return address) and one in libm.
const std::vector<CpuSample> kCpuSamples = {{5, {0x401235, 0x401501, 0x401601}},
                                            {3, {0x401245, 0x401501, 0x401601}},
                                            {2, {0x401246, 0x401246, 0x401601}},
                                            {1, {0x7f001234, 0x401601}}};

// Every sample's second and third frames are the signal handler's (0x401901, 0x401a01); the fourth, shared by all
// too, is the program's: pprof takes out two such frames, never more.
const std::vector<CpuSample> kSignalSamples = {{4, {0x401235, 0x401901, 0x401a01, 0x401b01, 0x401601}},
                                               {6, {0x401245, 0x401901, 0x401a01, 0x401b01}}};

QByteArray javaCpu()
{
    return cpuProfile(8, false, true, 10000, {{7, {1, 2, 3}}, {2, {4, 3}}, {1, {5, 3}}},
                      "0x1 com.example.Hot.loop (Hot.java:12)\n0x2 com.example.Hot.run (Hot.java:30)\n"
                      "0x3 java.lang.Thread.run (Thread.java:829)\n0x4 GC\n");
}

// pprof's unsampling of a heap sample by hand: count and bytes times 1/(1-e^(-average size/rate)).
std::pair<int64_t, int64_t> poisson(int64_t count, int64_t bytes, double rate)
{
    const double scale = 1.0 / (1.0 - std::exp(-(double(bytes) / double(count)) / rate));
    return {int64_t(double(count) * scale), int64_t(double(bytes) * scale)};
}

}   // namespace

class tst_LegacyPprof : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sniffs_data();
    void sniffs();
    void heapValues();
    void countContentionAndThreads();
    void cpuBinary_data();
    void cpuBinary();
    void cpuSignalFrames();
    void java();
    void errors_data();
    void errors();
    void damagedInputIsAnErrorOrAProfile();
    void noFormatMatches_data();
    void noFormatMatches();
    void equalsGoToolPprof_data();
    void equalsGoToolPprof();
};

void tst_LegacyPprof::sniffs_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("legacy");
    for (const char *f : {"heap_v2.txt", "heapprofile.txt", "growth.txt", "goheap.txt", "goroutine.txt", "mutex.txt",
                          "contentionz.txt", "threadz.txt", "javaheap.txt", "javacont.txt"})
        QTest::newRow(f) << fixture(QString::fromLatin1(f)) << true;
    QTest::newRow("cpu 32 le") << cpuProfile(4, false, false, 10000, kCpuSamples, kCpuMap) << true;
    QTest::newRow("cpu 64 be") << cpuProfile(8, true, false, 10000, kCpuSamples, kCpuMap) << true;
    QTest::newRow("java cpu") << javaCpu() << true;
    QTest::newRow("perf script") << QByteArray("prog 12 1.0: 10 cycles:\n\t4005d6 main+0x6 (/a)\n") << false;
    QTest::newRow("folded") << QByteArray("main;run 3\n") << false;
    QTest::newRow("a sample line alone") << QByteArray("1: 2 [3: 4] @ 0x1 0x2\n") << false;
    QTest::newRow("heap profile further down") << QByteArray("hello\nheap profile: 1: 2 [3: 4] @ heap_v2/2\n") << false;
    QTest::newRow("cpu header, wrong version") << cpuProfile(4, false, false, 100, {}, {}).replace(4, 1, "\x04") << false;
    QTest::newRow("cpu header, no period") << cpuProfile(8, false, false, 0, {}, {}) << false;
}

void tst_LegacyPprof::sniffs()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, legacy);
    const std::string_view view(bytes.constData(), size_t(bytes.size()));
    QCOMPARE(looksLikeLegacyPprof(view), legacy);
    if (legacy)   // the heap profile used to be taken for perf script
        QCOMPARE(int(sniffProfileFormat(view)), int(ProfileFormat::LegacyPprof));
}

void tst_LegacyPprof::heapValues()
{
    // heap_v2, rate 524288: both sides unsampled; the types alloc before inuse (the header's counts differ).
    auto p = read(fixture(QStringLiteral("heap_v2.txt")));
    QCOMPARE(p->sampleTypes.size(), size_t(4));
    QCOMPARE(p->typeName(3), std::string("inuse_space"));
    QCOMPARE(p->effectiveDefaultType(), 3);
    QCOMPARE(p->period, int64_t(524288));
    const auto inuse1 = poisson(1, 8388608, 524288), inuse2 = poisson(2, 109568, 524288);
    const auto alloc2 = poisson(143, 109568, 524288);
    QCOMPARE(p->total(3), inuse1.second + inuse2.second);
    QCOMPARE(p->total(2), inuse1.first + inuse2.first);
    QCOMPARE(p->total(0), inuse1.first + alloc2.first);
    QCOMPARE(p->total(1), inuse1.second + alloc2.second);
    // Callers' return addresses move back onto the call, the leaf's too (an allocation site is a call).
    FlatCum a = ours(p, 3, Granularity::Addresses);
    QCOMPARE(a[QStringLiteral("00000000004007cf [prog]")], std::make_pair(inuse1.second, inuse1.second));
    QCOMPARE(a[QStringLiteral("00000000004008ff [prog]")], std::make_pair(int64_t(0), p->total(3)));
    // The block size label: bytes / count before unsampling.
    QCOMPARE(p->labels.size(), size_t(2));
    QCOMPARE(p->labels[1].num, int64_t(109568 / 2));

    // heapprofile: no sampling; growthz: one size, no alloc columns.
    p = read(fixture(QStringLiteral("heapprofile.txt")));
    QCOMPARE(p->total(3), int64_t(3072 + 1024));
    QCOMPARE(p->total(1), int64_t(6144 + 34816));
    QCOMPARE(ours(p, 3), (FlatCum{{QStringLiteral("[server]"), {4096, 4096}}}));
    p = read(fixture(QStringLiteral("growth.txt")));
    QCOMPARE(p->sampleTypes.size(), size_t(2));
    QCOMPARE(p->typeName(1), std::string("space"));
    QCOMPARE(ours(p, 1), (FlatCum{{QStringLiteral("[server]"), {1048576, 2097152}},
                                  {QStringLiteral("[libc.so.6]"), {1048576, 1048576}}}));

    // Go's text heap profile: "heap/1048576" is twice the rate; '#' lines are comments; no memory map, so
    // every address is in one mapping without a file: <unknown>.
    p = read(fixture(QStringLiteral("goheap.txt")));
    const auto g1 = poisson(2, 2048, 524288), g2 = poisson(1, 1024, 524288);
    QCOMPARE(p->total(3), g1.second + g2.second);
    const auto ga1 = poisson(5, 7168, 524288), ga2 = poisson(2, 2048, 524288);
    QCOMPARE(p->total(1), ga1.second + ga2.second);
    QCOMPARE(ours(p, 3), (FlatCum{{QStringLiteral("<unknown>"), {g1.second + g2.second, g1.second + g2.second}}}));
    QCOMPARE(ours(p, 3, Granularity::Addresses)[QStringLiteral("00000000004a1b2b <unknown>")],
             std::make_pair(g1.second, g1.second));
}

void tst_LegacyPprof::countContentionAndThreads()
{
    auto p = read(fixture(QStringLiteral("goroutine.txt")));
    QCOMPARE(p->typeName(0), std::string("goroutine"));
    FlatCum a = ours(p, 0, Granularity::Addresses);
    QCOMPARE(a[QStringLiteral("000000000043a2c5 <unknown>")], std::make_pair(int64_t(6), int64_t(6)));
    QCOMPARE(a[QStringLiteral("000000000046b420 <unknown>")], std::make_pair(int64_t(0), int64_t(6)));
    QCOMPARE(a[QStringLiteral("00000000004c4a89 <unknown>")], std::make_pair(int64_t(0), int64_t(4)));

    // Go's mutex profile: delays in cycles at 2.5 GHz, one sample in 5 recorded.
    p = read(fixture(QStringLiteral("mutex.txt")));
    QCOMPARE(p->typeName(0), std::string("contentions"));
    QCOMPARE(p->total(0), int64_t((3 + 1) * 5));
    QCOMPARE(p->total(1), int64_t(7500000.0 * 5 / 2.5) + int64_t(2500.0 * 5 / 2.5));
    // gperftools' contentionz: the same, 3 GHz, period 2, and its duration.
    p = read(fixture(QStringLiteral("contentionz.txt")));
    QCOMPARE(p->total(1), int64_t(600000.0 * 2 / 3) + int64_t(300.0 * 2 / 3));
    QCOMPARE(p->total(0), int64_t((4 + 2) * 2));
    QCOMPARE(p->durationNanos, int64_t(12345) * 1000000);
    QCOMPARE(ours(p, 1), (FlatCum{{QStringLiteral("[lockd]"), {400200, 400200}}}));

    // threadz: one per thread, "same as previous thread" counts for the previous stack; the leaf keeps its
    // address and a leaf duplicated by the unwinding (0x401250 twice) is one frame.
    p = read(fixture(QStringLiteral("threadz.txt")));
    QCOMPARE(p->total(0), int64_t(4));
    a = ours(p, 0, Granularity::Addresses);
    QCOMPARE(a[QStringLiteral("0000000000401240 [threads]")], std::make_pair(int64_t(2), int64_t(2)));
    QCOMPARE(a[QStringLiteral("0000000000401250 [threads]")], std::make_pair(int64_t(1), int64_t(1)));
    QCOMPARE(a[QStringLiteral("00000000004015ff [threads]")], std::make_pair(int64_t(0), int64_t(4)));
    QVERIFY(!a.count(QStringLiteral("000000000040124f [threads]")));
    QCOMPARE(p->sampleCount(), size_t(3));
    QCOMPARE(p->sampleLocBegin[3] - p->sampleLocBegin[2], uint64_t(2));
}

void tst_LegacyPprof::cpuBinary_data()
{
    QTest::addColumn<unsigned>("wordSize");
    QTest::addColumn<bool>("bigEndian");
    QTest::newRow("32-bit little-endian") << 4u << false;
    QTest::newRow("32-bit big-endian") << 4u << true;
    QTest::newRow("64-bit little-endian") << 8u << false;
    QTest::newRow("64-bit big-endian") << 8u << true;
}

void tst_LegacyPprof::cpuBinary()
{
    QFETCH(unsigned, wordSize);
    QFETCH(bool, bigEndian);
    const auto p = read(cpuProfile(wordSize, bigEndian, false, 10000, kCpuSamples, kCpuMap));
    QCOMPARE(p->typeName(0) + "/" + p->typeName(1), std::string("samples/cpu"));
    QCOMPARE(p->period, int64_t(10000) * 1000);
    QCOMPARE(p->total(0), int64_t(11));
    QCOMPARE(p->total(1), int64_t(11) * 10000000);
    // The non-executable mapping is left out; libm's addresses are in libm.
    QCOMPARE(ours(p, 0), (FlatCum{{QStringLiteral("[cpuhog]"), {10, 11}}, {QStringLiteral("[libm.so.6]"), {1, 1}}}));
    const FlatCum a = ours(p, 0, Granularity::Addresses);
    QCOMPARE(a, (FlatCum{{QStringLiteral("0000000000401235 [cpuhog]"), {5, 5}},
                         {QStringLiteral("0000000000401245 [cpuhog]"), {3, 3}},
                         {QStringLiteral("0000000000401246 [cpuhog]"), {2, 2}},   // 0x401246 and 0x401245 (0x401246-1): one
                         {QStringLiteral("000000007f001234 [libm.so.6]"), {1, 1}},
                         {QStringLiteral("0000000000401500 [cpuhog]"), {0, 8}},
                         {QStringLiteral("0000000000401600 [cpuhog]"), {0, 11}}}));
}

void tst_LegacyPprof::cpuSignalFrames()
{
    const auto p = read(cpuProfile(8, false, false, 100, kSignalSamples, {}));
    const FlatCum a = ours(p, 0, Granularity::Addresses);
    // 0x401900 and 0x4019ff (the handler) are gone; 0x401b00, the third shared one, stays.
    QCOMPARE(a, (FlatCum{{QStringLiteral("0000000000401235 <unknown>"), {4, 4}},
                         {QStringLiteral("0000000000401245 <unknown>"), {6, 6}},
                         {QStringLiteral("0000000000401b00 <unknown>"), {0, 10}},
                         {QStringLiteral("0000000000401600 <unknown>"), {0, 4}}}));
}

void tst_LegacyPprof::java()
{
    // Heap: "BYTES COUNT @ ids" (the count second), unsampled at Java's 512 KiB; frames from the table.
    auto p = read(fixture(QStringLiteral("javaheap.txt")));
    QCOMPARE(p->typeName(1) + "/" + p->unitName(1), std::string("inuse_space/bytes"));
    const auto s1 = poisson(2, 8388608, 524288), s2 = poisson(256, 1048576, 524288), s3 = poisson(1, 4000, 524288);
    const FlatCum f = ours(p, 1);
    QCOMPARE(f.at(QStringLiteral("java.util.Arrays.copyOf")), std::make_pair(s1.second, s1.second));
    QCOMPARE(f.at(QStringLiteral("java.lang.String.<init>")), std::make_pair(s2.second, s2.second));
    QCOMPARE(f.at(QStringLiteral("<unknown>")), std::make_pair(s3.second, s3.second));   // 0x5: not in the table
    QCOMPARE(f.at(QStringLiteral("com.example.Main.main")), std::make_pair(int64_t(0), s1.second + s2.second));
    // At line granularity the file and line (a line of -1 is none).
    const FlatCum l = ours(p, 1, Granularity::Lines);
    QVERIFY(l.count(QStringLiteral("com.example.Cache.grow Cache.java:42")));
    QVERIFY(l.count(QStringLiteral("java.lang.String.<init> String.java")));

    // Contention: both values times the sampling period; a library's path becomes its base name; a JIT stub STUB.
    p = read(fixture(QStringLiteral("javacont.txt")));
    QCOMPARE(p->unitName(1), std::string("microseconds"));
    QCOMPARE(p->durationNanos, int64_t(5000) * 1000000);
    QCOMPARE(ours(p, 1), (FlatCum{{QStringLiteral("java.lang.Object.wait"), {15000, 15000}},
                                  {QStringLiteral("STUB"), {2000, 2000}},
                                  {QStringLiteral("com.example.Worker.run"), {0, 17000}}}));
    QCOMPARE(p->total(0), int64_t(400));
    QVERIFY(ours(p, 1, Granularity::Lines).count(QStringLiteral("com.example.Worker.run libjvm.so")));

    // CPU: binary samples of frame ids, then the table; no address adjusting.
    p = read(javaCpu());
    QCOMPARE(ours(p, 1), (FlatCum{{QStringLiteral("com.example.Hot.loop"), {70000000, 70000000}},
                                  {QStringLiteral("GC"), {20000000, 20000000}},
                                  {QStringLiteral("<unknown>"), {10000000, 10000000}},
                                  {QStringLiteral("com.example.Hot.run"), {0, 70000000}},
                                  {QStringLiteral("java.lang.Thread.run"), {0, 100000000}}}));
}

void tst_LegacyPprof::errors_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    QTest::newRow("heap: a line that is not a sample")
        << QByteArray("heap profile: 1: 2 [1: 2] @ heap_v2/524288\n1: 2 [1: 2] @ 0x1\nnonsense\n")
        << "test: legacy heap profile: line 3: not a sample";
    QTest::newRow("heap: count 0, bytes not")
        << QByteArray("heap profile: 1: 2 [1: 2] @ heapprofile\n0: 2 [0: 0] @ 0x1\n")
        << "test: legacy heap profile: line 2: inuse count is 0 but inuse bytes are 2";
    QTest::newRow("heap: an address past 64 bits")
        << QByteArray("heap profile: 1: 2 [1: 2] @ heapprofile\n1: 2 [1: 2] @ 0x10000000000000000\n")
        << "test: legacy heap profile: line 2: an address does not fit 64 bits";
    QTest::newRow("goroutine: not a sample")
        << QByteArray("goroutine profile: total 1\n1 @ 0x1 junk\n") << "test: legacy goroutine profile: line 2: not a sample";
    QTest::newRow("threads: no end") << QByteArray("--- Thread 1 (name: a/1) stack: ---\n  0x1 0x2\n")
                                     << "test: not a legacy pprof profile: line 2: not a thread header";
    QTest::newRow("contention: unknown attribute") << QByteArray("--- contention:\ncolour = red\n1 1 @ 0x1\n")
                                                   << "test: not a legacy pprof profile: line 2: not a contention profile's attribute";
    QTest::newRow("cpu: truncated sample")
        << cpuProfile(4, false, false, 100, {{1, {0x1, 0x2}}}, {}).left(5 * 4 + 3 * 4 + 2)
        << "test: not a legacy pprof profile: legacy CPU profile: sample 1 runs past the end of the input";
    QTest::newRow("cpu: a depth larger than the file") << cpuProfile(4, false, false, 100, {{1, {}}}, {}).replace(24, 4, "\xff\xff\xff\x0f")
                                                       << "test: not a legacy pprof profile: legacy CPU profile: sample 1 runs past";
    QTest::newRow("java heap: no resolution")
        << QByteArray("--- heapz 1 ---\nformat = java\n 8 2 @ 0x1\n") << "test: legacy profile: its samples have values but it names no sample types";
    QTest::newRow("java heap: count 0") << QByteArray("--- heapz 1 ---\nresolution = bytes\n 8 0 @ 0x1\n")
                                        << "test: legacy Java heap profile: a sample's count is 0";
}

void tst_LegacyPprof::errors()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    try {
        read(bytes);
        QFAIL("read it");
    } catch (const ProfileError &e) {
        QVERIFY2(QString::fromStdString(e.what()).startsWith(message), e.what());
    }
}

// Every fixture cut short and with bytes changed (a seeded generator: the same inputs every run): each read ends
// in a profile or in one ProfileError line, never a crash or another exception (fuzz_legacypprof goes further).
void tst_LegacyPprof::damagedInputIsAnErrorOrAProfile()
{
    std::vector<QByteArray> inputs;
    for (const char *f : {"heap_v2.txt", "heapprofile.txt", "growth.txt", "goheap.txt", "goroutine.txt", "mutex.txt",
                          "contentionz.txt", "threadz.txt", "javaheap.txt", "javacont.txt"})
        inputs.push_back(fixture(QString::fromLatin1(f)));
    inputs.push_back(cpuProfile(4, false, false, 10000, kCpuSamples, kCpuMap));
    inputs.push_back(cpuProfile(8, true, false, 10000, kSignalSamples, kCpuMap));
    inputs.push_back(javaCpu());
    uint64_t state = 0x9e3779b97f4a7c15ull;
    auto next = [&state] {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    };
    size_t read = 0, refused = 0;
    for (const QByteArray &input : inputs)
        for (int round = 0; round < 300; ++round) {
            QByteArray bytes = input.left(qsizetype(next() % size_t(input.size() + 1)));
            for (int flips = int(next() % 4); flips > 0 && !bytes.isEmpty(); --flips)
                bytes[qsizetype(next() % size_t(bytes.size()))] = char(next());
            try {
                const auto p = readLegacyPprof(std::string_view(bytes.constData(), size_t(bytes.size())), "cut");
                (void)FlatTable::compute({p}, 0, BuildOptions{});
                ++read;
            } catch (const ProfileError &e) {
                QVERIFY2(std::string_view(e.what()).substr(0, 5) == "cut: " && !std::string_view(e.what()).empty(), e.what());
                ++refused;
            }
        }
    QVERIFY(read > 0 && refused > 0);
}

// Input that no reader recognises: the message says which formats were tried and why the closest one failed.
void tst_LegacyPprof::noFormatMatches_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const QString text = QStringLiteral("in: text, but none of the text formats (tried legacy pprof, perf script, "
                                        "folded stacks); as folded stacks: ");
    QTest::newRow("prose") << QByteArray("\nhello, this is not a profile\n")
                           << text + "line 2: not folded stacks: expected 'frame;frame;... COUNT' with a whole-number "
                                     "count, got 'hello, this is not a profile'";
    QTest::newRow("blank lines") << QByteArray("\n\n") << text + "no stacks: the folded input has no lines";
    QTest::newRow("binary") << QByteArray("\x07\x01\x02garbage", 10)
                            << QStringLiteral("in: no format matches (tried legacy pprof's binary CPU profile, then pprof, "
                                              "the closest); not a pprof profile: the data is not a valid profile.proto message");
    QTest::newRow("JSON object") << QByteArray("{\"a\": 1}")
                                 << QStringLiteral("in: JSON, but neither speedscope, .cpuprofile nor flamebearer: not "
                                                   "flamebearer JSON: no \"flamebearer\" object with \"names\" and \"levels\"");
    QTest::newRow("JSON array") << QByteArray(" [1, 2]")
                                << QStringLiteral("in: a JSON array, but speedscope, .cpuprofile and flamebearer files are "
                                                  "JSON objects (and pprof is binary: not a pprof profile: the data is not "
                                                  "a valid profile.proto message)");
}

void tst_LegacyPprof::noFormatMatches()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    try {
        read(bytes, "in");
        QFAIL("read it");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromStdString(e.what()), message);
    }
}

void tst_LegacyPprof::equalsGoToolPprof_data()
{
    QTest::addColumn<QByteArray>("bytes");
    for (const char *f : {"heap_v2.txt", "heapprofile.txt", "growth.txt", "goheap.txt", "goroutine.txt", "mutex.txt",
                          "contentionz.txt", "threadz.txt", "javaheap.txt", "javacont.txt"})
        QTest::newRow(f) << fixture(QString::fromLatin1(f));
    for (unsigned size : {4u, 8u})
        for (bool big : {false, true})
            QTest::addRow("cpu %u-bit %s", size * 8, big ? "be" : "le") << cpuProfile(size, big, false, 10000, kCpuSamples, kCpuMap);
    QTest::newRow("cpu signal frames") << cpuProfile(8, false, false, 100, kSignalSamples, {});
    QTest::newRow("java cpu") << javaCpu();
}

void tst_LegacyPprof::equalsGoToolPprof()
{
    QFETCH(QByteArray, bytes);
    REQUIRE_GO(go);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("profile"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes);
    out.close();
    const auto p = read(bytes);
    for (size_t type = 0; type < p->sampleTypes.size(); ++type)
        for (Granularity g : {Granularity::Functions, Granularity::Addresses}) {
            const std::string unit = p->unitName(type);
            QStringList args = {QStringLiteral("tool"), QStringLiteral("pprof"), QStringLiteral("-top"),
                                QStringLiteral("-nodecount=1000000"), QStringLiteral("-nodefraction=0"),
                                QStringLiteral("-edgefraction=0"), QStringLiteral("-symbolize=none"),
                                QStringLiteral("-sample_index=%1").arg(type)};
            if (unit == "bytes")   // whole units, not "9.05MB"
                args << QStringLiteral("-unit=B");
            else if (unit == "nanoseconds")
                args << QStringLiteral("-unit=ns");
            else if (unit == "microseconds")
                args << QStringLiteral("-unit=us");
            if (g == Granularity::Addresses)
                args << QStringLiteral("-addresses");
            args << file;
            const pgotest::Run run = pgotest::runGo(go, args, dir.path());
            QVERIFY2(run.code == 0, run.err.constData());
            QString error;
            FlatCum theirs;
            for (const test::OracleRow &r : test::parseTopOracle(run.out, &error))
                theirs[QString::fromStdString(r.name)] = {r.flat, r.cum};
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY(!theirs.empty());
            QCOMPARE(ours(p, type, g), theirs);
        }
}

QTEST_GUILESS_MAIN(tst_LegacyPprof)
#include "tst_legacypprof.moc"
