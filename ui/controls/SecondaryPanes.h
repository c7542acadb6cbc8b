// A tab's layout (issue #37, "the first minute"): its main view, the flamegraph, on top with most of the height;
// the secondary panes (the top or diff table, sandwich, source, PGO, ...) as tabs below it, in a splitter.
//
// - Adding a pane is one line: addSecondaryPane(widget, title). The first pane added is the one shown at first;
//   the others are closed (a tab to click) until the user or the program opens them (showPane).
// - Until the user drags the splitter, the main view keeps kMainShare of the window's height and the panes the
//   rest of the splitter (at least a few table rows); a pane added with `openShare` grows the panes to that share
//   of the splitter when it is opened (a sandwich or a PGO panel needs more room than a table).
// - Clicking the current pane's tab (or the arrow beside the tabs) collapses the panes to their tab bar; clicking
//   a tab opens them again.
// - A pane may be made when it is first needed (addLazyPane): its tab is there from the start, the pane is made
//   when the tab first becomes the current one or someone asks for it (pane(index)).
// - A pane can carry a badge on its tab (an icon and a tooltip): there is something to read in it. What there is
//   to read stays in the pane.
// - saveState() remembers the split, the current pane and the collapsed state per kind of tab ("profile",
//   "diff") in QSettings; a new SecondaryPanes of that kind starts from them. The window saves (MainWindow: when
//   a tab or the window closes), so tests of a lone pane neither read nor write the user's state by accident.
#pragma once

#include <QHash>
#include <QPointer>
#include <QString>
#include <QWidget>

#include <functional>

class QSplitter;
class QTabWidget;
class QToolButton;

namespace qflame {

class SecondaryPanes : public QWidget {
    Q_OBJECT

public:
    // The share of the window's height the main view keeps by default (issue #37: the flamegraph at least 60 %,
    // with a margin for rounding and borders).
    static constexpr double kMainShare = 0.62;

    SecondaryPanes(const QString &kind, QWidget *mainView, QWidget *parent = nullptr);

    enum class Badge { None, Warning, Error };
    // Adds `pane` as a tab titled `title`; returns its index. `openShare` (0..0.7): when opened, the panes take at
    // least this share of the splitter.
    int addSecondaryPane(QWidget *pane, const QString &title, double openShare = 0);
    // The same for a pane that `make` makes when the tab first becomes the current one, or when pane(index) asks
    // for it. A profile's tab took 7.7 ms to make, 4.7 of them for its Source, Assembly and PGO panes, which many
    // users never open (docs/benchmarks.md, "Panes made when first needed").
    int addLazyPane(std::function<QWidget *()> make, const QString &title, double openShare = 0);
    // The pane of tab `index` (made now when it is a lazy one not made yet); null when there is no such tab.
    QWidget *pane(int index);
    // The tab of `pane`, or -1 (a lazy pane's tab page is a holder around it: not tabs()->indexOf(pane)).
    int indexOf(QWidget *pane) const;
    // Makes `pane` the current one and opens the panes (not collapsed, at least its openShare).
    void showPane(QWidget *pane);
    QWidget *currentPane() const;   // (a lazy pane is made before its tab becomes the current one)
    bool isCollapsed() const { return m_collapsed; }
    void setCollapsed(bool collapsed);
    // A small mark on the tab of `pane` (an icon, the tooltip saying where to read); Badge::None clears it.
    void setBadge(QWidget *pane, Badge badge, const QString &toolTip = QString());
    Badge badge(QWidget *pane) const { return m_badges.value(pane, Badge::None); }

    QWidget *mainView() const { return m_main; }
    QTabWidget *tabs() const { return m_tabs; }
    QSplitter *splitter() const { return m_split; }
    QString kind() const { return m_kind; }

    // Remembers the split, the current pane (by title) and the collapsed state for the next tab of this kind.
    void saveState() const;

Q_SIGNALS:
    void currentPaneChanged(QWidget *pane);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void restoreState();
    void applySizes();
    int panesHeight() const;   // the height the panes should have now
    int collapsedHeight() const;
    QWidget *pageOf(QWidget *pane) const;   // the tab's page of `pane`: itself, or the holder of a lazy one

    QString m_kind;
    QWidget *m_main;
    QSplitter *m_split;
    QTabWidget *m_tabs;
    QToolButton *m_collapse;
    QHash<QWidget *, double> m_openShares;
    QHash<QWidget *, Badge> m_badges;
    struct LazyPane {
        std::function<QWidget *()> make;   // emptied once it has made the pane
        QWidget *made = nullptr;
    };
    QHash<QWidget *, LazyPane> m_lazyPanes;   // by a lazy pane's holder (its tab's page)
    QString m_restoreCurrent;   // the remembered current pane, until a pane of that title is added
    double m_share = -1;        // the panes' share of the splitter once the user has dragged it (or restored)
    bool m_collapsed = false;
    bool m_applying = false;
};

}   // namespace qflame
