// The code of model/disasm beyond costs: branches and their targets read from binutils' and Go's syntax, the jumps
// of a routine in lanes (hand-worked cases, and a Go program built here whose jumps go tool objdump's own text
// names), code compared ignoring addresses, per-instruction deltas of unchanged code and became-inlined calls on
// hand-made builds with every value worked out here.
#include "GoToolchain.h"
#include "disasm/DisasmDiff.h"
#include "disasm/Jumps.h"
#include "disasm/Objdump.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

using namespace qflame;
using namespace qflame::pgotest;

class tst_DisasmCode : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void branches();
    void jumpLanes();
    void jumpTargetsOfGoBinary();
    void instructionDeltas();
};

void tst_DisasmCode::branches()
{
    struct Case {
        const char *text;
        Instruction::Branch branch;
        uint64_t target;
        const char *callee;
    };
    using B = Instruction::Branch;
    const Case cases[] = {
        {"jbe 4b21ca <main.spin+0xaa>", B::Jump, 0x4b21ca, ""},
        {"call 487500 <time.Now>", B::Call, 0x487500, "time.Now"},
        {"call 1130 <foo(int, long)>", B::Call, 0x1130, "foo(int, long)"},
        {"jmp *%rax", B::Jump, 0, ""},
        {"call *0x10(%rax)", B::Call, 0, ""},
        {"bnd jmp 401020 <puts@plt>", B::Jump, 0x401020, ""},
        {"b.ne 4005d0 <main+0x20>", B::Jump, 0x4005d0, ""},
        {"tbnz w0, #3, 4005e0 <main+0x30>", B::Jump, 0x4005e0, ""},
        {"bl 400500 <abort>", B::Call, 0x400500, "abort"},
        {"JBE 0x4b21ca", B::Jump, 0x4b21ca, ""},
        {"JMP main.spin(SB)", B::Jump, 0x4b2120, ""},            // the routine's own start
        {"JMP main.spin+16(SB)", B::Jump, 0x4b2130, ""},
        {"CALL main.mix(SB)", B::Call, 0, "main.mix"},             // another symbol: no address in Go's text
        {"BNE 0x4005d0", B::Jump, 0x4005d0, ""},
        {"mov %rbp,0x50(%rsp)", B::None, 0, ""},
        {"MOVQ BP, 0x50(SP)", B::None, 0, ""},
        {"BIC $1, R0, R1", B::None, 0, ""},
    };
    for (const Case &c : cases) {
        Instruction in;
        in.text = c.text;
        classifyBranch(in, "main.spin", 0x4b2120);
        QVERIFY2(in.branch == c.branch, c.text);
        QVERIFY2(in.target == c.target, c.text);
        QVERIFY2(in.callee == c.callee, c.text);
    }
    // Code compared without what moves with the layout: targets, <sym+off>, # comments, RIP displacements.
    auto key = [](const char *text) {
        Instruction in;
        in.text = text;
        classifyBranch(in, "f", 0x1000);
        return codeKey(in);
    };
    QCOMPARE(key("jbe 4b21ca <main.spin+0xaa>"), key("jbe 4b3000 <main.spin+0x20>"));
    QCOMPARE(key("jbe 4b21ca <main.spin+0xaa>"), std::string("jbe"));
    QVERIFY(key("jbe 4b21ca <main.spin+0xaa>") != key("jb 4b21ca <main.spin+0xaa>"));
    QCOMPARE(key("call 487500 <time.Now>"), std::string("call time.Now"));
    QVERIFY(key("call 487500 <time.Now>") != key("call 487500 <time.Since>"));
    QCOMPARE(key("lea 0x2e4f(%rip),%rdi # 404010 <buf>"), std::string("lea (%rip),%rdi"));
    QCOMPARE(key("lea 0x2e4f(%rip),%rdi # 404010 <buf>"), key("lea -0x10(%rip),%rdi # 403000 <buf>"));
    QCOMPARE(key("mov 0x10(%rsp),%rbx"), std::string("mov 0x10(%rsp),%rbx"));
    QCOMPARE(key("jmp *%rax"), std::string("jmp *%rax"));

    // go tool objdump's rows: base name and line, address, bytes, Go's text.
    const QByteArray go = "TEXT main.spin(SB) /src/main.go\n"
                          "  main.go:22\t\t0x4b2120\t\t493b6610\t\tCMPQ 0x10(R14), SP\t\t\t\n"
                          "  main.go:15\t\t0x4b2193\t\t48c1eb21\t\tSHRQ $0x21, BX\t\t\t\n";
    const std::vector<Instruction> g = parseGoObjdump(go);
    QCOMPARE(g.size(), size_t(2));
    QCOMPARE(g[0].address, uint64_t(0x4b2120));
    QCOMPARE(g[0].text, std::string("CMPQ 0x10(R14), SP"));
    QCOMPARE(g[1].file, std::string("main.go"));
    QCOMPARE(g[1].line, int64_t(15));
}

