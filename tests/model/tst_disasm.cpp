// The cost of every instruction (model/disasm) and `qflame disasm` / `diff --disasm`: a Go program built here with
// and without inlining, profiled, whose per-instruction flat and cum must be go tool pprof -disasm's exactly; a C++
// program recorded with perf, whose per-instruction counts are the perf script addresses counted here; the errors
// (missing binary, another build id, stripped) one line and exit 2; and the diff of two builds, whose groups sum to
// each side's disasm; its text per instruction where the code is the same and its calls that became inlined.
#include "GoToolchain.h"
#include "PerfTestProgram.h"
#include "PgoTestSupport.h"
#include "RunProgram.h"
#include "disasm/DisasmDiff.h"
#include "disasm/Objdump.h"
#include "report/ListingColumns.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <set>

using namespace qflame;
using qflame::test::runProgram;
using namespace qflame::pgotest;

namespace {

struct Cost {
    int64_t flat = 0, cum = 0;
    bool operator==(const Cost &) const = default;
};
using Costs = std::map<uint64_t, Cost>;   // by address

// go tool pprof -disasm's rows: flat, cum ("." for 0, a unit suffix dropped), address; `undecoded` gets the
// addresses of its "?" rows (bytes Go's decoder could not read).
Costs pprofDisasm(const QByteArray &text, const char *unit, std::set<uint64_t> *undecoded = nullptr)
{
    Costs out;
    static const QRegularExpression row(QStringLiteral(R"(^\s*(\S+)\s+(\S+)\s+([0-9a-f]+): (\S+))"));
    auto value = [unit](QString s) {
        if (s == QLatin1String("."))
            return int64_t(0);
        if (s.endsWith(QLatin1String(unit)))
            s.chop(int(qstrlen(unit)));
        bool ok = false;
        const int64_t v = s.toLongLong(&ok);
        if (!ok)
            qFatal("not an exact value: %s", qPrintable(s));
        return v;
    };
    for (const QByteArray &line : text.split('\n')) {
        const auto m = row.match(QString::fromUtf8(line));
        if (m.hasMatch() && !line.startsWith("ROUTINE"))
        {
            out[m.captured(3).toULongLong(nullptr, 16)] = {value(m.captured(1)), value(m.captured(2))};
            if (undecoded && m.captured(4) == QLatin1String("?"))
                undecoded->insert(m.captured(3).toULongLong(nullptr, 16));
        }
    }
    return out;
}

// qflame disasm --tsv: function, address, flat, cum, file:line, instruction.
Costs qflameDisasm(const QByteArray &tsv, QMap<QByteArray, Cost> *byLine = nullptr)
{
    Costs out;
    for (const QByteArray &line : tsv.split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() != 6)
            continue;
        const Cost c{f[2].toLongLong(), f[3].toLongLong()};
        out[f[1].toULongLong(nullptr, 16)] = c;
        if (byLine) {   // by the file's base name and line: two builds' groups match so
            const QByteArray key = f[4].mid(f[4].lastIndexOf('/') + 1);
            (*byLine)[key].flat += c.flat;
            (*byLine)[key].cum += c.cum;
        }
    }
    return out;
}

}   // namespace

class tst_Disasm : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void parsesObjdump();
    void goEqualsPprof_data();
    void goEqualsPprof();
    void perfRecordCounted();
    void errors();
    void diffOfTwoBuilds();
    void diffTextPerInstruction();

private:
    QTemporaryDir m_dir;
    QString m_go;
    // The Go program built inlined ("inl") and with -gcflags=-l ("noinl"), each profiled: binary and profile.
    QMap<QString, QString> m_binary, m_profile;
    bool buildGo(const QString &name, const QStringList &flags);
};

bool tst_Disasm::buildGo(const QString &name, const QStringList &flags)
{
    const QString src = m_dir.filePath(name);
    QDir().mkpath(src);
    QFile::copy(QStringLiteral(QFLAME_TEST_DATA "/pgo-inlining/main.go"), src + "/main.go");
    const Run build = runGo(m_go, QStringList{QStringLiteral("build")} + flags +
                                      QStringList{QStringLiteral("-o"), QStringLiteral("prog"), QStringLiteral("main.go")},
                            src);
    if (build.code != 0) {
        qWarning("%s", build.err.constData());
        return false;
    }
    QProcess run;
    run.setWorkingDirectory(src);
    run.start(src + "/prog", {QStringLiteral("-o"), src + "/cpu.pprof", QStringLiteral("-s"), QStringLiteral("1.5")});
    if (!run.waitForFinished(60000) || run.exitCode() != 0)
        return false;
    m_binary[name] = src + "/prog";
    m_profile[name] = src + "/cpu.pprof";
    return true;
}

