// speedscope files in (sampled, evented, several profiles, units) and out (`convert --to speedscope`), and Chrome /
// V8 .cpuprofile in: hand-written files with totals worked out by hand, files of the formats' producers (node
// --cpu-prof, run here too when node is installed; the sample shipped in speedscope's npm package) checked against
// sums computed here from their text, and the round trip pprof -> speedscope -> qflame.
#include "export/ProfileWriter.h"
#include "export/SpeedscopeWriter.h"
#include "io/Compression.h"
#include "formats/ChromeCpuProfileFormat.h"
#include "formats/ProfileInput.h"
#include "formats/SpeedscopeFormat.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "RunQflame.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <set>

using namespace qflame;
using qflame::test::Run;
using qflame::test::runQflame;

// Declared before the JSON below: moc loses its way in raw string literals and would find no class after them.
class tst_Speedscope : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sampledTotals();
    void eventedTotals();
    void picksTheProfile();
    void profilesAreThreads();
    void rejectsWithOneLine_data();
    void rejectsWithOneLine();
    void sniffsByContent();
    void cpuProfileTotals();
    void oldV8CpuProfile();
    void nodeCpuProfile();
    void pprofRoundTrip_data();
    void pprofRoundTrip();
    void writesTheSchemasRequiredFields();
    void boundsDeepStacks();
};


namespace {

QString data(const QString &name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + name;
}

using FlatCum = std::map<std::string, std::pair<int64_t, int64_t>>;   // function -> (flat, cum)

FlatCum flatCum(const std::shared_ptr<const Profile> &p, int type = -1)
{
    const auto table = FlatTable::compute({p}, size_t(type < 0 ? p->effectiveDefaultType() : type), {});
    FlatCum out;
    // By label, without pprof's "(inline)" marks, which only pprof input carries.
    for (size_t i = 0; i < table->rows().size(); ++i) {
        auto &[flat, cum] = out[std::string(table->label(i))];
        flat += table->rows()[i].flat;
        cum += table->rows()[i].cum;
    }
    return out;
}

QString describe(const FlatCum &m)
{
    QStringList s;
    for (const auto &[name, v] : m)
        s << QStringLiteral("%1=%2/%3").arg(QString::fromStdString(name)).arg(v.first).arg(v.second);
    return s.join(QLatin1Char(' '));
}

std::shared_ptr<const Profile> read(const QByteArray &bytes, const ReadOptions &options = {})
{
    return readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), "in", options);
}

