// `qflame diff` as a user runs it: the real binary on the real pair, its output and its exit status.
#include "OracleFile.h"
#include "RunQflame.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using qflame::test::OracleRow;
using qflame::test::Run;
using qflame::test::runQflame;

namespace {

QString data(const char *name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + QLatin1String(name);
}

const QString kBase = data("gen__baseline.cpu.pb.gz");
const QString kNew = data("gen__optimized.cpu.pb.gz");

struct TsvRow {
    QList<QByteArray> numbers;   // before_flat after_flat delta_flat before_cum after_cum delta_cum
    QByteArray diffClass;
    std::string name;
};

std::vector<TsvRow> tsvRows(const QByteArray &out)
{
    std::vector<TsvRow> rows;
    for (const QByteArray &line : out.split('\n')) {
        if (line.isEmpty())
            continue;
        const QList<QByteArray> f = line.split('\t');
        if (f.size() != 8)
            return {};
        rows.push_back({f.mid(0, 6), f[6], f[7].toStdString()});
    }
    return rows;
}

std::vector<OracleRow> oracle(const QString &file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString error;
    return qflame::test::parseTopOracle(f.readAll(), &error);
}

// The fields of one RFC 4180 line (without its CRLF): quoted fields may hold commas and doubled quotes.
QList<QByteArray> csvFields(const QByteArray &line)
{
    QList<QByteArray> fields{QByteArray()};
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
            fields.back() += line[++i];
        else if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            fields.append(QByteArray());
        else
            fields.back() += c;
    }
    return fields;
}

std::string withoutInlineSuffix(std::string name)
{
    for (const std::string suffix : {" (inline)", " (partial-inline)"})
        if (name.size() > suffix.size() && name.ends_with(suffix))
            name.resize(name.size() - suffix.size());
    return name;
}

}   // namespace

class tst_CliDiff : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tsvMatchesPprofDiffBase();
    void tsvSidesMatchTheirOwnTop();
    void tsvNormalisedValuesAreExactDecimals();
    void noiseThresholdOption();
    void csvHasTheTsvColumns();
    void jsonHasTheTsvNumbers();
    void summaryForPeople();
    void exitCodes_data();
    void exitCodes();
};

void tst_CliDiff::tsvMatchesPprofDiffBase()
{
    const Run r = runQflame({QStringLiteral("diff"), QStringLiteral("--tsv"), kBase, kNew});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.isEmpty(), r.err.constData());
    const std::vector<TsvRow> rows = tsvRows(r.out);
    QVERIFY(!rows.empty());

    std::vector<OracleRow> actual;
    for (size_t i = 0; i < rows.size(); ++i) {
        const TsvRow &row = rows[i];
        const qint64 bf = row.numbers[0].toLongLong(), af = row.numbers[1].toLongLong();
        const qint64 df = row.numbers[2].toLongLong();
        const qint64 bc = row.numbers[3].toLongLong(), ac = row.numbers[4].toLongLong();
        const qint64 dc = row.numbers[5].toLongLong();
        QCOMPARE(df, af - bf);
        QCOMPARE(dc, ac - bc);
        if (i > 0) {   // |delta_cum| descending, then name
            const qint64 prev = std::llabs(rows[i - 1].numbers[5].toLongLong());
            QVERIFY(prev > std::llabs(dc) || (prev == std::llabs(dc) && rows[i - 1].name < row.name));
        }
        if (df != 0 || dc != 0)
            actual.push_back({df, dc, row.name});
    }
    std::vector<OracleRow> expected = oracle(data("oracle/gen__optimized.cpu.pb.gz.diff_base.topall"));
    QCOMPARE(expected.size(), size_t(193));
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    QVERIFY(actual == expected);
    QCOMPARE(rows.front().name, std::string("main.checksumBlock"));
    QCOMPARE(rows.front().diffClass, QByteArray("faster"));
}