void tst_Disasm::initTestCase()
{
    m_go = goBinary();
    if (m_go.isEmpty())
        return;   // the Go tests skip (or fail on CI) through REQUIRE_GO
    QVERIFY(buildGo(QStringLiteral("inl"), {}));
    QVERIFY(buildGo(QStringLiteral("noinl"), {QStringLiteral("-gcflags=-l")}));
}

void tst_Disasm::parsesObjdump()
{
    // objdump -d -l -C --no-show-raw-insn's layout: the symbol, the function of the line table, file:line (with a
    // discriminator), instructions; an inlined function's lines named after it.
    const QByteArray text = "\nprog:     file format elf64-x86-64\n\n\nDisassembly of section .text:\n\n"
                            "00000000004b2120 <main.spin>:\nmain.spin():\n/src/main.go:22\n"
                            "  4b2120:\tcmp    0x10(%r14),%rsp\n  4b2124:\tjbe    4b21ca <main.spin+0xaa>\n"
                            "main.mix():\n/src/main.go:15 (discriminator 2)\n  4b2193:\tshr    $0x21,%rbx\n"
                            "main.spin():\n/src/main.go:26\n  4b21b2:\tadd    %rdi,%rdx\n";
    const std::vector<Instruction> in = parseObjdump(text);
    QCOMPARE(in.size(), size_t(4));
    QCOMPARE(in[0].address, uint64_t(0x4b2120));
    QCOMPARE(in[0].text, std::string("cmp 0x10(%r14),%rsp"));
    QCOMPARE(in[0].function, std::string("main.spin"));
    QCOMPARE(in[1].line, int64_t(22));
    QCOMPARE(in[1].text, std::string("jbe 4b21ca <main.spin+0xaa>"));
    QCOMPARE(in[2].function, std::string("main.mix"));
    QCOMPARE(in[2].file, std::string("/src/main.go"));
    QCOMPARE(in[2].line, int64_t(15));
    QCOMPARE(in[3].function, std::string("main.spin"));
    QCOMPARE(in[3].line, int64_t(26));
}

void tst_Disasm::goEqualsPprof_data()
{
    QTest::addColumn<QString>("build");
    QTest::addColumn<QString>("regex");
    QTest::newRow("inlined, main.spin") << "inl" << "main\\.spin";
    QTest::newRow("inlined, main\\.") << "inl" << "main\\.";
    QTest::newRow("-gcflags=-l, main.spin") << "noinl" << "main\\.spin";
    QTest::newRow("-gcflags=-l, main\\. (mix a routine of its own)") << "noinl" << "main\\.";
}