QString readError(const QByteArray &bytes)
{
    try {
        read(bytes);
    } catch (const ProfileError &e) {
        return QString::fromUtf8(e.what());
    }
    return QStringLiteral("(no error)");
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A .cpuprofile summed the plain way: per function, samples with it as the leaf (flat) and with it anywhere on
// the stack, once (cum); and the nanoseconds of each sample until the next one (DevTools' rule), the last until
// endTime. Samples are taken in time order.
std::pair<FlatCum, FlatCum> sumCpuProfile(const QByteArray &json)
{
    const QJsonObject top = QJsonDocument::fromJson(json).object();
    std::map<qint64, QJsonObject> nodes;
    std::map<qint64, qint64> parent;
    for (const QJsonValue v : top[QLatin1String("nodes")].toArray()) {
        const QJsonObject n = v.toObject();
        nodes[n[QLatin1String("id")].toInteger()] = n;
        for (const QJsonValue c : n[QLatin1String("children")].toArray())
            parent[c.toInteger()] = n[QLatin1String("id")].toInteger();
    }
    auto nameOf = [&](qint64 id) {
        const QJsonObject f = nodes[id][QLatin1String("callFrame")].toObject();
        const QString fn = f[QLatin1String("functionName")].toString();
        // As DevTools names them: an unnamed function by its place, "(anonymous)" alone where V8 gives none
        // (a fresh node run has such a frame now and then).
        const QString url = f[QLatin1String("url")].toString();
        if (!fn.isEmpty())
            return fn.toStdString();
        if (url.isEmpty())
            return std::string("(anonymous)");
        return QStringLiteral("(anonymous %1:%2)").arg(url).arg(f[QLatin1String("lineNumber")].toInteger() + 1).toStdString();
    };
    const QJsonArray samples = top[QLatin1String("samples")].toArray(), deltas = top[QLatin1String("timeDeltas")].toArray();
    std::vector<std::pair<qint64, qint64>> timed;   // (time, node)
    qint64 t = top[QLatin1String("startTime")].toInteger();
    for (qsizetype i = 0; i < samples.size(); ++i)
        timed.push_back({t += deltas[i].toInteger(), samples[i].toInteger()});
    std::stable_sort(timed.begin(), timed.end(), [](auto a, auto b) { return a.first < b.first; });
    FlatCum counts, nanos;
    for (size_t i = 0; i < timed.size(); ++i) {
        const qint64 next = i + 1 < timed.size() ? timed[i + 1].first : top[QLatin1String("endTime")].toInteger();
        const int64_t ns = std::max<qint64>(next - timed[i].first, 0) * 1000;
        std::set<std::string> seen;
        bool leaf = true;
        for (qint64 id = timed[i].second; nodes.count(id); id = parent.count(id) ? parent[id] : -1) {
            if (!parent.count(id) && nameOf(id) == "(root)")
                break;
            const std::string name = nameOf(id);
            if (leaf)
                counts[name].first += 1, nanos[name].first += ns;
            leaf = false;
            if (seen.insert(name).second)
                counts[name].second += 1, nanos[name].second += ns;
        }
    }
    return {counts, nanos};
}

// The same for folded stacks ("a;b;c N" lines).
FlatCum sumFolded(const QByteArray &text)
{
    FlatCum out;
    for (const QByteArray &line : text.split('\n')) {
        const qsizetype space = line.lastIndexOf(' ');
        if (line.trimmed().isEmpty() || space < 0)
            continue;
        const int64_t n = line.mid(space + 1).trimmed().toLongLong();
        // Whitespace before the count is one separator (FoldedFormat.h), so the sample's "...;write0_[j];  3"
        // line has no blank leaf frame: the frames end at write0_[j].
        QList<QByteArray> frames = line.left(space).trimmed().split(';');
        frames.removeAll(QByteArray());
        std::set<std::string> seen;
        for (const QByteArray &f : frames)
            if (seen.insert(f.toStdString()).second)
                out[f.toStdString()].second += n;
        out[frames.back().toStdString()].first += n;
    }
    return out;
}

const char kSampled[] = R"({"$schema":"https://www.speedscope.app/file-format-schema.json",
 "shared":{"frames":[{"name":"main"},{"name":"a"},{"name":"b"},{"name":"c","file":"c.py","line":9}]},
 "profiles":[{"type":"sampled","name":"cpu","unit":"milliseconds","startValue":0,"endValue":7,
   "samples":[[0,1],[0,1,2],[0,3],[0,1,2]],"weights":[1.5,2,3,0.5]}]})";

// main 0-10 us; a 1-7 inside it; b 3-6 inside a, and 8-9 in main.
const char kEvented[] = R"({"shared":{"frames":[{"name":"main"},{"name":"a"},{"name":"b"}]},
 "profiles":[{"type":"evented","name":"wall","unit":"microseconds","startValue":0,"endValue":10,"events":[
  {"type":"O","frame":0,"at":0},{"type":"O","frame":1,"at":1},{"type":"O","frame":2,"at":3},
  {"type":"C","frame":2,"at":6},{"type":"C","frame":1,"at":7},{"type":"O","frame":2,"at":8},
  {"type":"C","frame":2,"at":9},{"type":"C","frame":0,"at":10}]}]})";

