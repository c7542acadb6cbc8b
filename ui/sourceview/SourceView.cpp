#include "sourceview/SourceView.h"

#include "compare/DiffSource.h"
#include "pprof/PprofLabels.h"
#include "sourceview/SourceHighlighter.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFontDatabase>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTextBlock>
#include <QVBoxLayout>

#include <cmath>

namespace qflame {

namespace {

constexpr int kCellChars = 9;   // "999.99ms " fits; wider values widen their cell's text, not the layout

int64_t deltaOf(const ListedLine &l) { return l.after.cum - l.before.cum; }

}   // namespace

class SourceGutter : public QWidget {
public:
    explicit SourceGutter(SourceTextEdit *edit) : QWidget(edit), m_edit(edit) {}
    QSize sizeHint() const override { return {m_edit->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_edit->paintGutter(event); }

private:
    SourceTextEdit *m_edit;
};

SourceTextEdit::SourceTextEdit(SourceView *view) : QPlainTextEdit(view), m_view(view), m_gutter(new SourceGutter(this))
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(mono);
    setTabStopDistance(4 * fontMetrics().horizontalAdvance(QLatin1Char(' ')));   // Go's gofmt tabs read as 4
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
        m_view->updateHottestVisible();
    });
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int SourceTextEdit::gutterWidth() const
{
    const ListedFile *f = m_view->currentFile();
    const int cells = f && m_view->m_listing && m_view->m_listing->comparison ? 3 : 2;
    const int digits = f && !f->lines.empty() ? int(std::to_string(f->lines.back().line).size()) : 4;
    const int w = fontMetrics().horizontalAdvance(QLatin1Char('9'));
    return w * (cells * kCellChars + digits + 3) + 8;
}

void SourceTextEdit::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    relayout();
}

void SourceTextEdit::relayout()
{
    const QRect cr = contentsRect();
    setViewportMargins(gutterWidth(), 0, 0, 0);
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
    m_gutter->update();
}

int SourceTextEdit::rowAt(int y) const
{
    return cursorForPosition(QPoint(0, y)).blockNumber();
}

int SourceTextEdit::firstVisibleRow() const
{
    return firstVisibleBlock().blockNumber();
}

int SourceTextEdit::lastVisibleRow() const
{
    return cursorForPosition(QPoint(0, viewport()->height() - 1)).blockNumber();
}

void SourceTextEdit::paintGutter(QPaintEvent *event)
{
    QPainter p(m_gutter);
    const QPalette pal = palette();
    p.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    const ListedFile *f = m_view->currentFile();
    if (!f)
        return;
    const bool diff = m_view->m_listing->comparison;
    int64_t maxFlat = 1, maxCum = 1, maxDelta = 1;
    for (const ListedLine &l : f->lines) {
        maxFlat = std::max(maxFlat, std::max(l.before.flat, l.after.flat));
        maxCum = std::max(maxCum, std::max(l.before.cum, l.after.cum));
        maxDelta = std::max<int64_t>(maxDelta, std::llabs(deltaOf(l)));
    }
    const int charW = fontMetrics().horizontalAdvance(QLatin1Char('9'));
    const int cellW = charW * kCellChars;
    const QColor flatBar(0xf4, 0xa2, 0x61, 150), cumBar(0xe7, 0x6f, 0x51, 110);
    QTextBlock block = firstVisibleBlock();
    int top = int(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = int(blockBoundingRect(block).height());
        const int row = block.blockNumber();
        if (row < int(f->lines.size())) {
            const ListedLine &l = f->lines[size_t(row)];
            auto drawCell = [&](int column, int64_t value, double share, const QColor &bar, const QColor &text) {
                const QRect r(4 + column * cellW, top, cellW - 4, height);
                if (share > 0)
                    p.fillRect(QRect(r.right() - int(r.width() * share), r.top() + 1, int(r.width() * share),
                                     r.height() - 2),
                               bar);
                p.setPen(text);
                p.drawText(r, Qt::AlignRight | Qt::AlignVCenter, m_view->cell(value));
            };
            const QColor ink = pal.color(QPalette::Text);
            if (!diff) {
                drawCell(0, l.before.flat, double(l.before.flat) / double(maxFlat), flatBar, ink);
                drawCell(1, l.before.cum, double(l.before.cum) / double(maxCum), cumBar, ink);
            } else {
                drawCell(0, l.before.cum, double(l.before.cum) / double(maxCum), cumBar, ink);
                drawCell(1, l.after.cum, double(l.after.cum) / double(maxCum), cumBar, ink);
                const int64_t d = deltaOf(l);
                const bool noise = l.cls == DiffClass::WithinNoise;
                const QColor fill = d == 0 || noise ? QColor(Qt::transparent)
                                                    : DiffSource::deltaColor(double(d), double(maxDelta),
                                                                             m_view->m_colorBlindSafe);
                const QRect r(4 + 2 * cellW, top, cellW - 4, height);
                p.fillRect(r.adjusted(0, 1, 0, -1), fill);
                p.setPen(noise ? pal.color(QPalette::PlaceholderText) : QColor(Qt::black));
                if (d == 0 || noise)
                    p.setPen(noise ? pal.color(QPalette::PlaceholderText) : ink);
                p.drawText(r, Qt::AlignRight | Qt::AlignVCenter,
                           d == 0 ? QStringLiteral(".")
                                  : (d > 0 ? QStringLiteral("+") : QString()) + m_view->cell(d));
            }
            const int numberX = 4 + (diff ? 3 : 2) * cellW;
            p.setPen(row == m_view->m_hottestVisible ? QColor(0xd0, 0x30, 0x20) : pal.color(QPalette::PlaceholderText));
            p.drawText(QRect(numberX, top, m_gutter->width() - numberX - 6, height), Qt::AlignRight | Qt::AlignVCenter,
                       (row == m_view->m_hottestVisible ? QStringLiteral("\u25b6 ") : QString()) +
                           QString::number(l.line));
        }
        block = block.next();
        top += height;
    }
}

