// "Collapse template arguments" (KDAB/hotspot#227): names rewritten exactly as below, operators and Rust's and
// Java's brackets left alone; frames whose names become equal merge with flat and cum summed as computed by hand
// here; the CLI's --collapse-templates on top, diff and convert, its exact output; and View > Collapse Template
// Arguments in the window, which reads the open tabs again (a tab's top table rows before, after, and back).
#include "MainWindow.h"
#include "document/DocumentPane.h"
#include "formats/ProfileInput.h"
#include "formats/StackProfile.h"
#include "names/Demangle.h"
#include "names/TemplateArguments.h"
#include "tables/TopTableModel.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QAction>
#include <QMenuBar>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace qflame;

namespace {

using Rows = std::map<std::string, std::pair<int64_t, int64_t>>;   // name -> flat, cum

Rows flatCum(const std::shared_ptr<const Profile> &p, size_t type)
{
    Rows out;
    const auto t = FlatTable::compute({p}, type, BuildOptions{});
    for (size_t i = 0; i < t->rows().size(); ++i)
        out[std::string(t->label(i))] = {t->rows()[i].flat, t->rows()[i].cum};
    return out;
}

QString run(const QStringList &args, const QString &dir, int *exitCode)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(QStringLiteral(QFLAME_BINARY), args);
    p.waitForFinished(60000);
    *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAllStandardOutput());
}

// Readable names as perf script, speedscope or a symbolized pprof give them.
const char kFolded[] = "main;std::vector<int, std::allocator<int> >::size() const 3\n"
                       "main;std::vector<double, std::allocator<double> >::size() const 4\n"
                       "main;std::vector<int, std::allocator<int> >::push_back(int const&) 2\n";

// The top table's rows as shown: "flat name" per row, in the table's order.
QStringList shownRows(ProfilePane *pane)
{
    QStringList rows;
    QAbstractItemModel *m = pane->topTable()->model();
    for (int r = 0; r < m->rowCount(); ++r)
        rows << m->index(r, TopTableModel::Flat).data(TopTableModel::SortRole).toString() + QLatin1Char(' ') +
                    m->index(r, TopTableModel::Name).data().toString();
    return rows;
}

}   // namespace

class tst_TemplateCollapse : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void rewrites_data();
    void rewrites();
    void simpleModeStripsOperatorTemplates();
    void mergesWithExactValues();
    void afterDemangling();
    void cliOption();
    void viewToggle();
};

void tst_TemplateCollapse::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("qflame-test"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_templatecollapse"));
}

