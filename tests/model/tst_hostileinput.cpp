// Hostile shapes (issue #23): inputs whose content makes a reader store far more than the input's size. Each
// shape is made at 32 MiB inflated, gzip-compressed in memory, and read through readProfile in a forked child,
// so that one shape's peak does not hide another's; the child's peak RSS (wait4's ru_maxrss) must stay under
// 4 x the inflated size + 256 MiB, and the child reports what it read (or the exact error) through a pipe.
#include "export/ProfileWriter.h"
#include "formats/ProfileInput.h"
#include "qryn/QuerierCodec.h"
#include "qryn/StacksToTree.h"

#include <QtTest>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

using namespace qflame;

namespace {

constexpr size_t kInflated = size_t(32) << 20;

std::string varint(uint64_t v)
{
    std::string s;
    for (; v >= 0x80; v >>= 7)
        s += char(0x80 | (v & 0x7f));
    return s + char(v);
}

std::string field(int number, const std::string &bytes)   // a length-delimited field
{
    return varint(uint64_t(number) << 3 | 2) + varint(bytes.size()) + bytes;
}

// `head`, then `unit` repeated until the whole is `size` bytes (or just under), then `tail`.
std::string repeated(const std::string &head, const std::string &unit, const std::string &tail, size_t size = kInflated)
{
    std::string s = head;
    s.reserve(size + tail.size());
    while (s.size() + unit.size() + tail.size() <= size)
        s += unit;
    return s + tail;
}

// The strings {"", "samples", "count"} and the sample type samples/count.
std::string oneSampleType()
{
    return field(6, "") + field(6, "samples") + field(6, "count") + field(1, std::string("\x08\x01\x10\x02", 4));
}

struct Outcome {
    std::string text;    // what the child said: the error, or what describe() made of the profile
    long peakKiB = 0;    // the child's peak RSS
};

// Runs `work` in a child; what it returns (or the ProfileError it throws) is the outcome's text.
Outcome runInChild(const std::function<std::string()> &work)
{
    int fds[2];
    if (pipe(fds) != 0)
        qFatal("pipe");
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        std::string text;
        try {
            text = work();
        } catch (const ProfileError &e) {
            text = std::string("error: ") + e.what();
        }
        (void)!write(fds[1], text.data(), text.size());
        _exit(0);
    }
    close(fds[1]);
    Outcome out;
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
        out.text.append(buffer, size_t(n));
    close(fds[0]);
    int status = 0;
    struct rusage usage {};
    wait4(pid, &status, 0, &usage);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        out.text = "child died with status " + std::to_string(status);
    out.peakKiB = usage.ru_maxrss;
    return out;
}

// Reads `gz` in a child; `describe` turns the profile into text there.
Outcome readInChild(const std::string &gz, const std::function<std::string(const Profile &)> &describe,
                    const ReadOptions &options = {})
{
    return runInChild([&] { return describe(*readProfile(gz, "hostile", options)); });
}

std::string strings(const Profile &p) { return std::to_string(p.strings.size()) + " strings"; }

std::string samples(const Profile &p)
{
    return std::to_string(p.sampleCount()) + " stored, " + std::to_string(p.emptySamples) + " empty, total " +
           std::to_string(p.sampleTypes.empty() ? 0 : p.total(0));
}

}   // namespace

class TestHostileInput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void shapes_data();
    void shapes();
    void textShapes_data();
    void textShapes();
    void qrynAnswers_data();
    void qrynAnswers();
    void itemLimit();
    void sampleTypeLimit();
    void emptySamplesKeepTheirNumbers();
};

