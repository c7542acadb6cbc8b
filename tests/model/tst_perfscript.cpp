// perf script text: each `perf script -F` variation read into exact samples, labels, addresses and mappings; the
// errors, with their lines; telling it apart from the other formats; and a real `perf record --call-graph fp` run
// of a C++ program built here, whose flat and cum per function equal a collapse of perf script's documented
// format written below (not the model's parser), demangled by perf and by us (--no-demangle, --demangle full).
#include "PerfTestProgram.h"
#include "formats/PerfScriptFormat.h"
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <map>

using namespace qflame;

namespace {

// One line per sample, sorted: "labels | frames leaf first as name@hexaddr(dso) | values".
QString describe(const Profile &p)
{
    QStringList lines;
    for (size_t s = 0; s < p.sampleCount(); ++s) {
        QStringList labels, frames, values;
        for (uint64_t l = p.sampleLabelBegin[s]; l < p.sampleLabelBegin[s + 1]; ++l) {
            const Label &label = p.labels[l];
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

QString types(const Profile &p)
{
    QStringList out;
    for (size_t t = 0; t < p.sampleTypes.size(); ++t)
        out << QString::fromStdString(p.typeName(t) + "/" + p.unitName(t));
    return out.join(QLatin1Char(' '));
}

// flat and cum per function name of one sample type, from the model.
std::map<QString, std::pair<int64_t, int64_t>> flatCum(const std::shared_ptr<const Profile> &p, size_t type)
{
    std::map<QString, std::pair<int64_t, int64_t>> out;
    const auto table = FlatTable::compute({p}, type, BuildOptions{});
    for (size_t i = 0; i < table->rows().size(); ++i)
        out[QString::fromUtf8(table->label(i).data(), qsizetype(table->label(i).size()))] = {table->rows()[i].flat,
                                                                                            table->rows()[i].cum};
    return out;
}

// perf script's default output as perf-script(1) documents it, collapsed by hand: a header
// "COMM PID TIME: PERIOD EVENT:" then one "IP SYMBOL+OFFSET (DSO)" line per frame, innermost first, and a blank
// line. flat goes to the first frame, cum once to every distinct symbol of the record. `rename` maps a symbol.
struct Collapse {
    std::map<QString, std::pair<int64_t, int64_t>> samples, period;
};

Collapse collapse(const QString &text, const std::function<QString(const QString &)> &rename)
{
    static const QRegularExpression header(QStringLiteral(R"(^\S.*\s(\d+)\s+\S+:\s*$)"));
    static const QRegularExpression frame(QStringLiteral(R"(^\s+[0-9a-f]+\s+(.*?)(\+0x[0-9a-f]+)?\s+\(.*\)$)"));
    Collapse c;
    int64_t period = 0;
    QStringList stack;
    auto flush = [&] {
        if (stack.isEmpty())
            return;
        const QSet<QString> distinct(stack.begin(), stack.end());
        c.samples[stack.front()].first += 1;
        c.period[stack.front()].first += period;
        for (const QString &name : distinct)
            c.samples[name].second += 1, c.period[name].second += period;
        stack.clear();
    };
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (const auto m = header.match(line); m.hasMatch()) {
            flush();
            period = m.captured(1).toLongLong();
        } else if (const auto f = frame.match(line); f.hasMatch()) {
            stack << rename(f.captured(1));
        }
    }
    flush();
    return c;
}

// perf script --inline's output as perf-script(1) has it, by hand: "If a callgraph address belongs to an inlined
// function, the inline stack will be printed": frames of the same address, innermost first, each but the outermost
// marked "(inlined)" where the DSO goes (or, with -F +srcline, after the source line printed below the frame,
// "  FILE:LINE"). perf names the innermost after the symbol when the line tables say so, unmarked, before marked
// ones. A stack's frames are one location: the edges between them are inline, the others calls. Sums per key
// (flat to the first frame, cum once per distinct key of a record) and pprof's marker per function name
// ("(inline)" when every edge into it is inline, "(partial-inline)" when some are; edges from the root and from
// the function itself do not count).
struct InlineCollapse {
    std::map<QString, std::pair<int64_t, int64_t>> functions, lines, addresses;   // of the period
    std::map<QString, int64_t> functionSamples;                                  // flat count per function
    std::map<QString, FlatRow::Inline> marker;
    int inlineStacks = 0;   // addresses printed with an inline stack of two frames or more
};

InlineCollapse collapseInline(const QString &text)
{
    static const QRegularExpression header(QStringLiteral(R"(^\S.*\s(\d+)\s+\S+:\s*$)"));
    static const QRegularExpression frameLine(QStringLiteral(R"(^\t\s*([0-9a-f]+)\s+(.*?)(\+0x[0-9a-f]+)?(\s+\(([^()]*)\))?$)"));
    static const QRegularExpression srcline(QStringLiteral(R"(^  (\S.*?):(\d+|\?)( \(inlined\))?$)"));
    struct F {
        QString ip, name, dso, file;
        int line = 0;
        bool inlined = false;
    };
    InlineCollapse c;
    std::map<std::pair<QString, QString>, std::pair<bool, bool>> edges;   // (caller, callee) -> inline seen, call seen
    int64_t period = 0;
    std::vector<F> stack;
    auto flush = [&] {
        if (stack.empty())
            return;
        std::vector<int> group(stack.size());   // the inline stack each frame is of
        for (size_t i = 0, g = 0; i < stack.size(); ++g) {
            size_t j = i;
            while (j + 1 < stack.size() && stack[j + 1].ip == stack[j].ip &&
                   (stack[j].inlined || (j == i && stack[j + 1].inlined)))
                ++j;
            c.inlineStacks += j > i;
            for (size_t k = i; k <= j; ++k)
                group[k] = int(g);
            i = j + 1;
        }
        auto lineKey = [](const F &f) {
            return f.line ? f.name + QLatin1Char(' ') + f.file + QLatin1Char(':') + QString::number(f.line) : f.name;
        };
        auto addressKey = [](const F &f) {   // pprof's node name: the address (when not zero) and the function
            return f.ip.toULongLong(nullptr, 16) == 0 ? f.name : f.ip.rightJustified(16, QLatin1Char('0')) + QLatin1Char(' ') + f.name;
        };
        c.functions[stack.front().name].first += period;
        c.functionSamples[stack.front().name] += 1;
        c.lines[lineKey(stack.front())].first += period;
        c.addresses[addressKey(stack.front())].first += period;
        QSet<QString> f, l, a;
        for (const F &frame : stack)
            f << frame.name, l << lineKey(frame), a << addressKey(frame);
        for (const QString &k : f)
            c.functions[k].second += period;
        for (const QString &k : l)
            c.lines[k].second += period;
        for (const QString &k : a)
            c.addresses[k].second += period;
        for (size_t k = 0; k + 1 < stack.size(); ++k) {
            if (stack[k].name == stack[k + 1].name)
                continue;
            auto &e = edges[{stack[k + 1].name, stack[k].name}];
            (group[k] == group[k + 1] ? e.first : e.second) = true;
        }
        stack.clear();
    };
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (const auto m = header.match(line); m.hasMatch()) {
            flush();
            period = m.captured(1).toLongLong();
        } else if (const auto fr = frameLine.match(line); fr.hasMatch()) {
            F frame;
            frame.ip = fr.captured(1), frame.name = fr.captured(2), frame.dso = fr.captured(5);
            frame.inlined = frame.dso == QLatin1String("inlined");
            stack.push_back(frame);
        } else if (const auto sl = srcline.match(line); sl.hasMatch() && !stack.empty()) {
            stack.back().inlined = stack.back().inlined || !sl.captured(3).isEmpty();
            if (sl.captured(1) != QLatin1String("??") && sl.captured(2) != QLatin1String("?") && sl.captured(2).toInt() > 0)
                stack.back().file = sl.captured(1), stack.back().line = sl.captured(2).toInt();
        }
    }
    flush();
    std::map<QString, std::pair<bool, bool>> into;   // callee -> some edge inline (never a call), some a call
    for (const auto &[edge, seen] : edges) {
        auto &i = into[edge.second];
        (seen.second ? i.second : i.first) = true;
    }
    for (const auto &[callee, kinds] : into)
        if (kinds.first)
            c.marker[callee] = kinds.second ? FlatRow::Inline::Partly : FlatRow::Inline::Always;
    return c;
}

std::map<QString, std::pair<int64_t, int64_t>> flatCumAt(const std::shared_ptr<const Profile> &p, size_t type,
                                                        Granularity g)
{
    std::map<QString, std::pair<int64_t, int64_t>> out;
    BuildOptions o;
    o.granularity = g;
    const auto table = FlatTable::compute({p}, type, o);
    for (size_t i = 0; i < table->rows().size(); ++i)
        out[QString::fromStdString(std::string(table->label(i)))] = {table->rows()[i].flat, table->rows()[i].cum};
    return out;
}

QString run(const QString &program, const QStringList &args, const QString &dir, int *exitCode = nullptr,
            QString *errors = nullptr, const QByteArray &input = {})
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(program, args);
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(120000);
    if (exitCode)
        *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    if (errors)
        *errors = QString::fromLocal8Bit(p.readAllStandardError());
    return QString::fromUtf8(p.readAllStandardOutput());
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
    void realPerfRecord();
    void realPerfRecordInline();
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
    int code = -1;
    QCOMPARE(run(QStringLiteral(QFLAME_BINARY), {QStringLiteral("top"), QStringLiteral("--tsv"), f.fileName()}, dir.path(), &code),
             QStringLiteral("1\t1\tf\n"));
    QCOMPARE(run(QStringLiteral(QFLAME_BINARY),
                 {QStringLiteral("top"), QStringLiteral("--tsv"), QStringLiteral("--sample"), QStringLiteral("instructions"), f.fileName()},
                 dir.path(), &code),
             QStringLiteral("2\t2\tg\n"));
    QCOMPARE(code, 0);
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

void tst_PerfScript::realPerfRecord()
{
    const QString perf = QStandardPaths::findExecutable(QStringLiteral("perf"));
    const QString gxx = QStandardPaths::findExecutable(QStringLiteral("g++"));
    const QString cxxfilt = QStandardPaths::findExecutable(QStringLiteral("c++filt"));
    if (perf.isEmpty() || gxx.isEmpty() || cxxfilt.isEmpty())
        QSKIP("perf (linux-perf), g++ or c++filt (binutils) is not installed");
    QTemporaryDir dir;
    QFile src(dir.filePath(QStringLiteral("prog.cpp")));
    QVERIFY(src.open(QIODevice::WriteOnly) && src.write(qflame::test::kPerfProgram) > 0);
    src.close();
    int code = 0;
    QString errors;
    run(gxx, {"-O1", "-fno-omit-frame-pointer", "-o", "prog", "prog.cpp"}, dir.path(), &code, &errors);
    QVERIFY2(code == 0, qPrintable(errors));
    run(perf, {"record", "--call-graph", "fp", "-F", "999", "-o", "perf.data", "./prog"}, dir.path(), &code, &errors);
    if (code != 0 && (errors.contains(QLatin1String("perf_event_paranoid")) || errors.contains(QLatin1String("ermission")) ||
                      errors.contains(QLatin1String("not permitted"))))
        QSKIP(qPrintable(QStringLiteral("perf events are not permitted here: ") + errors.left(200)));
    QVERIFY2(code == 0, qPrintable(errors));
    const QString text = run(perf, {"script", "-i", "perf.data"}, dir.path(), &code);
    QCOMPARE(code, 0);
    const QString mangledText = run(perf, {"script", "-i", "perf.data", "--no-demangle"}, dir.path(), &code);
    QCOMPARE(code, 0);

    // perf's own demangled names, read as they are: flat and cum of both sample types equal the collapse.
    const QByteArray bytes = text.toUtf8();
    const auto p = readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), "perf.txt");
    QCOMPARE(::types(*p), QStringLiteral("samples/count cpu-clock/nanoseconds"));
    const Collapse expected = collapse(text, [](const QString &s) { return s; });
    QVERIFY2(expected.samples.size() > 3, qPrintable(text.left(400)));
    QVERIFY(expected.samples.count(QStringLiteral("work::Mixer::mix")) && expected.samples.count(QStringLiteral("leaf")));
    QCOMPARE(flatCum(p, 0), expected.samples);
    QCOMPARE(flatCum(p, 1), expected.period);