// root -> main -> a, main -> b; samples at 110 (main), 115, 120 (a), 140 (b), 150 (a); end 160 (microseconds).
const char kCpuProfile[] = R"({"nodes":[
 {"id":1,"callFrame":{"functionName":"(root\u0029","url":"","lineNumber":-1},"hitCount":0,"children":[2]},
 {"id":2,"callFrame":{"functionName":"main","url":"m.js","lineNumber":0},"hitCount":1,"children":[3,4]},
 {"id":3,"callFrame":{"functionName":"a","url":"m.js","lineNumber":3},"hitCount":3},
 {"id":4,"callFrame":{"functionName":"","url":"m.js","lineNumber":6},"hitCount":1}],
 "startTime":100,"endTime":160,"samples":[2,3,3,4,3],"timeDeltas":[10,5,5,20,10]})";

// The old V8 tree form (Node 10's v8-profiler, Chrome before 58): the nodes nest under "head", "id" after the
// children, times are absolute "timestamps" in microseconds, startTime and endTime in seconds.
const char kOldCpuProfile[] = R"js({"typeId":"CPU","uid":"1","title":"","head":{"functionName":"(root\u0029",
 "scriptId":"0","url":"","lineNumber":0,"columnNumber":0,"hitCount":0,"callUID":11,"children":[
  {"functionName":"main","scriptId":"5","url":"m.js","lineNumber":0,"columnNumber":0,"hitCount":1,"callUID":12,
   "children":[
    {"functionName":"a","url":"m.js","lineNumber":3,"hitCount":2,"callUID":13,"children":[],"deoptReason":"",
     "id":3,"positionTicks":[{"line":4,"ticks":2}]},
    {"functionName":"","url":"m.js","lineNumber":6,"hitCount":1,"callUID":14,"children":[
     {"functionName":"a","url":"m.js","lineNumber":3,"hitCount":1,"callUID":13,"children":[],"id":5}],"id":4}],
   "id":2},
  {"functionName":"(garbage collector)","url":"","lineNumber":0,"hitCount":1,"callUID":15,"children":[],"id":6}],
 "deoptReason":"","id":1},
 "startTime":12.5,"endTime":12.5001,"samples":[2,3,5,6,3,4],
 "timestamps":[12500010,12500020,12500035,12500040,12500060,12500080]})js";

}   // namespace

void tst_Speedscope::sampledTotals()
{
    const auto p = read(kSampled);
    QCOMPARE(p->sampleTypes.size(), size_t(2));
    QCOMPARE(QString::fromStdString(p->typeName(0) + "/" + p->unitName(0)), QStringLiteral("samples/count"));
    QCOMPARE(QString::fromStdString(p->typeName(1) + "/" + p->unitName(1)), QStringLiteral("time/nanoseconds"));
    QCOMPARE(p->effectiveDefaultType(), 1);
    QCOMPARE(describe(flatCum(p, 1)), QStringLiteral("a=1500000/4000000 b=2500000/2500000 c=3000000/3000000 "
                                                     "main=0/7000000"));
    QCOMPARE(describe(flatCum(p, 0)), QStringLiteral("a=1/3 b=2/2 c=1/1 main=0/4"));
    QCOMPARE(p->durationNanos, int64_t(7000000));
}

void tst_Speedscope::eventedTotals()
{
    const auto p = read(kEvented);
    QCOMPARE(p->sampleTypes.size(), size_t(1));
    QCOMPARE(describe(flatCum(p)), QStringLiteral("a=3000/6000 b=4000/4000 main=3000/10000"));
    // Frames still open at the end last until endValue: main alone from 2 to 5.
    const QByteArray open = R"({"shared":{"frames":[{"name":"main"},{"name":"x"}]},"profiles":[{"type":"evented",
        "name":"e","unit":"none","startValue":0,"endValue":5,"events":[{"type":"O","frame":0,"at":0},
        {"type":"O","frame":1,"at":1},{"type":"C","frame":1,"at":2}]}]})";
    QCOMPARE(describe(flatCum(read(open))), QStringLiteral("main=4/5 x=1/1"));
}