void TestHostileInput::shapes_data()
{
    QTest::addColumn<QByteArray>("gz");
    QTest::addColumn<QString>("expected");
    auto row = [](const char *name, const std::string &raw, const std::string &expected) {
        QTest::newRow(name) << QByteArray::fromStdString(gzipCompress(raw)) << QString::fromStdString(expected);
    };
    const std::string e = "error: hostile: ";
    row("empty sample types", repeated(field(6, ""), std::string("\x0a\x00", 2), ""),
        e + "malformed profile: more than 1024 sample types");
    // 2 bytes each: 16 Mi - 1 entries after the first.
    row("empty strings", repeated("", std::string("\x32\x00", 2), ""), std::to_string(kInflated / 2) + " strings");
    // Samples with no location and a value of 0 (4 bytes each), and one that counts.
    const std::string head = oneSampleType();
    const size_t empties = (kInflated - head.size() - 4) / 4;
    row("empty samples", repeated(head, std::string("\x12\x02\x10\x00", 4), field(2, std::string("\x10\x05", 2))),
        "1 stored, " + std::to_string(empties) + " empty, total 5");
    row("empty samples without values", repeated(head, std::string("\x12\x00", 2), ""),
        e + "malformed profile: sample 1 has 0 values but the profile has 1 sample types");
    row("unknown varints", repeated(field(6, ""), std::string("\x78\x00", 2), ""), "1 strings");
    row("unknown bytes", repeated(field(6, ""), std::string("\x7a\x00", 2), ""), "1 strings");
    row("empty locations", repeated(field(6, ""), std::string("\x22\x00", 2), ""), e + "malformed profile: its first");
    // Samples of one empty label each (6 bytes): one label set for all, so they fit the memory limit (28 bytes a
    // sample, under 3 per byte of input + 64 MiB), where a label per sample did not.
    const size_t emptyLabels = (kInflated - head.size()) / 6;
    row("empty labels", repeated(head, field(2, std::string("\x10\x01\x1a\x00", 4)), ""),
        std::to_string(emptyLabels) + " stored, 0 empty, total " + std::to_string(emptyLabels));
    // A label set per sample (its number differs): the sets' labels and table are past the limit.
    std::string distinct = head;
    for (uint64_t i = 1; distinct.size() + 16 < kInflated; ++i)
        distinct += field(2, "\x10\x01" + field(3, "\x18" + varint(i)));
    row("distinct labels", distinct, e + "malformed profile: its first");
    row("empty folded lines", std::string(kInflated, '\n'),   // no stack in its head: taken for pprof
        e + "text, but none of the text formats (tried legacy pprof, perf script, folded stacks); as folded stacks: no "
            "stacks: the folded input has no lines");
    row("tiny folded lines", repeated("", "a 1\n", ""), "1 stored, 0 empty, total " + std::to_string(kInflated / 4));
    // The other readers (issue #23, second part): see textShapes_data for what each row builds.
}

namespace {

// `text` padded with `pad` to exactly kInflated bytes, so that the memory budget (3 per byte + 64 MiB) is the
// same number in every message: 3 * 32 MiB + 64 MiB.
std::string padded(std::string text, char pad = ' ')
{
    if (text.size() < kInflated)
        text.append(kInflated - text.size(), pad);
    return text;
}

const std::string kBudgetRefusal =
    "the profile takes more than 167772160 bytes in memory, more than the limit per byte of input (memoryPerInputByte "
    "3, +64 MiB): no real profile has so many or so deep stacks, names or records";

// Names "aaaaa", "aaaab", ... (5 letters: 11.8 million of them).
std::string nthName(size_t i)
{
    std::string name(5, 'a');
    for (size_t k = 5; k-- > 0; i /= 26)
        name[k] = char('a' + i % 26);
    return name;
}

}   // namespace

