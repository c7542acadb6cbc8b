// perf script text: each `perf script -F` variation read into exact samples, labels, addresses and mappings; the
// errors, with their lines; telling it apart from the other formats. Real `perf record` runs are tst_perfrecord.
#include "PerfScriptSums.h"
#include "RunQflame.h"
#include "formats/PerfScriptFormat.h"
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace qflame;
using qflame::test::flatCum;
using qflame::test::types;

namespace {

// One line per sample, sorted: "labels | frames leaf first as name@hexaddr(dso) | values".
QString describe(const Profile &p)
{
    QStringList lines;
    for (size_t s = 0; s < p.sampleCount(); ++s) {
        QStringList labels, frames, values;
        for (const Label &label : p.sampleLabels(s)) {
            labels << QString::fromStdString(std::string(p.str(label.key))) + QLatin1Char('=') +
                          (label.str ? QString::fromStdString(std::string(p.str(label.str))) : QString::number(label.num));
        }
        for (uint64_t k = p.sampleLocBegin[s]; k < p.sampleLocBegin[s + 1]; ++k) {
            const Location &loc = p.locations[p.sampleLocations[k]];
            QStringList lines;   // innermost first; name:line when a line is known
            for (uint32_t l = loc.firstLine; l < loc.firstLine + loc.lineCount; ++l) {
                const Function &f = p.functions[p.lines[l].function];
                lines << QString::fromStdString(std::string(p.str(f.name))) +
                             (p.lines[l].line ? QStringLiteral(":%1").arg(p.lines[l].line) : QString());
            }
            QString frame = lines.join(QLatin1Char('+')) + QLatin1Char('@') + QString::number(loc.address, 16);
            if (loc.mapping != kNone)
                frame += QLatin1Char('(') + QString::fromStdString(std::string(p.str(p.mappings[loc.mapping].file))) +
                         QLatin1Char(')');
            frames << frame;
        }
        for (size_t t = 0; t < p.sampleTypes.size(); ++t)
            values << QString::number(p.value(s, t));
        lines << labels.join(QLatin1Char(' ')) + QStringLiteral(" | ") + frames.join(QLatin1Char(' ')) +
                     QStringLiteral(" | ") + values.join(QLatin1Char(' '));
    }
    lines.sort();
    return lines.join(QLatin1Char('\n'));
}

}   // namespace

class tst_PerfScript : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parses_data();
    void parses();
    void rejects_data();
    void rejects();
    void limitsNameThemselves();
    void sniffs();
    void severalEventsDefaultToTheFirst();
    void tagfocusOnComm();
};

