// `--json` of graph, diff --graph, heatmap and disasm (model/report/ShapeJson) through the real binary: the JSON
// parses, and its numbers are the --tsv ones, row for row.
#include "PgoTestSupport.h"
#include "TimedPerfScript.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QtTest>

using namespace qflame::pgotest;

class tst_ShapeJson : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void graph();
    void diffGraph();
    void heatmap();
    void disasm();
};

namespace {

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

QJsonObject parsed(const Run &r)
{
    if (r.code != 0)
        qWarning("%s", r.err.constData());
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

QList<QStringList> tsvRows(const QByteArray &out)
{
    QList<QStringList> rows;
    for (const QByteArray &line : out.split('\n'))
        if (!line.isEmpty())
            rows << QString::fromUtf8(line).split(QLatin1Char('\t'));
    return rows;
}

QString integer(const QJsonValue &v)
{
    return v.isString() ? v.toString() : QString::number(qint64(v.toDouble()));
}

// The JSON's nodes then edges, as graph --tsv's rows.
QList<QStringList> graphRows(const QJsonObject &o)
{
    QList<QStringList> rows;
    const bool diff = o.value(QLatin1String("diff")).toBool();
    const QStringList nodeValues = diff ? QStringList{"before_flat", "after_flat", "delta_flat", "before_cum",
                                                      "after_cum", "delta_cum", "class"}
                                        : QStringList{"flat", "cum"};
    for (const QJsonValue &n : o.value(QLatin1String("nodes")).toArray()) {
        QStringList row{QStringLiteral("node"), n[QLatin1String("name")].toString()};
        for (const QString &k : nodeValues)
            row << (k == QLatin1String("class") ? n[k].toString() : integer(n[k]));
        rows << row;
    }
    const QStringList edgeValues = diff ? QStringList{"before_weight", "after_weight", "delta_weight", "class", "kind"}
                                        : QStringList{"weight", "kind"};
    for (const QJsonValue &e : o.value(QLatin1String("edges")).toArray()) {
        QStringList row{QStringLiteral("edge"), e[QLatin1String("caller")].toString(), e[QLatin1String("callee")].toString()};
        for (const QString &k : edgeValues)
            row << (k == QLatin1String("class") || k == QLatin1String("kind") ? e[k].toString() : integer(e[k]));
        rows << row;
    }
    return rows;
}

}   // namespace

void tst_ShapeJson::graph()
{
    const QStringList args{QStringLiteral("graph"), data("gen__baseline.cpu.pb.gz"), QStringLiteral("--nodecount"),
                           QStringLiteral("30")};
    const Run tsv = runQflame(args + QStringList{QStringLiteral("--tsv")});
    QCOMPARE(tsv.code, 0);
    const QJsonObject o = parsed(runQflame(args + QStringList{QStringLiteral("--json")}));
    QCOMPARE(o.value(QLatin1String("sample_type")).toString(), QStringLiteral("cpu"));
    QCOMPARE(o.value(QLatin1String("diff")).toBool(), false);
    const QList<QStringList> rows = tsvRows(tsv.out);
    QVERIFY(rows.size() > 30);
    QCOMPARE(graphRows(o), rows);
    // One output at a time.
    const Run both = runQflame(args + QStringList{QStringLiteral("--json"), QStringLiteral("--tsv")});
    QCOMPARE(both.code, 1);
    QVERIFY(both.err.startsWith("qflame: choose one of --tsv, --json, --dot, --svg and --png\n"));
}

void tst_ShapeJson::diffGraph()
{
    const QStringList args{QStringLiteral("diff"), data("gen__baseline.cpu.pb.gz"), data("gen__optimized.cpu.pb.gz"),
                           QStringLiteral("--graph")};
    const Run tsv = runQflame(args + QStringList{QStringLiteral("--tsv")});
    QCOMPARE(tsv.code, 0);
    const QJsonObject o = parsed(runQflame(args + QStringList{QStringLiteral("--json")}));
    QCOMPARE(o.value(QLatin1String("diff")).toBool(), true);
    const QList<QStringList> rows = tsvRows(tsv.out);
    QVERIFY(rows.size() > 10);
    QCOMPARE(graphRows(o), rows);
}

void tst_ShapeJson::heatmap()
{
    QTemporaryDir dir;
    const QString perf = dir.filePath(QStringLiteral("prog.perf"));
    QFile f(perf);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(qflame::test::kTimedPerfScript);
    f.close();
    const QStringList args{QStringLiteral("heatmap"), perf, QStringLiteral("--column-ms"), QStringLiteral("500"),
                           QStringLiteral("--rows"), QStringLiteral("10")};
    const Run tsv = runQflame(args + QStringList{QStringLiteral("--tsv")});
    QCOMPARE(tsv.code, 0);
    const QJsonObject o = parsed(runQflame(args + QStringList{QStringLiteral("--json")}));
    QCOMPARE(integer(o.value(QLatin1String("column_ns"))), QStringLiteral("500000000"));
    QCOMPARE(o.value(QLatin1String("rows")).toInt(), 10);
    QList<QStringList> rows;
    qint64 max = 0;
    for (const QJsonValue &c : o.value(QLatin1String("cells")).toArray()) {
        rows << QStringList{integer(c[QLatin1String("column_start_ns")]), integer(c[QLatin1String("row")]),
                            integer(c[QLatin1String("value")])};
        max = std::max(max, qint64(c[QLatin1String("value")].toDouble()));
    }
    const QList<QStringList> expected = tsvRows(tsv.out);
    QVERIFY(expected.size() >= 2);
    QCOMPARE(rows, expected);
    QCOMPARE(qint64(o.value(QLatin1String("max")).toDouble()), max);
}

// A C program's main, disassembled: the JSON's instructions are the TSV's, address for address.
void tst_ShapeJson::disasm()
{
    const QString cc = QStandardPaths::findExecutable(QStringLiteral("cc"));
    if (cc.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("objdump")).isEmpty() ||
        QStandardPaths::findExecutable(QStringLiteral("nm")).isEmpty())
        QSKIP("cc, objdump or nm is missing");
    QTemporaryDir dir;
    const QString source = dir.filePath(QStringLiteral("prog.c")), binary = dir.filePath(QStringLiteral("prog"));
    QFile src(source);
    QVERIFY(src.open(QIODevice::WriteOnly));
    src.write("int spin(int n) { int s = 0; for (int i = 0; i < n; ++i) s += i * i; return s; }\n"
              "int main(int argc, char **argv) { return spin(argc * 1000) & 1; }\n");
    src.close();
    QProcess build;
    build.start(cc, {QStringLiteral("-O1"), QStringLiteral("-g"), QStringLiteral("-no-pie"), QStringLiteral("-o"), binary,
                     source});
    QVERIFY(build.waitForFinished(60000) && build.exitCode() == 0);
    QProcess nm;
    nm.start(QStringLiteral("nm"), {binary});
    QVERIFY(nm.waitForFinished(30000));
    const QRegularExpression spin(QStringLiteral("^([0-9a-f]+) T spin$"), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = spin.match(QString::fromUtf8(nm.readAllStandardOutput()));
    QVERIFY(m.hasMatch());
    const uint64_t address = m.captured(1).toULongLong(nullptr, 16);

    Builder b;
    const uint64_t fn = b.function("spin", 1, source.toStdString());
    b.location(address + 4, {{fn, 1}});
    b.location(address + 8, {{fn, 1}});
    b.sample({1}, {5});
    b.sample({2}, {3});
    auto *map = b.message().add_mapping();
    // As perf records the executable segment of a non-PIE binary: mapped where its file offset 0x1000 is linked.
    map->set_id(1), map->set_memory_start(0x401000), map->set_memory_limit(0x402000), map->set_file_offset(0x1000);
    map->set_filename(b.str(binary.toStdString()));
    for (int i = 0; i < b.message().location_size(); ++i)
        b.message().mutable_location(i)->set_mapping_id(1);
    const QString profile = dir.filePath(QStringLiteral("prog.pb"));
    QFile out(profile);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray::fromStdString(b.message().SerializeAsString()));
    out.close();