void tst_Speedscope::picksTheProfile()
{
    const QByteArray two = R"({"shared":{"frames":[{"name":"f"},{"name":"g"}]},"activeProfileIndex":1,
      "profiles":[{"type":"sampled","name":"first","unit":"none","samples":[[0]],"weights":[5]},
                  {"type":"sampled","name":"second","unit":"bytes","samples":[[1]],"weights":[7]}]})";
    QCOMPARE(describe(flatCum(read(two))), QStringLiteral("g=7/7"));   // the file's active profile
    ReadOptions first;
    first.profileName = "first";
    QCOMPARE(describe(flatCum(read(two, first))), QStringLiteral("f=5/5"));
    QCOMPARE(QString::fromStdString(read(two)->unitName(1)), QStringLiteral("bytes"));
    first.profileName = "third";
    try {
        read(two, first);
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromUtf8(e.what()),
                 QStringLiteral("in: speedscope: no profile named \"third\" (the file has \"first\", \"second\")"));
    }
    // The command line's --profile, for every verb.
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("two.speedscope.json")));
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(two) == two.size());
    f.close();
    const Run top = runQflame({QStringLiteral("top"), f.fileName(), QStringLiteral("--profile"), QStringLiteral("first"),
                            QStringLiteral("--tsv")});
    QCOMPARE(top.code, 0);
    QCOMPARE(top.out, QByteArray("5\t5\tf\n"));
}

namespace {

// "sample@nanos" of each event of a timeline, in time order.
QString times(const Timeline &t)
{
    QStringList out;
    t.forEach([&](size_t, int64_t nanos, uint32_t s, int64_t) { out << QStringLiteral("%1@%2").arg(s).arg(nanos); });
    return out.join(QLatin1Char(' '));
}

}   // namespace

void tst_Speedscope::profilesAreThreads()
{
    // Two sampled profiles in ms, speedscope's threads. t1 from 0: main;a 1 ms at 0, main;a;b 2 ms at 1, main;a
    // 3 ms at 3; t2 from 2: main;a 1.5 ms at 2, main;b 1.5 ms at 3.5. Each thread's stacks are samples of their
    // own (t1's main;a is sample 0, t2's sample 2), the timeline has one lane per profile.
    const QByteArray sampled = R"({"shared":{"frames":[{"name":"main"},{"name":"a"},{"name":"b"}]},"activeProfileIndex":1,
      "profiles":[{"type":"sampled","name":"t1","unit":"milliseconds","startValue":0,"endValue":6,
                   "samples":[[0,1],[0,1,2],[0,1]],"weights":[1,2,3]},
                  {"type":"sampled","name":"t2","unit":"milliseconds","startValue":2,"endValue":5,
                   "weights":[1.5,1.5],"samples":[[0,1],[0,2]]}]})";
    auto p = read(sampled);
    QVERIFY(p->timeline);
    QCOMPARE(p->timeline->threadNames, (std::vector<std::string>{"t1", "t2"}));
    QCOMPARE(times(*p->timeline), QStringLiteral("0@0 1@1000000 2@2000000 0@3000000 3@3500000"));
    QCOMPARE(p->timeline->sampleThread, (std::vector<uint32_t>{0, 0, 1, 1}));
    QCOMPARE(describe(flatCum(p, 1)), QStringLiteral("a=5500000/7500000 b=3500000/3500000 main=0/9000000"));
    QCOMPARE(describe(flatCum(p, 0)), QStringLiteral("a=3/4 b=2/2 main=0/5"));
    QCOMPARE(p->durationNanos, int64_t(6000000));
    // One lane's profile: t2's 1.5 ms of a and of b.
    QCOMPARE(describe(flatCum(profileInRange(p, TimeRange{}, "^t2$"), 1)), QStringLiteral("a=1500000/1500000 b=1500000/1500000 main=0/3000000"));
    // --profile picks one, as before: one thread.
    ReadOptions only;
    only.profileName = "t2";
    p = read(sampled, only);
    QCOMPARE(p->timeline->threadNames, std::vector<std::string>{"t2"});
    QCOMPARE(describe(flatCum(p, 1)), QStringLiteral("a=1500000/1500000 b=1500000/1500000 main=0/3000000"));

    // Two evented profiles: A opens main at 0, a from 1 to 3, closes main at 4; B opens main at 2, b from 2.5 to 5,
    // closes main at 6. Samples are the stacks with time, thread by thread: A's main (2 ms), main;a (2), B's main
    // (1.5), main;b (2.5); one event per interval of one open stack.
    const QByteArray evented = R"({"shared":{"frames":[{"name":"main"},{"name":"a"},{"name":"b"}]},
      "profiles":[{"type":"evented","name":"A","unit":"milliseconds","startValue":0,"endValue":4,"events":[
                    {"type":"O","frame":0,"at":0},{"type":"O","frame":1,"at":1},{"type":"C","frame":1,"at":3},
                    {"type":"C","frame":0,"at":4}]},
                  {"type":"evented","name":"B","unit":"milliseconds","startValue":2,"endValue":6,"events":[
                    {"type":"O","frame":0,"at":2},{"type":"O","frame":2,"at":2.5},{"type":"C","frame":2,"at":5},
                    {"type":"C","frame":0,"at":6}]}]})";
    p = read(evented);
    QVERIFY(p->timeline);
    QCOMPARE(p->timeline->threadNames, (std::vector<std::string>{"A", "B"}));
    QCOMPARE(times(*p->timeline), QStringLiteral("0@0 1@1000000 2@2000000 3@2500000 0@3000000 2@5000000"));
    QCOMPARE(p->timeline->sampleThread, (std::vector<uint32_t>{0, 0, 1, 1}));
    QCOMPARE(describe(flatCum(p)), QStringLiteral("a=2000000/2000000 b=2500000/2500000 main=3500000/8000000"));
    QCOMPARE(p->durationNanos, int64_t(6000000));
    // Profiles of other units are not threads of one recording: the active one alone (picksTheProfile).
}

