// The source pane (ui/sourceview), offscreen, in real profile and comparison tabs: the gutter shows the model's
// costs per line exactly (worked out for a hand-built profile), the title names the file read or why none was, the
// pane scrolls to the hottest line and marks the hottest line in view, a folder added to the source path finds a
// missing file, a comparison shows before / after / delta with the noise class, and the editor command and the
// highlighter.
#include "PgoTestSupport.h"
#include "compare/DiffView.h"
#include "controls/SecondaryPanes.h"
#include "document/DocumentPane.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "sourceview/SourceHighlighter.h"
#include "sourceview/SourceView.h"

#include <QApplication>
#include <QDir>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

using namespace qflame;
using namespace qflame::pgotest;

namespace {

// main -> work (work.go 21 and 22) -> helper inlined at 21 (line 30); the values are sample counts.
// work.go lines: 21 cum 4; 22 flat and cum s2 + 2; helper 30 flat and cum 4; main.go 10 cum s2 + 6.
Builder profile(int64_t s2)
{
    Builder b;
    const uint64_t main = b.function("main", 9, "/build/app/main.go"), work = b.function("work", 20, "/build/app/work.go"),
                   helper = b.function("helper", 29, "/build/app/work.go");
    const uint64_t M = b.location(0x1, {{main, 10}}), W1 = b.location(0x3, {{helper, 30}, {work, 21}}),
                   W2 = b.location(0x4, {{work, 22}});
    b.sample({W1, M}, {4});
    b.sample({W2, M}, {s2});
    b.sample({W2, M}, {2});
    return b;
}

void writeSource(const QString &path, int lines)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (int i = 1; i <= lines; ++i)
        f.write(i == 20 ? "func work() {\n" : QByteArray("\t// line ") + QByteArray::number(i) + "\n");
}

NodeId nodeNamed(const CallTree &t, const std::string &label)
{
    for (NodeId n = 1; n < t.size(); ++n)
        if (t.label(n) == label)
            return n;
    return CallTree::kRoot;
}

bool waitListed(SourceView *v)
{
    if (v->isListing())
        QSignalSpy(v, &SourceView::listingReady).wait(30000);
    QApplication::processEvents();
    return !v->isListing();
}

int rowOfLine(const SourceView *v, int64_t line)
{
    const ListedFile *f = v->currentFile();
    for (size_t i = 0; f && i < f->lines.size(); ++i)
        if (f->lines[i].line == line)
            return int(i);
    return -1;
}

}   // namespace

class tst_SourceView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void profileTabListsTheFunction();
    void missingFileThenFolderAdded();
    void comparisonShowsDeltaAndNoise();
    void editorCommand();
    void highlighter();

private:
    QTemporaryDir m_dir;
};

void tst_SourceView::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);   // the settings of this test only
    QSettings().clear();
    QSettings().setValue(QStringLiteral("source/searchPath"), QStringList{m_dir.filePath("src/app")});
    writeSource(m_dir.filePath("src/app/work.go"), 40);
}

