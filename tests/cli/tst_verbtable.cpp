// The verb table (app/VerbTable.h) against what is built from it: every option of every form is in its verb's
// help and in the man page, "--x=v" and "--x v" parse alike for every value option, and an unknown option is a
// usage error (exit 1, one line naming it, then the verb's --help).
#include "Cli.h"
#include "CliRounds.h"
#include "RunQflame.h"
#include "VerbTable.h"

#include <QFile>
#include <QtTest>

using namespace qflame;
using namespace qflame::test;

class tst_VerbTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyVerbHasItsForms();
    void helpListsEveryOption();
    void bothValueSpellingsParseAlike();
    void flagsTakeNoValue();
    void unknownOptionIsRefused();
    void unknownOptionExitsWithUsage();
    void verbHelpRuns();
    void manPageHasEveryVerbAndOption();
    void manPageCheckFailsWithoutAnOption();
    void formChoice();
    void programChoice();
};

void tst_VerbTable::everyVerbHasItsForms()
{
    const std::vector<std::string> names = verbNames();
    const std::vector<std::string> expected = {"info", "top",  "diff",  "convert", "merge", "pgo",
                                               "rounds", "list", "graph", "disasm",  "heatmap"};
    QCOMPARE(names, expected);
    for (const VerbSpec &v : verbTable()) {
        QVERIFY2(v.synopsis && *v.synopsis && v.summary && *v.summary, v.name);
        for (const OptionSpec &o : v.options) {
            QVERIFY2(o.help && *o.help, o.name);
            QVERIFY2(o.name[0] == '-', o.name);
        }
        // The form a verb's selector names is the one chosen; a server form runs only where it was registered.
        if (*v.name && v.selector)
            QCOMPARE(verbForm(v.name, {v.selector, "x"}), &v);
    }
    // The table links no run function (`qflame` registers the two it runs without Qt); once registered, every
    // form on files has one, and only info and top are the core's.
    for (const VerbSpec &v : verbTable())
        QVERIFY2(!v.run, v.name);
    registerCoreVerbs();
    std::vector<std::string> core;
    for (const VerbSpec &v : verbTable())
        if (v.run)
            core.push_back(v.title());
    QCOMPARE(core, std::vector<std::string>({"info", "top"}));
    registerFileVerbs();
    for (const VerbSpec &v : verbTable())
        if (v.needs == VerbNeeds::Files)
            QVERIFY2(v.run, v.name);
}