void tst_Disasm::goEqualsPprof()
{
    REQUIRE_GO(go);
    QFETCH(QString, build);
    QFETCH(QString, regex);
    const QString profile = m_profile.value(build);
    QVERIFY(!profile.isEmpty());
    // Both sample types: counts (integers as pprof prints them) and nanoseconds (-unit=ns: exact).
    for (const auto &[pprofOption, sample, unit] :
         {std::tuple{"-sample_index=samples", "samples", ""}, std::tuple{"-unit=ns", "cpu", "ns"}}) {
        const Run pp = runGo(go, {QStringLiteral("tool"), QStringLiteral("pprof"), QLatin1String(pprofOption),
                                  QStringLiteral("-disasm"), regex, profile},
                             m_dir.path());
        QVERIFY2(pp.code == 0, pp.err.constData());
        std::set<uint64_t> undecoded;
        const Costs expected = pprofDisasm(pp.out, unit, &undecoded);
        const Run qf = runQflame({QStringLiteral("disasm"), regex, profile, QStringLiteral("--sample"),
                                  QLatin1String(sample), QStringLiteral("--tsv")});
        QVERIFY2(qf.code == 0, qf.err.constData());
        const Costs got = qflameDisasm(qf.out);
        QVERIFY2(expected.size() > 20, pp.out.left(300).constData());
        // Go's decoder stops a byte short of a symbol's end (pprof asks for [start, start + size - 1]), so it
        // reads a routine's last instruction as "?" rows (and whatever the bytes after them decode to), or not at
        // all when it is one byte; objdump reads it whole. Every other instruction is the same address with the
        // same flat and cum on both sides; the rows of pprof's broken tail sum to qflame's last instruction.
        std::set<uint64_t> last;   // each routine's last instruction
        QByteArray function;
        uint64_t previous = 0;
        for (const QByteArray &line : qf.out.split('\n')) {
            const QList<QByteArray> f = line.split('\t');
            if (f.size() != 6)
                continue;
            if (!function.isEmpty() && f[0] != function)
                last.insert(previous);
            function = f[0], previous = f[1].toULongLong(nullptr, 16);
        }
        last.insert(previous);
        std::map<uint64_t, Cost> tails;   // by qflame's last instruction: pprof's rows from it on
        int64_t flat = 0, costed = 0;
        for (const auto &[address, cost] : expected) {
            auto it = got.upper_bound(address);
            QVERIFY(it != got.begin());
            --it;   // qflame's instruction at or before the row
            if (last.count(it->first)) {
                tails[it->first].flat += cost.flat, tails[it->first].cum += cost.cum;
                QVERIFY2(it->first == address || undecoded.count(it->first), qPrintable(QString::number(address, 16)));
                continue;
            }
            QVERIFY2(it->first == address, qPrintable(QString::number(address, 16)));
            if (!(it->second == cost))
                QFAIL(qPrintable(QStringLiteral("%1 (%2): qflame %3/%4, pprof %5/%6")
                                     .arg(QString::number(address, 16), QLatin1String(sample))
                                     .arg(it->second.flat).arg(it->second.cum).arg(cost.flat).arg(cost.cum)));
            flat += cost.flat;
            costed += cost.cum != 0;
        }
        for (uint64_t address : last) {   // a one-byte last instruction (a RET) is not in pprof's rows at all
            QCOMPARE(got.at(address).flat, tails[address].flat);
            QCOMPARE(got.at(address).cum, tails[address].cum);
        }
        for (const auto &[address, cost] : got)
            QVERIFY2(expected.count(address) || last.count(address), qPrintable(QString::number(address, 16)));
        QVERIFY(flat > 0);
        QVERIFY(costed >= 2);
    }
    // The text has pprof's ROUTINE header and the binary disassembled.
    const Run text = runQflame({QStringLiteral("disasm"), regex, profile});
    QCOMPARE(text.code, 0);
    QVERIFY(text.out.startsWith("Total: "));
    QVERIFY(text.out.contains("ROUTINE ======================== main.spin in " + m_binary.value(build).toUtf8()));
    // In Go's syntax: go tool objdump's text (the costs above were compared with it in place).
    QVERIFY(text.out.contains(": CMPQ 0x10(R14), SP"));
    QVERIFY(!text.out.contains(": cmp "));
}