// before/after columns are each profile's own -top (the inline suffix aside: it is marked from both graphs).
void tst_CliDiff::tsvSidesMatchTheirOwnTop()
{
    const Run r = runQflame({QStringLiteral("diff"), QStringLiteral("--tsv"), kBase, kNew});
    QCOMPARE(r.code, 0);
    std::map<std::string, std::pair<OracleRow, OracleRow>> byName;
    for (const TsvRow &row : tsvRows(r.out)) {
        const std::string name = withoutInlineSuffix(row.name);
        byName[name] = {{row.numbers[0].toLongLong(), row.numbers[3].toLongLong(), name},
                        {row.numbers[1].toLongLong(), row.numbers[4].toLongLong(), name}};
    }
    std::set<std::string> names;
    for (int side = 0; side < 2; ++side) {
        const auto expected = oracle(data(side == 0 ? "oracle/gen__baseline.cpu.pb.gz.cpu.topall"
                                                    : "oracle/gen__optimized.cpu.pb.gz.cpu.topall"));
        QVERIFY(!expected.empty());
        for (const OracleRow &e : expected) {
            const std::string name = withoutInlineSuffix(e.name);
            names.insert(name);
            QVERIFY2(byName.count(name), name.c_str());
            const OracleRow &got = side == 0 ? byName[name].first : byName[name].second;
            QVERIFY2(got.flat == e.flat && got.cum == e.cum, name.c_str());
        }
    }
    QCOMPARE(byName.size(), names.size());   // one row per function of either side, none else
}

void tst_CliDiff::tsvNormalisedValuesAreExactDecimals()
{
    const Run total = runQflame({QStringLiteral("diff"), QStringLiteral("--tsv"), QStringLiteral("--normalize"),
                                 QStringLiteral("total"), kBase, kNew});
    QCOMPARE(total.code, 0);
    const std::vector<TsvRow> rows = tsvRows(total.out);
    QVERIFY(!rows.empty());
    // main.checksumBlock: flat 1.92 s -> 1.15 s, the comparison scaled by 9.76 s / 9.66 s.
    const TsvRow &top = rows.front();
    QCOMPARE(top.name, std::string("main.checksumBlock"));
    QCOMPARE(top.numbers[0], QByteArray("1920000000"));
    const double afterFlat = 1150000000.0 * 9760000000.0 / 9660000000.0;
    QCOMPARE(top.numbers[1].toDouble(), afterFlat);
    QVERIFY(top.numbers[1].toDouble() == afterFlat);   // the printed decimal reads back as the same double
    QVERIFY(top.numbers[2].toDouble() == afterFlat - 1920000000.0);
    QVERIFY(top.numbers[1].contains('.'));             // never rounded to an integer

    const Run factor = runQflame({QStringLiteral("diff"), QStringLiteral("--tsv"), QStringLiteral("--normalize=0.5"),
                                  kBase, kNew});
    QCOMPARE(factor.code, 0);
    for (const TsvRow &row : tsvRows(factor.out))
        if (row.name == "main.checksumBlock") {
            QCOMPARE(row.numbers[1], QByteArray("575000000"));
            QCOMPARE(row.numbers[2], QByteArray("-1345000000"));
        }
}

void tst_CliDiff::noiseThresholdOption()
{
    auto classOf = [](const QByteArray &out, const std::string &name) {
        for (const TsvRow &row : tsvRows(out))
            if (row.name == name)
                return row.diffClass;
        return QByteArray();
    };
    // main.indexPath: +370 ms on 488 + 525 samples of 10 ms; 2 standard errors are 2 * 10 ms * sqrt(1013) = 637 ms.
    const Run dflt = runQflame({QStringLiteral("diff"), QStringLiteral("--tsv"), kBase, kNew});
    QCOMPARE(classOf(dflt.out, "main.indexPath"), QByteArray("noise"));
    const Run k1 = runQflame({QStringLiteral("diff"), QStringLiteral("--tsv"), QStringLiteral("--noise"),
                              QStringLiteral("1"), kBase, kNew});
    QCOMPARE(classOf(k1.out, "main.indexPath"), QByteArray("slower"));   // 370 ms > 318 ms
    const Run off =
        runQflame({QStringLiteral("diff"), QStringLiteral("--tsv"), QStringLiteral("--noise=0"), kBase, kNew});
    QCOMPARE(classOf(off.out, "main.indexPath"), QByteArray("slower"));
    QVERIFY(!off.out.contains("\tnoise\t"));
}

