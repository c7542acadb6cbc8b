// The explorer grouped by a label (Group by): a row per value of the label with its total, its rate ± SE
// measured from its steps (the rounds' rule) and its share, as qryn/LabelGroups computes them; the note says
// which values the chart shows and what "other" sums. Two values selected open a comparison with the noise their
// steps measured; more open a rounds tab, one round per value.
#pragma once

#include "qryn/LabelGroups.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace qflame::qryn {

class LabelGroupView : public QWidget {
    Q_OBJECT

public:
    explicit LabelGroupView(QWidget *parent = nullptr);
    void setGroups(const LabelGroups &groups);
    const LabelGroups &groups() const { return m_groups; }
    QTableWidget *table() const { return m_table; }
    QLabel *note() const { return m_note; }
    QPushButton *compareButton() const { return m_compare; }
    // The values of the selected rows ("other" cannot be picked), in table order.
    QStringList selectedValues() const;
    // Selects the rows of these values, as a user's clicks do.
    void selectValues(const QStringList &values);

Q_SIGNALS:
    // Two values: their comparison; more: their rounds.
    void compareRequested(const QStringList &values);

private:
    void updateButton();

    LabelGroups m_groups;
    QLabel *m_note;
    QTableWidget *m_table;
    QPushButton *m_compare;
};

}   // namespace qflame::qryn