void tst_Disasm::perfRecordCounted()
{
    const QString perf = QStandardPaths::findExecutable(QStringLiteral("perf"));
    const QString gxx = QStandardPaths::findExecutable(QStringLiteral("g++"));
    if (perf.isEmpty() || gxx.isEmpty())
        QSKIP("perf (linux-perf) or g++ is not installed");
    QTemporaryDir dir;
    QVERIFY(qflame::test::writePerfProgram(dir.path()));
    int code = 0;
    QString err;
    runProgram(gxx, {"-O1", "-g", "-fno-omit-frame-pointer", "-no-pie", "-o", "prog", "prog.cpp"}, dir.path(), &code, &err);
    QVERIFY2(code == 0, qPrintable(err));
    runProgram(perf, {"record", "--call-graph", "fp", "-F", "999", "-o", "perf.data", "./prog"}, dir.path(), &code, &err);
    if (code != 0)
        QSKIP(qPrintable(QStringLiteral("perf cannot record here: ") + err.left(200)));
    const QString script = runProgram(perf, {"script", "-i", "perf.data"}, dir.path(), &code);
    QCOMPARE(code, 0);
    QFile out(dir.filePath(QStringLiteral("perf.txt")));
    QVERIFY(out.open(QIODevice::WriteOnly) && out.write(script.toUtf8()) > 0);
    out.close();

    // leaf's range from nm, its instructions' addresses from objdump (boundaries only, no costs).
    const QString nm = runProgram(QStringLiteral("nm"), {"-S", "prog"}, dir.path(), &code);
    static const QRegularExpression sym(QStringLiteral(R"(^([0-9a-f]+) ([0-9a-f]+) T _Z4leafl$)"),
                                        QRegularExpression::MultilineOption);
    const auto m = sym.match(nm);
    QVERIFY(m.hasMatch());
    const uint64_t start = m.captured(1).toULongLong(nullptr, 16), end = start + m.captured(2).toULongLong(nullptr, 16);
    const QString dump = runProgram(QStringLiteral("objdump"),
                               {"-d", "--no-show-raw-insn", "--start-address=0x" + QString::number(start, 16),
                                "--stop-address=0x" + QString::number(end, 16), "prog"},
                               dir.path(), &code);
    std::vector<uint64_t> insns;
    static const QRegularExpression insn(QStringLiteral(R"(^\s+([0-9a-f]+):\t)"), QRegularExpression::MultilineOption);
    for (auto it = insn.globalMatch(dump); it.hasNext();)
        insns.push_back(it.next().captured(1).toULongLong(nullptr, 16));
    QVERIFY(insns.size() > 5);

    // perf script's records counted by hand: each distinct address of leaf in a record (perf's "leaf+0xOFF", at
    // start + OFF: perf prints the addresses of some systems as file offsets, its symbol offsets are the same
    // everywhere) adds 1 to the cum of the instruction at or before it, the first frame's to its flat.
    Costs expected;
    for (uint64_t a : insns)
        expected[a] = {};
    auto at = [&](uint64_t a) { return *(std::upper_bound(insns.begin(), insns.end(), a) - 1); };
    static const QRegularExpression frame(QStringLiteral(R"(^\s+[0-9a-f]+ (\S+?)(?:\+0x([0-9a-f]+))? \()"));
    int records = 0;
    for (const QString &record : script.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts)) {
        std::vector<uint64_t> addresses;   // leaf's, or 0 for another function's frame
        for (const QString &line : record.split(QLatin1Char('\n')).mid(1))
            if (const auto f = frame.match(line); f.hasMatch())
                addresses.push_back(f.captured(1) == QLatin1String("leaf") ? start + f.captured(2).toULongLong(nullptr, 16) : 0);
        if (addresses.empty())
            continue;
        ++records;
        const std::set<uint64_t> distinct(addresses.begin(), addresses.end());
        for (uint64_t a : distinct)
            if (a >= start && a + 1 < end)
                ++expected[at(a)].cum;
        if (addresses.front() >= start && addresses.front() + 1 < end)
            ++expected[at(addresses.front())].flat;
    }
    QVERIFY(records > 100);
    const Run qf = runQflame({QStringLiteral("disasm"), QStringLiteral("leaf"), dir.filePath(QStringLiteral("perf.txt")),
                              QStringLiteral("--sample"), QStringLiteral("samples"), QStringLiteral("--tsv")});
    QVERIFY2(qf.code == 0, qf.err.constData());
    const Costs got = qflameDisasm(qf.out);
    QCOMPARE(got.size(), expected.size());
    int64_t flat = 0;
    for (const auto &[address, cost] : expected) {
        QVERIFY(got.count(address));
        QCOMPARE(got.at(address).flat, cost.flat);
        QCOMPARE(got.at(address).cum, cost.cum);
        flat += cost.flat;
    }
    QVERIFY(flat > 10);
    // The source lines: objdump -l's, the program's file.
    QVERIFY(qf.out.contains("prog.cpp:"));
}

