// Real `perf record` runs of C++ programs built here (tests/support/PerfTestProgram.h), read from `perf script`:
// flat and cum per function equal a collapse of perf script's documented format written below (not the model's
// parser), demangled by perf and by us (--no-demangle, --demangle full); and perf's inline stacks (--inline, with
// and without -F +srcline) with pprof's inline markers. They skip where perf events are not permitted.
#include "PerfScriptSums.h"
#include "PerfTestProgram.h"
#include "RunProgram.h"
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"
#include "tree/FlatTable.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace qflame;
using qflame::test::runProgram;
using qflame::test::flatCum;
using qflame::test::types;

namespace {

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

}   // namespace

class tst_PerfRecord : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void realPerfRecord();
    void realPerfRecordInline();
};

void tst_PerfRecord::realPerfRecord()
{
    const QString perf = QStandardPaths::findExecutable(QStringLiteral("perf"));
    const QString gxx = QStandardPaths::findExecutable(QStringLiteral("g++"));
    const QString cxxfilt = QStandardPaths::findExecutable(QStringLiteral("c++filt"));
    if (perf.isEmpty() || gxx.isEmpty() || cxxfilt.isEmpty())
        QSKIP("perf (linux-perf), g++ or c++filt (binutils) is not installed");
    QTemporaryDir dir;
    QVERIFY(qflame::test::writePerfProgram(dir.path()));
    int code = 0;
    QString errors;
    runProgram(gxx, {"-O1", "-fno-omit-frame-pointer", "-o", "prog", "prog.cpp"}, dir.path(), &code, &errors);
    QVERIFY2(code == 0, qPrintable(errors));
    runProgram(perf, {"record", "--call-graph", "fp", "-F", "999", "-o", "perf.data", "./prog"}, dir.path(), &code, &errors);
    if (code != 0 && (errors.contains(QLatin1String("perf_event_paranoid")) || errors.contains(QLatin1String("ermission")) ||
                      errors.contains(QLatin1String("not permitted"))))
        QSKIP(qPrintable(QStringLiteral("perf events are not permitted here: ") + errors.left(200)));
    QVERIFY2(code == 0, qPrintable(errors));
    const QString text = runProgram(perf, {"script", "-i", "perf.data"}, dir.path(), &code);
    QCOMPARE(code, 0);
    const QString mangledText = runProgram(perf, {"script", "-i", "perf.data", "--no-demangle"}, dir.path(), &code);
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
        runProgram(cxxfilt, {}, dir.path(), &code, nullptr, (mangled.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8())
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
    for (const QString &row : runProgram(QStringLiteral(QFLAME_BINARY), {"top", "--tsv", "--demangle", "full", "mangled.txt"},
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
    const QString focused = runProgram(QStringLiteral(QFLAME_BINARY), {"top", "--tsv", "--tagfocus", "comm=prog", "mangled.txt"},
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
void tst_PerfRecord::realPerfRecordInline()
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
    runProgram(gxx, {"-O2", "-g", "-fno-omit-frame-pointer", "-o", "inl", "inl.cpp"}, dir.path(), &code, &errors);
    QVERIFY2(code == 0, qPrintable(errors));
    runProgram(perf, {"record", "--call-graph", "dwarf", "-F", "999", "-o", "perf.data", "./inl"}, dir.path(), &code, &errors);
    if (code != 0 && (errors.contains(QLatin1String("perf_event_paranoid")) || errors.contains(QLatin1String("ermission")) ||
                      errors.contains(QLatin1String("not permitted"))))
        QSKIP(qPrintable(QStringLiteral("perf events are not permitted here: ") + errors.left(200)));
    QVERIFY2(code == 0, qPrintable(errors));
    const QString text = runProgram(perf, {"script", "-i", "perf.data", "--inline"}, dir.path(), &code);
    QCOMPARE(code, 0);
    const QString withLines = runProgram(perf, {"script", "-i", "perf.data", "--inline", "-F", "+srcline"}, dir.path(), &code);
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
    for (const QString &row : runProgram(QStringLiteral(QFLAME_BINARY), {"top", "--tsv", "inline.txt"}, dir.path(), &code)
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

QTEST_GUILESS_MAIN(tst_PerfRecord)
#include "tst_perfrecord.moc"
