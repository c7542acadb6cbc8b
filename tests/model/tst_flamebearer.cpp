// Flamebearer JSON: answers captured from the real qryn (tests/data/formats/README.md) give the numbers of the
// protobuf path; hand-made documents pin the decoding of levels, units and every error.
#include "export/ProfileWriter.h"
#include "formats/FlamebearerFormat.h"
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"
#include "TreePaths.h"

#include <QFile>
#include <QTest>

#include <map>

using namespace qflame;
using qflame::test::treePaths;

namespace {

QString data(const QString &name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + name;
}

std::shared_ptr<const CallTree> tree(const std::shared_ptr<const Profile> &p, int type = -1)
{
    return CallTreeBuilder::build({p}, size_t(type < 0 ? p->effectiveDefaultType() : type));
}

QString describe(const CallTree &t)
{
    QStringList lines;
    for (const auto &[path, v] : treePaths(t))
        lines << QStringLiteral("%1=%2/%3")
                     .arg(QString::fromStdString(path).replace(QLatin1Char('\n'), QLatin1Char(';')))
                     .arg(v.first)
                     .arg(v.second);
    return lines.join(QLatin1Char(' '));
}

std::map<std::string, int64_t> flatByName(const CallTree &t)
{
    std::map<std::string, int64_t> out;
    const auto table = FlatTable::compute(std::make_shared<CallTree>(t));
    for (const FlatRow &r : table->rows())
        if (r.flat != 0)
            out[t.frames().label(r.frame)] = r.flat;
    return out;
}

// A small document: main (self 1) calls a (self 2, which calls b: 4) and b (3).
const char *kSmall = R"({"flamebearer":{"names":["total","main","a","b"],
  "levels":[[0,10,0,0],[0,10,1,1],[0,6,2,2,0,3,3,3],[0,4,4,3]],"numTicks":10,"maxSelf":4},
  "metadata":{"format":"single","units":"objects","name":"alloc_objects","sampleRate":100},"timeline":null})";

}   // namespace

class tst_Flamebearer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void qrynAnswerHasTheProtobufTotals_data();
    void qrynAnswerHasTheProtobufTotals();
    void decodesLevels_data();
    void decodesLevels();
    void sampleTypeFromMetadata_data();
    void sampleTypeFromMetadata();
    void emptyFlamegraphIsAnEmptyProfile();
    void rejects_data();
    void rejects();
    void toldApartByContent();
};

void tst_Flamebearer::qrynAnswerHasTheProtobufTotals_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("pprof");
    QTest::addColumn<QString>("sampleType");
    QTest::addColumn<QString>("unit");
    QTest::addColumn<qlonglong>("total");
    QTest::addColumn<int>("functions");   // with a non-zero flat value
    QTest::newRow("svc-base cpu") << QStringLiteral("formats/qryn-render.svc-base.cpu.json")
                                  << QStringLiteral("gen__baseline.cpu.pb.gz") << QStringLiteral("cpu")
                                  << QStringLiteral("nanoseconds") << qlonglong(9760000000) << 94;
    QTest::newRow("svc-base samples") << QStringLiteral("formats/qryn-render.svc-base.samples.json")
                                      << QStringLiteral("gen__baseline.cpu.pb.gz") << QStringLiteral("samples")
                                      << QStringLiteral("count") << qlonglong(976) << 94;
    QTest::newRow("svc-base alloc_space") << QStringLiteral("formats/qryn-render.svc-base.alloc_space.json")
                                          << QStringLiteral("gen__heap.pb.gz") << QStringLiteral("alloc_space")
                                          << QStringLiteral("bytes") << qlonglong(62869263) << 11;
}

void tst_Flamebearer::qrynAnswerHasTheProtobufTotals()
{
    QFETCH(QString, json);
    QFETCH(QString, pprof);
    QFETCH(QString, sampleType);
    QFETCH(QString, unit);
    QFETCH(qlonglong, total);
    QFETCH(int, functions);
    const auto fb = readProfileFile(data(json));
    QCOMPARE(fb->sampleTypes.size(), size_t(1));
    QCOMPARE(QString::fromStdString(fb->typeName(0)), sampleType);
    QCOMPARE(QString::fromStdString(fb->unitName(0)), unit);
    QCOMPARE(fb->total(0), int64_t(total));
    const auto fromJson = tree(fb);
    QCOMPARE(fromJson->total(CallTree::kRoot), int64_t(total));

    const auto p = readProfileFile(data(pprof));
    const auto fromPprof = tree(p, p->findSampleType(sampleType.toStdString()));
    QCOMPARE(fromPprof->total(CallTree::kRoot), int64_t(total));
    // qryn keeps only the innermost function of inlined calls (tests/qryn/README.md), so cum values of inlined
    // callers differ; what each function costs itself (flat) is the same for every function.
    const auto flatJson = flatByName(*fromJson), flatPprof = flatByName(*fromPprof);
    QCOMPARE(int(flatJson.size()), functions);
    QCOMPARE(flatJson, flatPprof);
}

