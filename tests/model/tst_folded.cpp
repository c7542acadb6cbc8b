// Folded stacks: parsing, writing, telling them apart from other formats, and the round trips
// pprof -> folded -> qflame (every node's total and self) and go tool pprof -traces -> folded -> qflame.
#include "diff/DiffTable.h"
#include "export/FoldedWriter.h"
#include "export/ProfileWriter.h"
#include "formats/FoldedFormat.h"
#include "formats/ProfileInput.h"
#include "formats/StackProfile.h"
#include "LoadJob.h"
#include "ProfileFactory.h"
#include "tree/CallTreeBuilder.h"
#include "TreePaths.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

using namespace qflame;
using qflame::test::firstDifference;
using qflame::test::treePaths;
using qflame::test::TreePaths;

namespace {

QString data(const QString &name)
{
    return QStringLiteral(QFLAME_TEST_DATA "/") + name;
}

std::shared_ptr<const CallTree> tree(const std::shared_ptr<const Profile> &p, int type = -1)
{
    return CallTreeBuilder::build({p}, size_t(type < 0 ? p->effectiveDefaultType() : type));
}

// "path=total/self" lines of every node, sorted by path: a whole tree in one comparable string.
QString describe(const CallTree &t)
{
    QStringList lines;
    for (const auto &[path, v] : treePaths(t))
        lines << QStringLiteral("%1=%2/%3").arg(QString::fromStdString(path).replace(QLatin1Char('\n'), QLatin1Char(';')))
                     .arg(v.first)
                     .arg(v.second);
    return lines.join(QLatin1Char(' '));
}

}   // namespace

class tst_Folded : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void parses_data();
    void parses();
    void rejects_data();
    void rejects();
    void sniffs_data();
    void sniffs();
    void skipsCommentsAndInvalidLines();
    void readsUtf16_data();
    void readsUtf16();
    void readsBrokenUtf16();
    void writesExactLines();
    void writesSeparatorsItCannotEscape();
    void pprofRoundTrip_data();
    void pprofRoundTrip();
    void goToolPprofTracesEqualThePprofTree_data();
    void goToolPprofTracesEqualThePprofTree();
    void compressedFoldedIsRead();
    void windowLoadersReadEveryFormat();
};

void tst_Folded::parses_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("tree");
    QTest::addColumn<int>("samples");
    QTest::newRow("one stack") << QByteArray("main;run;parse 42\n")
                               << QStringLiteral("<root>=42/0 main=42/0 main;run=42/0 main;run;parse=42/42") << 1;
    QTest::newRow("shared prefix, self in the middle")
        << QByteArray("a;b 3\na;b;c 5\na;d 7\n")
        << QStringLiteral("<root>=15/0 a=15/0 a;b=8/3 a;b;c=5/5 a;d=7/7") << 3;
    QTest::newRow("duplicates are summed into one sample")
        << QByteArray("a;b 3\na;b 4\n") << QStringLiteral("<root>=7/0 a=7/0 a;b=7/7") << 1;
    QTest::newRow("spaces inside frame names")
        << QByteArray("java;std::vector<int> grow();operator new(unsigned long) 9\n")
        << QStringLiteral("<root>=9/0 java=9/0 java;std::vector<int> grow()=9/0 "
                          "java;std::vector<int> grow();operator new(unsigned long)=9/9")
        << 1;
    QTest::newRow("tabs and several spaces before the count, CRLF, blank lines, BOM")
        << QByteArray("\xEF\xBB\xBF" "a;b \t  2\r\n\r\n   \na 1  \r\n")
        << QStringLiteral("<root>=3/0 a=3/1 a;b=2/2") << 2;
    QTest::newRow("an empty stack counts at the root")
        << QByteArray(" 4\na 6\n") << QStringLiteral("<root>=10/4 a=6/6") << 2;
    QTest::newRow("negative and explicitly positive counts")
        << QByteArray("a;b -2\na;c +5\n") << QStringLiteral("<root>=3/0 a=3/0 a;b=-2/-2 a;c=5/5") << 2;
    QTest::newRow("no final newline") << QByteArray("x 1") << QStringLiteral("<root>=1/0 x=1/1") << 1;
    QTest::newRow("zero counts are kept as samples but add no node")
        << QByteArray("a 0\nb 2\n") << QStringLiteral("<root>=2/0 b=2/2") << 2;
}