void tst_VerbTable::helpListsEveryOption()
{
    for (const std::string &verb : verbNames()) {
        const std::string help = verbHelp(verb);
        for (const VerbSpec &v : verbTable()) {
            if (verb != v.name)
                continue;
            for (const OptionSpec &o : v.options) {
                const std::string line = std::string("    ") + o.name + (o.value ? std::string(" ") + o.value : "");
                QVERIFY2(help.find(line) != std::string::npos, (verb + " --help lacks " + line).c_str());
            }
        }
    }
    // And the program prints it: `qflame top --help` is the table's.
    const Run r = runQflame({QStringLiteral("top"), QStringLiteral("--help")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.toStdString(), verbHelp("top"));
    const Run all = runQflame({QStringLiteral("--help")});
    QCOMPARE(all.out.toStdString(), mainHelp());
}

void tst_VerbTable::bothValueSpellingsParseAlike()
{
    int checked = 0;
    for (const VerbSpec &v : verbTable()) {
        for (const OptionSpec &o : v.options) {
            if (!o.value || std::string(o.name).rfind("--", 0) != 0)
                continue;
            for (const std::string value : {"some value", "a=b", "-starts-with-dash", ""}) {
                std::string error;
                const std::vector<std::string> apart = {"FILE", o.name, value};
                const std::vector<std::string> joined = {"FILE", std::string(o.name) + "=" + value};
                const auto a = parseVerbArgs(v, apart, &error);
                QVERIFY2(a, (v.title() + " " + o.name + ": " + error).c_str());
                const auto b = parseVerbArgs(v, joined, &error);
                QVERIFY2(b, (v.title() + " " + o.name + "=: " + error).c_str());
                QCOMPARE(a->items.size(), size_t(2));
                QCOMPARE(b->items.size(), size_t(2));
                for (size_t i = 0; i < 2; ++i) {
                    QCOMPARE(a->items[i].option, b->items[i].option);
                    QCOMPARE(a->items[i].value, b->items[i].value);
                }
                QCOMPARE(a->value(o.name), std::optional<std::string>(value));
                ++checked;
            }
            // A value option at the end without its value says so.
            std::string error;
            QVERIFY(!parseVerbArgs(v, {"FILE", o.name}, &error));
            QCOMPARE(error, "option " + std::string(o.name) + " needs a value");
        }
    }
    QVERIFY(checked > 400);
}

void tst_VerbTable::flagsTakeNoValue()
{
    for (const VerbSpec &v : verbTable())
        for (const OptionSpec &o : v.options) {
            if (o.value)
                continue;
            std::string error;
            const auto parsed = parseVerbArgs(v, {o.name, "FILE"}, &error);
            QVERIFY(parsed);
            QVERIFY(parsed->has(o.name));
            QCOMPARE(parsed->positional(), std::vector<std::string>{"FILE"});
            QVERIFY(!parseVerbArgs(v, {std::string(o.name) + "=1"}, &error));
            QCOMPARE(error, "option " + std::string(o.name) + " takes no value");
        }
}

void tst_VerbTable::unknownOptionIsRefused()
{
    for (const VerbSpec &v : verbTable()) {
        std::string error;
        // After the first positional (a regex verb's first may begin with '-').
        QVERIFY2(!parseVerbArgs(v, {"A", "B", "--frobnicate"}, &error), v.title().c_str());
        QCOMPARE(error, std::string("unknown option --frobnicate"));
        QVERIFY(!parseVerbArgs(v, {"A", "--frobnicate=1"}, &error));
        QCOMPARE(error, std::string("unknown option --frobnicate"));
        // After "--" anything is a FILE.
        const auto parsed = parseVerbArgs(v, {"--", "--frobnicate"}, &error);
        QVERIFY(parsed);
        QCOMPARE(parsed->positional(), std::vector<std::string>{"--frobnicate"});
    }
}

void tst_VerbTable::unknownOptionExitsWithUsage()
{
    for (const std::string &verb : verbNames()) {
        const Run r = runQflame({QString::fromStdString(verb), QStringLiteral("x"), QStringLiteral("y"),
                                 QStringLiteral("--frobnicate")});
        QCOMPARE(r.code, 1);
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(r.err.toStdString(), "qflame: unknown option --frobnicate\nRun 'qflame " + verb + " --help' for " +
                                           verb + "'s options.\n");
    }
}

void tst_VerbTable::verbHelpRuns()
{
    for (const std::string &verb : verbNames()) {
        const Run r = runQflame({QString::fromStdString(verb), QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.startsWith("Usage:\n  qflame " + QByteArray::fromStdString(verb) + " "));
    }
}

// The page the build wrote (app/CMakeLists.txt) lists every form and option, as packaging/check-man.sh checks.
void tst_VerbTable::manPageHasEveryVerbAndOption()
{
    QFile f(QStringLiteral(QFLAME_MAN_PAGE));
    QVERIFY2(f.open(QIODevice::ReadOnly), QFLAME_MAN_PAGE);
    const std::string page = f.readAll().toStdString();
    auto roff = [](std::string s) {
        std::string out;
        for (char c : s)
            out += c == '-' ? std::string("\\-") : std::string(1, c);
        return out;
    };
    for (const VerbSpec &v : verbTable()) {
        const std::string title = ".SS \"" + roff("qflame" + (v.title().empty() ? "" : " " + v.title())) + "\"\n";
        const size_t at = page.find(title);
        QVERIFY2(at != std::string::npos, title.c_str());
        const size_t end = std::min(page.find("\n.SS ", at + 1), page.find("\n.SH ", at + 1));
        const std::string section = page.substr(at, end - at);
        for (const OptionSpec &o : v.options)
            QVERIFY2(section.find("\\fB" + roff(o.name) + "\\fR") != std::string::npos,
                     (v.title() + " " + o.name).c_str());
    }
    // And it is what the program writes from its template now.
    QFile templ(QStringLiteral(QFLAME_MAN_TEMPLATE));
    QVERIFY(templ.open(QIODevice::ReadOnly));
    QCOMPARE(manPage(templ.readAll().toStdString()), page);
}

// check-man.sh must be able to fail: a page without one option of one form.
void tst_VerbTable::manPageCheckFailsWithoutAnOption()
{
    QFile f(QStringLiteral(QFLAME_MAN_PAGE));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray page = f.readAll();
    QTemporaryDir dir;
    auto check = [&](const QByteArray &text) {
        QFile out(dir.filePath(QStringLiteral("qflame.1")));
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return -1;
        out.write(text);
        out.close();
        QProcess p;
        p.start(QStringLiteral("bash"), {QStringLiteral(QFLAME_CHECK_MAN), QStringLiteral(QFLAME_BINARY), out.fileName()});
        p.waitForFinished(60000);
        return p.exitCode();
    };
    if (QStandardPaths::findExecutable(QStringLiteral("groff")).isEmpty())
        QSKIP("groff is missing (apt-get install groff-base)");
    QCOMPARE(check(page), 0);
    const QByteArray option = "\\fB\\-\\-nodefraction\\fR";
    QVERIFY(page.contains(option));
    QCOMPARE(check(QByteArray(page).replace(option, "\\fBnothing\\fR")), 1);
    QCOMPARE(check(QByteArray(page).replace(".SS \"qflame heatmap\"", ".SS \"qflame heat\"")), 1);
}

void tst_VerbTable::formChoice()
{
    QCOMPARE(verbForm("diff", {"a", "b"})->title(), std::string("diff"));
    QCOMPARE(verbForm("diff", {"a", "b", "--graph"})->title(), std::string("diff --graph"));
    QCOMPARE(verbForm("diff", {"a", "b", "--disasm=main"})->title(), std::string("diff --disasm"));
    QCOMPARE(verbForm("diff", {"--url=http://x", "--graph"})->title(), std::string("diff --url"));
    QCOMPARE(verbForm("top", {"--", "--url"})->title(), std::string("top"));
    QCOMPARE(verbForm("nope", {}), nullptr);
    // The regex of list and disasm may begin with '-'; after it, an unknown option is refused.
    std::string error;
    const VerbSpec &list = *verbForm("list", {});
    const auto parsed = parseVerbArgs(list, {"-main", "f.pb.gz", "--tsv"}, &error);
    QVERIFY(parsed);
    QCOMPARE(parsed->positional(), (std::vector<std::string>{"-main", "f.pb.gz"}));
    QVERIFY(!parseVerbArgs(list, {"main", "-x"}, &error));
}

// Which program runs a verb follows from the table: `draws` options, server forms whose run function this
// program lacks (no setServerVerbs here, as in `qflame`), URL FILEs without a fetcher, rounds without output.
void tst_VerbTable::programChoice()
{
    QVERIFY(verbRunsHere("top", {"f.pb.gz", "--tsv"}));
    QVERIFY(verbRunsHere("diff", {"a", "b", "--tsv"}));
    QVERIFY(!verbRunsHere("diff", {"a", "b", "--png", "x.png"}));
    QVERIFY(!verbRunsHere("diff", {"a", "b", "--svg=x.svg"}));
    QVERIFY(!verbRunsHere("graph", {"a", "--png=x.png"}));
    QVERIFY(verbRunsHere("graph", {"a", "--dot", "-"}));
    QVERIFY(!verbRunsHere("top", {"--url", "http://q:3100", "--type", "t"}));
    QVERIFY(!verbRunsHere("merge", {"--url=http://q:3100"}));
    QVERIFY(!verbRunsHere("top", {"http://host:6060/debug/pprof/heap"}));
    QVERIFY(verbRunsHere("top", {"--", "http-not-a-url"}));
    QVERIFY(!verbRunsHere("rounds", {"-r", "a", "f.pb.gz"}));   // the window's rounds tab
    QVERIFY(verbRunsHere("rounds", {"-r", "a", "f.pb.gz", "--json"}));
    QVERIFY(verbRunsHere("diff", {"a", "b", "--help"}));   // the help is the table's, here
    // A wrong command line is reported by the program that got it.
    QVERIFY(verbRunsHere("diff", {"a", "b", "--frobnicate"}));
    QVERIFY(roundsWantsWindow({"-r", "a", "f"}));
    QVERIFY(!roundsWantsWindow({"-r", "a", "f", "--markdown"}));
    QVERIFY(roundsWantsWindow({"--url", "u", "--type", "t", "-r", "a", "--from", "1", "--to", "2"}));
    // The rounds tab reads under --max-size as the verb does (the window's cap, set from the request).
    QCOMPARE(parseRoundsRequest({"-r", "a", "f.pb.gz", "-r", "b", "g.pb.gz", "--max-size", "16"}).maxReadBytes,
             uint64_t(16) << 20);
    QCOMPARE(parseRoundsRequest({"-r", "a", "f.pb.gz", "-r", "b", "g.pb.gz"}).maxReadBytes, uint64_t(1) << 30);
}

QTEST_GUILESS_MAIN(tst_VerbTable)
#include "tst_verbtable.moc"