// --csv is --tsv for spreadsheets: a header, CRLF line ends, the same fields row by row, also normalised.
// `diff --json` (docs/json.md) parses and holds the --tsv rows: exact integers without normalisation, the same
// normalised values (as doubles) with it; the headline's totals are the root's.
void tst_CliDiff::jsonHasTheTsvNumbers()
{
    for (const QStringList &options : {QStringList(), QStringList{QStringLiteral("--normalize=total")}}) {
        const Run tsv = runQflame(QStringList{QStringLiteral("diff"), QStringLiteral("--tsv")} + options + QStringList{kBase, kNew});
        const Run json = runQflame(QStringList{QStringLiteral("diff"), QStringLiteral("--json")} + options + QStringList{kBase, kNew});
        QCOMPARE(json.code, 0);
        QVERIFY2(json.err.isEmpty(), json.err.constData());
        QJsonParseError error;
        const QJsonObject doc = QJsonDocument::fromJson(json.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(doc.value("report").toString(), QStringLiteral("diff"));
        const bool exact = options.isEmpty();
        QCOMPARE(doc.value("exact").toBool(), exact);
        QCOMPARE(doc.value("normalization").toString(), exact ? QStringLiteral("none") : QStringLiteral("total"));
        const std::vector<TsvRow> rows = tsvRows(tsv.out);
        const QJsonArray jrows = doc.value("rows").toArray();
        QCOMPARE(size_t(jrows.size()), rows.size());
        const char *keys[] = {"before_flat", "after_flat", "delta_flat", "before_cum", "after_cum", "delta_cum"};
        for (size_t i = 0; i < rows.size(); ++i) {
            const QJsonObject r = jrows[qsizetype(i)].toObject();
            for (int k = 0; k < 6; ++k) {
                if (exact)
                    QCOMPARE(QByteArray::number(r.value(QLatin1String(keys[k])).toInteger()), rows[i].numbers[k]);
                else   // the TSV's exact decimal and the JSON's shortest double are the same double
                    QCOMPARE(r.value(QLatin1String(keys[k])).toDouble(), rows[i].numbers[k].toDouble());
            }
            QCOMPARE(r.value("class").toString().toUtf8(), rows[i].diffClass);
            QCOMPARE(r.value("name").toString().toStdString(), rows[i].name);
        }
        if (exact) {   // 9.76 s -> 9.66 s, as the headline of the text output says
            const QJsonObject h = doc.value("headline").toObject();
            QCOMPARE(h.value("before").toInteger(), qint64(9760000000));
            QCOMPARE(h.value("after").toInteger(), qint64(9660000000));
            QCOMPARE(h.value("delta").toInteger(), qint64(-100000000));
            QCOMPARE(h.value("change_percent").toString(), QStringLiteral("-1.02%"));
        }
    }
}

void tst_CliDiff::csvHasTheTsvColumns()
{
    for (const QStringList &options : {QStringList(), QStringList{QStringLiteral("--normalize=total")}}) {
        const Run tsv = runQflame(QStringList{QStringLiteral("diff"), QStringLiteral("--tsv")} + options + QStringList{kBase, kNew});
        const Run csv = runQflame(QStringList{QStringLiteral("diff"), QStringLiteral("--csv")} + options + QStringList{kBase, kNew});
        QCOMPARE(csv.code, 0);
        QVERIFY2(csv.err.isEmpty(), csv.err.constData());
        QVERIFY(csv.out.endsWith("\r\n"));
        QList<QByteArray> lines = csv.out.split('\n');
        lines.removeLast();   // after the last line end
        for (QByteArray &line : lines) {
            QVERIFY(line.endsWith('\r'));
            line.chop(1);
        }
        QCOMPARE(lines.first(), QByteArray("before_flat,after_flat,delta_flat,before_cum,after_cum,delta_cum,class,name"));
        const std::vector<TsvRow> rows = tsvRows(tsv.out);
        QCOMPARE(size_t(lines.size() - 1), rows.size());
        for (size_t i = 0; i < rows.size(); ++i) {
            const QList<QByteArray> f = csvFields(lines[qsizetype(i) + 1]);
            QCOMPARE(f.size(), 8);
            QCOMPARE(f.mid(0, 6), rows[i].numbers);
            QCOMPARE(f[6], rows[i].diffClass);
            QCOMPARE(f[7].toStdString(), rows[i].name);
        }
    }
    // The first row by hand (main.checksumBlock: flat 1.92 s -> 1.15 s), exact nanoseconds.
    const Run csv = runQflame({QStringLiteral("diff"), QStringLiteral("--csv"), kBase, kNew});
    const QList<QByteArray> first = csvFields(csv.out.split('\n').value(1).chopped(1));
    QCOMPARE(first.mid(0, 3), (QList<QByteArray>{"1920000000", "1150000000", "-770000000"}));
    QCOMPARE(first.mid(6), (QList<QByteArray>{"faster", "main.checksumBlock"}));
}

void tst_CliDiff::summaryForPeople()
{
    const Run r = runQflame({QStringLiteral("diff"), kBase, kNew});
    QCOMPARE(r.code, 0);
    const QList<QByteArray> lines = r.out.split('\n');
    QVERIFY(lines.size() > 4);
    QCOMPARE(lines[1], QByteArray("Total 9.76 s -> 9.66 s, delta -100 ms (-1.02% of the baseline total); "
                                  "durations 10.1 s -> 10.2 s; normalisation: none (absolute values in nanoseconds); "
                                  "within noise: |delta| < 2 standard errors (counts: samples/count)"));
    QVERIFY(lines[3].contains("-770 ms"));
    QVERIFY(lines[3].endsWith("faster    main.checksumBlock"));

    const Run perSecond = runQflame({QStringLiteral("diff"), QStringLiteral("--normalize"),
                                     QStringLiteral("per-second"), kBase, kNew});
    QCOMPARE(perSecond.code, 0);
    QVERIFY(perSecond.out.split('\n')[1].startsWith("Total 0.965 cores -> 0.951 cores, delta -0.0141 cores"));
}

void tst_CliDiff::exitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString heap = data("gen__heap.pb.gz");
    QTest::newRow("missing file") << QStringList{QStringLiteral("diff"), QStringLiteral("/nonexistent.pb.gz"), kNew}
                                  << 2 << "qflame: /nonexistent.pb.gz: cannot open: No such file or directory";
    QTest::newRow("bad option") << QStringList{QStringLiteral("diff"), QStringLiteral("--bogus"), kBase, kNew} << 1
                                << "qflame: unknown option --bogus";
    QTest::newRow("one file") << QStringList{QStringLiteral("diff"), kBase} << 1
                              << "qflame: diff takes exactly two FILEs: BASE NEW";
    QTest::newRow("bad normalisation") << QStringList{QStringLiteral("diff"), QStringLiteral("--normalize=shares"),
                                                      kBase, kNew}
                                       << 1
                                       << "qflame: --normalize must be none, per-second, total or a positive factor, "
                                          "not 'shares'";
    QTest::newRow("bad noise") << QStringList{QStringLiteral("diff"), QStringLiteral("--noise=-1"), kBase, kNew} << 1
                               << "qflame: --noise takes a number of standard errors >= 0 (0 turns it off), not '-1'";
    QTest::newRow("bad granularity") << QStringList{QStringLiteral("diff"), QStringLiteral("--granularity=files"),
                                                    kBase, kNew}
                                     << 1
                                     << "qflame: --granularity must be functions, lines or addresses, not 'files'";
    QTest::newRow("other sample types") << QStringList{QStringLiteral("diff"), kBase, heap} << 2
                                        << "qflame: " + heap + ": has no sample type cpu/nanoseconds to compare with "
                                           "(it has: alloc_objects/count, alloc_space/bytes, inuse_objects/count, "
                                           "inuse_space/bytes)";
    QTest::newRow("per-second without duration")
        << QStringList{QStringLiteral("diff"), QStringLiteral("--normalize=per-second"), heap, heap} << 2
        << "qflame: cannot normalise per second: the baseline (" + heap + ") records no duration";
}

void tst_CliDiff::exitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    const Run r = runQflame(args);
    QCOMPARE(r.code, code);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(QString::fromUtf8(r.err).split(QLatin1Char('\n')).first(), message);
    if (code == 2)
        QCOMPARE(r.err.count('\n'), 1);   // bad input: one line
}

QTEST_GUILESS_MAIN(tst_CliDiff)
#include "tst_clidiff.moc"
