// From the server's encodings to our model, on hand-made answers whose numbers are worked out by hand: flamegraph
// levels to nodes, stacks, profiles and call trees; the diff layout; the protobuf codec; the flamebearer JSON;
// SelectSeries' client-side range; the export check; writing the merged pprof. No network.
#include "export/ProfileWriter.h"
#include "formats/ProfileInput.h"
#include "qryn/ExportCheck.h"
#include "qryn/FlamegraphLevels.h"
#include "qryn/PprofExport.h"
#include "qryn/QuerierCodec.h"
#include "qryn/StacksToTree.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include "querier.pb.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace qflame;
using namespace qflame::qryn;

namespace {

using Levels = std::vector<std::vector<int64_t>>;

// main (total 100, self 10) -> a (60, self 60) and b (30, self 20) -> c (10, self 10), with qryn's empty last level.
const std::vector<std::string> kNames{"total", "main", "a", "b", "c"};
const Levels kLevels{{0, 100, 0, 0}, {0, 100, 10, 1}, {0, 60, 60, 2, 0, 30, 20, 3}, {60, 10, 10, 4}, {}};

const ProfileType kCpuType{"process_cpu:cpu:nanoseconds:cpu:nanoseconds", "process_cpu", "cpu", "nanoseconds",
                           "cpu", "nanoseconds"};

QString nodesText(const std::vector<FlameNode> &nodes, const std::vector<std::string> &names)
{
    QStringList out;
    for (const FlameNode &n : nodes)
        out << QStringLiteral("%1:%2@%3+%4/%5^%6")
                   .arg(n.depth)
                   .arg(QString::fromStdString(names[n.name]))
                   .arg(n.x)
                   .arg(n.total)
                   .arg(n.self)
                   .arg(n.parent);
    return out.join(u' ');
}

QString stacksText(const StackSet &s)
{
    QStringList out;
    for (size_t i = 0; i < s.stacks.size(); ++i) {
        QStringList frames;
        for (uint32_t f : s.stacks[i])
            frames << QString::fromStdString(s.names[f]);
        out << frames.join(u';') + u' ' + QString::number(s.values[i][0]);
    }
    return out.join(u'|');
}

QString treeText(const CallTree &t)
{
    QStringList out;
    for (NodeId n = 1; n < t.size(); ++n)
        out << QStringLiteral("%1/%2 %3 %4").arg(t.depth(n)).arg(QString::fromStdString(t.label(n)))
                   .arg(t.total(n)).arg(t.self(n));
    return out.join(u'|');
}

QByteArray bytes(const google::protobuf::MessageLite &m)
{
    return QByteArray::fromStdString(m.SerializeAsString());
}

}   // namespace

class tst_QrynFlamegraph : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void decodeLevels();
    void siblingsWithGaps();
    void inconsistentLevels_data();
    void inconsistentLevels();
    void flamegraphToTree();
    void emptyFlamegraph();
    void twoSampleTypes();
    void codecRequests();
    void codecResponses();
    void codecRefusesGarbage();
    void pointsInRange_data();
    void pointsInRange();
    void exportCheck_data();
    void exportCheck();
    void writeGzipPprof();
};

void tst_QrynFlamegraph::decodeLevels()
{
    std::vector<FlameNode> nodes;
    QString why;
    QVERIFY2(qryn::decodeLevels(kLevels, kNames.size(), kSingleLayout, &nodes, &why), qPrintable(why));
    QCOMPARE(nodesText(nodes, kNames),
             QStringLiteral("0:total@0+100/0^-1 1:main@0+100/10^0 2:a@0+60/60^1 2:b@60+30/20^1 3:c@60+10/10^3"));
    QCOMPARE(stacksText(stacksFromNodes(nodes, kNames)), QStringLiteral("main 10|main;a 60|main;b 20|main;b;c 10"));
}

