#include "explorer/RangeList.h"

#include "qryn/TimeSpec.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>

namespace qflame::qryn {

QString rangeName(const TimeRange &range, qint64 nowMs)
{
    const QDateTime from = QDateTime::fromMSecsSinceEpoch(range.startMs);
    const QDateTime to = QDateTime::fromMSecsSinceEpoch(range.endMs);
    const QDate today = QDateTime::fromMSecsSinceEpoch(nowMs).date();
    const QString time = QStringLiteral("HH:mm:ss");
    const QString fromText = from.date() == today ? from.toString(time) : from.toString(QStringLiteral("yyyy-MM-dd ") + time);
    const QString toText = to.date() == from.date() ? to.toString(time) : to.toString(QStringLiteral("yyyy-MM-dd ") + time);
    return fromText + QStringLiteral("–") + toText;
}

RangeList::RangeList(QWidget *parent) : QWidget(parent)
{
    m_addRange = new QPushButton(tr("Add range"));
    m_addRange->setToolTip(tr("Pin the brushed baseline range (or the query's window) under the selector, to "
                              "compare more than two ranges"));
    m_addSelector = new QPushButton(tr("Add selector"));
    m_addSelector->setToolTip(tr("Pin the comparison selector (or the selector) over the query's window, to compare "
                                 "more than two selectors"));
    m_hint = new QLabel;
    m_hint->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);   // the list takes the rest, not its room
    m_list = new QListWidget;
    m_list->setFlow(QListView::LeftToRight);
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 2 + 8);
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_list->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setSpacing(2);
    m_remove = new QPushButton(tr("Remove"));
    m_clear = new QPushButton(tr("Clear"));
    // The two Add buttons go where the explorer puts them (beside Compare); this row shows only what is pinned.
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_hint);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_remove);
    layout->addWidget(m_clear);
    connect(m_addRange, &QPushButton::clicked, this, &RangeList::addRangeRequested);
    connect(m_addSelector, &QPushButton::clicked, this, &RangeList::addSelectorRequested);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (m_list->currentRow() >= 0)
            removeAt(m_list->currentRow());
    });
    connect(m_clear, &QPushButton::clicked, this, &RangeList::clear);
    refresh();
}

void RangeList::add(ServerRoundSpec spec)
{
    const std::string base = spec.name;
    for (int n = 2;; ++n) {
        bool taken = false;
        for (const ServerRoundSpec &s : m_specs)
            taken = taken || s.name == spec.name;
        if (!taken)
            break;
        spec.name = base + " #" + std::to_string(n);
    }
    m_specs.push_back(std::move(spec));
    refresh();
}

void RangeList::removeAt(int index)
{
    if (index < 0 || index >= count())
        return;
    m_specs.erase(m_specs.begin() + index);
    refresh();
}

void RangeList::clear()
{
    m_specs.clear();
    refresh();
}

void RangeList::refresh()
{
    m_list->clear();
    for (size_t i = 0; i < m_specs.size(); ++i) {
        const ServerRoundSpec &s = m_specs[i];
        auto *item = new QListWidgetItem(QStringLiteral("%1. %2").arg(i + 1).arg(QString::fromStdString(s.name)));
        item->setToolTip(tr("%1 from %2 to %3").arg(s.selector, formatTimeMs(s.range.startMs), formatTimeMs(s.range.endMs)));
        m_list->addItem(item);
    }
    const bool any = !m_specs.empty();
    setVisible(any);
    m_hint->setText(m_specs.size() == 1 ? tr("Pinned 1: add another to compare")
                    : m_specs.size() == 2 ? tr("Compare: these two")
                    : any               ? tr("Compare: %1 as rounds").arg(m_specs.size())
                                        : QString());
    Q_EMIT changed();
}

}   // namespace qflame::qryn