void tst_Speedscope::rejectsWithOneLine_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("unit") << QByteArray(R"({"shared":{"frames":[]},"profiles":[{"type":"sampled","unit":"parsecs","samples":[],"weights":[]}]})")
                          << "in: speedscope: unknown unit \"parsecs\" (none, nanoseconds, microseconds, milliseconds, seconds or bytes)";
    QTest::newRow("frame") << QByteArray(R"({"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","unit":"none","samples":[[0,3]],"weights":[1]}]})")
                           << "in: speedscope: sample 0 frame 1 is not the index of one of the 1 frames";
    QTest::newRow("lengths") << QByteArray(R"({"shared":{"frames":[]},"profiles":[{"type":"sampled","unit":"none","samples":[[]],"weights":[]}]})")
                             << "in: speedscope: a sampled profile needs \"samples\" and \"weights\" arrays of the same length";
    QTest::newRow("close") << QByteArray(R"({"shared":{"frames":[{"name":"a"},{"name":"b"}]},"profiles":[{"type":"evented","unit":"none","events":[{"type":"O","frame":0,"at":0},{"type":"C","frame":1,"at":1}]}]})")
                           << "in: speedscope: event 1 closes frame 1, which is not the innermost open frame";
    QTest::newRow("order") << QByteArray(R"({"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"evented","unit":"none","events":[{"type":"O","frame":0,"at":5},{"type":"C","frame":0,"at":1}]}]})")
                           << "in: speedscope: event 1 is earlier than the one before it (events must be in time order)";
    QTest::newRow("negative") << QByteArray(R"({"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled","unit":"none","samples":[[0]],"weights":[-1]}]})")
                              << "in: speedscope: weight 0 is negative or too large";
    QTest::newRow("cpuprofile id") << QByteArray(R"({"nodes":[{"id":1,"callFrame":{"functionName":"f"}}],"samples":[9],"timeDeltas":[1]})")
                                   << "in: cpuprofile: no node has the id 9";
    QTest::newRow("cpuprofile deltas") << QByteArray(R"({"nodes":[{"id":1,"callFrame":{"functionName":"f"}}],"samples":[1],"timeDeltas":[]})")
                                       << "in: cpuprofile: \"samples\" has 1 entries but \"timeDeltas\" 0";
    QTest::newRow("cpuprofile overflow") << QByteArray(R"({"nodes":[{"id":1,"callFrame":{"functionName":"f"}}],"startTime":-9007199254740992,"endTime":9007199254740992,"samples":[1],"timeDeltas":[0]})")
                                         << "in: cpuprofile: the times overflow 64 bits";
}