// Two parents side by side, the first with self at its right end: the second's child is offset past that gap.
void tst_QrynFlamegraph::siblingsWithGaps()
{
    const std::vector<std::string> names{"total", "p", "q", "x", "y"};
    const Levels levels{{0, 100, 0, 0}, {0, 70, 20, 1, 0, 30, 0, 2}, {0, 50, 50, 3, 20, 30, 30, 4}};
    std::vector<FlameNode> nodes;
    QString why;
    QVERIFY2(qryn::decodeLevels(levels, names.size(), kSingleLayout, &nodes, &why), qPrintable(why));
    QCOMPARE(nodesText(nodes, names),
             QStringLiteral("0:total@0+100/0^-1 1:p@0+70/20^0 1:q@70+30/0^0 2:x@0+50/50^1 2:y@70+30/30^2"));
    QCOMPARE(stacksText(stacksFromNodes(nodes, names)), QStringLiteral("p 20|p;x 50|q;y 30"));
}

void tst_QrynFlamegraph::inconsistentLevels_data()
{
    QTest::addColumn<Levels>("levels");
    QTest::addColumn<QString>("why");
    QTest::newRow("group of 3") << Levels{{0, 10, 0}} << "level 0 has 3 numbers, not a multiple of 4";
    QTest::newRow("name out of range") << Levels{{0, 10, 0, 0}, {0, 10, 10, 5}} << "level 1 node 0 names index 5 of 5 names";
    QTest::newRow("self above total") << Levels{{0, 10, 0, 0}, {0, 10, 11, 1}}
                                      << "level 1 node 0 has offset 0, total 10, self 11";
    QTest::newRow("negative offset") << Levels{{0, 10, 0, 0}, {-1, 10, 10, 1}}
                                     << "level 1 node 0 has offset -1, total 10, self 10";
    QTest::newRow("child past the parent") << Levels{{0, 10, 0, 0}, {5, 10, 10, 1}}
                                           << "level 1 node 0 (x 5, total 10) lies outside every node of level 0";
    QTest::newRow("child without parent") << Levels{{0, 10, 0, 0}, {0, 4, 0, 1}, {6, 2, 2, 2}}
                                          << "level 2 node 0 (x 6, total 2) lies outside every node of level 1";
}

void tst_QrynFlamegraph::inconsistentLevels()
{
    QFETCH(Levels, levels);
    QFETCH(QString, why);
    std::vector<FlameNode> nodes;
    QString reason;
    QVERIFY(!qryn::decodeLevels(levels, kNames.size(), kSingleLayout, &nodes, &reason));
    QCOMPARE(reason, why);
    MergedFlamegraph m;
    m.graph.names = kNames;
    m.graph.levels = levels;
    QVERIFY(!buildMergedFlamegraph(&m, kCpuType, 0, "test", &reason));
    QCOMPARE(reason, why);
}

void tst_QrynFlamegraph::flamegraphToTree()
{
    MergedFlamegraph m;
    m.graph = {kNames, kLevels, 100, 60};
    QString why;
    QVERIFY2(buildMergedFlamegraph(&m, kCpuType, 3600000000000, "test", &why), qPrintable(why));
    QCOMPARE(m.profile->durationNanos, 3600000000000LL);
    QCOMPARE(m.tree->durationNanos(), 3600000000000LL);
    QCOMPARE(m.profile->typeName(0), std::string("cpu"));
    QCOMPARE(m.profile->unitName(0), std::string("nanoseconds"));
    QCOMPARE(m.profile->str(m.profile->periodType.type), std::string("cpu"));
    QCOMPARE(m.profile->total(0), 100LL);
    QCOMPARE(treeText(*m.tree), QStringLiteral("1/main 100 10|2/a 60 60|2/b 30 20|3/c 10 10"));
    QCOMPARE(m.tree->sampleType().type, std::string("cpu"));
    QCOMPARE(m.flat->total(), 100LL);
    QStringList flat;
    for (const FlatRow &r : m.flat->rows())
        flat << QStringLiteral("%1 %2 %3").arg(QString::fromStdString(m.flat->displayName(r))).arg(r.flat).arg(r.cum);
    QCOMPARE(flat, (QStringList{"a 60 60", "b 20 30", "main 10 100", "c 10 10"}));
}

void tst_QrynFlamegraph::emptyFlamegraph()
{
    MergedFlamegraph m;
    m.graph = {{"total", "n/a"}, {{0, 0, 0, 0}, {}}, 0, 0};
    QString why;
    QVERIFY2(buildMergedFlamegraph(&m, kCpuType, 0, "empty", &why), qPrintable(why));
    QVERIFY(m.isEmpty());
    QCOMPARE(m.profile->sampleCount(), size_t(0));
    QCOMPARE(m.tree->size(), size_t(1));
    QCOMPARE(m.flat->rows().size(), size_t(0));
}