void TestHostileInput::textShapes_data()
{
    QTest::addColumn<QByteArray>("gz");
    QTest::addColumn<QString>("expected");
    auto row = [](const char *name, const std::string &raw, const std::string &expected) {
        QVERIFY2(raw.size() == kInflated, name);
        QTest::newRow(name) << QByteArray::fromStdString(gzipCompress(raw)) << QString::fromStdString(expected);
    };
    const std::string e = "error: hostile: ";
    // folded: two stacks alternating (no line is its predecessor's), 4 bytes each.
    row("folded alternating lines", repeated("", "a 1\nb 2\n", ""),
        "2 stored, 0 empty, total " + std::to_string(kInflated / 8 * 3));
    // folded: a distinct name per line, 8 bytes each: a location, a function and a sample each (~150 bytes).
    {
        std::string text;
        for (size_t i = 0; text.size() + 8 <= kInflated; ++i)
            text += nthName(i) + " 1\n";
        row("folded distinct names", padded(text, '\n'), e + "folded: " + kBudgetRefusal);
    }
    // folded: a stack of 8 million frames (4 bytes each stored, 4 while it is read); a short line first, since
    // the format is told from the first line in the first 64 KiB.
    row("folded deep stack", padded("b 1\n" + repeated("", "a;", "", 2 * 7999999) + "a 1", '\n'),
        "2 stored, 0 empty, total 2");
    // flamebearer: 4 million empty bars (total 0) after the root's.
    row("flamebearer empty bars",
        padded(repeated(R"({"names":["total"],"levels":[[0,1,1,0)", ",0,0,0,0", "]]}", kInflated - 8)),
        "1 stored, 0 empty, total 1");
    // flamebearer: 11 million empty levels.
    row("flamebearer empty levels", padded(repeated(R"({"names":["total"],"levels":[[0,1,1,0])", ",[]", "]}", kInflated - 8)),
        "1 stored, 0 empty, total 1");
    // flamebearer: 11 million empty names.
    row("flamebearer empty names", padded(repeated(R"({"levels":[[0,1,1,0]],"names":["total")", ",\"\"", "]}", kInflated - 8)),
        "1 stored, 0 empty, total 1");
    // flamebearer: a chain of 2 million levels, a self of 1 on each: the stacks hold 2 * 10^12 frames.
    {
        const size_t levels = 2000000;
        std::string text = R"({"names":["total","f"],"levels":[)";
        for (size_t l = 0; l < levels; ++l)
            text += (l ? ",[0," : "[0,") + std::to_string(levels - l) + (l ? ",1,1]" : ",1,0]");
        row("flamebearer deep chain", padded(text + "]}"), e + "flamebearer: " + kBudgetRefusal);
    }
    // JSON nested 32 million deep (taken for flamebearer: it is an object).
    row("json deep nesting", padded(std::string("{\"levels\":") + std::string(kInflated - 11, '[')),
        e + "JSON nested deeper than 256 levels (the maxJsonDepth limit)");
    // speedscope: 6.7 million empty samples (one stack, summed) with a weight of 1 each.
    {
        const std::string head = R"({"shared":{"frames":[{"name":"f"}]},"profiles":[{"type":"sampled","unit":"none","samples":[)";
        const size_t n = (kInflated - head.size() - 20) / 5;
        std::string text = head;
        for (size_t i = 0; i < n; ++i)
            text += i ? ",[]" : "[]";
        text += R"(],"weights":[)";
        for (size_t i = 0; i < n; ++i)
            text += i ? ",1" : "1";
        row("speedscope empty samples", padded(text + "]}]}"), "1 stored, 0 empty, total " + std::to_string(n));
    }
    // speedscope: 11 million empty frames, one of them sampled.
    row("speedscope empty frames",
        padded(repeated(R"({"profiles":[{"type":"sampled","unit":"none","samples":[[0]],"weights":[1]}],"shared":{"frames":[{})",
                        ",{}", "]}}", kInflated - 8)),
        "1 stored, 0 empty, total 1");
    // speedscope: 11 million empty profiles (32 bytes each kept to choose one).
    row("speedscope empty profiles",
        padded(repeated(R"({"shared":{"frames":[]},"profiles":[{})", ",{}", "]}", kInflated - 8)),
        e + "speedscope: " + kBudgetRefusal);
    // .cpuprofile: 8 million samples of one node, 4 bytes each (12 stored).
    {
        const std::string head = R"({"nodes":[{"id":1,"callFrame":{"functionName":"f"}}],"samples":[)";
        const size_t n = (kInflated - head.size() - 20) / 4;
        std::string text = head;
        for (size_t i = 0; i < n; ++i)
            text += i ? ",1" : "1";
        text += R"(],"timeDeltas":[)";
        for (size_t i = 0; i < n; ++i)
            text += i ? ",0" : "0";
        row("cpuprofile tiny samples", padded(text + "]}"), "1 stored, 0 empty, total " + std::to_string(n));
    }
    // .cpuprofile: a million nodes with nothing but an id (none sampled), 15 bytes each, 40 + 16 kept.
    {
        std::string text = R"({"nodes":[)";
        for (size_t i = 1; i <= 1000000; ++i)
            text += (i > 1 ? ",{\"id\":" + std::to_string(i) + "}" : R"({"id":1,"callFrame":{"functionName":"f"}})");
        row("cpuprofile million nodes", padded(text + "]}"), "0 stored, 0 empty, total 0");
    }
}