void tst_Disasm::errors()
{
    REQUIRE_GO(go);
    const QString binary = m_binary.value(QStringLiteral("inl"));
    QVERIFY(!binary.isEmpty());
    // The address of main.spin, for a hand-built profile whose mapping names a file and build id.
    const QString nm = QString::fromUtf8(runGo(go, {QStringLiteral("tool"), QStringLiteral("nm"), binary}, m_dir.path()).out);
    static const QRegularExpression spin(QStringLiteral(R"(^\s*([0-9a-f]+) T main\.spin$)"), QRegularExpression::MultilineOption);
    const auto m = spin.match(nm);
    QVERIFY(m.hasMatch());
    const uint64_t address = m.captured(1).toULongLong(nullptr, 16) + 8;
    auto profileFor = [&](const QString &file, const std::string &buildId, const QString &name) {
        Builder b;
        const uint64_t fn = b.function("main.spin", 21, "main.go");
        b.location(address, {{fn, 22}});
        b.sample({1}, {5});
        auto *map = b.message().add_mapping();
        map->set_id(1), map->set_memory_start(0x400000), map->set_memory_limit(0x600000);
        map->set_filename(b.str(file.toStdString()));
        map->set_build_id(b.str(buildId));
        b.message().mutable_location(0)->set_mapping_id(1);
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        f.write(QByteArray::fromStdString(b.message().SerializeAsString()));
        return path;
    };
    const QString goId = QString::fromUtf8(runGo(go, {QStringLiteral("tool"), QStringLiteral("buildid"), binary}, m_dir.path()).out).trimmed();
    QVERIFY(!goId.isEmpty());

    // Found by the mapping's path and its Go build id: the 5 samples on the instruction holding the address.
    const Run ok = runQflame({QStringLiteral("disasm"), QStringLiteral("main"), profileFor(binary, goId.toStdString(), "ok.pb"),
                              QStringLiteral("--tsv")});
    QVERIFY2(ok.code == 0, ok.err.constData());
    QVERIFY(ok.out.contains("\t5\t5\t"));

    // Missing.
    const Run missing = runQflame({QStringLiteral("disasm"), QStringLiteral("main"), profileFor("/nonexistent/prog", "", "missing.pb")});
    QCOMPARE(missing.code, 2);
    QCOMPARE(missing.err, QByteArray("qflame: /nonexistent/prog: binary not found: give it with --binary FILE or a folder of binaries\n"));

    // Another build id, through the mapping and through --binary.
    const QString wrong = profileFor(binary, "0123abcd", "wrong.pb");
    const Run other = runQflame({QStringLiteral("disasm"), QStringLiteral("main"), wrong});
    QCOMPARE(other.code, 2);
    QCOMPARE(other.err, "qflame: " + binary.toUtf8() + " has build id " + goId.toUtf8() + ", the profile's " +
                            binary.toUtf8() + " had 0123abcd: not the binary that was profiled (give the right one with --binary)\n");
    const Run explicitWrong = runQflame({QStringLiteral("disasm"), QStringLiteral("main"), wrong, QStringLiteral("--binary"), binary});
    QCOMPARE(explicitWrong.code, 2);
    QCOMPARE(explicitWrong.err, "qflame: " + binary.toUtf8() + ": build id " + goId.toUtf8() +
                                    " does not match the profile's 0123abcd (" + binary.toUtf8() +
                                    "): not the binary that was profiled\n");
    QCOMPARE(explicitWrong.err.count('\n'), 1);

    // A folder searched by build id: the binary under another name.
    const QString folder = m_dir.filePath(QStringLiteral("binaries"));
    QDir().mkpath(folder);
    QVERIFY(QFile::copy(binary, folder + "/renamed"));
    const QString moved = profileFor("/gone/prog", goId.toStdString(), "moved.pb");
    const Run found = runQflame({QStringLiteral("disasm"), QStringLiteral("main"), moved, QStringLiteral("--binary"), folder,
                                 QStringLiteral("--tsv")});
    QVERIFY2(found.code == 0, found.err.constData());
    QCOMPARE(found.out, ok.out);

    // Stripped: no symbols to find the function by.
    int code = 0;
    runProgram(QStringLiteral("strip"), {"-o", "stripped", binary}, m_dir.path(), &code);
    QCOMPARE(code, 0);
    const QString stripped = m_dir.filePath(QStringLiteral("stripped"));
    const Run noSymbols = runQflame({QStringLiteral("disasm"), QStringLiteral("main"), profileFor(stripped, "", "stripped.pb")});
    QCOMPARE(noSymbols.code, 2);
    QCOMPARE(noSymbols.err, "qflame: " + stripped.toUtf8() + ": no symbols (a stripped binary): give the unstripped one with --binary\n");

    // No function of that name: pprof's words.
    const Run none = runQflame({QStringLiteral("disasm"), QStringLiteral("nosuchfunction"), m_profile.value(QStringLiteral("inl"))});
    QCOMPARE(none.code, 2);
    QCOMPARE(none.err, QByteArray("qflame: no matches found for regexp: nosuchfunction\n"));
}

