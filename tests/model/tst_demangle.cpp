// Demangling: `full` equals binutils' c++filt run here on the names of a program built here and on hand-picked
// C++, Rust legacy and Rust v0 names (and, for C++, libstdc++'s abi::__cxa_demangle); templates and simple give
// the exact names below; readable names are never changed; frames whose names become equal merge with their
// values summed exactly; and the CLI's --demangle.
#include "PerfTestProgram.h"
#include "RunProgram.h"
#include "formats/ProfileInput.h"
#include "formats/StackProfile.h"
#include "names/Demangle.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cxxabi.h>

#include <cstdlib>
#include <map>

using namespace qflame;
using qflame::test::runProgram;

namespace {

QString demangled(const char *name, DemangleMode mode)
{
    const auto d = demangledName(name, mode);
    return d ? QString::fromStdString(*d) : QStringLiteral("<unchanged>");
}

const QStringList &handPicked()
{
    static const QStringList names = {
        "_ZNKSt6vectorIiSaIiEE4sizeEv",
        "_ZN4work10accumulateIiEET_RKSt6vectorIS1_SaIS1_EEi",
        "_ZNSs4sizeEv",
        "_ZZ4mainENKUlvE_clEv",
        "_ZN12_GLOBAL__N_14implEv",
        "_ZN1AlsEi",
        "_ZNK1AltIlEEbT_",
        "_ZN3BoxIiEptEv",
        "_Z4leafl.cold",
        "_ZN3foo3bar17h05af221e174051e9E",
        "_ZN66_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h5a8ae0f7cf2a3c4fE",
        "_RNvCs1234_7mycrate3foo",
        "_RINvNtCs1dLR3qWKZjv_4core3ptr13drop_in_placeNtNtCsgs3DhkNWLFl_5alloc6string6StringEB6_",
    };
    return names;
}

}   // namespace

class tst_Demangle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fullIsCxxfilt();
    void modes_data();
    void modes();
    void readableNamesStay();
    void framesMergeWithExactValues();
    void onlyTablesWithAMangledString();
    void cliOption();
};

void tst_Demangle::fullIsCxxfilt()
{
    const QString cxxfilt = QStandardPaths::findExecutable(QStringLiteral("c++filt"));
    const QString gxx = QStandardPaths::findExecutable(QStringLiteral("g++"));
    const QString nm = QStandardPaths::findExecutable(QStringLiteral("nm"));
    if (cxxfilt.isEmpty() || gxx.isEmpty() || nm.isEmpty())
        QSKIP("c++filt, nm (binutils) or g++ is not installed");
    QTemporaryDir dir;
    QVERIFY(qflame::test::writePerfProgram(dir.path()));
    int code = 0;
    QString errors;
    runProgram(gxx, {"-O1", "-fno-omit-frame-pointer", "-o", "prog", "prog.cpp"}, dir.path(), &code, &errors);
    QVERIFY2(code == 0, qPrintable(errors));
    QStringList names;
    for (const QString &line : runProgram(nm, {"--defined-only", "prog"}, dir.path(), &code).split(QLatin1Char('\n'))) {
        const QString symbol = line.section(QLatin1Char(' '), -1);
        if (symbol.startsWith(QLatin1String("_Z")))
            names << symbol;
    }
    QCOMPARE(code, 0);
    QVERIFY2(names.size() >= 5, qPrintable(names.join(QLatin1Char(' '))));
    const int fromProgram = int(names.size());
    names << handPicked();
    const QStringList filtered =
        runProgram(cxxfilt, {}, dir.path(), &code, nullptr, (names.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8()).split(QLatin1Char('\n'));
    QCOMPARE(code, 0);
    QVERIFY(filtered.mid(0, fromProgram).contains(QStringLiteral("work::Mixer::mix(long, int) const")));
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QByteArray name = names[i].toUtf8();
        QCOMPARE(demangled(name.constData(), DemangleMode::Full), filtered[i]);
        // For C++ names the C++ runtime's demangler agrees (it is the same code; it knows no Rust), except where
        // c++filt spells out the standard abbreviations (below): why full is libiberty's, not __cxa_demangle's.
        if (name.startsWith("_Z") && !name.contains("17h") && name != "_ZNSs4sizeEv") {
            int status = 0;
            char *cxa = abi::__cxa_demangle(name.constData(), nullptr, nullptr, &status);
            QVERIFY2(cxa, name.constData());
            QCOMPARE(QString::fromUtf8(cxa), filtered[i]);
            std::free(cxa);
        }
    }
    int status = 0;
    char *cxa = abi::__cxa_demangle("_ZNSs4sizeEv", nullptr, nullptr, &status);
    QCOMPARE(QString::fromUtf8(cxa), QStringLiteral("std::string::size()"));
    std::free(cxa);
    QCOMPARE(demangled("_ZNSs4sizeEv", DemangleMode::Full),
             QStringLiteral("std::basic_string<char, std::char_traits<char>, std::allocator<char> >::size()"));
}

