// The top table model under QAbstractItemModelTester: exact cells, sorting and the search filter (both
// computed by a worker), the selection following its row through a re-sort.
#include "controls/TableSizing.h"
#include "ProfileFactory.h"
#include "tables/TopTableModel.h"
#include "tree/CallTreeBuilder.h"

#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace qflame;

class tst_TopTableModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cellsAndRoles();
    void sortsByExactValues_data();
    void sortsByExactValues();
    void filtersByFrame();
    void staleAnswersAreDropped();
    void passesModelTester();
    void columnsSizedLikeQt();
};

static QStringList names(const TopTableModel &m)
{
    QStringList got;
    for (int r = 0; r < m.rowCount(); ++r)
        got << m.index(r, TopTableModel::Name).data().toString();
    return got;
}

// Waits for the worker's rows; true when they came (or nothing was pending).
static bool settle(TopTableModel &m)
{
    if (!m.isOrdering())
        return true;
    QSignalSpy spy(&m, &TopTableModel::ordered);
    return spy.wait(10'000) && !m.isOrdering();
}

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
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setTable(table());
    m.sort(TopTableModel::Cum, Qt::AscendingOrder);   // from another order first
    QVERIFY(settle(m));
    QItemSelectionModel selection(&m);
    selection.setCurrentIndex(m.index(1, TopTableModel::Name), QItemSelectionModel::ClearAndSelect);
    const QString current = selection.currentIndex().data().toString();
    m.sort(column, descending ? Qt::DescendingOrder : Qt::AscendingOrder);
    QVERIFY(settle(m));
    QCOMPARE(::names(m), names);
    // The current row is still the same function (persistent indexes follow a re-sort).
    QCOMPARE(selection.currentIndex().data().toString(), current);
    // A new table keeps the order chosen; it shows no rows until they are ordered.
    m.setTable(table());
    if (m.isOrdering())
        QCOMPARE(m.rowCount(), 0);
    QVERIFY(settle(m));
    QCOMPARE(::names(m), names);
}

void tst_TopTableModel::filtersByFrame()
{
    TopTableModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto t = table();
    m.setTable(t);
    auto only = [&](std::initializer_list<const char *> labels) {
        auto mask = std::make_shared<std::vector<uint8_t>>(t->tree().frames().size(), 0);
        for (const char *l : labels)
            for (FrameId f = 0; f < t->tree().frames().size(); ++f)
                if (t->tree().frames().label(f) == l)
                    (*mask)[f] = 1;
        return std::shared_ptr<const std::vector<uint8_t>>(std::move(mask));
    };
    m.setFrameFilter(only({"a", "main"}));
    QVERIFY(m.hasFrameFilter());
    QVERIFY(settle(m));
    QCOMPARE(names(m), QStringList({"a", "main"}));   // the table's order: flat 512, then 0
    m.sort(TopTableModel::Name, Qt::DescendingOrder);
    QVERIFY(settle(m));
    QCOMPARE(names(m), QStringList({"main", "a"}));
    QCOMPARE(m.index(0, TopTableModel::Cum).data(TopTableModel::SortRole).toLongLong(), 4195840LL);
    QCOMPARE(m.index(1, TopTableModel::Flat).data(TopTableModel::SortRole).toLongLong(), 512LL);
    m.setFrameFilter(only({}));
    QVERIFY(settle(m));
    QCOMPARE(m.rowCount(), 0);
    // No filter and the table's order again: at once, without a worker.
    m.setFrameFilter(nullptr);
    m.sort(TopTableModel::Flat, Qt::DescendingOrder);
    QVERIFY(!m.isOrdering());
    QCOMPARE(names(m), QStringList({"b", "c", "a", "main"}));
}

void tst_TopTableModel::staleAnswersAreDropped()
{
    // Questions asked in a row: only the last one's answer shows, whatever order the workers finish in.
    TopTableModel m;
    m.setTable(table());
    QSignalSpy spy(&m, &TopTableModel::ordered);
    m.sort(TopTableModel::Name, Qt::AscendingOrder);
    m.sort(TopTableModel::Cum, Qt::DescendingOrder);
    m.sort(TopTableModel::Flat, Qt::AscendingOrder);
    QVERIFY(settle(m));
    QCOMPARE(names(m), QStringList({"main", "a", "c", "b"}));
    QTest::qWait(50);   // the earlier workers' answers arrive and are dropped
    QCOMPARE(names(m), QStringList({"main", "a", "c", "b"}));
    QCOMPARE(spy.count(), 1);
}

void tst_TopTableModel::passesModelTester()
{
    TopTableModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setTable(table());
    m.setTable(nullptr);
    QCOMPARE(m.rowCount(), 0);
    m.setTable(table());
    m.sort(TopTableModel::Flat, Qt::AscendingOrder);
    QVERIFY(settle(m));
    QCOMPARE(m.index(0, TopTableModel::Name).data().toString(), QStringLiteral("main"));
}

void tst_TopTableModel::columnsSizedLikeQt()
{
    // sizeColumnsToText measures the text itself; the widths must be those Qt's own sizing gives.
    test::FoldedProfile spec;
    spec.sampleTypes = {{"cpu", "nanoseconds"}};
    spec.folded = "main;github.com/acme/svc/internal/store.(*Index).Lookup 123456789\n"
                  "main;runtime.mallocgc;Ünïcode.函数 987654321012\nmain 7\n";
    TopTableModel m;
    m.setTable(FlatTable::compute(CallTreeBuilder::build({test::profileFromFolded(spec)}, 0)));
    QTableView view;
    view.setModel(&m);
    view.horizontalHeader()->setStretchLastSection(true);
    view.resize(800, 300);
    view.resizeColumnsToContents();
    QList<int> qt;
    for (int c = 0; c < m.columnCount(); ++c)
        qt << view.columnWidth(c);
    for (int c = 0; c < m.columnCount(); ++c)
        view.setColumnWidth(c, 7);
    sizeColumnsToText(&view);
    QList<int> ours;
    for (int c = 0; c < m.columnCount(); ++c)
        ours << view.columnWidth(c);
    QVERIFY(qt[TopTableModel::Name] > view.horizontalHeader()->sectionSizeHint(TopTableModel::Name));   // by a name
    QCOMPARE(ours, qt);
}

QTEST_MAIN(tst_TopTableModel)
#include "tst_toptablemodel.moc"