// process_cpu's cpu and samples flamegraphs of the same samples become one profile with both sample types.
void tst_QrynFlamegraph::twoSampleTypes()
{
    const Flamegraph cpu{kNames, kLevels, 100, 60};
    // The samples flamegraph: 10 ns a sample, and c (1 sample) missing to show a stack present in one graph only.
    const Flamegraph samples{kNames, {{0, 9, 0, 0}, {0, 9, 1, 1}, {0, 6, 6, 2, 0, 2, 2, 3}, {}}, 9, 6};
    const ProfileType samplesType{"process_cpu:samples:count:cpu:nanoseconds", "process_cpu", "samples", "count",
                                  "cpu", "nanoseconds"};
    QString why;
    const auto p = flamegraphsToProfile({samples, cpu}, {samplesType, kCpuType}, 42, "both", &why);
    QVERIFY2(p, qPrintable(why));
    QCOMPARE(p->typeName(0) + "/" + p->unitName(0), std::string("samples/count"));
    QCOMPARE(p->typeName(1) + "/" + p->unitName(1), std::string("cpu/nanoseconds"));
    QCOMPARE(p->total(0), 9LL);
    QCOMPARE(p->total(1), 100LL);
    QCOMPARE(p->durationNanos, 42LL);
    QCOMPARE(treeText(*CallTreeBuilder::build({p}, 0)), QStringLiteral("1/main 9 1|2/a 6 6|2/b 2 2"));
    QCOMPARE(treeText(*CallTreeBuilder::build({p}, 1)), QStringLiteral("1/main 100 10|2/a 60 60|2/b 30 20|3/c 10 10"));
    QVERIFY(!flamegraphsToProfile({cpu, {kNames, {{0, 1, 0}}, 1, 1}}, {kCpuType, kCpuType}, 0, "bad", &why));
    QCOMPARE(why, QStringLiteral("level 0 has 3 numbers, not a multiple of 4"));
}

void tst_QrynFlamegraph::codecRequests()
{
    const ProfileQuery q{"process_cpu:cpu:nanoseconds:cpu:nanoseconds", "{env=\"a\"}", {1795986000000, 1795989600000}};
    querier::v1::SelectSeriesRequest series;
    SeriesOptions o;
    o.groupBy = {"service_name", "env"};
    o.stepSeconds = 15;
    QVERIFY(series.ParseFromString(codec::selectSeriesRequest(q, o).toStdString()));
    QCOMPARE(series.profile_typeid(), q.profileTypeId.toStdString());
    QCOMPARE(series.label_selector(), std::string("{env=\"a\"}"));
    QCOMPARE(series.start(), 1795986000000LL);
    QCOMPARE(series.end(), 1795989600000LL);
    QCOMPARE(series.step(), 15.0);
    QCOMPARE(series.group_by_size(), 2);
    QCOMPARE(series.group_by(1), std::string("env"));
    QVERIFY(!series.has_aggregation());   // SUM is not sent: qryn 3.2.39 breaks on the field's other value
    o.aggregation = Aggregation::Average;
    QVERIFY(series.ParseFromString(codec::selectSeriesRequest(q, o).toStdString()));
    QCOMPARE(series.aggregation(), types::v1::TIME_SERIES_AGGREGATION_TYPE_AVERAGE);

    querier::v1::SelectMergeStacktracesRequest stacks;
    QVERIFY(stacks.ParseFromString(codec::selectMergeStacktracesRequest(q).toStdString()));
    QCOMPARE(stacks.start(), 1795986000000LL);
    QCOMPARE(stacks.end(), 1795989600000LL);
    QVERIFY(!stacks.has_max_nodes());
    querier::v1::ProfileTypesRequest types;
    QVERIFY(types.ParseFromString(codec::profileTypesRequest(q.range).toStdString()));
    QCOMPARE(types.end(), 1795989600000LL);
    types::v1::LabelValuesRequest values;
    QVERIFY(values.ParseFromString(codec::labelValuesRequest("env", {"{a=\"b\"}"}, q.range).toStdString()));
    QCOMPARE(values.name(), std::string("env"));
    QCOMPARE(values.matchers(0), std::string("{a=\"b\"}"));
    QCOMPARE(values.start(), 1795986000000LL);
    QCOMPARE(codec::profileStatsRequest().size(), 0);
}