    const QStringList args{QStringLiteral("disasm"), QStringLiteral("spin"), profile};
    const Run tsv = runQflame(args + QStringList{QStringLiteral("--tsv")});
    QVERIFY2(tsv.code == 0, tsv.err.constData());
    const QJsonObject o = parsed(runQflame(args + QStringList{QStringLiteral("--json")}));
    QCOMPARE(integer(o.value(QLatin1String("total"))), QStringLiteral("8"));
    QList<QStringList> rows;
    for (const QJsonValue &r : o.value(QLatin1String("routines")).toArray())
        for (const QJsonValue &in : r[QLatin1String("instructions")].toArray())
            rows << QStringList{r[QLatin1String("name")].toString(), in[QLatin1String("address")].toString(),
                                integer(in[QLatin1String("flat")]), integer(in[QLatin1String("cum")])};
    QList<QStringList> expected;
    for (const QStringList &row : tsvRows(tsv.out))
        expected << row.mid(0, 4);
    QVERIFY(expected.size() > 3);
    QCOMPARE(rows, expected);
    qint64 flat = 0;
    for (const QStringList &row : expected)
        flat += row[2].toLongLong();
    QCOMPARE(flat, 8);   // the 5 and the 3 samples (both addresses fall in one instruction, spin's third)

    // diff --disasm of that profile against itself with 7 more samples on the same instruction: the JSON's groups
    // and instructions are the --tsv rows, and the delta is the 7 worked out here.
    b.sample({1}, {7});
    const QString more = dir.filePath(QStringLiteral("more.pb"));
    QFile moreOut(more);
    QVERIFY(moreOut.open(QIODevice::WriteOnly));
    moreOut.write(QByteArray::fromStdString(b.message().SerializeAsString()));
    moreOut.close();
    const QStringList diffArgs{QStringLiteral("diff"), profile, more, QStringLiteral("--disasm"), QStringLiteral("spin")};
    const Run diffTsv = runQflame(diffArgs + QStringList{QStringLiteral("--tsv")});
    QVERIFY2(diffTsv.code == 0, diffTsv.err.constData());
    const QJsonObject d = parsed(runQflame(diffArgs + QStringList{QStringLiteral("--json")}));
    QCOMPARE(integer(d.value(QLatin1String("before_total"))), QStringLiteral("8"));
    QCOMPARE(integer(d.value(QLatin1String("after_total"))), QStringLiteral("15"));
    QList<QStringList> diffRows;
    qint64 delta = 0;
    for (const QJsonValue &g : d.value(QLatin1String("groups")).toArray()) {
        const QString file = g[QLatin1String("file")].toString(), line = integer(g[QLatin1String("line")]);
        diffRows << QStringList{QStringLiteral("group"), g[QLatin1String("routine")].toString(),
                                g[QLatin1String("function")].toString(),
                                file.isEmpty() && line == QLatin1String("0") ? QString() : file + QLatin1Char(':') + line,
                                integer(g[QLatin1String("before_cum")]), integer(g[QLatin1String("after_cum")]),
                                integer(g[QLatin1String("delta_cum")]), g[QLatin1String("class")].toString()};
        delta += integer(g[QLatin1String("delta_cum")]).toLongLong();
        for (const char *side : {"before", "after"})
            for (const QJsonValue &in : g[QLatin1String(side)].toArray())
                diffRows << QStringList{QLatin1String(side), in[QLatin1String("address")].toString(),
                                        integer(in[QLatin1String("flat")]), integer(in[QLatin1String("cum")]),
                                        in[QLatin1String("text")].toString()};
    }
    QCOMPARE(diffRows, tsvRows(diffTsv.out));
    QCOMPARE(delta, 7);
}

QTEST_GUILESS_MAIN(tst_ShapeJson)
#include "tst_shapejson.moc"
