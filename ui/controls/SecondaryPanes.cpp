#include "controls/SecondaryPanes.h"

#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace qflame {

namespace {

QString key(const QString &kind, const char *name)
{
    return QStringLiteral("panes/%1/%2").arg(kind, QLatin1String(name));
}

}   // namespace

SecondaryPanes::SecondaryPanes(const QString &kind, QWidget *mainView, QWidget *parent)
    : QWidget(parent), m_kind(kind), m_main(mainView)
{
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_collapse = new QToolButton;
    m_collapse->setAutoRaise(true);
    m_tabs->setCornerWidget(m_collapse, Qt::TopRightCorner);
    // The splitter would keep the largest pane's minimum size (the PGO panel's: readiness, controls, tables) even
    // while a table is open: the panes may be as low as their tab bar, the split decides.
    m_tabs->setMinimumHeight(collapsedHeight());
    m_split = new QSplitter(Qt::Vertical);
    m_split->setChildrenCollapsible(false);
    m_split->addWidget(m_main);
    m_split->addWidget(m_tabs);
    m_split->setStretchFactor(0, 1);
    m_split->setStretchFactor(1, 0);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_split);

    connect(m_collapse, &QToolButton::clicked, this, [this] { setCollapsed(!m_collapsed); });
    // A click on the open pane's tab folds the panes away; a click on any tab while folded opens them.
    connect(m_tabs, &QTabWidget::tabBarClicked, this, [this](int index) {
        if (m_collapsed)
            setCollapsed(false);
        else if (index == m_tabs->currentIndex())
            setCollapsed(true);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (!m_applying)
            applySizes();   // a pane that wants more room gets it
        Q_EMIT currentPaneChanged(pane(m_tabs->currentIndex()));   // a lazy one made first
    });
    connect(m_split, &QSplitter::splitterMoved, this, [this] {
        if (m_applying || m_collapsed)
            return;
        const QList<int> sizes = m_split->sizes();
        const int total = sizes.value(0) + sizes.value(1);
        if (total > 0)
            m_share = double(sizes.value(1)) / total;   // the user's split from now on, kept as a share
    });
    restoreState();
    setCollapsed(m_collapsed);
}

int SecondaryPanes::addSecondaryPane(QWidget *pane, const QString &title, double openShare)
{
    const int index = m_tabs->addTab(pane, title);
    m_openShares.insert(pane, std::clamp(openShare, 0.0, 0.7));
    if (!m_restoreCurrent.isEmpty() && title == m_restoreCurrent) {
        m_applying = true;
        m_tabs->setCurrentIndex(index);
        m_applying = false;
    }
    return index;
}

int SecondaryPanes::addLazyPane(std::function<QWidget *()> make, const QString &title, double openShare)
{
    auto *holder = new QWidget;
    auto *layout = new QVBoxLayout(holder);
    layout->setContentsMargins(0, 0, 0, 0);
    m_lazyPanes.insert(holder, LazyPane{std::move(make)});
    return addSecondaryPane(holder, title, openShare);   // made there when it is the current one at once
}

QWidget *SecondaryPanes::pane(int index)
{
    QWidget *page = m_tabs->widget(index);
    const auto lazy = m_lazyPanes.find(page);
    if (lazy == m_lazyPanes.end())
        return page;
    if (!lazy->made) {
        const std::function<QWidget *()> make = std::exchange(lazy->make, nullptr);
        QWidget *made = make();
        page->layout()->addWidget(made);
        made->show();   // added to a shown holder, it would stay hidden; to a hidden one, it shows with it
        m_lazyPanes[page].made = made;   // (the maker may have added panes: `lazy` may be stale)
    }
    return m_lazyPanes.value(page).made;
}

QWidget *SecondaryPanes::currentPane() const
{
    QWidget *page = m_tabs->currentWidget();
    const auto lazy = m_lazyPanes.constFind(page);
    return lazy == m_lazyPanes.cend() ? page : lazy->made;
}