void tst_TemplateCollapse::rewrites_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("collapsed");
    QTest::newRow("class template member")
        << "std::vector<int, std::allocator<int> >::push_back(int const&)" << "std::vector<>::push_back(int const&)";
    QTest::newRow("nested, C++11 >>") << "a<b<c>>::d<e>" << "a<>::d<>";
    QTest::newRow("in parameters and return type")
        << "int work::accumulate<int>(std::vector<int, std::allocator<int> > const&, int)"
        << "int work::accumulate<>(std::vector<> const&, int)";
    QTest::newRow("operator<") << "A::operator<(A const&) const" << "A::operator<(A const&) const";
    QTest::newRow("operator<<") << "A::operator<<(int)" << "A::operator<<(int)";
    QTest::newRow("operator<< with its own template arguments")
        << "std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >"
           "(std::basic_ostream<char, std::char_traits<char> >&, char const*)"
        << "std::basic_ostream<>& std::operator<< <>(std::basic_ostream<>&, char const*)";
    QTest::newRow("operator< template") << "bool operator< <long>(A<long> const&, A<long> const&)"
                                        << "bool operator< <>(A<> const&, A<> const&)";
    QTest::newRow("operator<=>") << "std::strong_ordering operator<=>(Version const&, Version const&)"
                                 << "std::strong_ordering operator<=>(Version const&, Version const&)";
    QTest::newRow("operator->") << "Box<int>::operator->()" << "Box<>::operator->()";
    QTest::newRow("operator>>=") << "x::operator>>=(int)" << "x::operator>>=(int)";
    QTest::newRow("operator() of a generic lambda") << "auto main::{lambda(auto:1)#1}::operator()<int>(int) const"
                                                    << "auto main::{lambda(auto:1)#1}::operator()<>(int) const";
    QTest::newRow("operator[]") << "std::map<int, int>::operator[](int const&)" << "std::map<>::operator[](int const&)";
    QTest::newRow("conversion operator") << "A::operator std::vector<int, std::allocator<int> >() const"
                                         << "A::operator std::vector<>() const";
    QTest::newRow("an identifier that starts with operator") << "operators<int>" << "operators<>";
    QTest::newRow("lambda") << "main::{lambda(int)#1}::operator()(int) const" << "main::{lambda(int)#1}::operator()(int) const";
    QTest::newRow("lambda as a template argument")
        << "void std::__invoke_impl<void, main::{lambda(int)#1}>(std::__invoke_other, main::{lambda(int)#1}&&)"
        << "void std::__invoke_impl<>(std::__invoke_other, main::{lambda(int)#1}&&)";
    QTest::newRow("function type argument") << "std::function<void (int)>::operator()(int) const"
                                            << "std::function<>::operator()(int) const";
    QTest::newRow("Rust <T as Trait>") << "<T as Trait>::f" << "<T as Trait>::f";
    QTest::newRow("Rust impl path") << "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"
                                    << "<alloc::vec::Vec<> as core::ops::drop::Drop>::drop";
    QTest::newRow("Rust turbofish") << "core::ptr::drop_in_place::<alloc::string::String>" << "core::ptr::drop_in_place::<>";
    QTest::newRow("Rust fn type: -> closes nothing") << "f<Box<dyn Fn() -> u8>>" << "f<>";
    QTest::newRow("Java constructor") << "com.example.Foo.<init>" << "com.example.Foo.<init>";
    QTest::newRow("Go generics") << "main.Map[go.shape.int]" << "main.Map[go.shape.int]";
    QTest::newRow("unknown") << "<unknown>" << "<unknown>";
    QTest::newRow("unbalanced") << "unbalanced<x" << "unbalanced<x";
    QTest::newRow("no template") << "(anonymous namespace)::run() const" << "(anonymous namespace)::run() const";
}

void tst_TemplateCollapse::rewrites()
{
    QFETCH(QString, name);
    QFETCH(QString, collapsed);
    const std::string n = name.toStdString();
    QCOMPARE(QString::fromStdString(collapseTemplateArguments(n)), collapsed);
    // Collapsing twice changes nothing more.
    QCOMPARE(QString::fromStdString(collapseTemplateArguments(collapseTemplateArguments(n))), collapsed);
    // Dropping the lists (simple mode's step) leaves what collapsing leaves, without the "<>".
    QCOMPARE(QString::fromStdString(withoutTemplateArguments(n)),
             QString::fromStdString(withoutTemplateArguments(collapsed.toStdString())));
}

void tst_TemplateCollapse::simpleModeStripsOperatorTemplates()
{
    QCOMPARE(QString::fromStdString(withoutTemplateArguments("auto main::{lambda(auto:1)#1}::operator()<int>(int) const")),
             QStringLiteral("auto main::{lambda(auto:1)#1}::operator()(int) const"));
    QCOMPARE(QString::fromStdString(withoutTemplateArguments("A::operator< <long>")), QStringLiteral("A::operator<"));
    QCOMPARE(QString::fromStdString(withoutTemplateArguments("core::ptr::drop_in_place::<alloc::string::String>")),
             QStringLiteral("core::ptr::drop_in_place"));
}

