// A comparison: the diff flamegraph, the two profiles side by side, the diff table, a summary line that states
// the normalisation and the noise threshold, and a legend in real units.
#pragma once

#include "compare/DiffSource.h"
#include "controls/LatestJob.h"
#include "diff/DiffTable.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QVBoxLayout;

namespace qflame {

class DiffLegend;
class SecondaryPanes;
class SearchBar;
class DiffTableModel;
class FlameView;

class DiffView : public QWidget {
    Q_OBJECT

public:
    explicit DiffView(QWidget *parent = nullptr);
    // The view's own keys (the bar's view buttons), as (keys, what they do), for Help > Keyboard Shortcuts.
    static QList<QPair<QString, QString>> keyBindings();

    void setDiff(std::shared_ptr<const DiffTree> diff);
    // A comparison's inlining changes (pgo/InliningChanges.h): the diff flamegraph marks the frames of those
    // calls with a purple corner. nullptr clears the marks.
    void setInliningChanges(std::shared_ptr<const InliningChanges> changes);
    const DiffTree *diff() const { return m_diff.get(); }
    const DiffTree *shownDiff() const { return m_shown.get(); }   // under the controls' options, once applied
    const DiffSource *source() const { return m_source.get(); }

    FlameView *diffGraph() const { return m_diffView; }
    FlameView *beforeGraph() const { return m_beforeView; }
    FlameView *afterGraph() const { return m_afterView; }
    QTableView *table() const { return m_table; }
    // The per-function table the view shows (under the controls' normalisation and noise threshold), for
    // export; nullptr before a diff is set.
    const DiffTable *diffTable() const;
    std::shared_ptr<const DiffTable> sharedDiffTable() const;   // the same, for work that outlives this call
    QString summaryText() const;
    SearchBar *searchBar() const { return m_search; }
    // Takes the search bar out of the view's layout, for a tab to put it into its header row (the caller
    // places it; the view still drives it).
    SearchBar *takeSearchBar();
    // The diff flamegraph (index 0) and the two sides (1); switched by the bar's buttons, its tab bar hidden.
    QTabWidget *tabs() const { return m_tabs; }
    // Below the flamegraphs: the diff table, and what a tab adds (addSecondaryPane).
    SecondaryPanes *secondaryPanes() const { return m_panes; }

    // Options, as the controls set them.
    DiffOptions options() const;
    void setOptions(const DiffOptions &options);
    void setWidthMode(DiffWidth width);
    void setColoring(DiffColoring coloring);
    void setCommonScale(bool on);
    void setColorBlindSafe(bool on);
    // Noise measured from two rounds' spread (model/rounds): the diff table's classes use it while the
    // normalisation is its own (per second); the summary says so.
    void setMeasuredNoise(std::shared_ptr<const MeasuredNoise> noise);
    const MeasuredNoise *measuredNoise() const { return m_measured.get(); }

    // Whether the view shows what its controls say: false while a change of them is computed off the GUI thread.
    bool isApplied() const { return !m_applyJob.running(); }

Q_SIGNALS:
    // The view shows what its controls say: emitted once the diff and table of a change of options are computed
    // (off the GUI thread) and shown, and after setDiff.
    void applied();
    // Emitted when the options change in a way the current diff cannot show without a rebuild (never for the
    // options handled here; kept for the sample type, which the window rebuilds).
    void optionsApplied();

private:
    // What the controls make of m_diff: the diff under their options, its flamegraph source, its table.
    struct Applied {
        std::shared_ptr<const DiffTree> shown;
        std::shared_ptr<const DiffSource> source;
        std::shared_ptr<const DiffTable> table;
        QString error;   // options the diff cannot take (per second without durations): shown, nothing else changes
    };
    // The work of apply, on any thread: no widget is touched.
    std::function<Applied()> applyWork() const;
    void apply();        // the controls' options computed off the GUI thread, then shown (install)
    void applyNow();     // the same on this thread (a new diff: the tab shows nothing until it is in)
    void install(Applied applied);
    void updateSummary();
    void syncFrom(int side, NodeId node);   // side: 0 diff, 1 before, 2 after
    void syncSelection(int side, NodeId node);
    NodeId diffNodeOf(int side, NodeId node) const;
    void highlightFunction(const std::string &label);
    void applyCommonScale();
    void runSearch();   // the same pattern dims the diff graph and both sides

    std::shared_ptr<const DiffTree> m_diff;   // as built, with the options it was built with
    std::shared_ptr<const DiffTree> m_shown;  // with the options of the controls
    std::shared_ptr<const MeasuredNoise> m_measured;
    std::shared_ptr<const DiffSource> m_source;
    std::shared_ptr<const InliningChanges> m_inlining;
    std::vector<NodeId> m_diffOfBefore, m_diffOfAfter;   // side node -> diff node
    bool m_syncing = false;
    bool m_commonScale = true;

    QLabel *m_summary;
    QPushButton *m_perSecondButton;
    QComboBox *m_normalization;
    QDoubleSpinBox *m_factor;
    QDoubleSpinBox *m_noise;
    QCheckBox *m_bySelf;
    QComboBox *m_width;
    QDoubleSpinBox *m_scale;
    QCheckBox *m_common;
    DiffLegend *m_legend;
    QTabWidget *m_tabs;
    FlameView *m_diffView, *m_beforeView, *m_afterView;
    DiffTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    SearchBar *m_search;
    LatestJob<Applied> m_applyJob{this};
    SecondaryPanes *m_panes;
    QVBoxLayout *m_layout;
};

}   // namespace qflame