void tst_Folded::parses()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, tree);
    QFETCH(int, samples);
    const auto p = readFolded(text.toStdString(), "t.folded");
    QCOMPARE(int(p->sampleCount()), samples);
    QCOMPARE(p->sampleTypes.size(), size_t(1));
    QCOMPARE(p->typeName(0), std::string("samples"));
    QCOMPARE(p->unitName(0), std::string("count"));
    QCOMPARE(describe(*::tree(p)), tree);
}

void tst_Folded::rejects_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("no line is a stack") << QByteArray("# a comment\na;b;c\nx y\n")
                                        << QStringLiteral("t.folded: line 2: not folded stacks: expected 'frame;frame;... COUNT' "
                                                          "with a whole-number count, got 'a;b;c'");
    QTest::newRow("fractional count") << QByteArray("a;b 1.5\n")
                                      << QStringLiteral("t.folded: line 1: not folded stacks: expected 'frame;frame;... "
                                                        "COUNT' with a whole-number count, got 'a;b 1.5'");
    QTest::newRow("count alone, without a separator")
        << QByteArray("\n\n7\n") << QStringLiteral("t.folded: line 3: not folded stacks: expected 'frame;frame;... "
                                                   "COUNT' with a whole-number count, got '7'");
    QTest::newRow("count over int64") << QByteArray("a 9223372036854775808\n")
                                      << QStringLiteral("t.folded: line 1: not folded stacks: expected 'frame;frame;... "
                                                        "COUNT' with a whole-number count, got 'a 9223372036854775808'");
    QTest::newRow("only blank lines") << QByteArray("\n  \n")
                                      << QStringLiteral("t.folded: no stacks: the folded input has no lines");
}

void tst_Folded::rejects()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    try {
        readFolded(text.toStdString(), "t.folded");
        QFAIL("no error");
    } catch (const ProfileError &e) {
        QCOMPARE(QString::fromUtf8(e.what()), message);
    }
}

void tst_Folded::sniffs_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("format");
    QTest::newRow("folded") << QByteArray("main;a 1\n") << QStringLiteral("folded");
    QTest::newRow("folded after blank lines") << QByteArray("\n\r\nmain 12\n") << QStringLiteral("folded");
    QTest::newRow("json object") << QByteArray(" \n{\"flamebearer\":{}}") << QStringLiteral("flamebearer");
    QTest::newRow("prose") << QByteArray("hello, this is not a profile\n") << QStringLiteral("pprof");
    QTest::newRow("tsv header") << QByteArray("file\tbytes\n") << QStringLiteral("pprof");
    QTest::newRow("number alone") << QByteArray("42\n") << QStringLiteral("pprof");
    // A line of binary that happens to end in " 12" is still binary.
    QTest::newRow("binary line ending like a count") << QByteArray("\x08\x01\x10 12\n", 7) << QStringLiteral("pprof");
    QTest::newRow("real pprof")
        << QByteArray::fromStdString(decompress(test::fileBytes(data(QStringLiteral("gen__heap.pb.gz"))), Compression::Gzip, 1 << 30))
        << QStringLiteral("pprof");
    QTest::newRow("real folded") << QByteArray::fromStdString(test::fileBytes(data(QStringLiteral("formats/gen__heap.alloc_space.folded"))))
                                 << QStringLiteral("folded");
}