SourceView::SourceView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout;
    m_title = new QLabel(tr("Pick a frame and choose Show Source."), this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_files = new QComboBox(this);
    m_files->setVisible(false);
    m_addFolder = new QPushButton(tr("Add Source &Folder..."), this);
    m_addFolder->setToolTip(tr("Look for source files in a folder of your choice (kept in the settings)"));
    m_openEditor = new QPushButton(tr("Open in &Editor"), this);
    m_copy = new QPushButton(tr("&Copy"), this);
    m_copy->setToolTip(tr("The selected lines, or the whole listing, with their costs"));
    bar->addWidget(m_title, 1);
    bar->addWidget(m_files);
    bar->addWidget(m_addFolder);
    bar->addWidget(m_openEditor);
    bar->addWidget(m_copy);
    layout->addLayout(bar);
    m_text = new SourceTextEdit(this);
    layout->addWidget(m_text, 1);
    m_highlighter = new SourceHighlighter(m_text->document());
    m_highlighter->setDark(palette().color(QPalette::Base).lightness() < 128);

    connect(m_files, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0)
            showFile(i);
    });
    connect(m_addFolder, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder with the sources"));
        if (dir.isEmpty())
            return;
        addSourceFolder(dir);
        Q_EMIT sourceFolderChosen(dir);
        if (m_request)
            runRequest();
    });
    connect(m_openEditor, &QPushButton::clicked, this, &SourceView::openInEditor);
    connect(m_copy, &QPushButton::clicked, this, &SourceView::copyListing);
    setMessage(m_title->text());
}

void SourceView::addSourceFolder(const QString &folder)
{
    QSettings settings;
    QStringList dirs = settings.value(QStringLiteral("source/searchPath")).toStringList();
    dirs.removeAll(folder);
    dirs.prepend(folder);
    settings.setValue(QStringLiteral("source/searchPath"), dirs);
}

void SourceView::showFunction(std::vector<std::shared_ptr<const Profile>> profiles, size_t type, std::string function)
{
    setMessage(tr("Reading the source of %1...").arg(QString::fromStdString(function)));
    m_request = [profiles = std::move(profiles), type, function = std::move(function)](const SourcePaths &paths) {
        return listFunction(profiles, type, function, paths);
    };
    runRequest();
}

void SourceView::showFunctionDiff(std::vector<std::shared_ptr<const Profile>> before,
                                  std::vector<std::shared_ptr<const Profile>> after, size_t type, std::string function,
                                  double noiseK)
{
    setMessage(tr("Reading the source of %1...").arg(QString::fromStdString(function)));
    m_request = [before = std::move(before), after = std::move(after), type, function = std::move(function),
                 noiseK](const SourcePaths &paths) {
        return listFunctionDiff(before, after, type, function, paths, noiseK);
    };
    runRequest();
}

void SourceView::runRequest()
{
    m_job.start([request = m_request, paths = settingsSourcePaths()] { return request(paths()); },
                [this](FunctionSource result) {
                    if (!result.error.isEmpty())
                        setMessage(result.error);
                    else
                        setListing(result.listing);
                    Q_EMIT listingReady();
                });
}

