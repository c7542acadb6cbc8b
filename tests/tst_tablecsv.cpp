// CSV of the top table: RFC 4180 quoting and the exact rows of a hand-computed profile and a real one.
#include "CallTreeBuilder.h"
#include "FlatTable.h"
#include "ProfileFormats.h"
#include "TableCsv.h"

#include <QTest>

using namespace qflame;

class tst_TableCsv : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void quotesFields_data();
    void quotesFields();
    void handComputedTable();
    void realProfileFirstRows();
};

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
    const auto p = readAnyProfile("main;a 2\nmain;a;b 3\nmain;c;x 5\n", "t.folded");
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
    const auto p = readAnyProfileFile(QStringLiteral(QFLAME_TEST_DATA "/gen__heap.pb.gz"));
    const auto table = FlatTable::compute(CallTreeBuilder::build({p}, size_t(p->effectiveDefaultType())));
    QCOMPARE(QString::fromStdString(flatTableCsv(*table, 3)),
             QStringLiteral("flat,flat_percent,sum_percent,cum,cum_percent,name\r\n"
                            "13107201,61.58,61.58,13107201,61.58,main.allocLarge\r\n"
                            "6626681,31.13,92.71,6626681,31.13,main.allocSmall\r\n"
                            "1059086,4.98,97.68,1272590,5.98,main.buildRecords\r\n"));
}

QTEST_GUILESS_MAIN(tst_TableCsv)
#include "tst_tablecsv.moc"