void tst_Folded::sniffs()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, format);
    QCOMPARE(QString::fromLatin1(profileFormatName(sniffProfileFormat(bytes.toStdString()))), format);
}

void tst_Folded::skipsCommentsAndInvalidLines()
{
    // flamegraph.pl's rule: '#' lines and lines that are not "frames COUNT" are skipped; we count them and say so.
    const QByteArray text("# collapsed by hand\n  # indented comment\na;b 3\na;b;c\nbroken 1.5\na;d 4\n");
    ReadOptions o;
    QStringList warnings;
    o.warning = [&](const std::string &w) { warnings << QString::fromStdString(w); };
    const auto p = readFolded(text.toStdString(), "t.folded", o);
    QCOMPARE(describe(*::tree(p)), QStringLiteral("<root>=7/0 a=7/0 a;b=3/3 a;d=4/4"));
    const QString note = QStringLiteral("skipped 4 lines that are not stacks (2 '#' comments, 2 invalid; the first at "
                                        "line 4: not folded stacks: expected 'frame;frame;... COUNT' with a "
                                        "whole-number count, got 'a;b;c')");
    QCOMPARE(warnings, QStringList{QStringLiteral("t.folded: folded: ") + note});
    QCOMPARE(QString::fromStdString(std::string(p->str(p->comments.back()))), QStringLiteral("qflame: ") + note);
    // Comments first: still folded, not perf script's '#' header.
    QCOMPARE(int(sniffProfileFormat(text.toStdString())), int(ProfileFormat::Folded));
    // The CLI: the stacks on stdout, one warning line on stderr, and the note in info.
    const QString file = QDir::temp().filePath(QStringLiteral("tst_folded_comments.folded"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    f.close();
    QProcess top;
    top.start(QStringLiteral(QFLAME_BINARY), {QStringLiteral("top"), QStringLiteral("--tsv"), file});
    QVERIFY(top.waitForFinished(60000));
    QCOMPARE(top.exitCode(), 0);
    QCOMPARE(top.readAllStandardOutput(), QByteArray("4\t4\td\n3\t3\tb\n0\t7\ta\n"));
    const QByteArray err = top.readAllStandardError();
    QCOMPARE(err.count('\n'), 1);
    QVERIFY2(err.startsWith("qflame: warning: " + file.toUtf8() + ": folded: skipped 4 lines"), err.constData());
    QProcess info;
    info.start(QStringLiteral(QFLAME_BINARY), {QStringLiteral("info"), file});
    QVERIFY(info.waitForFinished(60000));
    QVERIFY(info.readAllStandardOutput().contains("Comment: qflame: skipped 4 lines that are not stacks"));
    QFile::remove(file);
}

void tst_Folded::readsUtf16_data()
{
    QTest::addColumn<QByteArray>("bytes");
    const QString text = QStringLiteral("main;f\u00fcr;\u8a08\u7b97 3\r\nmain;\U0001F525 2\r\n");
    QByteArray le("\xFF\xFE"), be("\xFE\xFF");
    for (QChar c : text) {
        le.append(char(c.unicode() & 0xff)).append(char(c.unicode() >> 8));
        be.append(char(c.unicode() >> 8)).append(char(c.unicode() & 0xff));
    }
    QTest::newRow("UTF-16 LE") << le;
    QTest::newRow("UTF-16 BE") << be;
}

void tst_Folded::readsUtf16()
{
    QFETCH(QByteArray, bytes);
    QCOMPARE(int(sniffProfileFormat(bytes.toStdString())), int(ProfileFormat::Folded));
    const auto p = readProfile(bytes.toStdString(), "t.folded");
    QCOMPARE(describe(*::tree(p)), QStringLiteral("<root>=5/0 main=5/0 main;f\u00fcr=3/0 main;f\u00fcr;\u8a08\u7b97=3/3 "
                                                  "main;\U0001F525=2/2"));
}

void tst_Folded::readsBrokenUtf16()
{
    // Halves of surrogate pairs without their other half are U+FFFD each; a second byte order mark right after the
    // first is dropped, and a swapped one switches the order (as Qt's decoder did); an odd last byte is dropped.
    const std::vector<uint16_t> main = {'m', 'a', 'i', 'n', ';'};
    auto text = [&](std::initializer_list<uint16_t> frame, std::initializer_list<uint16_t> prefix = {}) {
        std::vector<uint16_t> all(prefix);
        all.insert(all.end(), main.begin(), main.end());
        all.insert(all.end(), frame.begin(), frame.end());
        for (uint16_t u : {' ', '3', '\n'})
            all.push_back(u);
        std::string out = "\xFF\xFE";
        for (uint16_t u : all)
            out += char(u & 0xff), out += char(u >> 8);
        return out;
    };
    QCOMPARE(describe(*::tree(readProfile(text({'a', 0xD800, 'b'}), "t"))),
             QStringLiteral("<root>=3/0 main=3/0 main;a\uFFFDb=3/3"));
    QCOMPARE(describe(*::tree(readProfile(text({'a', 0xDC00}), "t"))), QStringLiteral("<root>=3/0 main=3/0 main;a\uFFFD=3/3"));
    QCOMPARE(describe(*::tree(readProfile(text({'a'}, {0xFEFF}), "t"))), QStringLiteral("<root>=3/0 main=3/0 main;a=3/3"));
    std::string swapped = "\xFF\xFE\xFE\xFF";   // then big-endian
    for (char c : std::string("main;x 2\n"))
        swapped += '\0', swapped += c;
    QCOMPARE(describe(*::tree(readProfile(swapped + "\x41", "t"))), QStringLiteral("<root>=2/0 main=2/0 main;x=2/2"));
}

void tst_Folded::writesExactLines()
{
    const auto p = readFolded(" 2\nmain;b;x 1\nmain;a 5\nmain;a;y 3\nmain 4\n", "t");
    QCOMPARE(QString::fromStdString(writeFolded(*tree(p))),
             QStringLiteral(" 2\nmain 4\nmain;a 5\nmain;a;y 3\nmain;b;x 1\n"));
}

void tst_Folded::writesSeparatorsItCannotEscape()
{
    // A function named with ';' and a line break stays one frame on one line, as stackcollapse-perf.pl writes it.
    StackProfileBuilder b(std::vector<StackProfileBuilder::SampleType>{{"samples", "count"}});
    b.addStack({"main", "x;y\nz\r"}, {3});
    const auto t = tree(b.build("t"));
    QCOMPARE(QString::fromStdString(writeFolded(*t)), QStringLiteral("main;x:y z  3\n"));
    QCOMPARE(describe(*tree(readFolded(writeFolded(*t), "t"))), QStringLiteral("<root>=3/0 main=3/0 main;x:y z=3/3"));
}

void tst_Folded::pprofRoundTrip_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("type");
    for (const char *f : {"gen__baseline.cpu.pb.gz", "gen__optimized.cpu.pb.gz", "gen__heap.pb.gz", "gen__block.pb.gz",
                          "pprof__sample.cpu", "parca__normal-cpu.stripped.pprof", "parca__node-profile.pb.gz",
                          "ddgo__pprof.lines.pb.gz"}) {
        const auto p = readPprof(test::fileBytes(data(QLatin1String(f))), f);
        for (size_t t = 0; t < p->sampleTypes.size(); ++t)
            QTest::addRow("%s %s", f, p->typeName(t).c_str()) << QString::fromLatin1(f) << int(t);
    }
}

void tst_Folded::pprofRoundTrip()
{
    QFETCH(QString, file);
    QFETCH(int, type);
    const auto original = tree(readProfileFile(data(file)), type);
    const std::string folded = writeFolded(*original);
    const auto back = tree(readFolded(folded, "roundtrip.folded"));
    const TreePaths expected = treePaths(*original), actual = treePaths(*back);
    QVERIFY2(expected == actual, qPrintable(firstDifference(expected, actual)));
    QCOMPARE(back->size(), original->size());
    QVERIFY(original->total(CallTree::kRoot) != 0);
}

void tst_Folded::goToolPprofTracesEqualThePprofTree_data()
{
    QTest::addColumn<QString>("folded");
    QTest::addColumn<QString>("pprof");
    QTest::addColumn<QString>("sampleType");
    QTest::addColumn<qlonglong>("total");
    QTest::addColumn<int>("lines");
    QTest::newRow("baseline cpu") << QStringLiteral("formats/gen__baseline.cpu.folded")
                                  << QStringLiteral("gen__baseline.cpu.pb.gz") << QStringLiteral("cpu")
                                  << qlonglong(9760000000) << 229;
    QTest::newRow("heap alloc_space") << QStringLiteral("formats/gen__heap.alloc_space.folded")
                                      << QStringLiteral("gen__heap.pb.gz") << QStringLiteral("alloc_space")
                                      << qlonglong(62869263) << 11;
}

void tst_Folded::goToolPprofTracesEqualThePprofTree()
{
    QFETCH(QString, folded);
    QFETCH(QString, pprof);
    QFETCH(QString, sampleType);
    QFETCH(qlonglong, total);
    QFETCH(int, lines);
    const auto fromFolded = readProfileFile(data(folded));
    QCOMPARE(int(fromFolded->sampleCount()), lines);
    const auto p = readProfileFile(data(pprof));
    const auto expected = tree(p, p->findSampleType(sampleType.toStdString()));
    const auto actual = tree(fromFolded);
    QCOMPARE(actual->total(CallTree::kRoot), int64_t(total));
    QCOMPARE(expected->total(CallTree::kRoot), int64_t(total));
    const TreePaths e = treePaths(*expected), a = treePaths(*actual);
    QVERIFY2(e == a, qPrintable(firstDifference(e, a)));
}

void tst_Folded::compressedFoldedIsRead()
{
    const std::string text = "main;a 5\nmain;b 7\n";
    const auto p = readProfile(gzipCompress(text), "t.folded.gz");
    QCOMPARE(describe(*tree(p)), QStringLiteral("<root>=12/0 main=12/0 main;a=5/5 main;b=7/7"));
    QCOMPARE(p->sourceName, std::string("t.folded.gz"));
}

void tst_Folded::windowLoadersReadEveryFormat()
{
    // What the window runs for File > Open and for a comparison: the same tree from pprof, folded and flamebearer.
    const QString pprof = data(QStringLiteral("gen__baseline.cpu.pb.gz")),
                  folded = data(QStringLiteral("formats/gen__baseline.cpu.folded")),
                  json = data(QStringLiteral("formats/qryn-render.svc-base.cpu.json"));
    for (const QString &file : {folded, json}) {
        const LoadedView view = loadFilesAsync({file}, -1, Granularity::Functions).result();
        QVERIFY2(view.error.isEmpty(), qPrintable(view.error));
        QCOMPARE(view.tree->total(CallTree::kRoot), int64_t(9760000000));
    }
    // Comparing the pprof with qryn's answer for it: every function costs the same itself on both sides.
    const LoadedDiff diff = loadDiffAsync({pprof}, {json}, -1, Granularity::Functions, DiffOptions{}).result();
    QVERIFY2(diff.error.isEmpty(), qPrintable(diff.error));
    int withFlat = 0;
    for (const DiffRow &r : diff.table->rows()) {
        QVERIFY2(r.beforeFlatRaw == r.afterFlatRaw, diff.table->label(r).c_str());
        withFlat += r.beforeFlatRaw != 0;
    }
    QCOMPARE(withFlat, 94);
}

QTEST_GUILESS_MAIN(tst_Folded)
#include "tst_folded.moc"
