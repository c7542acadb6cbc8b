// A profile's tab: the flamegraph (with the frame details beside it) as the main view; the top table, sandwich,
// source and PGO panel as secondary panes below it (controls/SecondaryPanes), the top table open at first.
#pragma once

#include "document/DocumentPane.h"

namespace qflame {

class SecondaryPanes;
class AsmView;

// Marks the PGO pane's tab when its readiness has an error or a warning: the lines themselves stay in the pane.
void markPgoTab(SecondaryPanes *panes, PgoPanel *pgo);

class ProfilePane : public DocumentPane {
    Q_OBJECT

public:
    explicit ProfilePane(QWidget *parent = nullptr);
    void open(const QStringList &paths);
    QStringList paths() const { return m_paths; }   // the files (or URLs) of the tab, merged
    void reopen() override { open(m_paths, true); }
    QString title() const override;

    const LoadedView &view() const { return m_view; }
    FlameView *flameView() const { return m_flameView; }
    FlameGraphWidget *flameGraph() const;
    QTableView *topTable() const { return m_table; }
    FrameDetails *details() const { return m_details; }
    SearchBar *searchBar() const { return m_search; }
    FilterBar *filterBar() const { return m_filters; }
    SandwichView *sandwichView() const { return m_sandwich; }
    // Below the flamegraph: the top table, the sandwich, the source and the PGO panel, as tabs. Another pane is
    // one line: secondaryPanes()->addSecondaryPane(widget, title).
    SecondaryPanes *secondaryPanes() const { return m_panes; }
    // Made when first asked for (or opened: SecondaryPanes::addLazyPane).
    PgoPanel *pgoPanel() const;
    SourceView *sourceView() const;
    AsmView *asmView() const;
    // Shows the PGO panel (the edges are computed when the profiles arrive, so it is ready).
    void showPgo();
    // Lists the source lines of the function of `node` in the Source view.
    void showSource(NodeId node);
    void showAssembly(NodeId node);
    // Shows the sandwich of a frame of the current tree.
    void showSandwich(FrameId frame);
    // Writes the subtree of `node` (with its path) as gzip pprof or folded stacks; asks for a file when `path`
    // is empty. A failure is reported through loadFinished(false, message).
    bool exportSubtree(NodeId node, bool pprof, const QString &path = QString());
    // Shows a view built elsewhere (a server's merged flamegraph: the qryn explorer); sample type and filter
    // changes rebuild from its profiles as for a file.
    void showLoaded(LoadedView view);

protected:
    void rebuild() override;
    void jobDropped() override;

private:
    void open(const QStringList &paths, bool reuseFetched);
    void showView(LoadedView view);
    // A large tree's first look (LoadJob.h): the flamegraph only, until the whole view replaces it.
    void showFirstLook(LoadedView look);
    void dropFirstLook();
    std::shared_ptr<const CallTree> m_firstLook;
    void runSearch();
    void highlightEdge(const std::string &caller, const std::string &callee);
    // Hands the view's profiles to the PGO panel once it is shown: the edge walk reads every sample and its table
    // can hold 100,000 edges, work a user who never opens the panel should not wait behind (a server's large
    // flamegraph in the explorer stalled the GUI thread past 100 ms with it).
    void updatePgo();
    bool m_pgoStale = false;
    uint64_t m_pgoBytes = 0;
    void frameMenu(NodeId node, QPoint globalPos);
    LoadedView m_view;
    SearchBar *m_search;
    FilterBar *m_filters;
    SandwichView *m_sandwich;
    QStringList m_paths;
    FlameView *m_flameView;
    FrameDetails *m_details;
    TopTableModel *m_model;
    QTableView *m_table;
    int m_sourceTab = -1, m_asmTab = -1, m_pgoTab = -1;   // lazy panes' tabs in m_panes
    SecondaryPanes *m_panes;
};

}   // namespace qflame
