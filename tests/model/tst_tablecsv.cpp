// CSV of the top and diff tables: RFC 4180 quoting and the exact rows of hand-computed profiles and a real one.
#include "diff/DiffSide.h"
#include "diff/DiffTable.h"
#include "export/TableCsv.h"
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QTest>

using namespace qflame;

class tst_TableCsv : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void quotesFields_data();
    void quotesFields();
    void handComputedTable();
    void realProfileFirstRows();
    void handComputedDiffTable();
    void normalisedDiffTableIsExactDecimals();
};

namespace {

// before: main 10 = a 2 + map 3 + say 5; after: main 10 = a 2 + map 7 + new 1. Names with a comma and quotes.
std::shared_ptr<const DiffTable> handDiff(const DiffOptions &options)
{
    const auto before = readProfile("main;a 2\nmain;std::map<int, int>::find 3\nmain;say \"hi\" 5\n", "b.folded");
    const auto after = readProfile("main;a 2\nmain;std::map<int, int>::find 7\nmain;new 1\n", "a.folded");
    const DiffSide b = DiffSide::fromProfiles({before}, 0), a = DiffSide::fromProfiles({after}, 0);
    return DiffTable::compute(DiffTree::build(b, a, options));
}

}   // namespace

void tst_TableCsv::quotesFields_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("csv");
    QTest::newRow("plain") << QStringLiteral("main.run") << QStringLiteral("main.run");
    QTest::newRow("spaces stay bare") << QStringLiteral("operator new(unsigned long)")
                                      << QStringLiteral("operator new(unsigned long)");
    QTest::newRow("comma") << QStringLiteral("std::map<int, int>::find") << QStringLiteral("\"std::map<int, int>::find\"");
    QTest::newRow("quote doubled") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \"\"hi\"\"\"");
    QTest::newRow("line break") << QStringLiteral("a\nb") << QStringLiteral("\"a\nb\"");
    QTest::newRow("carriage return") << QStringLiteral("a\rb") << QStringLiteral("\"a\rb\"");
    QTest::newRow("empty") << QString() << QString();
}

void tst_TableCsv::quotesFields()
{
    QFETCH(QString, field);
    QFETCH(QString, csv);
    QCOMPARE(QString::fromStdString(csvField(field.toStdString())), csv);
}

void tst_TableCsv::handComputedTable()
{
    // main 10 = a (self 2) + a;b (3) + c,x (5): flat a 2, b 3, x 5; cum main 10, a 5, c 5.
    const auto p = readProfile("main;a 2\nmain;a;b 3\nmain;c;x 5\n", "t.folded");
    const auto table = FlatTable::compute(CallTreeBuilder::build({p}, 0));
    QCOMPARE(QString::fromStdString(flatTableCsv(*table)),
             QStringLiteral("flat,flat_percent,sum_percent,cum,cum_percent,name\r\n"
                            "5,50.00,50.00,5,50.00,x\r\n"
                            "3,30.00,80.00,3,30.00,b\r\n"
                            "2,20.00,100.00,5,50.00,a\r\n"
                            "0,0.00,100.00,10,100.00,main\r\n"
                            "0,0.00,100.00,5,50.00,c\r\n"));
    QCOMPARE(QString::fromStdString(flatTableCsv(*table, 1)),
             QStringLiteral("flat,flat_percent,sum_percent,cum,cum_percent,name\r\n5,50.00,50.00,5,50.00,x\r\n"));
}

void tst_TableCsv::realProfileFirstRows()
{
    // go tool pprof -top on gen__heap.pb.gz, inuse_space (tests/data/oracle): 13107201B 61.58% ... main.allocLarge.
    const auto p = readProfileFile(QStringLiteral(QFLAME_TEST_DATA "/gen__heap.pb.gz"));
    const auto table = FlatTable::compute(CallTreeBuilder::build({p}, size_t(p->effectiveDefaultType())));
    QCOMPARE(QString::fromStdString(flatTableCsv(*table, 3)),
             QStringLiteral("flat,flat_percent,sum_percent,cum,cum_percent,name\r\n"
                            "13107201,61.58,61.58,13107201,61.58,main.allocLarge\r\n"
                            "6626681,31.13,92.71,6626681,31.13,main.allocSmall\r\n"
                            "1059086,4.98,97.68,1272590,5.98,main.buildRecords\r\n"));
}

void tst_TableCsv::handComputedDiffTable()
{
    // Deltas by cum: say -5 (baseline only), map +4, new +1 (comparison only), a and main 0. Noise off, so the
    // class follows the sign alone. Rows sorted by |cum delta|, ties by name.
    DiffOptions o;
    o.noiseK = 0;
    QCOMPARE(QString::fromStdString(diffTableCsv(*handDiff(o))),
             QStringLiteral("before_flat,after_flat,delta_flat,before_cum,after_cum,delta_cum,class,name\r\n"
                            "5,0,-5,5,0,-5,removed,\"say \"\"hi\"\"\"\r\n"
                            "3,7,4,3,7,4,slower,\"std::map<int, int>::find\"\r\n"
                            "0,1,1,0,1,1,new,new\r\n"
                            "2,2,0,2,2,0,unchanged,a\r\n"
                            "0,0,0,10,10,0,unchanged,main\r\n"));
}

void tst_TableCsv::normalisedDiffTableIsExactDecimals()
{
    // The comparison halved: main 10 -> 5, a 2 -> 1, map 3 -> 3.5, new 0 -> 0.5, say 5 -> 0.
    DiffOptions o;
    o.noiseK = 0;
    QVERIFY(parseNormalization("0.5", &o));
    QCOMPARE(QString::fromStdString(diffTableCsv(*handDiff(o))),
             QStringLiteral("before_flat,after_flat,delta_flat,before_cum,after_cum,delta_cum,class,name\r\n"
                            "0,0,0,10,5,-5,faster,main\r\n"
                            "5,0,-5,5,0,-5,removed,\"say \"\"hi\"\"\"\r\n"
                            "2,1,-1,2,1,-1,faster,a\r\n"
                            "0,0.5,0.5,0,0.5,0.5,new,new\r\n"
                            "3,3.5,0.5,3,3.5,0.5,slower,\"std::map<int, int>::find\"\r\n"));
}

QTEST_GUILESS_MAIN(tst_TableCsv)
#include "tst_tablecsv.moc"