// Six stacks, two sample types; before and after, flat and cum per function computed by hand.
void tst_TemplateCollapse::mergesWithExactValues()
{
    StackProfileBuilder b({{"samples", "count"}, {"cpu", "nanoseconds"}});
    const char *sizeInt = "std::vector<int, std::allocator<int> >::size() const";
    const char *sizeDouble = "std::vector<double, std::allocator<double> >::size() const";
    b.addStack({"main", sizeInt}, {3, 3000000000003});
    b.addStack({"main", sizeDouble}, {4, 4000000000004});
    b.addStack({"main", "work<int>", sizeInt}, {5, 5000000000005});
    b.addStack({"main", "work<double>", "work<int>"}, {6, 6000000000006});   // becomes a recursion of work<>
    b.addStack({"main", "A::operator<(A const&) const"}, {7, 7000000000007});
    b.addStack({"main", "A::operator<<(int)"}, {8, 8000000000008});
    const auto p = b.build("stacks");

    const Rows before = {{"main", {0, 33}},
                         {sizeInt, {8, 8}},
                         {sizeDouble, {4, 4}},
                         {"work<int>", {6, 11}},
                         {"work<double>", {0, 6}},
                         {"A::operator<(A const&) const", {7, 7}},
                         {"A::operator<<(int)", {8, 8}}};
    QVERIFY(flatCum(p, 0) == before);
    // size: 3 + 4 + 5; work<>: flat 6, cum 5 + 6 (the sample where it calls itself counts once).
    const auto c = collapseTemplates(p);
    const Rows after = {{"main", {0, 33}},
                        {"std::vector<>::size() const", {12, 12}},
                        {"work<>", {6, 11}},
                        {"A::operator<(A const&) const", {7, 7}},
                        {"A::operator<<(int)", {8, 8}}};
    QVERIFY(flatCum(c, 0) == after);
    Rows nanos = after;
    for (auto &[name, v] : nanos)
        v = {v.first * 1000000000001, v.second * 1000000000001};   // each stack's cpu is its count times that
    QVERIFY(flatCum(c, 1) == nanos);
    QCOMPARE(c->total(1), p->total(1));
    QCOMPARE(c->sampleCount(), p->sampleCount());
    // One frame in the tree: main's children are size<> (3 + 4), work<> (5 + 6), operator<, operator<<.
    const auto tree = CallTreeBuilder::build({c}, 0, BuildOptions{});
    std::map<std::string, int64_t> children;
    QCOMPARE(tree->childCount(CallTree::kRoot), 1u);
    const NodeId mainNode = tree->firstChild(CallTree::kRoot);
    for (NodeId k = tree->firstChild(mainNode); k < tree->firstChild(mainNode) + tree->childCount(mainNode); ++k)
        children[tree->label(k)] = tree->total(k);
    const std::map<std::string, int64_t> expected = {
        {"std::vector<>::size() const", 7}, {"work<>", 11}, {"A::operator<(A const&) const", 7}, {"A::operator<<(int)", 8}};
    QVERIFY(children == expected);
    // Nothing to collapse: the same profile.
    StackProfileBuilder plain(std::vector<StackProfileBuilder::SampleType>{{"samples", "count"}});
    plain.addStack({"main", "run"}, {1});
    const auto q = plain.build("plain");
    QCOMPARE(collapseTemplates(q).get(), q.get());
}

// Through the front door: demangled first, then collapsed, for names that arrive mangled and readable alike.
void tst_TemplateCollapse::afterDemangling()
{
    const std::string folded = "main;_ZN4work10accumulateIiEET_RKSt6vectorIS1_SaIS1_EEi 3\n"
                               "main;_ZN4work10accumulateIdEET_RKSt6vectorIS1_SaIS1_EEi 4\n"
                               "main;work::accumulate<float> 5\n";
    ReadOptions o;
    o.demangle = DemangleMode::Templates;
    const Rows templates = {{"main", {0, 12}}, {"work::accumulate<int>", {3, 3}}, {"work::accumulate<double>", {4, 4}},
                            {"work::accumulate<float>", {5, 5}}};
    QVERIFY(flatCum(readProfile(folded, "m.folded", o), 0) == templates);
    o.collapseTemplates = true;
    const Rows collapsed = {{"main", {0, 12}}, {"work::accumulate<>", {12, 12}}};
    QVERIFY(flatCum(readProfile(folded, "m.folded", o), 0) == collapsed);
    // Full keeps the return types, which differ: the three stay apart, each with its own value.
    o.demangle = DemangleMode::Full;
    const Rows full = {{"main", {0, 12}},
                       {"int work::accumulate<>(std::vector<> const&, int)", {3, 3}},
                       {"double work::accumulate<>(std::vector<> const&, int)", {4, 4}},
                       {"work::accumulate<>", {5, 5}}};
    QVERIFY(flatCum(readProfile(folded, "m.folded", o), 0) == full);
    // Simple has no template arguments left in what was mangled; the readable name is collapsed.
    o.demangle = DemangleMode::Simple;
    const Rows simple = {{"main", {0, 12}}, {"work::accumulate", {7, 7}}, {"work::accumulate<>", {5, 5}}};
    QVERIFY(flatCum(readProfile(folded, "m.folded", o), 0) == simple);
}