void tst_DisasmCode::jumpLanes()
{
    // Ten instructions 4 bytes apart; jumps 1->3, 2->6, 4->5, 7->0 (a loop), 8->9, and three that are no arrow:
    // 3 jumps out of the routine, 5 calls, 6 jumps indirectly. Shorter spans first, each in the lowest free lane:
    // 4->5 lane 0, 8->9 lane 0, 1->3 lane 0 (disjoint from both), 2->6 lane 1 (it covers 4->5), 7->0 lane 2.
    std::vector<uint64_t> addresses, targets(10, 0);
    for (uint64_t i = 0; i < 10; ++i)
        addresses.push_back(0x100 + 4 * i);
    auto jump = [&](size_t from, size_t to) { targets[from] = 0x100 + 4 * to; };
    jump(1, 3), jump(2, 6), jump(4, 5), jump(7, 0), jump(8, 9);
    targets[3] = 0x900;
    const std::vector<JumpArrow> a = jumpArrows(addresses, targets);
    QCOMPARE(a.size(), size_t(5));
    const std::vector<std::array<size_t, 3>> expected{{1, 3, 0}, {2, 6, 1}, {4, 5, 0}, {7, 0, 2}, {8, 9, 0}};
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].from, expected[i][0]);
        QCOMPARE(a[i].to, expected[i][1]);
        QCOMPARE(size_t(a[i].lane), expected[i][2]);
    }
    // Through the instructions' text: a call and an indirect jump are no arrows.
    std::vector<Instruction> ins(3);
    const char *texts[] = {"call 108 <f+0x8>", "jmp *%rax", "jne 100 <f>"};
    for (size_t i = 0; i < 3; ++i) {
        ins[i].address = 0x100 + 4 * i;
        ins[i].text = texts[i];
        classifyBranch(ins[i], "f", 0x100);
    }
    const std::vector<JumpArrow> b = jumpArrows(ins);
    QCOMPARE(b.size(), size_t(1));
    QCOMPARE(b[0].from, size_t(2));
    QCOMPARE(b[0].to, size_t(0));
}