void tst_Speedscope::rejectsWithOneLine()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    QCOMPARE(readError(json), error);
}

void tst_Speedscope::sniffsByContent()
{
    QCOMPARE(int(sniffProfileFormat(kSampled)), int(ProfileFormat::Speedscope));
    QCOMPARE(int(sniffProfileFormat(kEvented)), int(ProfileFormat::Speedscope));
    QCOMPARE(int(sniffProfileFormat(kCpuProfile)), int(ProfileFormat::ChromeCpuProfile));
    const QByteArray flamebearer = fileBytes(data(QStringLiteral("formats/qryn-render.svc-base.cpu.json")));
    QVERIFY(!flamebearer.isEmpty());
    QCOMPARE(int(sniffProfileFormat(flamebearer.toStdString())), int(ProfileFormat::Flamebearer));
    QVERIFY(!looksLikeSpeedscope(kCpuProfile) && !looksLikeChromeCpuProfile(kSampled));
    // Compressed, through the same door.
    const std::string gz = gzipCompress(kSampled);
    QCOMPARE(describe(flatCum(read(QByteArray::fromStdString(gz)))), describe(flatCum(read(kSampled))));
}

void tst_Speedscope::cpuProfileTotals()
{
    const auto p = read(kCpuProfile);
    QCOMPARE(QString::fromStdString(p->typeName(1) + "/" + p->unitName(1)), QStringLiteral("cpu/nanoseconds"));
    QCOMPARE(describe(flatCum(p, 1)), QStringLiteral("(anonymous m.js:7)=10000/10000 a=35000/35000 main=5000/50000"));
    QCOMPARE(describe(flatCum(p, 0)), QStringLiteral("(anonymous m.js:7)=1/1 a=3/3 main=1/5"));
    QCOMPARE(p->durationNanos, int64_t(60000));
    // A late sample (negative delta) is put in time order; older files name parents instead of children.
    const QByteArray old = R"({"nodes":[{"id":1,"callFrame":{"functionName":"(root\u0029"}},
        {"id":2,"parent":1,"callFrame":{"functionName":"f"}},{"id":3,"parent":2,"callFrame":{"functionName":"g"}}],
        "startTime":100,"endTime":120,"samples":[3,2],"timeDeltas":[10,-5]})";
    QCOMPARE(describe(flatCum(read(old), 1)), QStringLiteral("f=5000/15000 g=10000/10000"));
    // Without samples, hitCount is what there is.
    const QByteArray hits = R"({"nodes":[{"id":1,"callFrame":{"functionName":"(root\u0029"},"children":[2]},
        {"id":2,"callFrame":{"functionName":"f"},"hitCount":4}]})";
    QCOMPARE(describe(flatCum(read(hits))), QStringLiteral("f=4/4"));
}

void tst_Speedscope::oldV8CpuProfile()
{
    QCOMPARE(int(sniffProfileFormat(kOldCpuProfile)), int(ProfileFormat::ChromeCpuProfile));
    const auto p = read(kOldCpuProfile);
    // Each sample lasts until the next timestamp, the last until endTime (12.5001 s = 12500100 us): main 10 us
    // (at 10), a 15 (at 20), a under the anonymous function 5 (at 35), GC 20 (at 40), a 20 (at 60), the
    // anonymous function 20 (at 80). main's cum: 10 + 15 + 5 + 20 + 20 = 70 us; the anonymous one's 20 + 5.
    QCOMPARE(describe(flatCum(p, 1)), QStringLiteral("(anonymous m.js:7)=20000/25000 (garbage collector)=20000/20000 "
                                                     "a=40000/40000 main=10000/70000"));
    QCOMPARE(describe(flatCum(p, 0)), QStringLiteral("(anonymous m.js:7)=1/2 (garbage collector)=1/1 a=3/3 main=1/5"));
    QCOMPARE(p->durationNanos, int64_t(100000));   // 12.5 s to 12.5001 s
    // Without samples, the hit counts; a node without "id" (older still) is read too.
    const QByteArray hits = R"({"head":{"functionName":"(root\u0029","children":[{"functionName":"f","hitCount":4,
        "children":[{"functionName":"g","hitCount":2,"children":[]}]}]}})";
    QCOMPARE(describe(flatCum(read(hits))), QStringLiteral("f=4/6 g=2/2"));
    // Timestamps that do not match the samples are refused in one line.
    QCOMPARE(readError(R"({"head":{"functionName":"f","id":1},"samples":[1,1],"timestamps":[5]})"),
             QStringLiteral("in: cpuprofile: \"samples\" has 2 entries but \"timestamps\" 1"));
}