std::function<SourcePaths()> SourceView::settingsSourcePaths()
{
    // The settings are read here, on the GUI thread (QSettings); `go env` for GOROOT runs where it is called.
    const QStringList dirs = QSettings().value(QStringLiteral("source/searchPath")).toStringList(),
                      trims = QSettings().value(QStringLiteral("source/trimPaths")).toStringList();
    return [dirs, trims] {
        SourcePaths paths = defaultSourcePaths();
        for (const QString &d : dirs)
            paths.searchPath.push_back(d.toStdString());
        for (const QString &t : trims)
            paths.trimPaths.push_back(t.toStdString());
        return paths;
    };
}

void SourceView::setMessage(const QString &message)
{
    m_listing.reset();
    m_file = -1;
    m_title->setText(message);
    m_files->setVisible(false);
    m_openEditor->setEnabled(false);
    m_copy->setEnabled(false);
    m_text->clear();
}

void SourceView::setListing(std::shared_ptr<const SourceListing> listing)
{
    m_listing = std::move(listing);
    m_file = -1;
    QSignalBlocker block(m_files);
    m_files->clear();
    for (const ListedFile &f : m_listing->files)
        m_files->addItem(QString::fromStdString(f.file.empty() ? f.function : f.file));
    m_files->setVisible(m_listing->files.size() > 1);
    if (m_listing->files.empty()) {
        setMessage(tr("No samples in this function at this sample type."));
        return;
    }
    showFile(0);
}

const ListedFile *SourceView::currentFile() const
{
    return m_listing && m_file >= 0 && size_t(m_file) < m_listing->files.size() ? &m_listing->files[size_t(m_file)]
                                                                                 : nullptr;
}

QString SourceView::cell(int64_t value) const
{
    return value == 0 ? QStringLiteral(".") : QString::fromStdString(pprofScaledLabel(value, m_listing->unit));
}

void SourceView::showFile(int index)
{
    m_file = index;
    const ListedFile *f = currentFile();
    if (!f)
        return;
    {
        QSignalBlocker block(m_files);
        m_files->setCurrentIndex(index);
    }
    const QString function = QString::fromStdString(f->function);
    QString title;
    if (f->file.empty())
        title = tr("%1: no source information in the profile").arg(function);
    else if (!f->error.empty())
        title = tr("%1 in %2\n%3").arg(function, QString::fromStdString(f->file), QString::fromStdString(f->error));
    else {
        const LineCost &c = m_listing->comparison ? f->after : f->before;
        title = tr("%1 in %2: flat %3, cum %4").arg(function, QString::fromStdString(f->readFile),
                                                    QString::fromStdString(pprofScaledLabel(c.flat, m_listing->unit)),
                                                    QString::fromStdString(pprofScaledLabel(c.cum, m_listing->unit)));
        if (m_listing->comparison)
            title += tr(" (after; before: cum %1)")
                         .arg(QString::fromStdString(pprofScaledLabel(f->before.cum, m_listing->unit)));
        if (!f->foundIn.empty())
            title += tr("\nFound in %1, not where the profile says: check it is the profiled version.")
                         .arg(QString::fromStdString(f->foundIn));
        if (f->linesPastEnd > 0)
            title += tr("\nThe profile has costs on %n line(s) past the end of this file: it is not the source "
                        "that was profiled.", nullptr, int(f->linesPastEnd));
    }
    if (!f->lines.empty())
        title += m_listing->comparison
                     ? tr("\nColumns: cum before, cum after, delta (coloured when beyond noise; grey: within noise), "
                          "line. %1")
                           .arg(m_listing->countsKnown && m_listing->noiseK > 0
                                    ? tr("Noise: under %1 Poisson standard errors of the sample counts.")
                                          .arg(m_listing->noiseK)
                                    : tr("Noise: not tested (no sample counts on both sides)."))
                     : tr("\nColumns: flat, cum, line; the bars are shares of the file's largest value.");
    m_title->setText(title);
    m_openEditor->setEnabled(!f->readFile.empty());
    m_copy->setEnabled(!f->lines.empty());
    QStringList text;
    for (const ListedLine &l : f->lines)
        text << QString::fromStdString(l.text);
    m_highlighter->setLanguage(SourceHighlighter::languageOf(QString::fromStdString(f->file)));
    m_text->setPlainText(text.join(QLatin1Char('\n')));
    m_text->relayout();
    const int hottest = hottestRow();
    if (hottest >= 0) {
        QTextCursor cursor(m_text->document()->findBlockByNumber(hottest));
        m_text->setTextCursor(cursor);
        m_text->centerCursor();
    }
    updateHottestVisible();
}

QString SourceView::titleText() const
{
    return m_title->text();
}