void tst_DisasmCode::jumpTargetsOfGoBinary()
{
    REQUIRE_GO(go);
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QStringLiteral(QFLAME_TEST_DATA "/pgo-inlining/main.go"), dir.filePath("main.go")));
    const Run build = runGo(go, {QStringLiteral("build"), QStringLiteral("-o"), QStringLiteral("prog"), QStringLiteral("main.go")},
                            dir.path());
    QVERIFY2(build.code == 0, build.err.constData());
    const std::string binary = dir.filePath(QStringLiteral("prog")).toStdString();
    const BinaryInfo info = readBinaryInfo(binary);
    const std::vector<Symbol> symbols = readSymbols(info);
    const auto spin = std::find_if(symbols.begin(), symbols.end(), [](const Symbol &s) {
        return std::find(s.names.begin(), s.names.end(), "main.spin") != s.names.end();
    });
    QVERIFY(spin != symbols.end());
    // The oracle: go tool objdump's own text read here, every J* with its target (an address, or the routine's
    // own symbol: its start).
    const Run dump = runGo(go, {QStringLiteral("tool"), QStringLiteral("objdump"), QStringLiteral("-s"),
                                QStringLiteral("^main\\.spin$"), QString::fromStdString(binary)},
                           dir.path());
    QCOMPARE(dump.code, 0);
    std::map<uint64_t, uint64_t> expected;   // jump address -> target
    static const QRegularExpression row(QStringLiteral(R"(^\s+\S+:\d+\s+0x([0-9a-f]+)\s+[0-9a-f]+\s+J[A-Z]+ (?:0x([0-9a-f]+)|main\.spin\(SB\)))"));
    for (const QByteArray &line : dump.out.split('\n'))
        if (const auto m = row.match(QString::fromUtf8(line)); m.hasMatch())
            expected[m.captured(1).toULongLong(nullptr, 16)] =
                m.captured(2).isEmpty() ? spin->start : m.captured(2).toULongLong(nullptr, 16);
    QVERIFY(expected.size() >= 4);
    // binutils' AT&T text and Go's text, each read by the model: the same jumps, to the same instructions.
    for (Disassembler which : {Disassembler::Binutils, Disassembler::Go}) {
        std::vector<Instruction> ins = disassemble(info, spin->start, spin->end, which);
        QVERIFY(ins.size() > 20);
        QCOMPARE(ins.front().text.front() == 'C', which == Disassembler::Go);   // "CMPQ" / "cmp"
        std::map<uint64_t, uint64_t> got;
        for (Instruction &in : ins) {
            classifyBranch(in, "main.spin", spin->start);
            if (in.branch == Instruction::Branch::Jump)
                got[in.address] = in.target;
        }
        QVERIFY(got == expected);
        // Every target is an instruction of main.spin: one arrow per jump, from its row to the target's.
        const std::vector<JumpArrow> arrows = jumpArrows(ins);
        QCOMPARE(arrows.size(), expected.size());
        for (const JumpArrow &a : arrows)
            QCOMPARE(ins[a.to].address, expected.at(ins[a.from].address));
        // No two arrows of one lane overlap.
        for (const JumpArrow &a : arrows)
            for (const JumpArrow &b : arrows)
                if (&a != &b && a.lane == b.lane)
                    QVERIFY(std::max(a.from, a.to) < std::min(b.from, b.to) || std::max(b.from, b.to) < std::min(a.from, a.to));
    }
}