// node --cpu-prof's own file (tests/data/formats/node__busy.cpuprofile), and a fresh one when node is here.
void tst_Speedscope::nodeCpuProfile()
{
    QList<QByteArray> files = {fileBytes(data(QStringLiteral("formats/node__busy.cpuprofile")))};
    QTemporaryDir dir;
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (!node.isEmpty()) {
        QProcess p;
        p.setWorkingDirectory(dir.path());
        p.start(node, {QStringLiteral("--cpu-prof"), QStringLiteral("--cpu-prof-dir=") + dir.path(),
                       QStringLiteral("--cpu-prof-name=fresh.cpuprofile"), data(QStringLiteral("formats/node__busy.js"))});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        files << fileBytes(dir.filePath(QStringLiteral("fresh.cpuprofile")));
    } else {
        qWarning("node is not installed: only the stored node --cpu-prof file is read");
    }
    for (const QByteArray &json : files) {
        QVERIFY(json.size() > 1000);
        const auto [counts, nanos] = sumCpuProfile(json);
        const auto p = read(json);
        QCOMPARE(describe(flatCum(p, 0)), describe(counts));
        QCOMPARE(describe(flatCum(p, 1)), describe(nanos));
        QVERIFY(counts.count("inner") && counts.at("inner").second > 0);
        QVERIFY(counts.at("outer").second >= counts.at("inner").second);   // outer calls inner
    }
}

// pprof -> `convert --to speedscope` -> qflame: the same flat and cum per function.
void tst_Speedscope::pprofRoundTrip_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("cpu") << data(QStringLiteral("gen__baseline.cpu.pb.gz"));
    QTest::newRow("heap") << data(QStringLiteral("gen__heap.pb.gz"));
    QTest::newRow("folded from speedscope's npm package")
        << data(QStringLiteral("formats/speedscope-npm__perf-vertx-stacks-01-collapsed-all.txt.gz"));
}

void tst_Speedscope::pprofRoundTrip()
{
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out.speedscope.json"));
    const Run run = runQflame({QStringLiteral("convert"), file, QStringLiteral("--to"), QStringLiteral("speedscope"),
                            QStringLiteral("--output"), out});
    QVERIFY2(run.code == 0, run.err.constData());
    const auto original = readProfileFile(file);
    const auto back = readProfileFile(out);
    QCOMPARE(int(sniffProfileFormat(fileBytes(out).toStdString())), int(ProfileFormat::Speedscope));
    const FlatCum expected = flatCum(original);
    QVERIFY(expected.size() > 3);
    QCOMPARE(describe(flatCum(back)), describe(expected));
    if (file.contains(QLatin1String("perf-vertx"))) {
        // Against sums of the npm sample's own lines, made here.
        QFile gz(file);
        QVERIFY(gz.open(QIODevice::ReadOnly));
        const QByteArray all = gz.readAll();
        const std::string text = decompress(std::string_view(all.constData(), size_t(all.size())),
                                            Compression::Gzip, uint64_t(1) << 30);
        QCOMPARE(describe(flatCum(back)), describe(sumFolded(QByteArray::fromStdString(text))));
    }
}