void tst_Flamebearer::decodesLevels_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("tree");
    QTest::newRow("nested bars") << QByteArray(kSmall)
                                 << QStringLiteral("<root>=10/0 main=10/1 main;a=6/2 main;a;b=4/4 main;b=3/3");
    // The first number of a bar is its gap after the previous bar of the row: a spans 1..3, b 4..10.
    QTest::newRow("offsets are deltas")
        << QByteArray(R"({"flamebearer":{"names":["total","m","a","b"],"levels":[[0,10,0,0],[0,10,2,1],[1,2,2,2,1,6,6,3]]},
                          "metadata":{"units":"objects"}})")
        << QStringLiteral("<root>=10/0 m=10/2 m;a=2/2 m;b=6/6");
    QTest::newRow("bar under the second parent")
        << QByteArray(R"({"flamebearer":{"names":["total","x","y","z"],"levels":[[0,9,0,0],[0,4,4,1,0,5,0,2],[4,5,5,3]]}})")
        << QStringLiteral("<root>=9/0 x=4/4 y=5/0 y;z=5/5");
    QTest::newRow("a root's own value, zero-width bars")
        << QByteArray(R"({"flamebearer":{"names":["total","x","nil"],"levels":[[0,7,2,0],[0,5,5,1,0,0,0,2],[]]}})")
        << QStringLiteral("<root>=7/2 x=5/5");
    QTest::newRow("the same name twice on a path")
        << QByteArray(R"({"flamebearer":{"names":["total","f"],"levels":[[0,3,0,0],[0,3,1,1],[0,2,2,1]]}})")
        << QStringLiteral("<root>=3/0 f=3/1 f;f=2/2");
}

void tst_Flamebearer::decodesLevels()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, tree);
    QCOMPARE(describe(*::tree(readFlamebearer(json.toStdString(), "t.json"))), tree);
}

void tst_Flamebearer::sampleTypeFromMetadata_data()
{
    QTest::addColumn<QByteArray>("meta");
    QTest::addColumn<QString>("type");
    QTest::addColumn<qlonglong>("total");
    QTest::addColumn<qlonglong>("period");
    QTest::newRow("cpu in nanosecond ticks") << QByteArray(R"("units":"samples","name":"cpu","sampleRate":1000000000)")
                                             << QStringLiteral("cpu/nanoseconds") << qlonglong(10) << qlonglong(0);
    QTest::newRow("cpu at 100 Hz becomes nanoseconds") << QByteArray(R"("units":"samples","sampleRate":100)")
                                                       << QStringLiteral("cpu/nanoseconds") << qlonglong(100000000)
                                                       << qlonglong(10000000);
    QTest::newRow("a rate that does not divide a second keeps ticks") << QByteArray(R"("units":"samples","sampleRate":7)")
                                                                      << QStringLiteral("samples/count") << qlonglong(10)
                                                                      << qlonglong(0);
    QTest::newRow("bytes") << QByteArray(R"("units":"bytes","name":"inuse_space")") << QStringLiteral("inuse_space/bytes")
                           << qlonglong(10) << qlonglong(0);
    QTest::newRow("objects") << QByteArray(R"("units":"objects","name":"alloc_objects")")
                             << QStringLiteral("alloc_objects/count") << qlonglong(10) << qlonglong(0);
    QTest::newRow("lock time") << QByteArray(R"("units":"lock_nanoseconds")") << QStringLiteral("delay/nanoseconds")
                               << qlonglong(10) << qlonglong(0);
    QTest::newRow("none") << QByteArray() << QStringLiteral("samples/count") << qlonglong(10) << qlonglong(0);
}

void tst_Flamebearer::sampleTypeFromMetadata()
{
    QFETCH(QByteArray, meta);
    QFETCH(QString, type);
    QFETCH(qlonglong, total);
    QFETCH(qlonglong, period);
    const QByteArray levels = R"("names":["total","main"],"levels":[[0,10,0,0],[0,10,10,1]])";
    // Today's answers keep metadata beside the graph; older Pyroscope versions kept it inside.
    for (const QByteArray &doc : {"{\"flamebearer\":{" + levels + "},\"metadata\":{" + meta + "}}",
                                  "{" + levels + (meta.isEmpty() ? "" : "," + meta) + "}"}) {
        const auto p = readFlamebearer(doc.toStdString(), "t.json");
        QCOMPARE(QString::fromStdString(p->typeName(0) + "/" + p->unitName(0)), type);
        QCOMPARE(p->total(0), int64_t(total));
        QCOMPARE(p->period, int64_t(period));
    }
}