void tst_Demangle::modes_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("templates");
    QTest::addColumn<QString>("simple");
    const QStringList &n = handPicked();
    QTest::newRow("member of a class template") << n[0] << "std::vector<int, std::allocator<int> >::size" << "std::vector::size";
    QTest::newRow("function template") << n[1] << "work::accumulate<int>" << "work::accumulate";
    QTest::newRow("std::string abbreviated") << n[2] << "std::string::size" << "std::string::size";
    QTest::newRow("lambda") << n[3] << "main::{lambda()#1}::operator()" << "main::{lambda()#1}::operator()";
    QTest::newRow("anonymous namespace") << n[4] << "(anonymous namespace)::impl" << "(anonymous namespace)::impl";
    QTest::newRow("operator<<") << n[5] << "A::operator<<" << "A::operator<<";
    QTest::newRow("operator< template") << n[6] << "A::operator< <long>" << "A::operator<";
    QTest::newRow("operator->") << n[7] << "Box<int>::operator->" << "Box::operator->";
    QTest::newRow("clone suffix") << n[8] << "leaf" << "leaf";
    QTest::newRow("Rust legacy: the hash goes") << n[9] << "foo::bar" << "foo::bar";
    QTest::newRow("Rust legacy impl path") << n[10] << "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"
                                           << "<alloc::vec::Vec as core::ops::drop::Drop>::drop";
    QTest::newRow("Rust v0") << n[11] << "mycrate::foo" << "mycrate::foo";
    QTest::newRow("Rust v0 generics") << n[12] << "core::ptr::drop_in_place::<alloc::string::String>"
                                      << "core::ptr::drop_in_place";
}

void tst_Demangle::modes()
{
    QFETCH(QString, name);
    QFETCH(QString, templates);
    QFETCH(QString, simple);
    const QByteArray n = name.toUtf8();
    QCOMPARE(demangled(n.constData(), DemangleMode::Templates), templates);
    QCOMPARE(demangled(n.constData(), DemangleMode::Simple), simple);
    QCOMPARE(demangled(n.constData(), DemangleMode::None), QStringLiteral("<unchanged>"));
}

void tst_Demangle::readableNamesStay()
{
    for (const char *name : {"main", "std::vector<int>::size() const", "runtime.mallocgc", "_start", "[unknown]",
                             "_Znot_really_mangled", "_R"})
        for (DemangleMode m : {DemangleMode::Simple, DemangleMode::Templates, DemangleMode::Full})
            QCOMPARE(demangled(name, m), QStringLiteral("<unchanged>"));
    QCOMPARE(QString::fromStdString(withoutTemplateArguments("a<b<c>>::d<e>")), QStringLiteral("a::d"));
    QCOMPARE(QString::fromStdString(withoutTemplateArguments("f<Box<dyn Fn() -> u8>>")), QStringLiteral("f"));
    QCOMPARE(QString::fromStdString(withoutTemplateArguments("unbalanced<x")), QStringLiteral("unbalanced<x"));
    for (const char *m : {"none", "simple", "templates", "full"})
        QCOMPARE(demangleModeName(*parseDemangleMode(m)), m);
    QVERIFY(!parseDemangleMode("pretty"));
}

