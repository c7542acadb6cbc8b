// pprof's sample filters as the user sets them: focus, ignore, hide, show, tagfocus, tagignore, and collapse
// recursion. Every active filter is a button that removes it in one click.
#pragma once

#include "tree/SampleFilter.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QHBoxLayout;
class QLineEdit;

namespace qflame {

class FilterBar : public QWidget {
    Q_OBJECT

public:
    // TagRoot and TagLeaf are no filters but pprof's -tagroot/-tagleaf (label values as frames, View > Group by
    // Label...): set and removed like the filters, one click each.
    enum Kind { Focus, Ignore, Hide, Show, TagFocus, TagIgnore, TagRoot, TagLeaf, KindCount };
    static QString kindName(Kind k);   // "focus", "ignore", ...

    explicit FilterBar(QWidget *parent = nullptr);
    SampleFilters filters() const { return m_filters; }
    // Sets one filter (replacing what that kind had) and emits filtersChanged().
    void setFilter(Kind kind, const QString &value);
    void clearAll();
    // The texts of the active-filter buttons, for tests: "focus: main\.run".
    QStringList activeTexts() const;
    // Removes one filter by its button, as a click does.
    void removeFilter(Kind kind);
    // The tree bottom-up (View > Bottom-up), shown as a check box beside Collapse recursion.
    void setInverted(bool on);
    // Puts back filters set before (the pane's view history), emitting filtersChanged() once.
    void setFilters(const SampleFilters &filters);

Q_SIGNALS:
    void filtersChanged();

private:
    std::string &slot(Kind kind);
    void rebuildChips();

    SampleFilters m_filters;
    QComboBox *m_kind;
    QLineEdit *m_value;
    QCheckBox *m_recursion;
    QCheckBox *m_inverted;
    QHBoxLayout *m_chips;
};

}   // namespace qflame
