// The top table model under QAbstractItemModelTester, with exact cells and sorting through the proxy.
#include "CallTreeBuilder.h"
#include "ProfileFactory.h"
#include "TopTableModel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace qflame;

class tst_TopTableModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cellsAndRoles();
    void sortsByExactValues_data();
    void sortsByExactValues();
    void passesModelTester();
};

static std::shared_ptr<const FlatTable> table()
{
    test::FoldedProfile spec;
    spec.sampleTypes = {{"alloc_space", "bytes"}};
    spec.folded = "main;a;b 3145728\nmain;c 1024\nmain;a 512\nmain;c;c 1048576\n";
    return FlatTable::compute(CallTreeBuilder::build({test::profileFromFolded(spec)}, 0));
}

void tst_TopTableModel::cellsAndRoles()
{
    TopTableModel m;
    m.setTable(table());
    QCOMPARE(m.rowCount(), 4);
    QCOMPARE(m.columnCount(), 5);
    QCOMPARE(m.headerData(TopTableModel::Cum, Qt::Horizontal).toString(), QStringLiteral("Cum"));
    // Rows as `qflame top`: b 3 MiB flat; c 1 MiB + 1 KiB flat and cum (once per sample), a 512 B flat.
    QCOMPARE(m.index(0, TopTableModel::Name).data().toString(), QStringLiteral("b"));
    QCOMPARE(m.index(0, TopTableModel::Flat).data().toString(), QStringLiteral("3 MiB"));
    QCOMPARE(m.index(0, TopTableModel::FlatPercent).data().toString(), QStringLiteral("74.97%"));
    QCOMPARE(m.index(1, TopTableModel::Name).data().toString(), QStringLiteral("c"));
    QCOMPARE(m.index(1, TopTableModel::Cum).data(TopTableModel::SortRole).toLongLong(), 1049600LL);
    QCOMPARE(m.index(1, TopTableModel::Cum).data().toString(), QStringLiteral("1.00 MiB"));
    QCOMPARE(m.index(3, TopTableModel::Name).data().toString(), QStringLiteral("main"));
    QCOMPARE(m.index(3, TopTableModel::CumPercent).data().toString(), QStringLiteral("100%"));
    QCOMPARE(m.index(3, TopTableModel::Flat).data().toString(), QStringLiteral("0 B"));
    QCOMPARE(m.index(2, TopTableModel::Flat).data(Qt::ToolTipRole).toString(), QStringLiteral("512 bytes"));
    QCOMPARE(m.index(2, TopTableModel::Name).data(Qt::TextAlignmentRole).toInt(), int(Qt::AlignLeft | Qt::AlignVCenter));
}

void tst_TopTableModel::sortsByExactValues_data()
{
    // Rows: b flat 3145728 cum 3145728; c 1049600 / 1049600; a 512 / 3146240; main 0 / 4195840.
    QTest::addColumn<int>("column");
    QTest::addColumn<bool>("descending");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("flat desc (the source order, no sort)") << int(TopTableModel::Flat) << true
                                                           << QStringList({"b", "c", "a", "main"});
    QTest::newRow("flat% desc") << int(TopTableModel::FlatPercent) << true << QStringList({"b", "c", "a", "main"});
    QTest::newRow("flat asc") << int(TopTableModel::Flat) << false << QStringList({"main", "a", "c", "b"});
    QTest::newRow("cum desc") << int(TopTableModel::Cum) << true << QStringList({"main", "a", "b", "c"});
    QTest::newRow("cum% asc") << int(TopTableModel::CumPercent) << false << QStringList({"c", "b", "a", "main"});
    QTest::newRow("name asc") << int(TopTableModel::Name) << false << QStringList({"a", "b", "c", "main"});
    QTest::newRow("name desc") << int(TopTableModel::Name) << true << QStringList({"main", "c", "b", "a"});
}

void tst_TopTableModel::sortsByExactValues()
{
    QFETCH(int, column);
    QFETCH(bool, descending);
    QFETCH(QStringList, names);
    TopTableModel m;
    m.setTable(table());
    TopTableProxy proxy(&m);
    proxy.sort(TopTableModel::Cum, Qt::AscendingOrder);   // from another order first
    proxy.sort(column, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
    QStringList got;
    for (int r = 0; r < proxy.rowCount(); ++r)
        got << proxy.index(r, TopTableModel::Name).data().toString();
    QCOMPARE(got, names);
    // A new table keeps the order chosen.
    m.setTable(table());
    got.clear();
    for (int r = 0; r < proxy.rowCount(); ++r)
        got << proxy.index(r, TopTableModel::Name).data().toString();
    QCOMPARE(got, names);
}

void tst_TopTableModel::passesModelTester()
{
    TopTableModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setTable(table());
    m.setTable(nullptr);
    QCOMPARE(m.rowCount(), 0);
    m.setTable(table());
    TopTableProxy proxy(&m);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(TopTableModel::Flat, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, TopTableModel::Name).data().toString(), QStringLiteral("main"));
}

QTEST_MAIN(tst_TopTableModel)
#include "tst_toptablemodel.moc"