void tst_Disasm::diffOfTwoBuilds()
{
    REQUIRE_GO(go);
    const QString base = m_profile.value(QStringLiteral("inl")), next = m_profile.value(QStringLiteral("noinl"));
    const QString re = QStringLiteral("main\\.spin");
    auto side = [&](const QString &profile, QMap<QByteArray, Cost> *byLine) {
        const Run r = runQflame({QStringLiteral("disasm"), re, profile, QStringLiteral("--sample"), QStringLiteral("samples"),
                                 QStringLiteral("--tsv")});
        QVERIFY2(r.code == 0, r.err.constData());
        qflameDisasm(r.out, byLine);
    };
    QMap<QByteArray, Cost> beforeLines, afterLines;
    side(base, &beforeLines);
    side(next, &afterLines);
    const Run d = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--disasm"), re, QStringLiteral("--sample"),
                             QStringLiteral("samples"), QStringLiteral("--tsv")});
    QVERIFY2(d.code == 0, d.err.constData());
    QMap<QByteArray, Cost> beforeGroups, afterGroups;   // per file:line, the groups' cum summed (flat unused)
    int groups = 0;
    int64_t groupBefore = 0, groupAfter = 0, rowsBefore = 0, rowsAfter = 0;
    int both = 0, instructionsBefore = 0, instructionsAfter = 0;
    auto closeGroup = [&]() {
        QCOMPARE(rowsBefore, groupBefore);
        QCOMPARE(rowsAfter, groupAfter);
        both += instructionsBefore > 0 && instructionsAfter > 0;
        instructionsBefore = instructionsAfter = 0;
    };
    for (const QByteArray &line : d.out.split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.value(0) == "group") {
            if (groups++)
                closeGroup();
            QCOMPARE(f.size(), 8);
            groupBefore = f[4].toLongLong(), groupAfter = f[5].toLongLong();
            rowsBefore = rowsAfter = 0;
            QCOMPARE(f[6].toLongLong(), groupAfter - groupBefore);
            QVERIFY(QByteArrayList({"unchanged", "noise", "slower", "faster", "new", "removed"}).contains(f[7]));
            if (groupBefore == groupAfter && groupBefore != 0)
                QCOMPARE(f[7], QByteArray("unchanged"));
            const QByteArray key = f[3].mid(f[3].lastIndexOf('/') + 1);
            beforeGroups[key].cum += groupBefore;
            afterGroups[key].cum += groupAfter;
        } else if (f.value(0) == "before" || f.value(0) == "after") {
            QCOMPARE(f.size(), 5);
            (f[0] == "before" ? rowsBefore : rowsAfter) += f[3].toLongLong();
            ++(f[0] == "before" ? instructionsBefore : instructionsAfter);
        }
    }
    closeGroup();
    QVERIFY(groups > 3);
    // The builds were made in different folders: their lines still meet in groups of both sides.
    QVERIFY(both >= 3);
    // Per source line, the groups hold exactly each side's disasm.
    for (auto [lines, groupsOf] : {std::pair{&beforeLines, &beforeGroups}, std::pair{&afterLines, &afterGroups}}) {
        for (auto it = lines->begin(); it != lines->end(); ++it)
            QCOMPARE(groupsOf->value(it.key()).cum, it.value().cum);
        for (auto it = groupsOf->begin(); it != groupsOf->end(); ++it)
            QCOMPARE(lines->value(it.key()).cum, it.value().cum);
    }
    // The text: pprof's totals, the noise rule, a routine's groups.
    const Run text = runQflame({QStringLiteral("diff"), base, next, QStringLiteral("--disasm"), re});
    QCOMPARE(text.code, 0);
    QVERIFY(text.out.contains("Noise: a group's cum delta under 2 Poisson standard errors"));
    QVERIFY(text.out.contains("ROUTINE ======================== main.spin (cum before, after, delta)"));
}