void tst_DisasmCode::instructionDeltas()
{
    // Two builds of f by hand. Line 10: the same code at other addresses (a jump's target and a RIP displacement
    // moved): paired, each instruction's delta its own. Line 11: other code: no pairs. Counts are samples, cum is
    // 10 ns per sample, so the Poisson standard error of a delta is 10 * sqrt(n_before + n_after).
    auto instruction = [](uint64_t address, const char *text, int64_t line, int64_t samples) {
        DisasmInstruction in;
        in.address = address, in.text = text, in.file = "/b/f.c", in.line = line, in.function = "f";
        in.cum = in.flat = 10 * samples;
        in.countCum = samples;
        classifyBranch(in, "f", 0x100);
        return in;
    };
    auto build = [](std::vector<DisasmInstruction> ins) {
        Disassembly d;
        d.unit = "nanoseconds", d.countsKnown = true;
        DisasmRoutine r;
        r.name = "f";
        r.instructions = std::move(ins);
        d.routines.push_back(r);
        return d;
    };
    const Disassembly before = build({instruction(0x100, "lea 0x2e4f(%rip),%rdi # 4000 <buf>", 10, 100),
                                      instruction(0x107, "jne 100 <f>", 10, 4),
                                      instruction(0x109, "add %rax,%rbx", 10, 0),
                                      instruction(0x10c, "imul %rsi,%rbx", 11, 50)});
    const Disassembly after = build({instruction(0x200, "lea 0x1d4f(%rip),%rdi # 3f50 <buf>", 10, 30),
                                     instruction(0x207, "jne 200 <f>", 10, 5),
                                     instruction(0x209, "add %rax,%rbx", 10, 9),
                                     instruction(0x20c, "shl $0x3,%rbx", 11, 50)});
    DisasmDiff d = diffDisassembly(before, after, 2.0);
    QCOMPARE(d.groups.size(), size_t(2));
    const DisasmGroup &same = d.groups[0], &other = d.groups[1];
    QCOMPARE(same.line, int64_t(10));
    QVERIFY(same.sameCode);
    QCOMPARE(same.paired.size(), size_t(3));
    // lea: 1000 -> 300, -700; error 10 * sqrt(130) = 114.0: slower/faster beyond 2 errors: faster.
    QCOMPARE(same.paired[0].cumDelta, int64_t(-700));
    QCOMPARE(same.paired[0].flatDelta, int64_t(-700));
    QCOMPARE(same.paired[0].standardError, 10 * std::sqrt(130.0));
    QVERIFY(same.paired[0].cls == DiffClass::Faster);
    // jne: 40 -> 50, +10 under 2 * 10 * sqrt(9) = 60: noise.
    QCOMPARE(same.paired[1].cumDelta, int64_t(10));
    QVERIFY(same.paired[1].cls == DiffClass::WithinNoise);
    // add: 0 -> 90: new.
    QCOMPARE(same.paired[2].cumDelta, int64_t(90));
    QVERIFY(same.paired[2].cls == DiffClass::New);
    // The group: 1000 + 40 + 0 -> 300 + 50 + 90.
    QCOMPARE(same.cumDelta(), int64_t(-600));
    QVERIFY(!other.sameCode);
    QVERIFY(other.paired.empty());
    QCOMPARE(other.cumDelta(), int64_t(0));

    // Inlining: f's call to g became inlined; the baseline's call is marked, and the new build's inline frame.
    Disassembly callBefore = build({instruction(0x100, "call 400 <g>", 12, 7)});
    DisasmInstruction inlinedG = instruction(0x200, "add $0x1,%rax", 12, 3);
    inlinedG.function = "g";
    Disassembly callAfter = build({inlinedG});
    DisasmDiff inl = diffDisassembly(callBefore, callAfter, 2.0);
    InliningChanges changes;
    changes.inlining.push_back({InliningChange::Kind::BecameInlined, "f", "g", {7, 0}, {0, 3}});
    changes.inlining.push_back({InliningChange::Kind::NoLongerInlined, "f", "h", {0, 1}, {1, 0}});
    markInliningChanges(inl, changes);
    QCOMPARE(inl.groups.size(), size_t(2));   // (f, line 12) and (g, line 12)
    const DisasmGroup &call = inl.groups[0].function == "f" ? inl.groups[0] : inl.groups[1];
    const DisasmGroup &frame = inl.groups[0].function == "g" ? inl.groups[0] : inl.groups[1];
    QCOMPARE(call.inlinedCalls.size(), size_t(1));
    QCOMPARE(call.inlinedCalls[0].instruction, size_t(0));
    QCOMPARE(call.inlinedCalls[0].callee, std::string("g"));
    QCOMPARE(call.inlinedHere, -1);
    QCOMPARE(frame.inlinedHere, int(InliningChange::Kind::BecameInlined));
    QVERIFY(frame.inlinedCalls.empty());

    // C++: objdump -C's "f(int)" calling "g(long) const", a profile's "f" and "g": the same names.
    Disassembly cxxBefore = build({instruction(0x100, "call 400 <ns::g(long) const>", 12, 7)});
    cxxBefore.routines[0].instructions[0].function = "ns::f(int)";
    DisasmDiff cxx = diffDisassembly(cxxBefore, callAfter, 2.0);
    InliningChanges cxxChanges;
    cxxChanges.inlining.push_back({InliningChange::Kind::PartlyInlined, "ns::f", "ns::g", {7, 0}, {4, 3}});
    markInliningChanges(cxx, cxxChanges);
    size_t cxxMarks = 0;
    for (const DisasmGroup &g : cxx.groups)
        for (const InlinedCall &c : g.inlinedCalls) {
            QCOMPARE(c.callee, std::string("ns::g(long) const"));
            QVERIFY(c.kind == InliningChange::Kind::PartlyInlined);
            ++cxxMarks;
        }
    QCOMPARE(cxxMarks, size_t(1));
}

QTEST_GUILESS_MAIN(tst_DisasmCode)
#include "tst_disasmcode.moc"