void tst_Flamebearer::emptyFlamegraphIsAnEmptyProfile()
{
    // What qryn answers for a window without data (tests/qryn/README.md).
    const auto p = readFlamebearer(R"({"flamebearer":{"names":["total","n/a"],"levels":[[0,0,0,0],[]],"numTicks":0,
                                       "maxSelf":0},"metadata":{"format":"single","units":"samples","name":"cpu",
                                       "sampleRate":1000000000}})",
                                   "empty.json");
    QCOMPARE(p->sampleCount(), size_t(0));
    QCOMPARE(tree(p)->size(), size_t(1));
    QCOMPARE(tree(p)->total(CallTree::kRoot), int64_t(0));
}

void tst_Flamebearer::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    QFile diff(data(QStringLiteral("formats/qryn-render-diff.base-opt.cpu.json")));
    QVERIFY(diff.open(QIODevice::ReadOnly));
    QTest::newRow("a diff from qryn's render-diff")
        << diff.readAll()
        << QStringLiteral("t.json: flamebearer format \"double\" is not a single profile (a diff holds two): open the "
                          "two profiles and compare them instead");
    QTest::newRow("truncated JSON") << QByteArray(R"({"flamebearer":{"names":["total"])")
                                    << QStringLiteral("t.json: not valid JSON: missing a comma or '}' after an object member at offset 33");
    QTest::newRow("an array") << QByteArray("[1,2]")
                              << QStringLiteral("t.json: not flamebearer JSON: the document is not an object");
    QTest::newRow("other JSON") << QByteArray(R"({"status":"ok"})")
                                << QStringLiteral("t.json: not flamebearer JSON: no \"flamebearer\" object with \"names\" "
                                                  "and \"levels\"");
    QTest::newRow("a group of three") << QByteArray(R"({"names":["total"],"levels":[[0,1,1]]})")
                                      << QStringLiteral("t.json: flamebearer: level 0 is not an array of groups of 4 numbers");
    QTest::newRow("name out of range") << QByteArray(R"({"names":["total"],"levels":[[0,1,0,0],[0,1,1,5]]})")
                                       << QStringLiteral("t.json: flamebearer: level 1 bar 0 names index 5 of 1 names");
    QTest::newRow("fraction") << QByteArray(R"({"names":["total"],"levels":[[0,1.5,0,0]]})")
                              << QStringLiteral("t.json: flamebearer: level 0 bar 0 total is not a whole number");
    QTest::newRow("self above total") << QByteArray(R"({"names":["total"],"levels":[[0,1,2,0]]})")
                                      << QStringLiteral("t.json: flamebearer: level 0 bar 0 has a negative offset or "
                                                        "value, or self above total");
    QTest::newRow("bar outside its row above")
        << QByteArray(R"({"names":["total","a"],"levels":[[0,4,0,0],[3,4,4,1]]})")
        << QStringLiteral("t.json: flamebearer: level 1 bar 0 does not lie within a bar of the level above");
    QTest::newRow("children do not add up")
        << QByteArray(R"({"names":["total","a"],"levels":[[0,9,0,0],[0,4,4,1]]})")
        << QStringLiteral("t.json: flamebearer: level 0 bar 0 has total 9 but self 0 and children 4");
}

void tst_Flamebearer::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    try {
        readFlamebearer(json.toStdString(), "t.json");
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromUtf8(e.what()), message);
    }
}

void tst_Flamebearer::toldApartByContent()
{
    QCOMPARE(sniffProfileFormat(kSmall), ProfileFormat::Flamebearer);
    const auto gz = readProfile(gzipCompress(kSmall), "small.json.gz");
    QCOMPARE(describe(*tree(gz)), QStringLiteral("<root>=10/0 main=10/1 main;a=6/2 main;a;b=4/4 main;b=3/3"));
    QCOMPARE(gz->comments.size(), size_t(1));
    QCOMPARE(gz->str(gz->comments[0]), std::string("qflame: imported from flamebearer JSON"));
}

QTEST_GUILESS_MAIN(tst_Flamebearer)
#include "tst_flamebearer.moc"