void tst_PerfScript::parses_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("types");
    QTest::addColumn<QString>("samples");
    QTest::newRow("default fields, call graph, lone tid, :ppp")
        << QByteArray("prog 12302 13144.649758:    1001001 cpu-clock:ppp: \n"
                      "\tffffffff8225f759 pvm_irq_enable+0x19 ([kernel.kallsyms])\n"
                      "\t    55d0c2a1b1c9 main+0x19 (/tmp/prog)\n\n"
                      "prog 12302 13144.650746:    1001001 cpu-clock:ppp: \n"
                      "\t    55d0c2a1b1c9 main+0x19 (/tmp/prog)\n\n"
                      "prog 12302 13144.651746:    1001001 cpu-clock:ppp: \n"
                      "\t    55d0c2a1b1c9 main+0x19 (/tmp/prog)\n\n")
        << "samples/count cpu-clock/nanoseconds"
        << "comm=prog tid=12302 | main@55d0c2a1b1c9(/tmp/prog) | 2 2002002\n"
           "comm=prog tid=12302 | pvm_irq_enable@ffffffff8225f759([kernel.kallsyms]) main@55d0c2a1b1c9(/tmp/prog) | 1 1001001";
    QTest::newRow("pid/tid, [cpu], cycles:u")
        << QByteArray("perf 100/101 [003] 5.000001:     250000 cycles:u:\n\t4005d6 run+0x6 (/a)\n\t4005f0 main+0x10 (/a)\n")
        << "samples/count cycles/count" << "comm=perf pid=100 tid=101 | run@4005d6(/a) main@4005f0(/a) | 1 250000";
    QTest::newRow("no call graph: the frame on the header line")
        << QByteArray("prog 7 [000] 1.5: 100 instructions:  4005d6 main+0x16 (/tmp/a)\n"
                      "prog 7 [001] 1.6: 100 instructions:  4005d6 main+0x16 (/tmp/a)\n"
                      "prog 8 [001] 1.7: 300 instructions:  4005e0 work+0x0 (/tmp/a)\n")
        << "samples/count instructions/count"
        << "comm=prog tid=7 | main@4005d6(/tmp/a) | 2 200\ncomm=prog tid=8 | work@4005e0(/tmp/a) | 1 300";
    QTest::newRow("no call graph, comm padded as perf pads it")
        << QByteArray("            prog 23541 14952.186443:    1001001 cpu-clock:ppp:      7f4a62426b73 _start+0x3 (/lib/ld.so)\n"
                      "            prog 23541 14952.187437:    1001001 cpu-clock:ppp:  ffffffff8133c9c0 native_set_pte+0x0 ([kernel.kallsyms])\n")
        << "samples/count cpu-clock/nanoseconds"
        << "comm=prog tid=23541 | _start@7f4a62426b73(/lib/ld.so) | 1 1001001\n"
           "comm=prog tid=23541 | native_set_pte@ffffffff8133c9c0([kernel.kallsyms]) | 1 1001001";
    QTest::newRow("-F comm,pid,tid,time,event,ip,sym,dso: no period")
        << QByteArray("prog 10/11 2.25: cpu-clock:ppp:\n\t401000 leaf+0x4 (/b)\n\t401100 main+0x8 (/b)\n\n"
                      "prog 10/11 2.26: cpu-clock:ppp:\n\t401000 leaf+0x4 (/b)\n\t401100 main+0x8 (/b)\n\n")
        << "samples/count" << "comm=prog pid=10 tid=11 | leaf@401000(/b) main@401100(/b) | 2";
    QTest::newRow("demangled names with spaces and parentheses")
        << QByteArray("a.out 5 1.0: 10 cpu-clock:\n"
                      "\t1234 std::vector<int, std::allocator<int> >::push_back(int const&)+0x12 (/x/a.out)\n"
                      "\t1300 (anonymous namespace)::run() const+0x5 (/x/a.out)\n"
                      "\t1400 operator+(int)+0x1 (/x/a.out)\n\n")
        << "samples/count cpu-clock/nanoseconds"
        << "comm=a.out tid=5 | std::vector<int, std::allocator<int> >::push_back(int const&)@1234(/x/a.out) "
           "(anonymous namespace)::run() const@1300(/x/a.out) operator+(int)@1400(/x/a.out) | 1 10";
    QTest::newRow("frames not indented, as some tools write them")
        << QByteArray("prog 7 1.0: 100 cycles:\n4005d6 run+0x6 (/a)\n4005f0 main+0x10 (/a)\n\n"
                      "prog 7 1.1: 100 cycles:\nffffffff81000000 irq (k)\n4005f0 main+0x10 (/a)\n")
        << "samples/count cycles/count"
        << "comm=prog tid=7 | irq@ffffffff81000000(k) main@4005f0(/a) | 1 100\n"
           "comm=prog tid=7 | run@4005d6(/a) main@4005f0(/a) | 1 100";
    QTest::newRow("Java inline chains A->B->C: one location, C innermost, A the function")
        << QByteArray("java 42 1.0: 1000 cycles:\n"
                      "\t7f01 Lcom/A;::run->Lcom/B;::step->Lcom/C;::leaf (/tmp/perf-42.map)\n"
                      "\t7f02 Lcom/Main;::main (/tmp/perf-42.map)\n\n"
                      "java 42 1.1: 1000 cycles:\n"
                      "\t1234 std::unique_ptr<int>::operator->() const+0x4 (/a)\n\t7f03 ->x (/b)\n")
        << "samples/count cycles/count"
        << "comm=java tid=42 | Lcom/C;::leaf+Lcom/B;::step+Lcom/A;::run@7f01(/tmp/perf-42.map) "
           "Lcom/Main;::main@7f02(/tmp/perf-42.map) | 1 1000\n"
           "comm=java tid=42 | std::unique_ptr<int>::operator->() const@1234(/a) ->x@7f03(/b) | 1 1000";
    QTest::newRow("[unknown] kept, zero address")
        << QByteArray("prog 3 1.0: 1 task-clock:\n\t7fbec13fd8a8 [unknown] ([unknown])\n\t0 [unknown] ([unknown])\n")
        << "samples/count task-clock/nanoseconds" << "comm=prog tid=3 | [unknown]@7fbec13fd8a8([unknown]) [unknown]@0([unknown]) | 1 1";
    QTest::newRow("two events: a column each, zero in the other")
        << QByteArray("p 1 1.0: 1000 cycles:\n\t10 f+0x0 (/p)\n\np 1 1.1: 7 instructions:\n\t10 f+0x0 (/p)\n\n")
        << "cycles-samples/count cycles/count instructions-samples/count instructions/count"
        << "comm=p tid=1 | f@10(/p) | 0 0 1 7\ncomm=p tid=1 | f@10(/p) | 1 1000 0 0";
    QTest::newRow("two events, no period printed: each event counts its own samples, never summed")
        << QByteArray("p 1 1.0: cycles:\n\t10 f+0x0 (/p)\n\np 1 1.1: instructions:\n\t10 f+0x0 (/p)\n\n"
                      "p 1 1.2: instructions:\n\t10 f+0x0 (/p)\n\n")
        << "cycles/count instructions/count"
        << "comm=p tid=1 | f@10(/p) | 0 2\ncomm=p tid=1 | f@10(/p) | 1 0";
    QTest::newRow("comm with spaces, no time field, tracepoint event")
        << QByteArray("Web Content 4321/4322 5 sched:sched_switch:\n\tffff0010 __schedule+0x3 ([kernel.kallsyms])\n")
        << "samples/count sched:sched_switch/count"
        << "comm=Web Content pid=4321 tid=4322 | __schedule@ffff0010([kernel.kallsyms]) | 1 5";
    QTest::newRow("no offset; no ip (the offset is the address); no dso")
        << QByteArray("p 1 1.0: 2 cpu-clock:\n\t4005d6 main (/tmp/a)\n\tstart+0x1f (/tmp/a)\n\t9 outer\n")
        << "samples/count cpu-clock/nanoseconds" << "comm=p tid=1 | main@4005d6(/tmp/a) start@1f(/tmp/a) outer@9 | 1 2";
    QTest::newRow("--inline: an address's inline stack is one location, its outer frame's DSO the mapping")
        << QByteArray("p 7 1.0: 10 cpu-clock:ppp:\n"
                      "\t11cd inner+0x4d (inlined)\n\t11cd outer+0x4d (inlined)\n\t11cd work+0x4d (/tmp/p)\n"
                      "\t106c main+0x1c (/tmp/p)\n"
                      "\t27304 __libc_start_main_impl+0x84 (inlined)\n\t10b0 _start+0x20 (/tmp/p)\n\n"
                      "p 7 1.1: 20 cpu-clock:ppp:\n"
                      "\t11c3 work+0x43 (/tmp/p)\n\t11c3 outer+0x43 (inlined)\n\t11c3 work+0x43 (/tmp/p)\n"
                      "\t106c main+0x1c (/tmp/p)\n\n"
                      "p 7 1.2: 30 cpu-clock:ppp:\n"
                      "\t2000 rec+0x10 (/tmp/p)\n\t2000 rec+0x10 (/tmp/p)\n\t106c main+0x1c (/tmp/p)\n\n")
        << "samples/count cpu-clock/nanoseconds"
        << "comm=p tid=7 | inner+outer+work@11cd(/tmp/p) main@106c(/tmp/p) __libc_start_main_impl@27304 _start@10b0(/tmp/p) | 1 10\n"
           "comm=p tid=7 | rec@2000(/tmp/p) rec@2000(/tmp/p) main@106c(/tmp/p) | 1 30\n"
           "comm=p tid=7 | work+outer+work@11c3(/tmp/p) main@106c(/tmp/p) | 1 20";
    QTest::newRow("--inline -F +srcline: source lines below frames, \"(inlined)\" after them")
        << QByteArray("p 7 1.0: 10 cpu-clock:ppp:\n"
                      "\tffffffff8225f759 pvm_irq_enable+0x19 ([kernel.kallsyms])\n  [kernel.kallsyms][ffffffff8225f759]\n"
                      "\t11cd inner+0x4d\n  p.cpp:2 (inlined)\n\t11cd outer+0x4d\n  p.cpp:3 (inlined)\n"
                      "\t11cd work+0x4d (/tmp/p)\n  p.cpp:4\n\t10b0 _start+0x20 (/tmp/p)\n  ??:0\n\n"
                      "            p 7 1.1:   20 cpu-clock:ppp:      11c3 work+0x43 (/tmp/p)\n  p.cpp:2\n"
                      "            p 7 1.2:   30 cpu-clock:ppp:      11c3 work+0x43 (/tmp/p)\n  p.cpp:2 (discriminator 3)\n")
        << "samples/count cpu-clock/nanoseconds"
        << "comm=p tid=7 | pvm_irq_enable@ffffffff8225f759([kernel.kallsyms]) inner:2+outer:3+work:4@11cd(/tmp/p) _start@10b0(/tmp/p) | 1 10\n"
           "comm=p tid=7 | work:2@11c3(/tmp/p) | 2 50";
    QTest::newRow("perf script --header comments, CRLF, a record without frames")
        << QByteArray("# ========\r\n# captured on: today\r\n# ========\r\n#\r\np 1 1.0: 5 cpu-clock:\r\n\r\n"
                      "p 1 1.1: 5 cpu-clock:\r\n\t10 f+0x0 (/p)\r\n")
        << "samples/count cpu-clock/nanoseconds" << "comm=p tid=1 |  | 1 5\ncomm=p tid=1 | f@10(/p) | 1 5";
}