// What convert writes has every property the schema (from speedscope's npm package) requires.
void tst_Speedscope::writesTheSchemasRequiredFields()
{
    const QJsonObject schema =
        QJsonDocument::fromJson(fileBytes(data(QStringLiteral("formats/speedscope-npm__file-format-schema.json"))))
            .object()[QLatin1String("definitions")]
            .toObject();
    QVERIFY(!schema.isEmpty());
    const auto tree = CallTreeBuilder::build({read(kSampled)}, 1);
    const QJsonObject file = QJsonDocument::fromJson(QByteArray::fromStdString(writeSpeedscope(*tree, "x"))).object();
    auto requireAll = [&](const char *definition, const QJsonObject &o) {
        const QJsonArray required = schema[QLatin1String(definition)].toObject()[QLatin1String("required")].toArray();
        QVERIFY2(!required.isEmpty(), definition);
        for (const QJsonValue key : required)
            QVERIFY2(o.contains(key.toString()), qPrintable(QString::fromLatin1(definition) + u' ' + key.toString()));
    };
    requireAll("FileFormat.File", file);
    requireAll("FileFormat.SampledProfile", file[QLatin1String("profiles")].toArray()[0].toObject());
    requireAll("FileFormat.Frame", file[QLatin1String("shared")].toObject()[QLatin1String("frames")].toArray()[0].toObject());
    QCOMPARE(file[QLatin1String("profiles")].toArray()[0].toObject()[QLatin1String("unit")].toString(),
             QStringLiteral("nanoseconds"));
    // Names that need escaping survive.
    const QByteArray odd = R"({"shared":{"frames":[{"name":"a \"q\"\\\n\t<T>"}]},"profiles":[{"type":"sampled","unit":"none","samples":[[0]],"weights":[3]}]})";
    const auto oddTree = CallTreeBuilder::build({read(odd)}, 0);
    const auto back = read(QByteArray::fromStdString(writeSpeedscope(*oddTree, "odd")));
    QCOMPARE(describe(flatCum(back)), describe(flatCum(read(odd))));
}

// A chain of 100,000 frames, each open for a while (evented) or each sampled (.cpuprofile): every stack is as deep
// as the chain, so the profile would hold 5e9 frames from a few MB. Refused by the memory rule, at once.
void tst_Speedscope::boundsDeepStacks()
{
    const int n = 100000;
    QByteArray evented = R"({"shared":{"frames":[{"name":"f"}]},"profiles":[{"type":"evented","unit":"none","events":[)";
    for (int i = 0; i < n; ++i)
        evented += (i ? ",{\"type\":\"O\",\"frame\":0,\"at\":" : "{\"type\":\"O\",\"frame\":0,\"at\":") +
                   QByteArray::number(i) + '}';
    evented += "]}]}";
    QByteArray chrome = R"({"nodes":[)";
    for (int i = 1; i <= n; ++i)
        chrome += (i > 1 ? "," : "") + QByteArray(R"({"id":)") + QByteArray::number(i) +
                  R"(,"callFrame":{"functionName":"f"},"hitCount":1)" +
                  (i < n ? QByteArray(R"(,"children":[)") + QByteArray::number(i + 1) + "]}" : QByteArray("}"));
    chrome += "]}";
    for (const QByteArray &json : {evented, chrome}) {
        QElapsedTimer clock;
        clock.start();
        const QString error = readError(json);
        QVERIFY2(error.contains(QLatin1String("bytes in memory, more than the limit per byte of input")), qPrintable(error));
        QVERIFY2(clock.elapsed() < 20000, qPrintable(QString::number(clock.elapsed())));
    }
    // The same shapes, shallow, read: the rule refuses only what no real profile has.
    QCOMPARE(describe(flatCum(read(evented.left(evented.indexOf(",{\"type\":\"O\",\"frame\":0,\"at\":50}")) + "]}]}"))),
             QStringLiteral("f=49/49"));
}

QTEST_GUILESS_MAIN(tst_Speedscope)
#include "tst_speedscope.moc"