    // Mangled names with --demangle full: each name is what c++filt makes of it, and the numbers are the same.
    QStringList mangled;
    static const QRegularExpression symbol(QStringLiteral(R"(^\s+[0-9a-f]+\s+(_Z\S*?)(\+0x[0-9a-f]+)?\s+\()"));
    for (const QString &line : mangledText.split(QLatin1Char('\n')))
        if (const auto m = symbol.match(line); m.hasMatch() && !mangled.contains(m.captured(1)))
            mangled << m.captured(1);
    QVERIFY2(mangled.size() >= 3, qPrintable(mangled.join(QLatin1Char(' '))));
    const QStringList filtered =
        run(cxxfilt, {}, dir.path(), &code, nullptr, (mangled.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8())
            .split(QLatin1Char('\n'));
    QHash<QString, QString> byCxxfilt;
    for (qsizetype i = 0; i < mangled.size(); ++i)
        byCxxfilt[mangled[i]] = filtered.value(i);
    QVERIFY(byCxxfilt.values().contains(QStringLiteral("long work::accumulate<long>(std::vector<long, std::allocator<long> > const&, int)")));
    QVERIFY(byCxxfilt.values().contains(QStringLiteral("work::Mixer::mix(long, int) const")));
    ReadOptions full;
    full.demangle = DemangleMode::Full;
    const QByteArray mbytes = mangledText.toUtf8();
    const auto pm = readProfile(std::string_view(mbytes.constData(), size_t(mbytes.size())), "m.txt", full);
    const Collapse expectedFull = collapse(mangledText, [&](const QString &s) { return byCxxfilt.value(s, s); });
    QCOMPARE(flatCum(pm, 0), expectedFull.samples);
    QCOMPARE(flatCum(pm, 1), expectedFull.period);

    // Simple: both instantiations of the template are one frame, with the sum of their values.
    ReadOptions simple;
    simple.demangle = DemangleMode::Simple;
    const auto ps = readProfile(std::string_view(mbytes.constData(), size_t(mbytes.size())), "m.txt", simple);
    const auto simpleRows = flatCum(ps, 1);
    int64_t accumulateFlat = 0;
    for (const auto &[name, v] : expectedFull.period)
        if (name.contains(QLatin1String("work::accumulate<")))
            accumulateFlat += v.first;
    QVERIFY(accumulateFlat > 0);
    QCOMPARE(simpleRows.at(QStringLiteral("work::accumulate")).first, accumulateFlat);
    QCOMPARE(simpleRows.at(QStringLiteral("leaf")), expectedFull.period.at(QStringLiteral("leaf(long)")));
    // The CLI reads the same file to the same numbers: `qflame top --tsv --demangle full` (flat, cum, name of the
    // default sample type, cpu-clock), and `--tagfocus comm=prog` keeps exactly the program's own records.
    QFile m(dir.filePath(QStringLiteral("mangled.txt")));
    QVERIFY(m.open(QIODevice::WriteOnly) && m.write(mbytes) == mbytes.size());
    m.close();
    std::map<QString, std::pair<int64_t, int64_t>> cli;
    for (const QString &row : run(QStringLiteral(QFLAME_BINARY), {"top", "--tsv", "--demangle", "full", "mangled.txt"},
                                  dir.path(), &code).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        cli[row.section(QLatin1Char('\t'), 2)] = {row.section(QLatin1Char('\t'), 0, 0).toLongLong(),
                                                  row.section(QLatin1Char('\t'), 1, 1).toLongLong()};
    QCOMPARE(code, 0);
    QCOMPARE(cli, expectedFull.period);
    int64_t progTotal = 0;
    static const QRegularExpression progHeader(QStringLiteral(R"(^prog\s+\d+\s.*\s(\d+)\s+\S+:\s*$)"));
    for (const QString &line : mangledText.split(QLatin1Char('\n')))
        if (const auto h = progHeader.match(line); h.hasMatch())
            progTotal += h.captured(1).toLongLong();
    const QString focused = run(QStringLiteral(QFLAME_BINARY), {"top", "--tsv", "--tagfocus", "comm=prog", "mangled.txt"},
                                dir.path(), &code);
    QCOMPARE(code, 0);
    int64_t focusedTotal = 0;
    for (const QString &row : focused.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        focusedTotal += row.section(QLatin1Char('\t'), 0, 0).toLongLong();
    QVERIFY(progTotal > 0);
    QCOMPARE(focusedTotal, progTotal);
    // Names perf already demangled arrive readable, and simple leaves them as they are.
    QCOMPARE(flatCum(readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), "perf.txt", simple), 1),
             expected.period);
}

// perf record --call-graph dwarf of a program built with -O2 -g whose `inner` and `outer` exist only inlined into
// `work` (tests/support/PerfTestProgram.h), then perf script --inline, with and without -F +srcline: flat and cum per
// function, per source line and per address, and pprof's inline markers, equal collapseInline's of the same text.
void tst_PerfScript::realPerfRecordInline()
{
    const QString perf = QStandardPaths::findExecutable(QStringLiteral("perf"));
    const QString gxx = QStandardPaths::findExecutable(QStringLiteral("g++"));
    if (perf.isEmpty() || gxx.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("addr2line")).isEmpty())
        QSKIP("perf (linux-perf), g++ or addr2line (binutils, which perf asks for inline stacks) is not installed");
    QTemporaryDir dir;
    QFile src(dir.filePath(QStringLiteral("inl.cpp")));
    QVERIFY(src.open(QIODevice::WriteOnly) && src.write(qflame::test::kPerfInlineProgram) > 0);
    src.close();
    int code = 0;
    QString errors;
    run(gxx, {"-O2", "-g", "-fno-omit-frame-pointer", "-o", "inl", "inl.cpp"}, dir.path(), &code, &errors);
    QVERIFY2(code == 0, qPrintable(errors));
    run(perf, {"record", "--call-graph", "dwarf", "-F", "999", "-o", "perf.data", "./inl"}, dir.path(), &code, &errors);
    if (code != 0 && (errors.contains(QLatin1String("perf_event_paranoid")) || errors.contains(QLatin1String("ermission")) ||
                      errors.contains(QLatin1String("not permitted"))))
        QSKIP(qPrintable(QStringLiteral("perf events are not permitted here: ") + errors.left(200)));
    QVERIFY2(code == 0, qPrintable(errors));
    const QString text = run(perf, {"script", "-i", "perf.data", "--inline"}, dir.path(), &code);
    QCOMPARE(code, 0);
    const QString withLines = run(perf, {"script", "-i", "perf.data", "--inline", "-F", "+srcline"}, dir.path(), &code);
    QCOMPARE(code, 0);

