#include "flame/FlameView.h"

#include "pprof/Units.h"

#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QVBoxLayout>

namespace qflame {

FlameView::FlameView(QWidget *parent) : QWidget(parent)
{
    m_graph = new FlameGraphWidget;
    m_scroll = new QScrollArea;
    m_scroll->setWidget(m_graph);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_breadcrumbs = new QLabel;
    m_breadcrumbs->setTextFormat(Qt::RichText);
    m_breadcrumbs->setWordWrap(true);
    m_breadcrumbs->setContentsMargins(4, 2, 4, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_breadcrumbs);
    layout->addWidget(m_scroll, 1);

    connect(m_graph, &FlameGraphWidget::zoomChanged, this, &FlameView::updateBreadcrumbs);
    connect(m_graph, &FlameGraphWidget::ensureVisibleRequested, this, [this](QRect r) {
        // The user went somewhere (keyboard, search): a later range change must not jump back to the root.
        m_pinnedToRoot = false;
        m_scroll->ensureVisible(r.center().x(), r.center().y(), 10, r.height() * 2);
    });
    connect(m_graph, &FlameGraphWidget::orientationChanged, this, [this] {
        // Turned over, a deep stack would show other levels at the same scroll position: mirror it, so that the
        // levels (and the selection) in view stay in view, and the root stays in view when it was pinned.
        if (m_pinnedToRoot) {
            scrollToRoot();
            return;
        }
        QScrollBar *bar = m_scroll->verticalScrollBar();
        bar->setValue(bar->maximum() - bar->value());
    });
    // A breadcrumb is a link to its node id.
    connect(m_breadcrumbs, &QLabel::linkActivated, this, [this](const QString &link) {
        bool ok = false;
        const uint node = link.toUInt(&ok);
        if (ok)
            m_graph->zoomTo(NodeId(node));
    });
    QScrollBar *bar = m_scroll->verticalScrollBar();
    connect(bar, &QScrollBar::rangeChanged, this, [this] {
        if (m_pinnedToRoot)
            scrollToRoot();
    });
    connect(bar, &QScrollBar::actionTriggered, this, [this] { m_pinnedToRoot = false; });
    updateBreadcrumbs();
}

void FlameView::setTree(std::shared_ptr<const CallTree> tree, std::shared_ptr<const FlameLayout> layout)
{
    m_graph->setTree(std::move(tree), std::move(layout));
    scrollToRoot();
}

void FlameView::replaceTree(std::shared_ptr<const CallTree> tree, std::shared_ptr<const FlameLayout> layout,
                            const std::vector<NodeId> &map)
{
    m_graph->replaceSource(std::make_shared<CallTreeSource>(std::move(tree), std::move(layout)), map);
}

void FlameView::setSource(std::shared_ptr<const FlameSource> source, bool keepScroll)
{
    const bool first = !m_graph->source();
    m_graph->setSource(std::move(source));
    if (first || !keepScroll)
        scrollToRoot();
}

void FlameView::scrollToRoot()
{
    // Flame graphs grow upwards from the root at the bottom; icicles start at the top.
    m_pinnedToRoot = true;
    QScrollBar *bar = m_scroll->verticalScrollBar();
    bar->setValue(m_graph->orientation() == FlameGraphWidget::Orientation::Flame ? bar->maximum() : 0);
}

void FlameView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        updateBreadcrumbs();   // rich text takes the link colour when it is set
    QWidget::changeEvent(event);
}

QString FlameView::breadcrumbText() const
{
    return QTextDocumentFragment::fromHtml(m_breadcrumbs->text()).toPlainText();
}

void FlameView::updateBreadcrumbs()
{
    const CallTree *t = m_graph->tree();
    if (!t) {
        m_breadcrumbs->clear();
        return;
    }
    const NodeId z = m_graph->zoomRoot();
    QStringList parts;
    parts << QStringLiteral("<a href=\"0\">%1</a>").arg(tr("all"));
    const auto path = t->pathTo(z);
    // Long paths keep their first two and last four steps; the middle is elided but still one click away.
    for (size_t i = 0; i < path.size(); ++i) {
        if (path.size() > 8 && i >= 2 && i + 4 < path.size()) {
            if (i == 2)
                parts << QStringLiteral("<a href=\"%1\">…</a>").arg(path[path.size() / 2]);
            continue;
        }
        QString name = QString::fromStdString(t->label(path[i])).toHtmlEscaped();
        if (name.size() > 60)
            name = name.left(57) + QStringLiteral("…");
        parts << (path[i] == z ? QStringLiteral("<b>%1</b>").arg(name)
                               : QStringLiteral("<a href=\"%1\">%2</a>").arg(path[i]).arg(name));
    }
    const std::string &unit = t->sampleType().unit;
    const QString total = QString::fromStdString(formatValue(double(t->total(z)), unit));
    const QString share = QString::fromStdString(formatPercent(double(t->total(z)), double(t->total(CallTree::kRoot))));
    m_breadcrumbs->setText(parts.join(QStringLiteral(" › ")) + QStringLiteral("  —  %1 (%2)").arg(total, share));
}

}   // namespace qflame
