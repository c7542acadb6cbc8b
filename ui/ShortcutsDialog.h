// Help > Keyboard Shortcuts: every shortcut of the window, generated from the menus' actions (their text and
// shortcuts as set) and from the views' own key lists (FlameGraphWidget, SearchBar, DiffView, the Time tab's
// TimeChart and FlameChartView keyBindings), so the list cannot drift from what the keys do.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QMenuBar;
class QTableWidget;

namespace qflame {

struct ShortcutEntry {
    QString area;   // "File", "View > Colours", "Flame graph", "Search field", ...
    QString keys;   // as the platform shows them
    QString what;
};

// Every shortcut of the menus of `bar` (recursively, menus' mnemonics aside), then the views' keys.
QList<ShortcutEntry> collectShortcuts(const QMenuBar *bar);

class ShortcutsDialog : public QDialog {
    Q_OBJECT

public:
    explicit ShortcutsDialog(const QMenuBar *bar, QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }

private:
    QTableWidget *m_table;
};

}   // namespace qflame