    const InlineCollapse expected = collapseInline(text);
    QVERIFY2(expected.inlineStacks > 10, qPrintable(text.left(600)));
    QVERIFY2(expected.marker.count(QStringLiteral("inner")) && expected.marker.count(QStringLiteral("outer")),
             qPrintable(text.left(600)));
    const QByteArray bytes = text.toUtf8();
    const auto p = readProfile(std::string_view(bytes.constData(), size_t(bytes.size())), "inline.perf");
    QCOMPARE(flatCumAt(p, 1, Granularity::Functions), expected.functions);
    QCOMPARE(flatCumAt(p, 1, Granularity::Addresses), expected.addresses);
    std::map<QString, int64_t> samples;
    for (const auto &[name, v] : flatCum(p, 0))
        if (v.first)
            samples[name] = v.first;
    QCOMPARE(samples, expected.functionSamples);
    // pprof's markers: inner and outer are only ever inlined; work is called by main, and perf names an inline
    // stack's innermost frame after it where the line tables say so, which makes it partly inlined.
    std::map<QString, FlatRow::Inline> markers;
    const auto table = FlatTable::compute({p}, 1, BuildOptions{});
    for (size_t i = 0; i < table->rows().size(); ++i)
        if (table->rows()[i].inlined != FlatRow::Inline::No)
            markers[QString::fromStdString(std::string(table->label(i)))] = table->rows()[i].inlined;
    QCOMPARE(markers, expected.marker);
    QCOMPARE(int(markers.at(QStringLiteral("inner"))), int(FlatRow::Inline::Always));
    // The program's inline stacks are locations of its mapping; "(inlined)" is no mapping.
    int stacks = 0;
    for (const Location &loc : p->locations) {
        if (loc.lineCount < 2 || p->str(p->functions[p->lines[loc.firstLine + loc.lineCount - 1].function].name) != "work")
            continue;
        ++stacks;
        QVERIFY(loc.mapping != kNone);
        QVERIFY2(p->str(p->mappings[loc.mapping].file).ends_with("/inl"), p->str(p->mappings[loc.mapping].file).data());
        QVERIFY(p->mappings[loc.mapping].hasInlineFrames);
    }
    QVERIFY(stacks > 0);
    for (const Mapping &m : p->mappings)
        QVERIFY(p->str(m.file) != "inlined");