void tst_PerfScript::parses()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, types);
    QFETCH(QString, samples);
    const auto p = readProfile(std::string_view(text.constData(), size_t(text.size())), "in.perf");
    QCOMPARE(::types(*p), types);
    QCOMPARE(describe(*p), samples);
    QCOMPARE(int(sniffProfileFormat(std::string_view(text.constData(), size_t(text.size())))),
             int(ProfileFormat::PerfScript));
}

void tst_PerfScript::rejects_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("error");
    QTest::newRow("frame first") << QByteArray("\tmain (/a)\n")
                                 << "in: line 1: not perf script: a stack frame outside a sample record, got '\tmain (/a)'";
    QTest::newRow("a bad header after good records")
        << QByteArray("p 1 1.0: 5 cpu-clock:\n\t1 main\n\ngarbage here\n")
        << "in: line 4: not a perf script sample header: expected 'COMM PID[/TID] [CPU] TIME: [PERIOD] EVENT:', "
           "got 'garbage here'";
    QTest::newRow("period, then none")
        << QByteArray("p 1 1.0: 5 cpu-clock:\n\np 1 2.0: cpu-clock:\n")
        << "in: line 3: event 'cpu-clock' printed without a period here but with one before";
    QTest::newRow("no records") << QByteArray("# only a comment\n")
                                << "in: no samples: the perf script input has no records";
}