void tst_Demangle::framesMergeWithExactValues()
{
    StackProfileBuilder b({{"samples", "count"}, {"cpu", "nanoseconds"}});
    b.addStack({"main", "_ZN4work10accumulateIiEET_RKSt6vectorIS1_SaIS1_EEi"}, {3, 3000000000000});
    b.addStack({"main", "_ZN4work10accumulateIdEET_RKSt6vectorIS1_SaIS1_EEi"}, {4, 4000000000001});
    b.addStack({"main", "_Z4leafl"}, {5, 5});
    b.addStack({"main", "leaf"}, {6, 6});   // already readable: "leaf" in simple mode is the same frame
    const auto p = b.build("stacks");
    QCOMPARE(demangleProfile(p, DemangleMode::None).get(), p.get());
    auto rows = [](const std::shared_ptr<const Profile> &q) {
        std::map<std::string, std::pair<int64_t, int64_t>> out;
        const auto t = FlatTable::compute({q}, 1, BuildOptions{});
        for (size_t i = 0; i < t->rows().size(); ++i)
            out[std::string(t->label(i))] = {t->rows()[i].flat, t->rows()[i].cum};
        return out;
    };
    const auto simple = demangleProfile(p, DemangleMode::Simple);
    const std::map<std::string, std::pair<int64_t, int64_t>> simpleRows = {
        {"main", {0, 7000000000012}}, {"work::accumulate", {7000000000001, 7000000000001}}, {"leaf", {11, 11}}};
    QVERIFY(rows(simple) == simpleRows);
    QCOMPARE(simple->total(1), p->total(1));
    QCOMPARE(simple->sampleCount(), p->sampleCount());
    // The system name stays the mangled one, as in pprof.
    for (const Function &f : simple->functions)
        if (simple->str(f.name) == "work::accumulate")
            QVERIFY(simple->str(f.systemName).substr(0, 4) == "_ZN4");
    const auto full = rows(demangleProfile(p, DemangleMode::Full));
    QCOMPARE(full.at("int work::accumulate<int>(std::vector<int, std::allocator<int> > const&, int)").first, int64_t(3000000000000));
    QCOMPARE(full.at("leaf(long)").first, int64_t(5));
    QCOMPARE(full.at("leaf").first, int64_t(6));
}

// A profile with no mangled string comes back as it is, without a look at its functions; one whose only mangled
// string is the table's last is demangled all the same.
void tst_Demangle::onlyTablesWithAMangledString()
{
    StackProfileBuilder readable(std::vector<StackProfileBuilder::SampleType>{{"samples", "count"}});
    readable.addStack({"main", "_start", "_R"}, {2});
    readable.addStack({"main", "leaf"}, {3});
    readable.addStack({"main", "a_Z4leafl", "_", "Z4leafl"}, {1});   // "_Z" inside a name, and across two
    const auto p = readable.build("stacks");
    const std::string_view chars = p->strings.chars();
    QVERIFY(chars.find("a_Z4leafl") != std::string_view::npos && chars.find("_Z4leafl") != std::string_view::npos);
    for (DemangleMode m : {DemangleMode::Simple, DemangleMode::Templates, DemangleMode::Full})
        QCOMPARE(demangleProfile(p, m).get(), p.get());

    StackProfileBuilder lastMangled(std::vector<StackProfileBuilder::SampleType>{{"samples", "count"}});
    lastMangled.addStack({"main", "leaf"}, {3});
    lastMangled.addStack({"main", "_Z4leafl"}, {4});
    const auto q = lastMangled.build("stacks");
    QCOMPARE(std::string(q->strings[q->strings.size() - 1]), std::string("_Z4leafl"));
    const auto simple = demangleProfile(q, DemangleMode::Simple);
    QVERIFY(simple.get() != q.get());
    const auto t = FlatTable::compute({simple}, 0, BuildOptions{});
    QCOMPARE(t->rows().size(), size_t(2));
    QCOMPARE(std::string(t->label(0)), std::string("leaf"));
    QCOMPARE(t->rows()[0].flat, int64_t(7));
    QCOMPARE(std::string(t->label(1)), std::string("main"));
    QCOMPARE(t->rows()[1].cum, int64_t(7));
}

void tst_Demangle::cliOption()
{
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("m.folded")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("main;_ZN4work10accumulateIiEET_RKSt6vectorIS1_SaIS1_EEi 3\nmain;_ZN4work10accumulateIdEET_RKSt6vectorIS1_SaIS1_EEi 4\n");
    f.close();
    int code = 0;
    const QString bin = QStringLiteral(QFLAME_BINARY);
    QCOMPARE(runProgram(bin, {"top", "--tsv", "m.folded"}, dir.path(), &code), QStringLiteral("7\t7\twork::accumulate\n0\t7\tmain\n"));
    QCOMPARE(code, 0);
    QCOMPARE(runProgram(bin, {"top", "m.folded", "--tsv", "--demangle=templates"}, dir.path(), &code),
             QStringLiteral("4\t4\twork::accumulate<double>\n3\t3\twork::accumulate<int>\n0\t7\tmain\n"));
    QCOMPARE(runProgram(bin, {"top", "--tsv", "m.folded", "--demangle", "none"}, dir.path(), &code).section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("4\t4\t_ZN4work10accumulateIdEET_RKSt6vectorIS1_SaIS1_EEi"));
    QString errors;
    runProgram(bin, {"top", "m.folded", "--demangle", "pretty"}, dir.path(), &code, &errors);
    QCOMPARE(code, 1);
    QVERIFY2(errors.contains(QLatin1String("--demangle must be none, simple, templates or full, not 'pretty'")), qPrintable(errors));
}

QTEST_GUILESS_MAIN(tst_Demangle)
#include "tst_demangle.moc"