    // With source lines: per function and per line, what the collapse of that text ("name file:line") gives. Its
    // functions are taken from the same text, not from the run above: perf resolves inline stacks through
    // addr2line for each `perf script` anew, and under load one of its lookups can fail, so two runs of perf
    // script on one perf.data may disagree on a few stacks (seen once: this test failed when it compared them).
    const InlineCollapse expectedLines = collapseInline(withLines);
    QVERIFY2(expectedLines.lines.size() > expectedLines.functions.size(), qPrintable(withLines.left(600)));
    QVERIFY2(expectedLines.marker.count(QStringLiteral("inner")), qPrintable(withLines.left(600)));
    const QByteArray lineBytes = withLines.toUtf8();
    const auto pl = readProfile(std::string_view(lineBytes.constData(), size_t(lineBytes.size())), "lines.perf");
    QCOMPARE(flatCumAt(pl, 1, Granularity::Functions), expectedLines.functions);
    QCOMPARE(flatCumAt(pl, 1, Granularity::Lines), expectedLines.lines);
    // The CLI: the same numbers, each name with go tool pprof's marker.
    QFile saved(dir.filePath(QStringLiteral("inline.txt")));
    QVERIFY(saved.open(QIODevice::WriteOnly) && saved.write(bytes) == bytes.size());
    saved.close();
    std::map<QString, std::pair<int64_t, int64_t>> cli, expectedCli;
    for (const QString &row : run(QStringLiteral(QFLAME_BINARY), {"top", "--tsv", "inline.txt"}, dir.path(), &code)
                                  .split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        cli[row.section(QLatin1Char('\t'), 2)] = {row.section(QLatin1Char('\t'), 0, 0).toLongLong(),
                                                  row.section(QLatin1Char('\t'), 1, 1).toLongLong()};
    QCOMPARE(code, 0);
    for (const auto &[name, v] : expected.functions) {
        const auto m = expected.marker.find(name);
        expectedCli[name + QString::fromLatin1(FlatTable::inlineSuffix(m == expected.marker.end() ? FlatRow::Inline::No : m->second))] = v;
    }
    QCOMPARE(cli, expectedCli);
    QVERIFY(cli.count(QStringLiteral("inner (inline)")) && cli.count(QStringLiteral("outer (inline)")));
}

QTEST_GUILESS_MAIN(tst_PerfScript)
#include "tst_perfscript.moc"