void tst_SourceView::profileTabListsTheFunction()
{
    const QString file = writeProfile(m_dir, "p.pb", profile(3));
    ProfilePane pane;
    pane.resize(1000, 700);
    pane.show();
    QSignalSpy loaded(&pane, &DocumentPane::loadFinished);
    pane.open({file});
    QVERIFY(loaded.wait(30000));
    const NodeId work = nodeNamed(*pane.view().tree, "work");
    QVERIFY(work != CallTree::kRoot);
    pane.showSource(work);
    SourceView *v = pane.sourceView();
    QCOMPARE(pane.secondaryPanes()->currentPane(), v);
    QVERIFY(waitListed(v));
    QVERIFY(v->currentFile());
    // --source-path's rule: the profile's /build/app/work.go is found under the folder named app.
    QCOMPARE(QString::fromStdString(v->currentFile()->readFile), m_dir.filePath("src/app/work.go"));
    QVERIFY2(v->titleText().startsWith("work in " + m_dir.filePath("src/app/work.go") + ": flat 5, cum 9"),
             qPrintable(v->titleText()));
    // Lines 16 to 27 (5 around 21 and 22), each with the model's costs.
    QCOMPARE(v->currentFile()->lines.size(), size_t(12));
    QCOMPARE(v->gutterText(rowOfLine(v, 21)), QStringLiteral(". 4 21"));
    QCOMPARE(v->gutterText(rowOfLine(v, 22)), QStringLiteral("5 5 22"));
    QCOMPARE(v->gutterText(rowOfLine(v, 16)), QStringLiteral(". . 16"));
    QCOMPARE(v->textView()->document()->findBlockByNumber(rowOfLine(v, 20)).text(), QStringLiteral("func work() {"));
    // The hottest line (22, cum 5) is the one marked, and in view.
    QCOMPARE(v->hottestRow(), rowOfLine(v, 22));
    QCOMPARE(v->hottestVisibleRow(), rowOfLine(v, 22));
    QVERIFY(v->openInEditorButton()->isEnabled());
}

void tst_SourceView::missingFileThenFolderAdded()
{
    const QString file = writeProfile(m_dir, "q.pb", profile(3));
    ProfilePane pane;
    pane.resize(1000, 700);
    pane.show();
    QSignalSpy loaded(&pane, &DocumentPane::loadFinished);
    pane.open({file});
    QVERIFY(loaded.wait(30000));
    pane.showSource(nodeNamed(*pane.view().tree, "main"));
    SourceView *v = pane.sourceView();
    QVERIFY(waitListed(v));
    QVERIFY2(v->titleText().startsWith(QStringLiteral("main in main.go\ncould not find main.go (searched ") +
                                       m_dir.filePath("src/app")),
             qPrintable(v->titleText()));
    QVERIFY(!v->openInEditorButton()->isEnabled());
    // The user adds a folder holding main.go (as Add Source Folder does), and lists again.
    writeSource(m_dir.filePath("elsewhere/main.go"), 12);
    SourceView::addSourceFolder(m_dir.filePath("elsewhere"));
    QCOMPARE(QSettings().value(QStringLiteral("source/searchPath")).toStringList(),
             (QStringList{m_dir.filePath("elsewhere"), m_dir.filePath("src/app")}));
    pane.showSource(nodeNamed(*pane.view().tree, "main"));
    QVERIFY(waitListed(v));
    QCOMPARE(QString::fromStdString(v->currentFile()->readFile), m_dir.filePath("elsewhere/main.go"));
    QCOMPARE(v->gutterText(rowOfLine(v, 10)), QStringLiteral(". 9 10"));
    QCOMPARE(v->currentFile()->lines.size(), size_t(12 - 5 + 1));   // 5 to 12, the end of the file
    QSettings().setValue(QStringLiteral("source/searchPath"), QStringList{m_dir.filePath("src/app")});
}

void tst_SourceView::comparisonShowsDeltaAndNoise()
{
    const QString before = writeProfile(m_dir, "before.pb", profile(3)), after = writeProfile(m_dir, "after.pb", profile(40));
    DiffPane pane;
    pane.resize(1200, 800);
    pane.show();
    QSignalSpy loaded(&pane, &DocumentPane::loadFinished);
    pane.open({before}, {after});
    QVERIFY(loaded.wait(30000));
    const DiffTree *d = pane.diffView()->diff();
    QVERIFY(d);
    NodeId work = CallTree::kRoot;
    for (NodeId n = 1; n < d->size(); ++n)
        if (d->frames().label(d->frame(n)) == "work")
            work = n;
    QVERIFY(work != CallTree::kRoot);
    pane.showSource(work);
    SourceView *v = pane.sourceView();
    QCOMPARE(pane.diffView()->secondaryPanes()->currentPane(), v);
    QVERIFY(waitListed(v));
    // Line 22: cum 5 -> 42 on as many samples: SE = sqrt(25/5 + 42^2/42) = 6.86, |37| > 2 SE: slower. Line 21
    // is unchanged (4 -> 4).
    QCOMPARE(v->gutterText(rowOfLine(v, 22)), QStringLiteral("5 42 +37 slower 22"));
    QCOMPARE(v->gutterText(rowOfLine(v, 21)), QStringLiteral("4 4 . unchanged 21"));
    QCOMPARE(v->hottestRow(), rowOfLine(v, 22));
    QVERIFY2(v->titleText().contains(QStringLiteral("flat 42, cum 46 (after; before: cum 9)")),
             qPrintable(v->titleText()));
}