void tst_PerfScript::rejects()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, error);
    try {
        readPerfScript(std::string_view(text.constData(), size_t(text.size())), "in");
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromUtf8(e.what()), error);
    }
}

void tst_PerfScript::limitsNameThemselves()
{
    // Memory is bounded by the input: a stack of 2 million distinct 7-byte frames would store ~100 bytes for each,
    // past memoryPerInputByte (3) per byte plus 64 MiB, and is refused with that limit's name.
    std::string hostile = "p 1 1.0: 1 cpu-clock:\n";
    for (uint32_t a = 0x100000; a < 0x100000 + 2000000; ++a) {
        char line[16];
        hostile.append(line, size_t(std::snprintf(line, sizeof line, "\t%x\n", a)));
    }
    try {
        readPerfScript(hostile, "in");
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("(the memoryPerInputByte limit)")), e.what());
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QLatin1String("in: line ")), e.what());
    }
    // The sample-type limit names itself.
    ReadOptions few;
    few.maxSampleTypes = 2;
    try {
        readPerfScript("p 1 1.0: 5 cycles:\n\np 1 1.1: 5 instructions:\n", "in", few);
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromUtf8(e.what()), "in: 2 events: more than the maxSampleTypes limit of 2 sample types");
    }
}

void tst_PerfScript::sniffs()
{
    // The others' inputs are not perf script, and perf script is not theirs.
    for (const char *other : {"main;run;parse 42\n", "{\"flamebearer\":{}}", "a b 3\n", "perf 12 x\n", ""})
        QVERIFY2(!looksLikePerfScript(other), other);
    QCOMPARE(int(sniffProfileFormat("main;a 2\n")), int(ProfileFormat::Folded));
    QVERIFY(looksLikePerfScript("# header\n\nprog 1/2 cpu-clock:\n"));
}