void tst_QrynFlamegraph::codecResponses()
{
    querier::v1::SelectMergeStacktracesResponse resp;
    for (const std::string &n : kNames)
        resp.mutable_flamegraph()->add_names(n);
    for (const auto &level : kLevels) {
        querier::v1::Level *l = resp.mutable_flamegraph()->add_levels();
        for (int64_t v : level)
            l->add_values(v);
    }
    resp.mutable_flamegraph()->set_total(100);
    resp.mutable_flamegraph()->set_max_self(60);
    const auto graph = codec::selectMergeStacktracesResponse(bytes(resp));
    QVERIFY(graph);
    QCOMPARE(graph->names, kNames);
    QCOMPARE(graph->levels, kLevels);
    QCOMPARE(graph->total, 100LL);
    QCOMPARE(graph->maxSelf, 60LL);

    querier::v1::SelectSeriesResponse series;
    types::v1::Series *s = series.add_series();
    types::v1::LabelPair *l = s->add_labels();
    l->set_name("env");
    l->set_value("a");
    types::v1::Point *p = s->add_points();
    p->set_timestamp(1795986000000);
    p->set_value(1.8e9);
    const auto decoded = codec::selectSeriesResponse(bytes(series));
    QVERIFY(decoded);
    QCOMPARE(decoded->size(), 1);
    QCOMPARE(decoded->at(0).labels, (LabelSet{{"env", "a"}}));
    QCOMPARE(decoded->at(0).points, (QList<SeriesPoint>{{1795986000000, 1.8e9}}));

    // qryn answers "nothing" with 0 bytes: the empty message.
    const auto none = codec::profileTypesResponse({});
    QVERIFY(none);
    QCOMPARE(none->size(), 0);
    types::v1::GetProfileStatsResponse stats;
    stats.set_data_ingested(true);
    stats.set_oldest_profile_time(1);
    stats.set_newest_profile_time(2);
    const auto st = codec::profileStatsResponse(bytes(stats));
    QVERIFY(st && st->dataIngested && st->oldestProfileMs == 1 && st->newestProfileMs == 2);
}

