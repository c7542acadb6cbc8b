// -tagfocus / -tagignore values and pprof's unit arithmetic, value by value, worked out from go tool pprof
// 1.19's driver.parseTagFilterRange and measurement.Scale (the oracle cases of tst_filters run them end to end).
#include "formats/ProfileInput.h"
#include "tree/PprofRegex.h"
#include "tree/TagFilter.h"

#include "profile.pb.h"

#include <QTest>

using namespace qflame;

class tst_TagFilter : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void scalesLikePprof_data();
    void scalesLikePprof();
    void parsesRangesAndRegexes_data();
    void parsesRangesAndRegexes();
    void rangeBounds_data();
    void rangeBounds();
    void identifiesLabelUnits();
};

void tst_TagFilter::scalesLikePprof_data()
{
    QTest::addColumn<qint64>("value");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<double>("scaled");
    QTest::addColumn<QString>("unit");
    QTest::newRow("same unit") << qint64(1) << "kb" << "kb" << 1.0 << "kB";
    QTest::newRow("bytes to kB") << qint64(4096) << "bytes" << "kB" << 4.0 << "kB";
    QTest::newRow("unknown target: the kind's default") << qint64(4096) << "bytes" << "" << 4096.0 << "B";
    QTest::newRow("other kind's target") << qint64(10) << "B" << "n*GCU" << 10.0 << "B";
    QTest::newRow("ms to us") << qint64(5) << "ms" << "us" << 5000.0 << "us";
    QTest::newRow("plural, any case") << qint64(2) << "Hours" << "s" << 7200.0 << "s";
    QTest::newRow("to seconds") << qint64(5) << "milliseconds" << "s" << 0.005 << "s";
    QTest::newRow("unknown unit keeps the target") << qint64(7) << "objects" << "kB" << 7.0 << "kB";
    QTest::newRow("uninteresting target") << qint64(7) << "objects" << "count" << 7.0 << "";
    QTest::newRow("auto") << qint64(3600) << "s" << "auto" << 1.0 << "hrs";
    QTest::newRow("minimum") << qint64(1536) << "B" << "minimum" << 1.5 << "kB";
    QTest::newRow("negative") << qint64(-2048) << "bytes" << "kb" << -2.0 << "kB";
    QTest::newRow("GCU") << qint64(1) << "gigagcu" << "megagcu" << 1000.0 << "M*GCU";
    // "μs" is three bytes long, so sniffUnit drops its "s" and knows no "μ": it is no time unit to pprof.
    QTest::newRow("micro sign") << qint64(1) << "\xce\xbcs" << "ns" << 1.0 << "ns";
    // strings.ToLower makes the Kelvin sign (U+212A) a 'k': "KB" is kilobytes to pprof.
    QTest::newRow("Kelvin sign") << qint64(2) << "\u212AB" << "B" << 2048.0 << "B";
    QTest::newRow("K with a ring is no k") << qint64(2) << "\u00C5B" << "B" << 2.0 << "B";
}

void tst_TagFilter::scalesLikePprof()
{
    QFETCH(qint64, value);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(double, scaled);
    QFETCH(QString, unit);
    const ScaledValue v = scaleMeasurement(value, from.toStdString(), to.toStdString());
    QCOMPARE(v.value, scaled);
    QCOMPARE(QString::fromStdString(v.unit), unit);
}

void tst_TagFilter::parsesRangesAndRegexes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("isRange");
    QTest::newRow("at least") << "bytes=1kb:" << "bytes" << true;
    QTest::newRow("equal, no unit") << "bytes=4096" << "bytes" << true;
    QTest::newRow("between, any key") << "1kb:2mb" << "" << true;
    QTest::newRow("at most") << ":64kb" << "" << true;
    QTest::newRow("signed") << "-5:+5" << "" << true;
    QTest::newRow("units of two kinds") << "1:2kb" << "" << false;
    QTest::newRow("not a range form") << "1kb-2kb" << "" << false;
    QTest::newRow("three numbers") << "1:2:3" << "" << false;
    QTest::newRow("regex list") << "path=index,text" << "path" << false;
    QTest::newRow("digits inside a regex") << "profile_id:0" << "" << false;
    QTest::newRow("first = splits") << "a=b=c" << "a" << false;
    QTest::newRow("empty key") << "=ingest" << "" << false;
}

