#include "explorer/LabelGroupView.h"

#include "pprof/Units.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace qflame::qryn {

LabelGroupView::LabelGroupView(QWidget *parent) : QWidget(parent)
{
    m_note = new QLabel;
    m_note->setWordWrap(true);
    m_table = new QTableWidget(0, 4);
    m_table->setHorizontalHeaderLabels({tr("Value"), tr("Total"), tr("Rate ± SE"), tr("Share")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::MultiSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Rate ± SE: the value's steps as the rounds measure them (the spread of its steps). "
                           "Select two values to compare them, more for a rounds tab"));
    m_compare = new QPushButton(tr("Compare Values"));
    m_compare->setEnabled(false);
    auto *top = new QHBoxLayout;
    top->addWidget(m_note, 1);
    top->addWidget(m_compare);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &LabelGroupView::updateButton);
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const QStringList values = selectedValues();
        if (values.size() >= 2)
            Q_EMIT compareRequested(values);
    });
}

void LabelGroupView::setGroups(const LabelGroups &groups)
{
    m_groups = groups;
    m_table->clearSelection();
    m_table->setRowCount(int(groups.groups.size()));
    for (int row = 0; row < int(groups.groups.size()); ++row) {
        const LabelGroup &g = groups.groups[size_t(row)];
        const QString value = g.isOther ? tr("other (%1 values)").arg(g.valueCount)
                              : g.value.isEmpty() ? tr("(without %1)").arg(groups.key)
                                                  : g.value;
        const bool rate = groups.unit.kind == ValueKind::Rate;
        const QString total = rate ? QString::fromStdString(formatValue(double(g.total), groups.unit.unit))
                                   : QStringLiteral("-");
        const QString estimate =
            QString::fromStdString(formatWithError(g.estimate.rate, g.estimate.standardError, groups.unit));
        const QString share = QString::fromStdString(formatRatioPercent(g.share, 1.0, 1));
        const QString texts[] = {value, total, estimate, share};
        for (int c = 0; c < 4; ++c) {
            auto *item = new QTableWidgetItem(texts[c]);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (g.isOther)
                item->setFlags(item->flags() & ~Qt::ItemIsSelectable);
            m_table->setItem(row, c, item);
        }
    }
    m_table->resizeColumnsToContents();
    // Every row in view (there are at most nine: the top values and "other"), the table no taller.
    const int rows = std::max(1, m_table->rowCount());
    m_table->setFixedHeight(m_table->horizontalHeader()->height() + rows * m_table->verticalHeader()->defaultSectionSize() +
                            2 * m_table->frameWidth() + 2);
    m_note->setText(tr("Grouped by %1: %2. Rate ± SE from each value's %3 steps (the rounds' rule).")
                        .arg(groups.key, groups.note())
                        .arg(groups.groups.empty() ? 0 : qulonglong(groups.groups.front().estimate.k)));
    updateButton();
}

QStringList LabelGroupView::selectedValues() const
{
    QStringList out;
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0) && m_table->item(row, 0)->isSelected() && !m_groups.groups[size_t(row)].isOther)
            out << m_groups.groups[size_t(row)].value;
    return out;
}

void LabelGroupView::selectValues(const QStringList &values)
{
    m_table->clearSelection();
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (!m_groups.groups[size_t(row)].isOther && values.contains(m_groups.groups[size_t(row)].value))
            m_table->selectRow(row);
}

void LabelGroupView::updateButton()
{
    const int n = int(selectedValues().size());
    m_compare->setEnabled(n >= 2);
    m_compare->setText(n > 2 ? tr("Rounds of %1 Values").arg(n) : tr("Compare Values"));
}

}   // namespace qflame::qryn