void tst_QrynFlamegraph::codecRefusesGarbage()
{
    const QByteArray html("<html>proxy error</html>");
    QVERIFY(!codec::selectMergeStacktracesResponse(html));
    QVERIFY(!codec::profileTypesResponse(html));
    QVERIFY(!codec::selectSeriesResponse(QByteArray("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11)));
    QCOMPARE(QLatin1String(codec::responseTypeName("SelectSeries")),
             QLatin1String("querier.v1.SelectSeriesResponse"));
}

void tst_QrynFlamegraph::pointsInRange_data()
{
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("end");
    QTest::addColumn<QList<qint64>>("kept");
    // Buckets of 60 s at 0, 60 000, 120 000 and 180 000 ms.
    QTest::newRow("all") << 0LL << 240000LL << QList<qint64>{0, 60000, 120000, 180000};
    QTest::newRow("inside the second bucket") << 70000LL << 80000LL << QList<qint64>{60000};
    QTest::newRow("a bucket that starts before the range") << 119999LL << 120000LL << QList<qint64>{60000};
    QTest::newRow("end excluded") << 60000LL << 120000LL << QList<qint64>{60000};
    QTest::newRow("nothing") << 300000LL << 400000LL << QList<qint64>{};
}

void tst_QrynFlamegraph::pointsInRange()
{
    QFETCH(qint64, start);
    QFETCH(qint64, end);
    QFETCH(QList<qint64>, kept);
    const QList<Series> series{{{{"env", "a"}}, {{0, 1}, {60000, 2}, {120000, 3}}},
                               {{{"env", "b"}}, {{180000, 4}}}};
    QList<qint64> got;
    for (const Series &s : codec::pointsInRange(series, {start, end}, 60))
        for (const SeriesPoint &p : s.points)
            got << p.timestampMs;
    QCOMPARE(got, kept);
    for (const Series &s : codec::pointsInRange(series, {start, end}, 60))
        QVERIFY(!s.points.isEmpty());   // a series left without points is dropped
}

void tst_QrynFlamegraph::exportCheck_data()
{
    QTest::addColumn<qint64>("flamegraph");
    QTest::addColumn<QString>("exported");   // folded "stack value" lines of cpu/nanoseconds; "" = no export
    QTest::addColumn<bool>("agree");
    QTest::addColumn<QString>("message");
    QTest::newRow("equal") << 30LL << "main;a 10\nmain;b 20" << true << "";
    QTest::newRow("both empty") << 0LL << "" << true << "";
    QTest::newRow("inflated") << 30LL << "main;a 20\nmain;b 40" << false
                              << "the merged pprof (SelectMergeProfile) has a cpu/nanoseconds total of 60 (60 ns), the "
                                 "flamegraph (SelectMergeStacktraces) 30 (30 ns) (+100.0%); qryn 3.2.39 inflates "
                                 "SelectMergeProfile values (a known server bug), so the flamegraph's numbers are the "
                                 "right ones";
    QTest::newRow("smaller") << 30LL << "main 15" << false
                             << "the merged pprof (SelectMergeProfile) has a cpu/nanoseconds total of 15 (15 ns), the "
                                "flamegraph (SelectMergeStacktraces) 30 (30 ns) (-50.0%); qryn 3.2.39 inflates "
                                "SelectMergeProfile values (a known server bug), so the flamegraph's numbers are the "
                                "right ones";
    QTest::newRow("empty export") << 30LL << "" << false
                                  << "the merged pprof (SelectMergeProfile) is empty but the flamegraph "
                                     "(SelectMergeStacktraces) has a cpu/nanoseconds total of 30 (30 ns)";
}

void tst_QrynFlamegraph::exportCheck()
{
    QFETCH(qint64, flamegraph);
    QFETCH(QString, exported);
    QFETCH(bool, agree);
    QFETCH(QString, message);
    std::shared_ptr<const Profile> p;
    if (!exported.isEmpty()) {
        StackSet s;
        for (const QString &line : exported.split(u'\n')) {
            const QStringList parts = line.split(u' ');
            std::vector<uint32_t> stack;
            for (const QString &f : parts[0].split(u';')) {
                s.names.push_back(f.toStdString());
                stack.push_back(uint32_t(s.names.size() - 1));
            }
            s.stacks.push_back(stack);
            s.values.push_back({parts[1].toLongLong()});
        }
        p = stacksToProfile(s, specFor(kCpuType), "export");
    }
    const TotalsCheck c = checkExportTotals(flamegraph, p.get(), kCpuType);
    QCOMPARE(c.agree, agree);
    QCOMPARE(c.message, message);
    QCOMPARE(c.flamegraphTotal, flamegraph);
}

void tst_QrynFlamegraph::writeGzipPprof()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("merged.pb.gz");
    MergedFlamegraph m;
    m.graph = {kNames, kLevels, 100, 60};
    QString why;
    QVERIFY(buildMergedFlamegraph(&m, kCpuType, 0, "test", &why));
    const QByteArray pprof = QByteArray::fromStdString(encodePprof(*m.profile));
    QCOMPARE(qryn::writeGzipPprof(path, pprof, false), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.read(2), QByteArray("\x1f\x8b"));
    f.close();
    QCOMPARE(readPprofFile(path)->total(0), 100LL);
    // Exclusive without overwrite: the file stays as it was.
    QCOMPARE(qryn::writeGzipPprof(path, "other", false), path + " already exists");
    QCOMPARE(readPprofFile(path)->total(0), 100LL);
    const StackSet other{{"main"}, {{0}}, {{7}}};
    const auto otherProfile = stacksToProfile(other, specFor(kCpuType), "other");
    QCOMPARE(qryn::writeGzipPprof(path, QByteArray::fromStdString(encodePprof(*otherProfile)), true), QString());
    QCOMPARE(readPprofFile(path)->total(0), 7LL);   // replaced
    QCOMPARE(qryn::writeGzipPprof(dir.filePath("no/such/dir/x.pb.gz"), pprof, false),
             "cannot create " + dir.filePath("no/such/dir/x.pb.gz") + ": No such file or directory");
}

QTEST_GUILESS_MAIN(tst_QrynFlamegraph)
#include "tst_qrynflamegraph.moc"
