// A line edit for label selectors that completes label names after `{` or `,` and the values of a label after
// `name="` (or !=, =~, !~), from what the server reported (LabelNames / LabelValues).
#pragma once

#include <QHash>
#include <QLineEdit>

class QCompleter;
class QStringListModel;

namespace qflame::qryn {

class LabelSelectorEdit : public QLineEdit {
    Q_OBJECT

public:
    explicit LabelSelectorEdit(QWidget *parent = nullptr);

    void setLabelNames(const QStringList &names);
    void setLabelValues(const QString &name, const QStringList &values);
    void clearLabelValues() { m_values.clear(); }
    // The texts offered for the text up to the cursor: whole selectors, so the completer can replace the line.
    QStringList candidates() const;

Q_SIGNALS:
    // The text wants the values of `name`, which the edit does not have yet.
    void valuesWanted(const QString &name);

private:
    void updateCompletions();

    QStringList m_names;
    QHash<QString, QStringList> m_values;
    QStringListModel *m_model;
    QCompleter *m_completer;
};

}   // namespace qflame::qryn