void tst_TagFilter::parsesRangesAndRegexes()
{
    QFETCH(QString, text);
    QFETCH(QString, key);
    QFETCH(bool, isRange);
    const TagFilter f = TagFilter::parse(text.toStdString(), "tagfocus");
    QCOMPARE(QString::fromStdString(f.key()), key);
    QCOMPARE(f.isRange(), isRange);
}

void tst_TagFilter::rangeBounds_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("value");
    QTest::addColumn<QString>("unit");   // the label key's unit
    QTest::addColumn<bool>("in");
    QTest::newRow("1kb: takes 1024 B") << "bytes=1kb:" << qint64(1024) << "bytes" << true;
    QTest::newRow("1kb: not 1023 B") << "bytes=1kb:" << qint64(1023) << "bytes" << false;
    QTest::newRow("4096 is unitless, bytes are B") << "bytes=4096" << qint64(4096) << "bytes" << false;
    QTest::newRow("4096 of an unknown unit") << "bytes=4096" << qint64(4096) << "objects" << true;
    QTest::newRow("2mb upper bound") << "1kb:2mb" << qint64(2097152) << "bytes" << true;
    QTest::newRow("just above") << "1kb:2mb" << qint64(2097153) << "bytes" << false;
    QTest::newRow(":64kb") << ":64kb" << qint64(65536) << "B" << true;
    QTest::newRow("time in ms") << "12ms:1s" << qint64(1) << "s" << true;
    QTest::newRow("time above") << "12ms:1s" << qint64(2) << "s" << false;
    QTest::newRow("time of other unit") << "12ms:1s" << qint64(20) << "milliseconds" << true;
    QTest::newRow("bytes are no time") << "12ms:1s" << qint64(20) << "bytes" << false;
    QTest::newRow("count") << "+5" << qint64(5) << "count" << true;
    QTest::newRow("negative range") << "-5:+5" << qint64(-3) << "things" << true;
}

void tst_TagFilter::rangeBounds()
{
    QFETCH(QString, text);
    QFETCH(qint64, value);
    QFETCH(QString, unit);
    QFETCH(bool, in);
    const TagFilter f = TagFilter::parse(text.toStdString(), "tagfocus");
    QVERIFY(f.isRange());
    QCOMPARE(f.inRange(value, unit.toStdString()), in);
}

void tst_TagFilter::identifiesLabelUnits()
{
    namespace pb = perftools::profiles;
    pb::Profile p;
    for (const char *s : {"", "samples", "count", "request", "kilobytes", "bytes", "lat", "ms", "size", "zero"})
        p.add_string_table(s);
    p.add_sample_type()->set_type(1);
    p.mutable_sample_type(0)->set_unit(2);
    auto label = [](pb::Sample *s, int64_t key, int64_t num, int64_t unit) {
        auto *l = s->add_label();
        l->set_key(key);
        l->set_num(num);
        l->set_num_unit(unit);
    };
    pb::Sample *zero = p.add_sample();   // all values zero: pprof's merge drops it before units are identified
    zero->add_value(0);
    label(zero, 3, 10, 4);
    pb::Sample *s = p.add_sample();
    s->add_value(1);
    label(s, 3, 10, 0);   // request without unit: "bytes"
    label(s, 6, 5, 0);    // lat: no unit here ...
    label(s, 8, 3, 0);    // size: none anywhere, so the key itself
    label(s, 9, 0, 0);    // num 0 and no unit: pprof does not read it as a label at all
    pb::Sample *t = p.add_sample();
    t->add_value(2);
    label(t, 6, 5, 7);    // ... and "ms" here
    label(t, 6, 5, 5);    // a second unit for the key: pprof keeps the first
    const auto profile = readPprof(p.SerializeAsString(), "units");
    const NumLabelUnits units = identifyNumLabelUnits({profile});
    QCOMPARE(units, (NumLabelUnits{{"lat", "ms"}, {"request", "bytes"}, {"size", "size"}}));
}

QTEST_GUILESS_MAIN(tst_TagFilter)
#include "tst_tagfilter.moc"