QWidget *SecondaryPanes::pageOf(QWidget *pane) const
{
    if (!pane)
        return nullptr;
    if (m_tabs->indexOf(pane) >= 0)
        return pane;
    QWidget *holder = pane->parentWidget();
    const auto lazy = m_lazyPanes.constFind(holder);
    return lazy != m_lazyPanes.cend() && lazy->made == pane ? holder : nullptr;
}

int SecondaryPanes::indexOf(QWidget *pane) const
{
    return m_tabs->indexOf(pageOf(pane));
}

void SecondaryPanes::showPane(QWidget *pane)
{
    QWidget *page = pageOf(pane);
    if (!page)
        return;
    m_tabs->setCurrentWidget(page);
    setCollapsed(false);
}

void SecondaryPanes::setCollapsed(bool collapsed)
{
    m_collapsed = collapsed;
    m_collapse->setArrowType(collapsed ? Qt::UpArrow : Qt::DownArrow);
    m_collapse->setToolTip(collapsed ? tr("Show the panes below the flame graph")
                                     : tr("Fold the panes away: the flame graph takes the height (or click the open "
                                          "pane's tab)"));
    m_tabs->setMaximumHeight(collapsed ? collapsedHeight() : QWIDGETSIZE_MAX);
    applySizes();
}

void SecondaryPanes::setBadge(QWidget *pane, Badge badge, const QString &toolTip)
{
    const int index = indexOf(pane);
    if (index < 0)
        return;
    m_badges.insert(pane, badge);
    const QStyle::StandardPixmap icon =
        badge == Badge::Error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning;
    m_tabs->setTabIcon(index, badge == Badge::None ? QIcon() : style()->standardIcon(icon));
    m_tabs->setTabToolTip(index, badge == Badge::None ? QString() : toolTip);
}

int SecondaryPanes::collapsedHeight() const
{
    return std::max(m_tabs->tabBar()->sizeHint().height(), m_collapse->sizeHint().height()) + 2;
}

int SecondaryPanes::panesHeight() const
{
    const int total = m_split->height() - m_split->handleWidth();
    if (m_collapsed)
        return collapsedHeight();
    int h;
    if (m_share >= 0) {
        h = int(std::lround(total * m_share));
    } else {
        // The main view keeps kMainShare of the window; the panes get the rest, at most 45 % of the splitter and at
        // least their tab bar and a few rows.
        const int mainTarget = int(std::ceil(kMainShare * window()->height()));
        h = std::min(total - mainTarget, int(total * 0.45));
        h = std::max(h, collapsedHeight() + 3 * (fontMetrics().height() + 6));
    }
    const double open = m_openShares.value(m_tabs->currentWidget(), 0.0);
    h = std::max(h, int(total * open));
    return std::clamp(h, collapsedHeight(), std::max(collapsedHeight(), total - 40));
}

void SecondaryPanes::applySizes()
{
    const int total = m_split->height() - m_split->handleWidth();
    if (total <= 0)
        return;
    const int panes = panesHeight();
    m_applying = true;
    m_split->setSizes({total - panes, panes});
    m_applying = false;
}

void SecondaryPanes::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    applySizes();
}

void SecondaryPanes::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    applySizes();
}

void SecondaryPanes::restoreState()
{
    QSettings s;
    m_share = s.value(key(m_kind, "share"), -1.0).toDouble();
    if (!(m_share >= 0 && m_share <= 0.9))
        m_share = -1;
    m_restoreCurrent = s.value(key(m_kind, "current")).toString();
    m_collapsed = s.value(key(m_kind, "collapsed"), false).toBool();
}

void SecondaryPanes::saveState() const
{
    QSettings s;
    s.setValue(key(m_kind, "share"), m_share);
    s.setValue(key(m_kind, "current"), m_tabs->tabText(m_tabs->currentIndex()));
    s.setValue(key(m_kind, "collapsed"), m_collapsed);
}

}   // namespace qflame