void tst_Disasm::diffTextPerInstruction()
{
    REQUIRE_GO(go);
    // The inlined build profiled a second time: the same binary, so every group is the same code, each row one
    // instruction of both profiles, its delta the second's cum minus the first's, as each side's disasm says.
    const QString src = m_dir.filePath(QStringLiteral("inl"));
    QProcess run;
    run.start(src + "/prog", {QStringLiteral("-o"), src + "/cpu2.pprof", QStringLiteral("-s"), QStringLiteral("1")});
    QVERIFY(run.waitForFinished(60000) && run.exitCode() == 0);
    const QString first = m_profile.value(QStringLiteral("inl")), second = src + "/cpu2.pprof";
    const QString re = QStringLiteral("main\\.spin");
    auto costs = [&](const QString &profile) {
        const Run r = runQflame({QStringLiteral("disasm"), re, profile, QStringLiteral("--sample"), QStringLiteral("samples"),
                                 QStringLiteral("--tsv")});
        return qflameDisasm(r.out);
    };
    const Costs a = costs(first), b = costs(second);
    QVERIFY(a.size() > 20);
    const Run d = runQflame({QStringLiteral("diff"), first, second, QStringLiteral("--disasm"), re, QStringLiteral("--sample"),
                             QStringLiteral("samples"), QStringLiteral("--noise"), QStringLiteral("0")});
    QVERIFY2(d.code == 0, d.err.constData());
    int rows = 0, nonzero = 0;
    for (const QByteArray &line : d.out.split('\n')) {
        if (!line.startsWith("      ") || line.size() < 6 + 60 + 2 + 60 || line.mid(66, 2) != "| ")
            continue;
        const uint64_t before = line.mid(6 + 9, 8).trimmed().toULongLong(nullptr, 16);
        const uint64_t after = line.mid(68 + 9, 8).trimmed().toULongLong(nullptr, 16);
        QCOMPARE(after, before);
        const int64_t delta = b.at(after).cum - a.at(before).cum;
        // --noise 0: a cost on one side only is new or removed, else a non-zero delta is slower or faster, a zero
        // one unchanged (no class written).
        const int64_t was = a.at(before).cum, is = b.at(after).cum;
        std::string expected = signedValue(delta, "count");
        if (was == 0 && is != 0)
            expected += " new";
        else if (was != 0 && is == 0)
            expected += " removed";
        else if (delta != 0)
            expected += delta > 0 ? " slower" : " faster";
        QVERIFY2(line.mid(128).trimmed().toStdString() == expected, (line + " / expected " + QByteArray::fromStdString(expected)).constData());
        ++rows;
        nonzero += delta != 0;
    }
    QCOMPARE(size_t(rows), a.size());
    QVERIFY(nonzero > 0);
    QVERIFY(d.out.contains("(same code)"));

    // The build without inlining against the inlined one: its call to main.mix became an inline frame (the PGO
    // panel's inlining changes), marked on the call, and the new build's main.mix group marked where it is.
    const Run inl = runQflame({QStringLiteral("diff"), m_profile.value(QStringLiteral("noinl")), first,
                               QStringLiteral("--disasm"), re});
    QVERIFY2(inl.code == 0, inl.err.constData());
    int marked = 0;
    for (const QByteArray &line : inl.out.split('\n'))
        if (line.contains("<- became inlined (main.mix)")) {
            QVERIFY2(line.left(66).contains("CALL main.mix(SB)"), line.constData());
            ++marked;
        }
    QCOMPARE(marked, 1);
    QVERIFY(inl.out.contains("main.mix main.go:15  (became inlined here)") || inl.out.contains("(became inlined here)"));
    // TSV keeps the issue's columns: group rows of 8 fields, instruction rows of 5; no marks.
    const Run tsv = runQflame({QStringLiteral("diff"), m_profile.value(QStringLiteral("noinl")), first,
                               QStringLiteral("--disasm"), re, QStringLiteral("--tsv")});
    QCOMPARE(tsv.code, 0);
    for (const QByteArray &line : tsv.out.split('\n'))
        if (!line.isEmpty())
            QCOMPARE(line.split('\t').size(), line.startsWith("group\t") ? 8 : 5);
    QVERIFY(!tsv.out.contains("inlined"));
}

QTEST_GUILESS_MAIN(tst_Disasm)
#include "tst_disasm.moc"