void tst_PerfScript::severalEventsDefaultToTheFirst()
{
    // perf record -e cycles,instructions without a period printed: cycles (first) is the default, as perf report
    // and FlameGraph show it; --sample instructions the other. f has 1 cycles sample, g 2 instructions samples.
    const QByteArray text("p 1 1.0: cycles:\n\t10 f+0x0 (/p)\n\np 1 1.1: instructions:\n\t20 g+0x0 (/p)\n\n"
                          "p 1 1.2: instructions:\n\t20 g+0x0 (/p)\n\n");
    const auto p = readPerfScript(text.toStdString(), "t");
    QCOMPARE(p->effectiveDefaultType(), 0);
    QCOMPARE(p->findSampleType("instructions"), 1);
    QCOMPARE(flatCum(p, 0), (std::map<QString, std::pair<int64_t, int64_t>>{{QStringLiteral("f"), {1, 1}}}));
    QCOMPARE(flatCum(p, 1), (std::map<QString, std::pair<int64_t, int64_t>>{{QStringLiteral("g"), {2, 2}}}));
    // With periods: the first event's period is the default.
    const auto q = readPerfScript("p 1 1.0: 9 cycles:\n\t10 f+0x0 (/p)\n\np 1 1.1: 4 instructions:\n\t20 g+0x0 (/p)\n", "t");
    QCOMPARE(q->typeName(size_t(q->effectiveDefaultType())), std::string("cycles"));
    QCOMPARE(q->total(size_t(q->effectiveDefaultType())), int64_t(9));
    // The CLI: --sample EVENT.
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("two.perf")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    f.close();
    const qflame::test::Run first = qflame::test::runQflame({QStringLiteral("top"), QStringLiteral("--tsv"), f.fileName()});
    QCOMPARE(first.code, 0);
    QCOMPARE(first.out, QByteArray("1\t1\tf\n"));
    const qflame::test::Run second = qflame::test::runQflame(
        {QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("--sample"), QStringLiteral("instructions"), f.fileName()});
    QCOMPARE(second.code, 0);
    QCOMPARE(second.out, QByteArray("2\t2\tg\n"));
}

void tst_PerfScript::tagfocusOnComm()
{
    const auto p = readProfile("a 1 1.0: 3 cpu-clock:\n\t1 fa\n\nb 2 1.0: 5 cpu-clock:\n\t2 fb\n\n", "in");
    BuildOptions only;
    only.filters.tagFocus = "comm=b";
    const auto table = FlatTable::compute({p}, 1, only);
    QCOMPARE(int(table->rows().size()), 1);
    QCOMPARE(std::string(table->label(0)), std::string("fb"));
    QCOMPARE(table->rows()[0].flat, int64_t(5));
    only.filters.tagFocus = "pid=1";   // a lone number is the thread id
    QCOMPARE(int(FlatTable::compute({p}, 1, only)->rows().size()), 0);
    only.filters.tagFocus = "tid=1";
    QCOMPARE(FlatTable::compute({p}, 1, only)->rows()[0].flat, int64_t(3));
}

QTEST_GUILESS_MAIN(tst_PerfScript)
#include "tst_perfscript.moc"
