// The source pane: one function's lines with their cost (flat and cum, or before / after / delta in a
// comparison) in a gutter of heat bars beside the highlighted text, scrolled to the hottest line; the hottest
// line in view is marked as the view scrolls. What it shows comes whole from model/source (SourceListing): the
// pane paints, it does not count.
#pragma once

#include "controls/LatestJob.h"
#include "source/FunctionSource.h"
#include "source/SourceListing.h"

#include <QPlainTextEdit>
#include <QWidget>

#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;

namespace qflame {

class SourceHighlighter;
class SourceTextEdit;

class SourceView : public QWidget {
    Q_OBJECT

public:
    explicit SourceView(QWidget *parent = nullptr);

    // Lists `function` (its exact name) of the tab's profiles off the GUI thread, then shows it; a newer request
    // replaces a running one. The source path is the settings' (source/searchPath, source/trimPaths) and the
    // machine's GOROOT and module cache.
    void showFunction(std::vector<std::shared_ptr<const Profile>> profiles, size_t type, std::string function);
    void showFunctionDiff(std::vector<std::shared_ptr<const Profile>> before,
                          std::vector<std::shared_ptr<const Profile>> after, size_t type, std::string function,
                          double noiseK);
    bool isListing() const { return m_job.running(); }

    // Adds a folder to the settings' source/searchPath (first, so it wins), once.
    static void addSourceFolder(const QString &folder);
    // The settings' source paths, read now on the GUI thread, made whole (GOROOT from `go env`, ...) when the
    // function returned is called: off the GUI thread, in the job that lists.
    static std::function<SourcePaths()> settingsSourcePaths();

    // Shows the listing's files (of one function: a file chooser when there are several), the first one first.
    void setListing(std::shared_ptr<const SourceListing> listing);
    // A line instead of a listing: "Reading the source of main.work...", or why there is none.
    void setMessage(const QString &message);
    void showFile(int index);
    void setColorBlindSafe(bool on);

    // For tests and the window: what is shown.
    const ListedFile *currentFile() const;
    QString titleText() const;
    QString gutterText(int row) const;   // the gutter's cells of a row, space-separated
    int hottestRow() const;              // of the whole file: max cum, or max |delta| in a comparison; -1: none
    int hottestVisibleRow() const;
    int firstVisibleRow() const;
    SourceTextEdit *textView() const { return m_text; }
    QPushButton *openInEditorButton() const { return m_openEditor; }
    QPushButton *addFolderButton() const { return m_addFolder; }

    // The command that opens `file` at `line`: the setting source/editorCommand with {file} and {line}, else
    // $VISUAL, else $EDITOR (as `EDITOR +LINE FILE`); empty when none is set.
    static QStringList editorCommand(const QString &file, int64_t line);

Q_SIGNALS:
    // The user picked a folder to look for sources in; it is in the settings now and the listing is redone.
    void sourceFolderChosen(const QString &folder);
    // A requested listing is shown (or its error).
    void listingReady();

private:
    friend class SourceTextEdit;
    void runRequest();
    void openInEditor();
    void copyListing();
    void updateHottestVisible();
    QString cell(int64_t value) const;

    std::function<FunctionSource(const SourcePaths &)> m_request;
    LatestJob<FunctionSource> m_job{this};
    std::shared_ptr<const SourceListing> m_listing;
    int m_file = -1;
    int m_hottestVisible = -1;
    bool m_colorBlindSafe = false;
    QLabel *m_title;
    QComboBox *m_files;
    QPushButton *m_addFolder, *m_openEditor, *m_copy;
    SourceTextEdit *m_text;
    SourceHighlighter *m_highlighter;
};

// The text with the gutter on its left (Qt's line-number-area pattern).
class SourceTextEdit : public QPlainTextEdit {
    Q_OBJECT

public:
    explicit SourceTextEdit(SourceView *view);
    int gutterWidth() const;
    // After the file (and so the gutter's width) changed.
    void relayout();
    void paintGutter(QPaintEvent *event);
    int rowAt(int y) const;
    int firstVisibleRow() const;
    int lastVisibleRow() const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    SourceView *m_view;
    QWidget *m_gutter;
};

}   // namespace qflame