void tst_SourceView::editorCommand()
{
    QSettings().setValue(QStringLiteral("source/editorCommand"), QStringLiteral("myedit --goto \"{file}:{line}\""));
    QCOMPARE(SourceView::editorCommand(QStringLiteral("/a b/x.go"), 22),
             (QStringList{QStringLiteral("myedit"), QStringLiteral("--goto"), QStringLiteral("/a b/x.go:22")}));
    QSettings().remove(QStringLiteral("source/editorCommand"));
    qputenv("VISUAL", "vim -R");
    QCOMPARE(SourceView::editorCommand(QStringLiteral("/x.go"), 7),
             (QStringList{QStringLiteral("vim"), QStringLiteral("-R"), QStringLiteral("+7"), QStringLiteral("/x.go")}));
    qunsetenv("VISUAL");
    qputenv("EDITOR", "nano");
    QCOMPARE(SourceView::editorCommand(QStringLiteral("/x.go"), 7),
             (QStringList{QStringLiteral("nano"), QStringLiteral("+7"), QStringLiteral("/x.go")}));
    qunsetenv("EDITOR");
    QVERIFY(SourceView::editorCommand(QStringLiteral("/x.go"), 7).isEmpty());
}

void tst_SourceView::highlighter()
{
    QCOMPARE(SourceHighlighter::languageOf(QStringLiteral("a/b.go")), SourceHighlighter::Language::Go);
    QCOMPARE(SourceHighlighter::languageOf(QStringLiteral("x.hpp")), SourceHighlighter::Language::Cpp);
    QCOMPARE(SourceHighlighter::languageOf(QStringLiteral("x.py")), SourceHighlighter::Language::Other);
    QPlainTextEdit edit;   // as in the pane: a document with a layout, whose changes the highlighter follows
    QTextDocument &doc = *edit.document();
    SourceHighlighter h(&doc);
    h.setLanguage(SourceHighlighter::Language::Go);
    doc.setPlainText(QStringLiteral("func f() string { return \"// no\" } // yes\n/* a\nb */ x := `raw\nstill`"));
    auto formatAt = [&doc](int blockNumber, int position) {
        const QTextBlock b = doc.findBlockByNumber(blockNumber);
        for (const QTextLayout::FormatRange &r : b.layout()->formats())
            if (position >= r.start && position < r.start + r.length)
                return r.format;
        return QTextCharFormat();
    };
    QCOMPARE(formatAt(0, 0).fontWeight(), int(QFont::Bold));                 // func
    QVERIFY(!formatAt(0, 28).fontItalic());                                  // "// no" is in a string
    QVERIFY(formatAt(0, 37).fontItalic());                                   // "// yes" is a comment
    QVERIFY(formatAt(2, 0).fontItalic());                                    // the block comment's second line
    QVERIFY(!formatAt(2, 5).fontItalic());                                   // after "*/"
    QCOMPARE(formatAt(3, 2).foreground(), formatAt(0, 26).foreground());      // a raw string across lines
}

QTEST_MAIN(tst_SourceView)
#include "tst_sourceview.moc"