QString SourceView::gutterText(int row) const
{
    const ListedFile *f = currentFile();
    if (!f || row < 0 || size_t(row) >= f->lines.size())
        return {};
    const ListedLine &l = f->lines[size_t(row)];
    if (!m_listing->comparison)
        return QStringLiteral("%1 %2 %3").arg(cell(l.before.flat), cell(l.before.cum)).arg(l.line);
    const int64_t d = deltaOf(l);
    return QStringLiteral("%1 %2 %3 %4 %5")
        .arg(cell(l.before.cum), cell(l.after.cum),
             d == 0 ? QStringLiteral(".") : (d > 0 ? QStringLiteral("+") : QString()) + cell(d),
             QString::fromLatin1(diffClassName(l.cls)))
        .arg(l.line);
}

int SourceView::hottestRow() const
{
    const ListedFile *f = currentFile();
    if (!f)
        return -1;
    int best = -1;
    int64_t bestValue = 0;
    for (size_t i = 0; i < f->lines.size(); ++i) {
        const ListedLine &l = f->lines[i];
        const int64_t v = m_listing->comparison ? std::llabs(deltaOf(l)) : l.before.cum;
        if (v > bestValue)
            best = int(i), bestValue = v;
    }
    return best;
}

int SourceView::hottestVisibleRow() const
{
    return m_hottestVisible;
}

int SourceView::firstVisibleRow() const
{
    return m_text->firstVisibleRow();
}

void SourceView::updateHottestVisible()
{
    const ListedFile *f = currentFile();
    int best = -1;
    if (f) {
        int64_t bestValue = 0;
        const int last = std::min(m_text->lastVisibleRow(), int(f->lines.size()) - 1);
        for (int r = m_text->firstVisibleRow(); r <= last; ++r) {
            const ListedLine &l = f->lines[size_t(r)];
            const int64_t v = m_listing->comparison ? std::llabs(deltaOf(l)) : l.before.cum;
            if (v > bestValue)
                best = r, bestValue = v;
        }
    }
    if (best == m_hottestVisible)
        return;
    m_hottestVisible = best;
    QList<QTextEdit::ExtraSelection> marks;
    if (best >= 0) {
        QTextEdit::ExtraSelection mark;
        mark.format.setBackground(palette().color(QPalette::Base).lightness() < 128 ? QColor(0x50, 0x40, 0x10)
                                                                                    : QColor(0xff, 0xf3, 0xc4));
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        mark.cursor = QTextCursor(m_text->document()->findBlockByNumber(best));
        marks << mark;
    }
    m_text->setExtraSelections(marks);
}

void SourceView::setColorBlindSafe(bool on)
{
    m_colorBlindSafe = on;
    m_text->viewport()->update();
}

QStringList SourceView::editorCommand(const QString &file, int64_t line)
{
    const QString configured = QSettings().value(QStringLiteral("source/editorCommand")).toString().trimmed();
    if (!configured.isEmpty()) {
        QStringList args = QProcess::splitCommand(configured);
        for (QString &a : args)
            a.replace(QStringLiteral("{file}"), file).replace(QStringLiteral("{line}"), QString::number(line));
        return args;
    }
    for (const char *var : {"VISUAL", "EDITOR"}) {
        const QString editor = qEnvironmentVariable(var).trimmed();
        if (!editor.isEmpty())
            return QProcess::splitCommand(editor) << QStringLiteral("+%1").arg(line) << file;
    }
    return {};
}

void SourceView::openInEditor()
{
    const ListedFile *f = currentFile();
    if (!f || f->readFile.empty())
        return;
    const QTextBlock block = m_text->textCursor().block();
    const int row = block.isValid() ? block.blockNumber() : std::max(hottestRow(), 0);
    const int64_t line = row < int(f->lines.size()) ? f->lines[size_t(row)].line : 1;
    QStringList command = editorCommand(QString::fromStdString(f->readFile), line);
    if (command.isEmpty()) {
        m_title->setText(m_title->text() + tr("\nNo editor: set $VISUAL or $EDITOR, or the setting "
                                              "source/editorCommand (with {file} and {line})."));
        return;
    }
    const QString program = command.takeFirst();
    if (!QProcess::startDetached(program, command))
        m_title->setText(m_title->text() + tr("\nCould not start %1.").arg(program));
}

void SourceView::copyListing()
{
    const ListedFile *f = currentFile();
    if (!f)
        return;
    const QTextCursor sel = m_text->textCursor();
    int first = 0, last = int(f->lines.size()) - 1;
    if (sel.hasSelection()) {
        first = m_text->document()->findBlock(sel.selectionStart()).blockNumber();
        last = m_text->document()->findBlock(sel.selectionEnd()).blockNumber();
    }
    QString out;
    for (int r = first; r <= last && r < int(f->lines.size()); ++r)
        out += gutterText(r) + QLatin1Char('\t') + QString::fromStdString(f->lines[size_t(r)].text) + QLatin1Char('\n');
    QApplication::clipboard()->setText(out);
}

}   // namespace qflame
