// A comparison's tab: the diff view (compare/DiffView: the diff flamegraph as its main view, the diff table below
// it), with the PGO panel of the new side and the source pane added to the diff view's secondary panes.
#pragma once

#include "document/DocumentPane.h"

namespace qflame {

class AsmView;

class DiffPane : public DocumentPane {
    Q_OBJECT

public:
    explicit DiffPane(QWidget *parent = nullptr);
    void open(const QStringList &before, const QStringList &after) { open(before, after, false); }
    QStringList beforePaths() const { return m_before; }   // empty for profiles handed over (openProfiles)
    QStringList afterPaths() const { return m_after; }
    // A comparison of profiles already read (a server's rounds: each window's merged tree), named for the title;
    // its diff is built off the GUI thread as a file comparison's is.
    void openProfiles(const QString &beforeName, std::vector<std::shared_ptr<const Profile>> before,
                      const QString &afterName, std::vector<std::shared_ptr<const Profile>> after);
    // Files are read again; profiles that came without files keep their names as they were read.
    void reopen() override;
    QString title() const override;
    DiffView *diffView() const { return m_diffView; }
    const LoadedDiff &loaded() const { return m_loaded; }
    // The PGO panel of the comparison's new side, with the inlining changes from the baseline.
    PgoPanel *pgoPanel() const { return m_pgo; }
    SourceView *sourceView() const;   // made when first asked for (or opened)
    AsmView *asmView() const;
    // Lists the source lines of the function of a diff flamegraph node, before and after.
    void showSource(NodeId node);
    // Label values as frames and bottom-up (tagRoot, tagLeaf, inverted; View > Group by Label..., View >
    // Bottom-up): the comparison is built again with them.
    void setFrames(const SampleFilters &frames);
    const SampleFilters &frames() const { return m_frames; }

protected:
    void rebuild() override;

private:
    void open(const QStringList &before, const QStringList &after, bool reuseFetched);
    void showDiff(LoadedDiff d);
    // The graph's noise (rounds' measured, or Poisson's with the controls' k) and inputs, for `shown` (the diff
    // under the controls' options); the graph is rebuilt only when they change.
    void updateGraph(const DiffTree *shown);
    double m_graphNoiseK = -1;
    const void *m_graphNoise = nullptr;
    double m_graphScale[2] = {0, 0};
    Normalization m_graphNormalization = Normalization::None;
    double m_graphFactor = 1;
    void diffFrameMenu(NodeId node, QPoint globalPos);
    LoadedDiff m_loaded;
    QStringList m_before, m_after;
    QString m_beforeName, m_afterName;   // openProfiles' names, when there are no files
    SampleFilters m_frames;
    DiffView *m_diffView;
    PgoPanel *m_pgo;
    int m_sourceTab = -1, m_asmTab = -1;   // lazy panes' tabs in the diff view's panes
};

}   // namespace qflame