void tst_TemplateCollapse::cliOption()
{
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("m.folded")));
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(kFolded) > 0);
    f.close();
    QFile n(dir.filePath(QStringLiteral("n.folded")));
    QVERIFY(n.open(QIODevice::WriteOnly) && n.write("main;std::vector<float, std::allocator<float> >::size() const 10\n") > 0);
    n.close();
    int code = 0;
    QCOMPARE(run({"top", "--tsv", "m.folded"}, dir.path(), &code),
             QStringLiteral("4\t4\tstd::vector<double, std::allocator<double> >::size() const\n"
                            "3\t3\tstd::vector<int, std::allocator<int> >::size() const\n"
                            "2\t2\tstd::vector<int, std::allocator<int> >::push_back(int const&)\n"
                            "0\t9\tmain\n"));
    QCOMPARE(code, 0);
    QCOMPARE(run({"top", "--tsv", "--collapse-templates", "m.folded"}, dir.path(), &code),
             QStringLiteral("7\t7\tstd::vector<>::size() const\n"
                            "2\t2\tstd::vector<>::push_back(int const&)\n"
                            "0\t9\tmain\n"));
    QCOMPARE(code, 0);
    // diff: both sides collapsed, so size<> is one row: 7 before, 10 after.
    const QStringList diff = run({"diff", "m.folded", "n.folded", "--tsv", "--collapse-templates"}, dir.path(), &code)
                                 .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(code, 0);
    QStringList cut;
    for (const QString &row : diff) {
        const QStringList c = row.split(QLatin1Char('\t'));
        cut << (c.mid(0, 6) + c.mid(7)).join(QLatin1Char(' '));   // without the noise class
    }
    QCOMPARE(cut, QStringList({"7 10 3 7 10 3 std::vector<>::size() const",   // by |delta_cum|
                               "2 0 -2 2 0 -2 std::vector<>::push_back(int const&)", "0 0 0 9 10 1 main"}));
    // convert: the folded stacks written with the collapsed names.
    QCOMPARE(run({"convert", "m.folded", "--to", "folded", "--collapse-templates"}, dir.path(), &code),
             QStringLiteral("main;std::vector<>::push_back(int const&) 2\nmain;std::vector<>::size() const 7\n"));
    QCOMPARE(code, 0);
    QVERIFY(run({"--help"}, dir.path(), &code).contains(QLatin1String("--collapse-templates")));
}

void tst_TemplateCollapse::viewToggle()
{
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("m.folded")));
    QVERIFY(f.open(QIODevice::WriteOnly) && f.write(kFolded) > 0);
    f.close();
    MainWindow w;
    QSignalSpy loads(&w, &MainWindow::loadFinished);
    w.openFiles({f.fileName()});
    QVERIFY(loads.wait(30000));
    auto *pane = qobject_cast<ProfilePane *>(w.tabs()->currentWidget());
    QVERIFY(pane);
    QTRY_COMPARE(pane->topTable()->model()->rowCount(), 4);
    const QStringList before = {"4 std::vector<double, std::allocator<double> >::size() const",
                                "3 std::vector<int, std::allocator<int> >::size() const",
                                "2 std::vector<int, std::allocator<int> >::push_back(int const&)", "0 main"};
    QCOMPARE(shownRows(pane), before);

    QAction *toggle = w.findChild<QAction *>(QStringLiteral("collapseTemplates"));
    QVERIFY(toggle && toggle->isCheckable() && !toggle->isChecked());
    bool inViewMenu = false;
    for (QAction *menu : w.menuBar()->actions())
        if (menu->menu() && menu->text().remove(QLatin1Char('&')) == QLatin1String("View"))
            inViewMenu = menu->menu()->actions().contains(toggle);
    QVERIFY(inViewMenu);
    loads.clear();
    toggle->trigger();
    QVERIFY(loads.wait(30000));
    QCOMPARE(w.tabs()->count(), 1);
    QCOMPARE(w.tabs()->currentWidget(), pane);   // the same tab, read again
    QTRY_COMPARE(pane->topTable()->model()->rowCount(), 3);
    QCOMPARE(shownRows(pane), QStringList({"7 std::vector<>::size() const", "2 std::vector<>::push_back(int const&)", "0 main"}));
    QVERIFY(DocumentPane::nameOptions().collapseTemplates);
    loads.clear();
    toggle->trigger();
    QVERIFY(loads.wait(30000));
    QTRY_COMPARE(pane->topTable()->model()->rowCount(), 4);
    QCOMPARE(shownRows(pane), before);
}

QTEST_MAIN(tst_TemplateCollapse)
#include "tst_templatecollapse.moc"