void TestHostileInput::textShapes()
{
    shapes();
}

void TestHostileInput::shapes()
{
    QFETCH(QByteArray, gz);
    QFETCH(QString, expected);
    const std::string bytes = gz.toStdString();
    const Outcome out = readInChild(bytes, [](const Profile &p) {
        return p.sampleTypes.empty() && p.sampleCount() == 0 ? strings(p) : samples(p);
    });
    const long boundKiB = long(4 * kInflated + (size_t(256) << 20)) / 1024;
    qInfo("%s: %zu bytes gzip, peak RSS %ld KiB (bound %ld KiB)", QTest::currentDataTag(), bytes.size(), out.peakKiB,
          boundKiB);
    // The memory limit's message carries the byte counts at the point it was passed; its start and end are fixed.
    if (expected.endsWith(QLatin1String("its first"))) {
        QVERIFY2(out.text.rfind(expected.toStdString(), 0) == 0, out.text.c_str());
        QVERIFY2(out.text.find("more than the limit of 3 per byte of input (+64 MiB): so many tiny items are no real "
                               "profile") != std::string::npos,
                 out.text.c_str());
    } else {
        QCOMPARE(QString::fromStdString(out.text), expected);
    }
    QVERIFY2(out.peakKiB < boundKiB, qPrintable(QString::number(out.peakKiB)));
}

void TestHostileInput::itemLimit()
{
    const std::string big = field(2, repeated("", std::string("\x10\x01", 2), "", size_t(5) << 20));
    const Outcome out = readInChild(gzipCompress(oneSampleType() + big), samples);
    QCOMPARE(QString::fromStdString(out.text),
             QStringLiteral("error: hostile: malformed profile: a sample of 5242880 bytes, more than the limit of 4194304"));
    ReadOptions wider;
    wider.maxItemBytes = 8u << 20;
    // Allowed, the sample then has 2,621,440 values for one sample type.
    QCOMPARE(QString::fromStdString(readInChild(gzipCompress(oneSampleType() + big), samples, wider).text),
             QStringLiteral("error: hostile: malformed profile: sample 1 has 2621440 values but the profile has 1 "
                            "sample types"));
}

void TestHostileInput::sampleTypeLimit()
{
    std::string raw = field(6, "");
    for (int i = 0; i < 3; ++i)
        raw += field(1, "");
    ReadOptions two;
    two.maxSampleTypes = 2;
    QCOMPARE(QString::fromStdString(readInChild(gzipCompress(raw), strings, two).text),
             QStringLiteral("error: hostile: malformed profile: more than 2 sample types"));
    two.maxSampleTypes = 3;
    QCOMPARE(QString::fromStdString(readInChild(gzipCompress(raw), strings, two).text), QStringLiteral("1 strings"));
}

// Empty samples are not stored, but the numbers in messages are still the file's.
void TestHostileInput::emptySamplesKeepTheirNumbers()
{
    const std::string counted = field(2, std::string("\x10\x05", 2));
    const std::string empty = field(2, std::string("\x10\x00", 2));
    const std::string dangling = field(2, std::string("\x08\x07\x10\x01", 4));   // location id 7: none
    QCOMPARE(QString::fromStdString(
                 readInChild(gzipCompress(oneSampleType() + counted + empty + empty + dangling), samples).text),
             QStringLiteral("error: hostile: malformed profile: sample 4 refers to location id 7, which does not exist"));
    QCOMPARE(QString::fromStdString(
                 readInChild(gzipCompress(oneSampleType() + counted + empty + field(2, "") + counted), samples).text),
             QStringLiteral("error: hostile: malformed profile: sample 3 has 0 values but the profile has 1 sample "
                            "types"));
    QCOMPARE(QString::fromStdString(readInChild(gzipCompress(oneSampleType() + counted + empty + field(2, "")),
                                                samples).text),
             QStringLiteral("error: hostile: malformed profile: sample 3 has 0 values but the profile has 1 sample "
                            "types"));
    QCOMPARE(QString::fromStdString(readInChild(gzipCompress(oneSampleType() + empty + counted + empty), samples).text),
             QStringLiteral("1 stored, 2 empty, total 5"));
}

