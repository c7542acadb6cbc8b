// A flamegraph with its breadcrumbs, in a vertical scroll area that follows keyboard selection.
#pragma once

#include "flame/FlameGraphWidget.h"

#include <QWidget>

class QLabel;
class QScrollArea;

namespace qflame {

class FlameView : public QWidget {
    Q_OBJECT

public:
    explicit FlameView(QWidget *parent = nullptr);

    FlameGraphWidget *graph() const { return m_graph; }
    void setTree(std::shared_ptr<const CallTree> tree, std::shared_ptr<const FlameLayout> layout = {});
    // The whole tree in place of the first look shown (FlameGraphWidget::replaceSource); the scroll stays.
    void replaceTree(std::shared_ptr<const CallTree> tree, std::shared_ptr<const FlameLayout> layout,
                     const std::vector<NodeId> &map);
    // Shows another source; keeps the scroll position when `keepScroll` (a re-coloured diff), else starts at
    // the root.
    void setSource(std::shared_ptr<const FlameSource> source, bool keepScroll = false);
    QString breadcrumbText() const;   // plain text of the breadcrumbs, for tests

protected:
    void changeEvent(QEvent *event) override;

private:
    void updateBreadcrumbs();
    void scrollToRoot();

    FlameGraphWidget *m_graph;
    QScrollArea *m_scroll;
    QLabel *m_breadcrumbs;
    bool m_pinnedToRoot = true;   // until the user scrolls, keep the root in view as the layout settles
};

}   // namespace qflame
