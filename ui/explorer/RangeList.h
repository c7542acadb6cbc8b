// The ranges and selectors the explorer compares when there are more than the timeline's two brushes and the two
// selector fields hold: Add range pins the brushed baseline (or the query's window) under the selector, Add
// selector pins the comparison selector (or the selector) over the window. With two pinned, Compare compares them;
// with more, Compare and Rounds open them as rounds (qryn/ServerRounds.h), one round each.
#pragma once

#include "qryn/ServerRounds.h"

#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QPushButton;

namespace qflame::qryn {

class RangeList : public QWidget {
    Q_OBJECT

public:
    explicit RangeList(QWidget *parent = nullptr);

    // Pins a range or selector; a name already taken gets " #2", " #3", ...
    void add(ServerRoundSpec spec);
    void removeAt(int index);
    void clear();
    const std::vector<ServerRoundSpec> &specs() const { return m_specs; }
    int count() const { return int(m_specs.size()); }

    // Not in this widget's row (which shows only when something is pinned): the explorer places them.
    QPushButton *addRangeButton() const { return m_addRange; }
    QPushButton *addSelectorButton() const { return m_addSelector; }
    QListWidget *list() const { return m_list; }

Q_SIGNALS:
    void addRangeRequested();
    void addSelectorRequested();
    void changed();

private:
    void refresh();

    std::vector<ServerRoundSpec> m_specs;
    QLabel *m_hint;
    QListWidget *m_list;
    QPushButton *m_addRange, *m_addSelector, *m_remove, *m_clear;
};

// How a pinned entry names itself: a range by its local times ("12:00:00–12:05:00", with the day when it is not
// today's), a selector by its text.
QString rangeName(const TimeRange &range, qint64 nowMs);

}   // namespace qflame::qryn