// SelectMergeStacktraces answers of 32 MiB (what the client decodes after inflating): counted on the wire before
// libprotobuf parses them, and their stacks bounded by the answer's size.
void TestHostileInput::qrynAnswers_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expected");
    const auto flamegraph = [](const std::string &inside) { return field(1, inside); };
    // One name of a letter, then empty ones: 1 + 4 + 3 + 2 * 16777212 bytes.
    std::string names = "\x0a\x01" "a" + repeated("", std::string("\x0a\x00", 2), "", kInflated - 8);
    QTest::newRow("empty names") << QByteArray::fromStdString(flamegraph(names))
                                 << QStringLiteral("its flamegraph (16777213 names, 0 levels, 0 values in 33554432 bytes) "
                                                   "would take 1207959336 bytes in memory to decode, more than the limit "
                                                   "of 167772160 (3 per byte of the answer + 64 MiB): no real "
                                                   "flamegraph is shaped so");
    const std::string zeros(kInflated - 15, '\0');   // inside three fields of 5 bytes of tag and length
    QTest::newRow("zero values") << QByteArray::fromStdString(flamegraph(field(2, field(1, zeros))))
                                 << QStringLiteral("its flamegraph (0 names, 1 levels, 33554417 values in 33554432 bytes) "
                                                   "would take 536870768 bytes in memory to decode, more than the limit "
                                                   "of 167772160 (3 per byte of the answer + 64 MiB): no real "
                                                   "flamegraph is shaped so");
    // A chain of 100,000 levels with a self of 1 each (5 * 10^9 frames in its stacks), then the answer's tree
    // bytes (which cost only their size) up to 32 MiB.
    std::string chain = field(1, "total") + field(1, "f");
    const int levels = 100000;
    for (int l = 0; l < levels; ++l)
        chain += field(2, field(1, varint(0) + varint(uint64_t(levels - l)) + varint(1) + varint(l ? 1 : 0)));
    std::string body = flamegraph(chain);
    body += field(2, std::string(kInflated - body.size() - 5, 'x'));
    QTest::newRow("deep chain") << QByteArray::fromStdString(body)
                                << QStringLiteral("its stacks hold more than 20971520 frames, more than the limit for "
                                                  "the answer's size (3 bytes of memory per byte + 64 MiB): no real "
                                                  "flamegraph is shaped so");
}

void TestHostileInput::qrynAnswers()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, expected);
    QCOMPARE(size_t(body.size()), kInflated);
    const Outcome out = runInChild([&] {
        QString why;
        auto graph = qryn::codec::selectMergeStacktracesResponse(body, &why);
        if (!graph)
            return why.toStdString();
        qryn::MergedFlamegraph merged;
        merged.graph = std::move(*graph);
        const qryn::ProfileType type{QStringLiteral("cpu"), QStringLiteral("cpu"), QStringLiteral("cpu"),
                                     QStringLiteral("nanoseconds"), QStringLiteral("cpu"), QStringLiteral("nanoseconds")};
        if (!qryn::buildMergedFlamegraph(&merged, type, 0, "hostile", &why, uint64_t(body.size())))
            return why.toStdString();
        return samples(*merged.profile);
    });
    const long boundKiB = long(4 * kInflated + (size_t(256) << 20)) / 1024;
    qInfo("%s: peak RSS %ld KiB (bound %ld KiB)", QTest::currentDataTag(), out.peakKiB, boundKiB);
    QCOMPARE(QString::fromStdString(out.text), expected);
    QVERIFY2(out.peakKiB < boundKiB, qPrintable(QString::number(out.peakKiB)));
}

QTEST_GUILESS_MAIN(TestHostileInput)
#include "tst_hostileinput.moc"
